//! `guandan swarm --quick-match`: N clients queue for a quick match, are seated by the server's
//! matchmaker, play their match to the end (each an AI seeing only its own seat's messages),
//! and queue again, `--quick-rounds` times. Every match is checked against its stored record
//! like a `swarm` room (hashes, nothing lost or repeated). With several instances of one
//! deployment (`--also-server`) the clients connect to each in turn and follow the server's
//! redirect to a table formed on another. At the end the instances' `/metrics` give the rating
//! spread of the tables they formed.

use super::link::Server;
use guandan_core::seat::Seat;
use std::collections::HashSet;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::{Duration, Instant};

use guandan_ai::AiLevel;
use guandan_ai::percentile::nearest_rank;
use guandan_proto::http::METRICS_PATH;
use guandan_proto::{ClientMsg, ServerMsg};
use indicatif::{ProgressBar, ProgressStyle};

use super::SwarmArgs;
use super::link::{Link, login, move_to, until};
use super::player::{Client, play};
use super::tally::{Totals, verify};

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
    /// Seatings at a table on another instance than the client's connection.
    redirects: AtomicU64,
}

pub(super) async fn run(args: SwarmArgs, addrs: Vec<Server>, level: AiLevel) -> Result<(), String> {
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
        let addr = addrs[i % addrs.len()].clone();
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
    let pct = |p: f64| nearest_rank(&waits, p).unwrap_or(0);
    let formed = queue.formed.lock().unwrap_or_else(|e| e.into_inner()).len();
    let mut spread = Spread::default();
    for a in &addrs {
        spread.add(&metrics_text(a.clone()).await?);
    }
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
        "instances": addrs.len(),
        "redirects": queue.redirects.load(Relaxed),
        "rating_spread_tables": spread.count,
        "rating_spread_mean": spread.mean(),
        "rating_spread_p50_at_most": spread.quantile(0.5),
        "rating_spread_p99_at_most": spread.quantile(0.99),
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
        "{} players on {} instance(s): {} seatings at {formed} tables ({finished} matches checked, {} redirected), wait p50 {} ms, p99 {} ms; rating spread (mu) mean {:.2}, p50 <= {}, p99 <= {}; desyncs {}, lost {}, protocol errors {}",
        args.players,
        addrs.len(),
        report["matched"],
        report["redirects"],
        pct(0.5),
        pct(0.99),
        spread.mean(),
        report["rating_spread_p50_at_most"],
        report["rating_spread_p99_at_most"],
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
    addr: Server,
    i: usize,
    args: &SwarmArgs,
    level: AiLevel,
    totals: &Arc<Totals>,
    queue: &QueueTotals,
    bar: &ProgressBar,
) -> Result<(), String> {
    let mut link = login(addr.clone(), &format!("quick{i}")).await?;
    let mut addr = addr;
    for round in 0..args.quick_rounds {
        let asked = Instant::now();
        link.send(&ClientMsg::QueueJoin { rules: args.rules.clone() }).await?;
        let (code, seat) = match wait_for_table(&mut link, &addr).await? {
            Seated::Here(code, seat) => (code, seat),
            Seated::There(code, there) => {
                // The table is on another instance: go there and take the seat.
                queue.redirects.fetch_add(1, Relaxed);
                addr = there;
                link = move_to(addr.clone(), link).await?;
                link.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await?;
                match until(&mut link, "joined", |m| matches!(m, ServerMsg::Joined { .. })).await? {
                    ServerMsg::Joined { code, seat: Some(seat) } => (code, seat),
                    other => return Err(format!("redirected, then {other:?}")),
                }
            }
        };
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
        let (seen, match_no, back) = play(addr.clone(), link, seat, how).await?;
        link = back;
        // The first of the table's clients to get here counts the match's actions.
        let first = queue.finished.lock().unwrap_or_else(|e| e.into_inner()).insert(code.clone());
        // Out of the finished room (its vote to play again is not for the queue's players).
        link.send(&ClientMsg::Leave).await?;
        // Reading the stored match back can take longer than the server's heartbeat timeout
        // under load: the connection keeps beating meanwhile (a silent one is closed).
        let check = verify(addr.clone(), &code, match_no, vec![seen], totals, first);
        tokio::pin!(check);
        let mut beat = tokio::time::interval(Duration::from_secs(4));
        loop {
            tokio::select! {
                done = &mut check => break done?,
                _ = beat.tick() => link.send(&ClientMsg::Heartbeat).await?,
            }
        }
        bar.inc(1);
    }
    link.close().await;
    Ok(())
}

/// Where a queued client's table is.
enum Seated {
    /// On this connection's instance: the room and seat.
    Here(String, Seat),
    /// On another instance: the room and where to go.
    There(String, Server),
}

/// Waits in the queue (heartbeating: the server hears nothing else from a waiting client)
/// until seated.
async fn wait_for_table(link: &mut Link, addr: &Server) -> Result<Seated, String> {
    const BEAT: Duration = Duration::from_secs(4);
    let mut beat = Instant::now();
    loop {
        if beat.elapsed() >= BEAT {
            link.send(&ClientMsg::Heartbeat).await?;
            beat = Instant::now();
        }
        // The server's status comes about once a second, but a busy queue tick can hold it
        // back longer than the heartbeat timeout: beat on time whatever arrives.
        let Ok(got) = tokio::time::timeout(BEAT.saturating_sub(beat.elapsed()), link.recv()).await else {
            continue;
        };
        let (m, _) = got?;
        match m {
            ServerMsg::Joined { code, seat: Some(seat) } => return Ok(Seated::Here(code, seat)),
            ServerMsg::Redirect { code, url, .. } => return Ok(Seated::There(code, addr.moved(&url)?)),
            ServerMsg::Error { code, message, .. } => return Err(format!("queue: error {code} {message}")),
            _ => {}
        }
    }
}

/// The instance's metrics page (Prometheus text).
async fn metrics_text(addr: Server) -> Result<String, String> {
    super::link::text(addr, METRICS_PATH).await
}

/// The formed tables' rating spread, summed over the instances' histograms.
#[derive(Default, Debug, PartialEq)]
struct Spread {
    /// (upper bound, tables at most that far apart), in the bounds' order.
    buckets: Vec<(f64, u64)>,
    count: u64,
    sum: f64,
}

const SPREAD: &str = "guandan_queue_table_rating_spread";

impl Spread {
    fn add(&mut self, metrics: &str) {
        let mut i = 0;
        for line in metrics.lines() {
            let Some(rest) = line.strip_prefix(SPREAD) else { continue };
            let Some((name, value)) = rest.rsplit_once(' ') else { continue };
            let Ok(v) = value.parse::<f64>() else { continue };
            if let Some(le) = name.strip_prefix("_bucket{le=\"").and_then(|l| l.strip_suffix("\"}")) {
                // +Inf (which parses as infinity): the count says it.
                let Some(le) = le.parse::<f64>().ok().filter(|l| l.is_finite()) else { continue };
                if self.buckets.len() <= i {
                    self.buckets.push((le, 0));
                }
                self.buckets[i].1 += v as u64;
                i += 1;
            } else if name == "_count" {
                self.count += v as u64;
            } else if name == "_sum" {
                self.sum += v;
            }
        }
    }

    fn mean(&self) -> f64 {
        if self.count == 0 { 0.0 } else { self.sum / self.count as f64 }
    }

    /// The smallest bound that at least a fraction `p` of the tables are within (`None`: no
    /// table, or beyond the last bound).
    fn quantile(&self, p: f64) -> Option<f64> {
        let need = (self.count as f64 * p).ceil() as u64;
        if self.count == 0 {
            return None;
        }
        self.buckets.iter().find(|(_, n)| *n >= need.max(1)).map(|(le, _)| *le)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spread_of_two_instances_adds_up() {
        let a = "# TYPE guandan_queue_table_rating_spread histogram\nguandan_queue_table_rating_spread_bucket{le=\"0.5\"} 8\nguandan_queue_table_rating_spread_bucket{le=\"1\"} 9\nguandan_queue_table_rating_spread_bucket{le=\"+Inf\"} 10\nguandan_queue_table_rating_spread_sum 6.5\nguandan_queue_table_rating_spread_count 10\nguandan_actions_total 5\n";
        let b = "guandan_queue_table_rating_spread_bucket{le=\"0.5\"} 0\nguandan_queue_table_rating_spread_bucket{le=\"1\"} 10\nguandan_queue_table_rating_spread_bucket{le=\"+Inf\"} 10\nguandan_queue_table_rating_spread_sum 7.5\nguandan_queue_table_rating_spread_count 10\n";
        let mut s = Spread::default();
        s.add(a);
        s.add(b);
        assert_eq!(s.buckets, vec![(0.5, 8), (1.0, 19)]);
        assert_eq!((s.count, s.mean()), (20, 0.7));
        assert_eq!(s.quantile(0.4), Some(0.5));
        assert_eq!(s.quantile(0.5), Some(1.0));
        assert_eq!(s.quantile(0.99), None, "one table lies beyond the last bound");
        assert_eq!(Spread::default().quantile(0.5), None);
    }
}
