//! Dead-instance takeover: two real `guandan-server` processes on one database. A room stays with
//! its owner while the owner's lease is renewed; once the owner is killed (kill -9) and its lease
//! runs out, the instance a player reaches claims the room, rebuilds it from the stored log at the
//! same state hash, and the match is finished there. Claims race at the database: one wins.

mod common;

use common::*;
use guandan_proto::{ClientMsg, ServerMsg};
use guandan_server::db::{Db, RoomRow};
use std::time::Duration;

/// A short lease, so the test waits well under a second for a dead owner's lease to run out.
const LEASE: &[&str] = &["--lease-ms", "600"];

/// Waits for the answer to a join: it must be `joined` (an error or a redirect fails the test at
/// once instead of waiting on heartbeats).
async fn expect_joined(c: &mut Client) {
    let m = c
        .until("join answer", |m| {
            matches!(m, ServerMsg::Joined { .. } | ServerMsg::Redirect { .. } | ServerMsg::Error { .. })
        })
        .await;
    assert!(matches!(m, ServerMsg::Joined { .. }), "{}: {m:?}", c.name);
}

/// Joins `code` on the instance the client is connected to; a redirect (the dead owner's lease
/// has not run out yet) is retried a bounded number of times. Returns how many redirects came.
async fn join_until_taken(c: &mut Client, code: &str, last: u64, dead_owner: &str) -> u32 {
    for redirects in 0..100 {
        c.send(&ClientMsg::JoinRoom { code: code.into(), last_action_seq: Some(last) }).await;
        let m = c
            .until("joined or redirect", |m| {
                matches!(m, ServerMsg::Joined { .. } | ServerMsg::Redirect { .. } | ServerMsg::Error { .. })
            })
            .await;
        match m {
            ServerMsg::Joined { .. } => return redirects,
            ServerMsg::Redirect { instance, .. } => {
                assert_eq!(instance, dead_owner, "only the dead owner may be named before the takeover");
                c.log.pop();
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            other => panic!("{}: {other:?}", c.name),
        }
    }
    panic!("{}: the room was never taken over", c.name)
}

/// A hosts a match; while A renews its lease B redirects to A; A is killed; once A's lease runs
/// out the players reach B, which takes the room over: same state hash, catch-up from a last
/// action seq, the match finished and stored, the takeover counted in B's /metrics. B's graceful
/// shutdown then ends its lease at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dead_instances_room_is_taken_over_and_finished() {
    for db in databases() {
        let url = database_url(&db);
        let pid = std::process::id();
        let (name_a, name_b) = (format!("take-a-{pid}"), format!("take-b-{pid}"));
        let mut a = ServerProc::start(&url, &name_a, "127.0.0.1:0", LEASE);
        let mut b = ServerProc::start(&url, &name_b, "127.0.0.1:0", LEASE);
        let (code, mut c) = four_player_room(a.addr, 2718).await;
        play(&mut c, 40).await;

        // Several lease lengths later A still owns the room: its lease is renewed.
        tokio::time::sleep(Duration::from_millis(1800)).await;
        let mut probe = Client::new(b.addr, "probe").await;
        probe.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
        let m = probe.until("redirect", |m| matches!(m, ServerMsg::Redirect { .. } | ServerMsg::Error { .. })).await;
        assert!(
            matches!(&m, ServerMsg::Redirect { instance, url, .. } if *instance == name_a && *url == a.url()),
            "a live owner keeps its room: {m:?}"
        );
        assert_eq!(metric(b.addr, "guandan_rooms_taken_over_total"), Some(0.0));
        play(&mut c, 40).await;
        let seq = c[0].last_seq;
        let hash = c[0].resync_hash().await;

        a.kill();
        let mut redirects = 0;
        for (i, x) in c.iter_mut().enumerate() {
            x.reconnect(b.addr).await;
            x.prompt = None;
            // The last seat says it saw 3 actions less: it must get exactly those.
            let last = if i == 3 { seq - 3 } else { x.last_seq };
            x.last_seq = last;
            let before = x.log.len();
            redirects += join_until_taken(x, &code, last, &name_a).await;
            if i == 3 {
                x.sync_to(seq).await;
                let caught: Vec<u64> = x.log[before..]
                    .iter()
                    .filter_map(|m| match m {
                        ServerMsg::Applied { action_seq, .. } => Some(*action_seq),
                        ServerMsg::State { .. } => panic!("catch-up fell back to a full state"),
                        _ => None,
                    })
                    .collect();
                assert_eq!(caught, vec![seq - 2, seq - 1, seq], "catch-up from the last action seq");
            }
        }
        for x in c.iter_mut() {
            assert_eq!(x.resync_hash().await, hash, "{}: taken over at the same state", x.name);
            assert_eq!(x.last_seq, seq);
        }
        assert_eq!(metric(b.addr, "guandan_rooms_taken_over_total"), Some(1.0));
        let (status, body) = http(b.addr, "GET", &format!("/v1/rooms/{code}"), "");
        assert_eq!(status, 200);
        assert!(body.contains(&name_b) && body.contains(&b.url()), "the directory names the new owner: {body}");

        play(&mut c, 20_000).await;
        let no = wait_stored(&mut c).await;
        let (_, log) = stored_log(b.addr, &code, no);
        let states = states(&log);
        assert_eq!(states[seq as usize].state_hash(), hash);
        for x in &c {
            scan(x, &log, &states, x.seat, None);
        }

        let status = b.terminate();
        assert!(status.success(), "graceful exit: {status:?}");
        let store = Db::connect(&url).await.expect("database");
        let left = store.lease_left_ms(&name_b).await.expect("lease").expect("B has a lease row");
        assert!(left < 0, "a graceful shutdown ends the lease: {left} ms left");
        eprintln!(
            "[{}] A killed at action {seq}; B took the room over after {redirects} redirects; \
             match finished with {} actions",
            store.backend,
            log.actions.len(),
        );
        store.close().await;
    }
}

fn room(code: &str, instance: &str) -> RoomRow {
    RoomRow {
        code: code.into(),
        instance: instance.into(),
        url: format!("http://{instance}"),
        state: "playing".into(),
        config: "{}".into(),
        match_no: 0,
    }
}

/// Claims at the database: a live lease is never taken; for an expired one, two instances (two
/// connection pools) race for each room and exactly one wins; an owner that renews its lease
/// (a restart under the same name) keeps its rooms.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn racing_claims_one_instance_wins() {
    for db in databases() {
        let url = database_url(&db);
        let (x, y) = (Db::connect(&url).await.expect("db"), Db::connect(&url).await.expect("db"));
        let pid = std::process::id();
        let (live, dead) = (format!("race-live-{pid}"), format!("race-dead-{pid}"));
        x.lease(&live, "http://live", 60_000, true).await.unwrap();
        x.lease(&dead, "http://dead", 1, true).await.unwrap();
        // Codes unique to this run (the PostgreSQL database is shared by every test run).
        let live_code = format!("race-{pid}-live");
        assert!(x.claim_room(&room(&live_code, &live)).await.unwrap());
        tokio::time::sleep(Duration::from_millis(50)).await;
        assert!(x.lease_left_ms(&dead).await.unwrap().unwrap() < 0);
        assert!(x.lease_left_ms(&live).await.unwrap().unwrap() > 0);
        assert_eq!(x.lease_left_ms(&format!("never-{pid}")).await.unwrap(), None);

        assert!(y.take_over_room(&live_code, &live, "y", "http://y").await.unwrap().is_none(), "live lease");
        assert_eq!(x.room(&live_code).await.unwrap().unwrap().instance, live);

        let codes: Vec<String> = (0..24).map(|i| format!("race-{pid}-{i}")).collect();
        for code in &codes {
            assert!(x.claim_room(&room(code, &dead)).await.unwrap());
        }
        let (mut wins_x, mut wins_y) = (0, 0);
        for code in &codes {
            let claim = |db: &Db, to: String| {
                let (db, code, dead) = (db.clone(), code.clone(), dead.clone());
                tokio::spawn(async move { db.take_over_room(&code, &dead, &to, "http://new").await })
            };
            let (tx, ty) = (claim(&x, format!("race-x-{pid}")), claim(&y, format!("race-y-{pid}")));
            let (gx, gy) = (tx.await.expect("task"), ty.await.expect("task"));
            let (gx, gy) = (gx.expect("claim x"), gy.expect("claim y"));
            assert!(gx.is_some() != gy.is_some(), "{code}: exactly one claim wins");
            let winner = if gx.is_some() { format!("race-x-{pid}") } else { format!("race-y-{pid}") };
            let won = gx.or(gy).unwrap();
            assert_eq!(won.instance, winner);
            assert_eq!(x.room(code).await.unwrap().unwrap().instance, winner, "{code}: the directory agrees");
            if won.instance.starts_with("race-x") { wins_x += 1 } else { wins_y += 1 }
        }
        assert_eq!(wins_x + wins_y, codes.len());

        // The dead owner comes back under its name: a renewed lease keeps its remaining rooms.
        let kept = format!("race-{pid}-kept");
        assert!(x.claim_room(&room(&kept, &dead)).await.unwrap());
        x.lease(&dead, "http://dead", 60_000, true).await.unwrap();
        assert!(y.take_over_room(&kept, &dead, "y", "http://y").await.unwrap().is_none(), "renewed lease");
        x.end_lease(&dead).await.unwrap();
        tokio::time::sleep(Duration::from_millis(5)).await;
        let moved = y.take_over_room(&kept, &dead, &format!("race-y-{pid}"), "http://y").await.unwrap();
        assert!(moved.is_some(), "an ended lease lets the room go");
        for code in codes.iter().chain([&live_code, &kept]) {
            x.delete_room(code).await.unwrap();
        }
        eprintln!("[{}] racing claims: x won {wins_x}, y won {wins_y}", x.backend);
        x.close().await;
        y.close().await;
    }
}

/// Fencing: A is alive but its lease lapsed (here: ended from outside between two of A's
/// renewals, as after a long pause), so B takes the room over when players reach it. At its next
/// renewal A stops its copy of the room; a player still connected to A is told the room is closed
/// and is redirected to B, where the match goes on from the same state.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lapsed_owner_stops_a_room_taken_from_it() {
    for db in databases() {
        let url = database_url(&db);
        let pid = std::process::id();
        let (name_a, name_b) = (format!("fence-a-{pid}"), format!("fence-b-{pid}"));
        // A renews every 2 s: the test ends A's lease in between.
        let a = ServerProc::start(&url, &name_a, "127.0.0.1:0", &["--lease-ms", "6000"]);
        let b = ServerProc::start(&url, &name_b, "127.0.0.1:0", LEASE);
        let (code, mut c) = four_player_room(a.addr, 99).await;
        play(&mut c, 20).await;
        let seq = c[0].last_seq;
        let hash = c[0].resync_hash().await;
        let store = Db::connect(&url).await.expect("database");

        // Three players move to B; the first join there takes the room over.
        for (i, x) in c.iter_mut().enumerate().skip(1) {
            x.reconnect(b.addr).await;
            x.prompt = None;
            let last = x.last_seq;
            if i == 1 {
                let mut joined = false;
                for _ in 0..20 {
                    store.end_lease(&name_a).await.expect("end A's lease");
                    x.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: Some(last) }).await;
                    let m = x
                        .until("joined or redirect", |m| {
                            matches!(m, ServerMsg::Joined { .. } | ServerMsg::Redirect { .. } | ServerMsg::Error { .. })
                        })
                        .await;
                    match m {
                        ServerMsg::Joined { .. } => {
                            joined = true;
                            break;
                        }
                        // A renewed between the two steps: try again.
                        ServerMsg::Redirect { .. } => {
                            x.log.pop();
                        }
                        other => panic!("{other:?}"),
                    }
                }
                assert!(joined, "B never took the room over");
            } else {
                x.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: Some(last) }).await;
                expect_joined(x).await;
            }
        }
        assert_eq!(metric(b.addr, "guandan_rooms_taken_over_total"), Some(1.0));

        // A's next renewal stops its copy of the room.
        let mut stopped = false;
        for _ in 0..100 {
            if metric(a.addr, "guandan_rooms") == Some(0.0) {
                stopped = true;
                break;
            }
            let _ = c[0].try_recv(Duration::from_millis(100)).await;
        }
        assert!(stopped, "A still runs a room it no longer owns");
        let p = &mut c[0];
        p.send(&ClientMsg::Resync).await;
        let m = p.until("error", |m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(matches!(m, ServerMsg::Error { code: 46, .. }), "the room is closed on A: {m:?}");
        p.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: Some(seq) }).await;
        let m = p.until("redirect", |m| matches!(m, ServerMsg::Redirect { .. } | ServerMsg::Error { .. })).await;
        assert!(
            matches!(&m, ServerMsg::Redirect { instance, url, .. } if *instance == name_b && *url == b.url()),
            "A redirects to the new owner: {m:?}"
        );
        p.log.retain(|m| !matches!(m, ServerMsg::Error { .. }));
        p.reconnect(b.addr).await;
        p.prompt = None;
        p.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: Some(seq) }).await;
        expect_joined(p).await;
        for x in c.iter_mut() {
            assert_eq!(x.resync_hash().await, hash, "{}: the same state on B", x.name);
        }
        let n = play(&mut c, 30).await;
        assert!(n >= seq + 30, "the match goes on on B");
        assert_eq!(store.room(&code).await.unwrap().unwrap().instance, name_b);
        assert_eq!(store.actions(&code, 0).await.unwrap().len() as u64, n, "one log, written by B after A");
        assert_eq!(metric(a.addr, "guandan_rooms_taken_over_total"), Some(0.0));
        eprintln!("[{}] A's lease lapsed at action {seq}; B took over; A stopped its copy", store.backend);
        store.close().await;
    }
}

/// An action seq written by someone else first (what a lapsed former owner could do before it
/// stops its copy): the room's own write of that seq is refused, the room stops and tells its
/// players; when they rejoin, the instance rebuilds the room from the log — the other writer's
/// action included — and the match is finished, every hash matching the stored log.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_whose_write_was_refused_is_rebuilt_on_rejoin() {
    for db in databases() {
        let url = database_url(&db);
        let server = ServerProc::start(&url, &format!("revive-{}", std::process::id()), "127.0.0.1:0", LEASE);
        let (code, mut c) = four_player_room(server.addr, 577).await;
        play(&mut c, 12).await;
        let i = c.iter().position(|x| x.prompt.is_some()).expect("a human must act");
        let (n, seat) = (c[i].last_seq, c[i].seat.expect("seated"));
        // The other writer's action for this seq: the seat timed out.
        let store = Db::connect(&url).await.expect("database");
        let zombie = guandan_core::game::Action { seq: n, seat, kind: guandan_core::game::ActionKind::Timeout };
        store.append_actions(&[(code.clone(), 0, n as i64, serde_json::to_string(&zombie).unwrap())]).await.unwrap();

        c[i].act().await.expect("prompt");
        for x in c.iter_mut() {
            let m = x.until("storage error", |m| matches!(m, ServerMsg::Error { .. })).await;
            assert!(matches!(m, ServerMsg::Error { code: 58, .. }), "{}: {m:?}", x.name);
            x.log.retain(|m| !matches!(m, ServerMsg::Error { .. }));
            x.prompt = None;
        }
        for x in c.iter_mut() {
            x.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: Some(n) }).await;
            expect_joined(x).await;
            x.sync_to(n + 1).await;
        }
        play(&mut c, 20_000).await;
        let no = wait_stored(&mut c).await;
        let (_, log) = stored_log(server.addr, &code, no);
        assert_eq!(log.actions[n as usize], zombie, "the first write of a seq stands");
        let states = states(&log);
        for x in &c {
            scan(x, &log, &states, x.seat, None);
        }
        let after = log.actions.len();
        eprintln!("[{}] write of action {n} refused; room rebuilt; {after} actions", store.backend);
        store.close().await;
    }
}
