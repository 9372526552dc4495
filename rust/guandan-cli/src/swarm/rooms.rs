//! The room swarm: N rooms of 4 clients (and spectators, and an attack with `--flood`) play
//! whole matches at once; each is checked against its stored record, and the run is reported
//! (rooms finished, actions, round trips, desyncs, lost actions, errors, the server's memory).

use super::SwarmArgs;
use super::link::{login, until};
use super::player::{Client, play};
use super::tally::{Totals, verify};
use futures_util::{SinkExt, StreamExt};
use guandan_ai::AiLevel;
use guandan_ai::percentile::nearest_rank;
use guandan_proto::{ClientMsg, ServerMsg};
use indicatif::{ProgressBar, ProgressStyle};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

pub(super) async fn run(args: SwarmArgs, addr: SocketAddr, level: AiLevel) -> Result<(), String> {
    let totals = Arc::new(Totals::default());
    let bar = ProgressBar::new(args.rooms as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} rooms finished {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let peak_rss = Arc::new(AtomicU64::new(0));
    let sampler = args.server_pid.map(|pid| {
        let peak = peak_rss.clone();
        tokio::spawn(async move {
            loop {
                if let Some(kb) = rss_kb(pid) {
                    peak.fetch_max(kb, Relaxed);
                }
                tokio::time::sleep(Duration::from_millis(500)).await;
            }
        })
    });
    let start = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..args.rooms {
        let (totals, args, bar) = (totals.clone(), args.clone(), bar.clone());
        tasks.push(tokio::spawn(async move {
            let deadline = Duration::from_secs(args.timeout_s);
            let res = tokio::time::timeout(deadline, room(addr, i, &args, level, &totals)).await;
            match res {
                Ok(Ok(())) => {
                    totals.finished.fetch_add(1, Relaxed);
                    bar.inc(1);
                }
                Ok(Err(e)) => {
                    totals.failures.fetch_add(1, Relaxed);
                    bar.suspend(|| eprintln!("room {i}: {e}"));
                }
                Err(_) => {
                    totals.failures.fetch_add(1, Relaxed);
                    bar.suspend(|| eprintln!("room {i}: not finished after {}s", args.timeout_s));
                }
            }
        }));
        // Stagger the set-up a little so 4,000 registrations do not arrive in one burst.
        if i % 50 == 49 {
            tokio::time::sleep(Duration::from_millis(20)).await;
        }
    }
    for t in tasks {
        let _ = t.await;
    }
    let mut rtts: Vec<u64> = std::mem::take(&mut *totals.rtts_us.lock().unwrap_or_else(|e| e.into_inner()));
    bar.finish();
    if let Some(s) = sampler {
        s.abort();
    }
    let elapsed = start.elapsed().as_secs_f64();
    rtts.sort_unstable();
    let pct = |p: f64| nearest_rank(&rtts, p).map_or(0.0, |us| us as f64 / 1000.0);
    let actions = totals.actions.load(Relaxed);
    let report = serde_json::json!({
        "rooms": args.rooms,
        "rooms_finished": totals.finished.load(Relaxed),
        "actions": actions,
        "actions_per_s": actions as f64 / elapsed.max(1e-9),
        "rtt_ms_p50": pct(0.50),
        "rtt_ms_p99": pct(0.99),
        "rtt_samples": rtts.len(),
        "desyncs": totals.desyncs.load(Relaxed),
        "lost_actions": totals.lost.load(Relaxed),
        "duplicated_actions": totals.duplicated.load(Relaxed),
        "errors": totals.errors.load(Relaxed),
        "reconnects": totals.reconnects.load(Relaxed),
        "spectator_messages": totals.spectator_msgs.load(Relaxed),
        "flood": args.flood,
        "flood_messages": totals.flood_msgs.load(Relaxed),
        "room_failures": totals.failures.load(Relaxed),
        "drop_rate": args.drop_rate,
        "ai": args.ai,
        "elapsed_s": elapsed,
        "server_peak_rss_kb": args.server_pid.map(|_| peak_rss.load(Relaxed)),
        "server_peak_rss_kb_per_room": args.server_pid.map(|_| peak_rss.load(Relaxed) as f64 / args.rooms.max(1) as f64),
    });
    println!(
        "{} of {} rooms finished, {actions} actions in {elapsed:.1} s; round trip p50 {:.2} ms, p99 {:.2} ms; desyncs {}, lost {}, duplicated {}, protocol errors {}, reconnects {}",
        report["rooms_finished"],
        args.rooms,
        pct(0.5),
        pct(0.99),
        report["desyncs"],
        report["lost_actions"],
        report["duplicated_actions"],
        report["errors"],
        report["reconnects"]
    );
    if args.json {
        println!("{report}");
    }
    if totals.failures.load(Relaxed) > 0 {
        return Err(format!("{} rooms did not finish", totals.failures.load(Relaxed)));
    }
    Ok(())
}

fn rss_kb(pid: u32) -> Option<u64> {
    let s = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    s.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()
}

/// One room: set up, play to the end, verify against the stored log. Returns RTT samples (µs).
async fn room(
    addr: SocketAddr,
    i: usize,
    args: &SwarmArgs,
    level: AiLevel,
    totals: &Arc<Totals>,
) -> Result<(), String> {
    let mut socks = Vec::new();
    for s in 0..4 {
        socks.push(login(addr, &format!("swarm{i}-{s}")).await?);
    }
    // Deals come from the server, unless the run asks for the same matches every time (a
    // practice server).
    let seed = args.deal_seeds.then(|| args.seed + i as u64);
    let create = ClientMsg::CreateRoom { rules: None, spectator_delay: None, seed, spectator_hands: None };
    socks[0].send(&create).await?;
    let code = match until(&mut socks[0], "joined", |m| matches!(m, ServerMsg::Joined { .. })).await? {
        ServerMsg::Joined { code, .. } => code,
        _ => unreachable!(),
    };
    for ws in socks.iter_mut().skip(1) {
        ws.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await?;
        until(ws, "joined", |m| matches!(m, ServerMsg::Joined { .. })).await?;
    }
    for ws in socks.iter_mut() {
        ws.send(&ClientMsg::Ready { ready: true }).await?;
    }
    for ws in socks.iter_mut() {
        until(ws, "ready check", |m| matches!(m, ServerMsg::Room { room } if room.seats.iter().all(|s| s.ready)))
            .await?;
    }
    let mut spectators = Vec::new();
    for k in 0..args.spectators {
        let mut ws = login(addr, &format!("watch{i}-{k}")).await?;
        ws.send(&ClientMsg::Spectate { code: code.clone() }).await?;
        until(&mut ws, "joined", |m| matches!(m, ServerMsg::Joined { .. })).await?;
        spectators.push(ws);
    }
    socks[0].send(&ClientMsg::Start).await?;
    // Tools wait for this line (tools/fault-test kills the server once every match runs).
    if totals.started.fetch_add(1, Relaxed) + 1 == args.rooms as u64 {
        eprintln!("swarm: all {} rooms playing", args.rooms);
    }
    let mut players = Vec::new();
    for (s, ws) in socks.into_iter().enumerate() {
        let seed = args.seed ^ ((i as u64) << 8) ^ s as u64;
        let how = Client {
            level,
            drop_rate: args.drop_rate,
            think: Duration::from_millis(args.think_ms),
            seed,
            totals: totals.clone(),
        };
        let seat = s as u8;
        players.push(tokio::spawn(async move { play(addr, ws, seat, how).await }));
    }
    // The attack, until the match is over.
    let (over_tx, over) = tokio::sync::watch::channel(false);
    let mut flooders = Vec::new();
    if let Some(kind) = args.flood.clone() {
        for k in 0..args.flooders {
            let mut link = login(addr, &format!("flood{i}-{k}")).await?;
            link.send(&ClientMsg::Spectate { code: code.clone() }).await?;
            let ws = link.ws;
            let (code, kind, totals, mut over) = (code.clone(), kind.clone(), totals.clone(), over.clone());
            let every = Duration::from_secs_f64(1.0 / args.flood_rate.max(0.1));
            flooders.push(tokio::spawn(async move {
                let m = if kind == "resync" { ClientMsg::Resync } else { ClientMsg::Spectate { code: code.clone() } };
                let Ok(text) = serde_json::to_string(&m) else { return };
                let (mut sink, mut stream) = ws.split();
                let mut tick = tokio::time::interval(every);
                loop {
                    tokio::select! {
                        _ = tick.tick() => {
                            if sink.send(Message::Text(text.clone().into())).await.is_err() {
                                return;
                            }
                            totals.flood_msgs.fetch_add(1, Relaxed);
                        }
                        // Read (and drop) what comes back: a client that does not read is cut off.
                        f = stream.next() => if !matches!(f, Some(Ok(_))) { return },
                        _ = async { drop(over.wait_for(|o| *o).await) } => return,
                    }
                }
            }));
        }
    }
    let mut watchers = Vec::new();
    for mut ws in spectators {
        watchers.push(tokio::spawn(async move {
            let mut n = 0u64;
            loop {
                // Spectators hear nothing for rounds at a time: heartbeat while waiting.
                match tokio::time::timeout(Duration::from_secs(4), ws.recv()).await {
                    Err(_) => ws.send(&ClientMsg::Heartbeat).await?,
                    Ok(Ok((ServerMsg::MatchStored { .. }, _))) => return Ok(n),
                    Ok(Ok((ServerMsg::State { view, .. }, _))) if !view.hand.is_empty() => {
                        return Err("spectator got a hand".to_string());
                    }
                    Ok(Ok(_)) => n += 1,
                    Ok(Err(e)) => return Err(e),
                }
            }
        }));
    }
    let mut seen = Vec::new();
    let mut match_no = 0;
    for p in players {
        let (s, no, _) = p.await.map_err(|e| e.to_string())??;
        match_no = no;
        seen.push(s);
    }
    let _ = over_tx.send(true);
    for f in flooders {
        let _ = f.await;
    }
    for w in watchers {
        totals.spectator_msgs.fetch_add(w.await.map_err(|e| e.to_string())??, Relaxed);
    }
    verify(addr, &code, match_no, seen, totals, true).await
}
