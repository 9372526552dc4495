//! `guandan swarm --quick-match`: N clients queue for a quick match, are seated by the server's
//! matchmaker, play their match to the end (each an AI seeing only its own seat's messages),
//! and queue again, `--quick-rounds` times. Every match is checked against its stored record
//! like a `swarm` room (hashes, nothing lost or repeated). One instance: a client redirected to
//! another instance counts as a failure.

use std::collections::HashSet;
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use guandan_ai::AiLevel;
use guandan_proto::{ClientMsg, ServerMsg};
use indicatif::{ProgressBar, ProgressStyle};

use crate::swarm::{Client, Link, SwarmArgs, Totals, login, play, verify};

/// What the queue did.
#[derive(Default)]
struct QueueTotals {
    matched: AtomicU64,
    /// Wait from `queue_join` to `joined`, per seating (ms).
    waits_ms: std::sync::Mutex<Vec<u64>>,
    /// Tables formed (distinct room codes a client was seated at), and those whose match was
    /// checked against its record.
    formed: std::sync::Mutex<HashSet<String>>,
    finished: std::sync::Mutex<HashSet<String>>,
}

pub(crate) async fn run(args: SwarmArgs, addr: SocketAddr, level: AiLevel) -> Result<(), String> {
    let totals = Arc::new(Totals::default());
    let queue = Arc::new(QueueTotals::default());
    let bar = ProgressBar::new((args.players * args.quick_rounds) as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} matches played {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let start = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..args.players {
        let (totals, queue, args, bar) = (totals.clone(), queue.clone(), args.clone(), bar.clone());
        tasks.push(tokio::spawn(async move {
            let deadline = Duration::from_secs(args.timeout_s);
            match tokio::time::timeout(deadline, player(addr, i, &args, level, &totals, &queue, &bar)).await {
                Ok(Ok(())) => {}
                Ok(Err(e)) => {
                    totals.failures.fetch_add(1, Relaxed);
                    bar.suspend(|| eprintln!("player {i}: {e}"));
                }
                Err(_) => {
                    totals.failures.fetch_add(1, Relaxed);
                    bar.suspend(|| eprintln!("player {i}: not done after {}s", args.timeout_s));
                }
            }
        }));
        // Stagger the registrations a little.
        if i % 50 == 49 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    for t in tasks {
        let _ = t.await;
    }
    bar.finish();
    let elapsed = start.elapsed().as_secs_f64();
    let mut waits = std::mem::take(&mut *queue.waits_ms.lock().unwrap_or_else(|e| e.into_inner()));
    waits.sort_unstable();
    let pct = |p: f64| if waits.is_empty() { 0 } else { waits[((waits.len() - 1) as f64 * p).round() as usize] };
    let formed = queue.formed.lock().unwrap_or_else(|e| e.into_inner()).len();
    let finished = queue.finished.lock().unwrap_or_else(|e| e.into_inner()).len();
    let report = serde_json::json!({
        "players": args.players,
        "rounds": args.quick_rounds,
        "matched": queue.matched.load(Relaxed),
        "rooms_formed": formed,
        "rooms_finished": finished,
        "wait_ms_p50": pct(0.5),
        "wait_ms_p99": pct(0.99),
        "wait_ms_max": waits.last().copied().unwrap_or(0),
        "actions": totals.actions.load(Relaxed),
        "desyncs": totals.desyncs.load(Relaxed),
        "lost_actions": totals.lost.load(Relaxed),
        "duplicated_actions": totals.duplicated.load(Relaxed),
        "errors": totals.errors.load(Relaxed),
        "failures": totals.failures.load(Relaxed),
        "ai": args.ai,
        "elapsed_s": elapsed,
    });
    println!(
        "{} players: {} seatings at {formed} tables ({finished} matches checked), wait p50 {} ms, p99 {} ms; desyncs {}, lost {}, protocol errors {}",
        args.players,
        report["matched"],
        pct(0.5),
        pct(0.99),
        report["desyncs"],
        report["lost_actions"],
        report["errors"]
    );
    if args.json {
        println!("{report}");
    }
    if totals.failures.load(Relaxed) > 0 {
        return Err(format!("{} players did not finish", totals.failures.load(Relaxed)));
    }
    Ok(())
}

/// One player: queue, play the match it is seated at, check it, queue again.
async fn player(
    addr: SocketAddr,
    i: usize,
    args: &SwarmArgs,
    level: AiLevel,
    totals: &Arc<Totals>,
    queue: &QueueTotals,
    bar: &ProgressBar,
) -> Result<(), String> {
    let mut link = login(addr, &format!("quick{i}")).await?;
    for round in 0..args.quick_rounds {
        let asked = Instant::now();
        link.send(&ClientMsg::QueueJoin { rules: args.rules.clone() }).await?;
        let (code, seat) = wait_for_table(&mut link).await?;
        queue.matched.fetch_add(1, Relaxed);
        queue.waits_ms.lock().unwrap_or_else(|e| e.into_inner()).push(asked.elapsed().as_millis() as u64);
        queue.formed.lock().unwrap_or_else(|e| e.into_inner()).insert(code.clone());
        let how = Client {
            level,
            drop_rate: args.drop_rate,
            think: Duration::from_millis(args.think_ms),
            seed: args.seed ^ ((i as u64) << 8) ^ round as u64,
            totals: totals.clone(),
        };
        let (seen, match_no, back) = play(addr, link, seat, how).await?;
        link = back;
        // The first of the table's clients to get here counts the match's actions.
        let first = queue.finished.lock().unwrap_or_else(|e| e.into_inner()).insert(code.clone());
        verify(addr, &code, match_no, vec![seen], totals, first).await?;
        // Out of the finished room (its vote to play again is not for the queue's players).
        link.send(&ClientMsg::Leave).await?;
        bar.inc(1);
    }
    link.close().await;
    Ok(())
}

/// Waits in the queue (heartbeating: the server hears nothing else from a waiting client)
/// until seated; returns the room and seat.
async fn wait_for_table(link: &mut Link) -> Result<(String, u8), String> {
    let mut beat = Instant::now();
    loop {
        if beat.elapsed() > Duration::from_secs(4) {
            link.send(&ClientMsg::Heartbeat).await?;
            beat = Instant::now();
        }
        let (m, _) = link.recv().await?;
        match m {
            ServerMsg::Joined { code, seat: Some(seat) } => return Ok((code, seat)),
            ServerMsg::Redirect { instance, .. } => {
                return Err(format!("seated on instance {instance}: one instance only"));
            }
            ServerMsg::Error { code, message, .. } => return Err(format!("queue: error {code} {message}")),
            _ => {}
        }
    }
}
