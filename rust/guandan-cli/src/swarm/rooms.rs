//! The room swarm: N rooms of 4 clients (and spectators, and an attack with `--flood`) play
//! whole matches at once; each is checked against its stored record, and the run is reported
//! (rooms finished, actions, round trips, desyncs, lost actions, errors, the server's memory).

use super::SwarmArgs;
use super::latency::Phase;
use super::link::Server;
use super::link::{login, until};
use super::player::{Client, play};
use super::server_proc::{self, PeakRss};
use super::tally::{Totals, verify};
use futures_util::{SinkExt, StreamExt};
use guandan_ai::AiLevel;
use guandan_core::seat::Seat;
use guandan_proto::{ClientMsg, ServerMsg};
use indicatif::{ProgressBar, ProgressStyle};
use std::sync::Arc;
use std::sync::atomic::Ordering::Relaxed;
use std::time::{Duration, Instant};
use tokio_tungstenite::tungstenite::Message;

pub(super) async fn run(args: SwarmArgs, addr: Server, level: AiLevel) -> Result<(), String> {
    let totals = Arc::new(Totals::default());
    let bar = ProgressBar::new(args.rooms as u64);
    bar.set_style(
        ProgressStyle::with_template("{elapsed_precise} [{bar:40}] {pos}/{len} rooms finished {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let peak = args.server_pid.map(PeakRss::start);
    let cpu_at_start = args.server_pid.and_then(server_proc::cpu_us);
    let start = Instant::now();
    let clock = tokio::spawn(steady_clock(args.clone(), totals.clone(), bar.clone()));
    let mut tasks = Vec::new();
    let ramp = args.ramp_rooms_per_s.max(1.0);
    for i in 0..args.rooms {
        let (totals, args, bar, addr) = (totals.clone(), args.clone(), bar.clone(), addr.clone());
        tasks.push(tokio::spawn(async move {
            let deadline = Duration::from_secs(args.timeout_s);
            let res = tokio::time::timeout(deadline, room(addr, i, &args, level, &totals)).await;
            match res {
                Ok(Ok(())) => {
                    // The first match to end ends the steady state (the load falls from here).
                    totals.latency.enter_at_least(Phase::Drain);
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
        // The ramp: rooms are set up at `--ramp-rooms-per-s`, as players arrive, not in one burst.
        let next = start + Duration::from_secs_f64((i + 1) as f64 / ramp);
        tokio::time::sleep_until(next.into()).await;
    }
    for t in tasks {
        let _ = t.await;
    }
    let steady = clock.await.map_err(|e| e.to_string())?;
    bar.finish();
    let peak_kb = peak.map(PeakRss::stop);
    let elapsed = start.elapsed().as_secs_f64();
    let actions = totals.actions.load(Relaxed);
    let cpu_all = match (cpu_at_start, args.server_pid.and_then(server_proc::cpu_us)) {
        (Some(a), Some(b)) if actions > 0 => Some(b.saturating_sub(a) as f64 / actions as f64),
        _ => None,
    };
    let steady_actions = totals.latency.steady_actions();
    let per_room = |kb: u64| kb as f64 / args.rooms.max(1) as f64;
    let mut report = serde_json::json!({
        "rooms": args.rooms,
        "rooms_finished": totals.finished.load(Relaxed),
        "actions": actions,
        "actions_per_s": actions as f64 / elapsed.max(1e-9),
        "desyncs": totals.desyncs.load(Relaxed),
        "lost_actions": totals.lost.load(Relaxed),
        "duplicated_actions": totals.duplicated.load(Relaxed),
        "errors": totals.errors.load(Relaxed),
        "ending_retries": totals.ending_retries.load(Relaxed),
        "steady_errors": totals.steady_errors.load(Relaxed),
        "reconnects": totals.reconnects.load(Relaxed),
        "spectator_messages": totals.spectator_msgs.load(Relaxed),
        "flood": args.flood,
        "flood_messages": totals.flood_msgs.load(Relaxed),
        "room_failures": totals.failures.load(Relaxed),
        "drop_rate": args.drop_rate,
        "think_ms": args.think_ms,
        "ai": args.ai,
        "elapsed_s": elapsed,
        "steady_s": steady.seconds,
        "steady_actions": steady_actions,
        "steady_actions_per_s": steady_actions as f64 / steady.seconds.max(1e-9),
        "server_peak_rss_kb": peak_kb,
        "server_peak_rss_kb_per_room": peak_kb.map(per_room),
        "server_kb_per_room": peak_kb.map(per_room),
        "server_steady_rss_kb": steady.rss_kb,
        "server_cpu_us_per_action": steady.cpu_us.filter(|_| steady_actions > 0).map(|us| us as f64 / steady_actions as f64),
        "server_cpu_steady_share": steady.cpu_us.map(|us| us as f64 / 1e6 / steady.seconds.max(1e-9)),
        "server_cpu_us_per_action_all": cpu_all,
        "swarm_cpu_us_per_action": steady.own_cpu_us.filter(|_| steady_actions > 0).map(|us| us as f64 / steady_actions as f64),
        "swarm_cpu_steady_share": steady.own_cpu_us.map(|us| us as f64 / 1e6 / steady.seconds.max(1e-9)),
    });
    let fields = report.as_object_mut().expect("an object");
    totals.latency.report(None, "rtt", fields);
    totals.latency.report(Some(Phase::Ramp), "ramp_rtt", fields);
    totals.latency.report(Some(Phase::Steady), "steady_rtt", fields);
    let ms = |k: &str| report[k].as_f64().unwrap_or(0.0);
    println!(
        "{} of {} rooms finished, {actions} actions in {elapsed:.1} s; round trip p50 {:.2} ms, p99 {:.2} ms (steady {:.0} s: p50 {:.2}, p99 {:.2}, p999 {:.2}, max {:.2} ms); desyncs {}, lost {}, duplicated {}, protocol errors {}, reconnects {}",
        report["rooms_finished"],
        args.rooms,
        ms("rtt_ms_p50"),
        ms("rtt_ms_p99"),
        steady.seconds,
        ms("steady_rtt_ms_p50"),
        ms("steady_rtt_ms_p99"),
        ms("steady_rtt_ms_p999"),
        ms("steady_rtt_ms_max"),
        report["desyncs"],
        report["lost_actions"],
        report["duplicated_actions"],
        report["errors"],
        report["reconnects"]
    );
    if let Some(us) = report["server_cpu_us_per_action"].as_f64() {
        println!(
            "server: {us:.0} µs CPU an action in the steady state ({:.0} % of a core), peak {} KB ({:.1} KB a room); the swarm itself: {:.0} µs an action ({:.0} % of a core)",
            ms("server_cpu_steady_share") * 100.0,
            report["server_peak_rss_kb"],
            ms("server_kb_per_room"),
            ms("swarm_cpu_us_per_action"),
            ms("swarm_cpu_steady_share") * 100.0
        );
    }
    if args.json {
        println!("{report}");
    }
    if totals.failures.load(Relaxed) > 0 {
        return Err(format!("{} rooms did not finish", totals.failures.load(Relaxed)));
    }
    Ok(())
}

/// What the steady state measured.
struct Steady {
    seconds: f64,
    /// The server's CPU time over it (`--server-pid`).
    cpu_us: Option<u64>,
    /// The swarm's own CPU time over it: if the swarm used most of its core, the figures would
    /// be the swarm's, not the server's.
    own_cpu_us: Option<u64>,
    /// The server's memory at its end.
    rss_kb: Option<u64>,
}

/// The run's phases: the ramp lasts until every room plays; then the steady state, until
/// `--duration-s` is over (the tables are told to end their matches) or a room's match ends.
async fn steady_clock(args: SwarmArgs, totals: Arc<Totals>, bar: ProgressBar) -> Steady {
    let pid = args.server_pid;
    // A room whose set-up failed never starts: it is counted as done with the ramp.
    let ramped = || totals.started.load(Relaxed) + totals.failures.load(Relaxed) >= args.rooms as u64;
    while !ramped() && totals.latency.phase() == Phase::Ramp {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let begun = Instant::now();
    let cpu0 = pid.and_then(server_proc::cpu_us);
    let own0 = server_proc::cpu_us(std::process::id());
    totals.latency.enter_at_least(Phase::Steady);
    let until = args.duration_s.map(|s| begun + Duration::from_secs(s));
    // Every room done (e.g. all failed) ends it too: nothing is left to wait for.
    let done = || totals.finished.load(Relaxed) + totals.failures.load(Relaxed) >= args.rooms as u64;
    while totals.latency.phase() == Phase::Steady && until.is_none_or(|u| Instant::now() < u) && !done() {
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let seconds = begun.elapsed().as_secs_f64();
    let cpu_us = match (cpu0, pid.and_then(server_proc::cpu_us)) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    let own_cpu_us = match (own0, server_proc::cpu_us(std::process::id())) {
        (Some(a), Some(b)) => Some(b.saturating_sub(a)),
        _ => None,
    };
    let rss_kb = pid.and_then(server_proc::rss_kb);
    totals.latency.enter_at_least(Phase::Drain);
    if until.is_some() {
        bar.suspend(|| eprintln!("swarm: {seconds:.0} s of steady play: the tables end their matches"));
        totals.stop.store(true, Relaxed);
    }
    Steady { seconds, cpu_us, own_cpu_us, rss_kb }
}

/// One room: set up, play to the end, verify against the stored log. Returns RTT samples (µs).
async fn room(addr: Server, i: usize, args: &SwarmArgs, level: AiLevel, totals: &Arc<Totals>) -> Result<(), String> {
    let mut socks = Vec::new();
    for s in 0..4 {
        socks.push(login(addr.clone(), &format!("swarm{i}-{s}")).await?);
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
        let mut ws = login(addr.clone(), &format!("watch{i}-{k}")).await?;
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
    for (seat, ws) in Seat::ALL.into_iter().zip(socks) {
        let seed = args.seed ^ ((i as u64) << 8) ^ u64::from(u8::from(seat));
        let how = Client {
            level,
            drop_rate: args.drop_rate,
            think: Duration::from_millis(args.think_ms),
            seed,
            totals: totals.clone(),
        };
        players.push(tokio::spawn({
            let addr = addr.clone();
            async move { play(addr, ws, seat, how).await }
        }));
    }
    // The attack, until the match is over.
    let (over_tx, over) = tokio::sync::watch::channel(false);
    let mut flooders = Vec::new();
    if let Some(kind) = args.flood.clone() {
        for k in 0..args.flooders {
            let mut link = login(addr.clone(), &format!("flood{i}-{k}")).await?;
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
