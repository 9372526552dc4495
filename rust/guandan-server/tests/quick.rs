//! Quick match against the real server binary, on SQLite and (when configured) PostgreSQL: four
//! queued players are seated together at a ranked table that starts at once; three players get
//! an AI seat after the fill wait; leaving, disconnecting and queueing twice or from a room each
//! have their answer, and leave nothing behind in the queue.

mod common;
use common::*;
use guandan_core::game::ActionKind;
use guandan_core::seat::Seat;
use guandan_proto::{ClientMsg, ErrorCode, ServerMsg};
use std::collections::BTreeSet;

/// Each test's server has its own queue pool (on PostgreSQL the tests' servers share one
/// database, as the instances of a deployment do) and queues for its own rule preset.
fn queue_join(rules: &str) -> ClientMsg {
    ClientMsg::QueueJoin { rules: Some(rules.into()) }
}

/// Queues `names` for `rules` (each answered by a waiting `queue_status`).
async fn queued(addr: std::net::SocketAddr, rules: &str, names: &[&str]) -> Vec<Client> {
    let mut out = Vec::new();
    for name in names {
        let mut c = Client::new(addr, name).await;
        c.send(&queue_join(rules)).await;
        c.until("queued", |m| matches!(m, ServerMsg::QueueStatus { queued: true, .. })).await;
        out.push(c);
    }
    out
}

/// The room each client was seated in (waits for `joined` and the match's first state). A
/// table formed on another instance (PostgreSQL: the tests' servers share one queue, as the
/// instances of a deployment do) answers with a redirect: the client goes there and joins.
async fn seated(clients: &mut [Client]) -> Vec<String> {
    let mut codes = Vec::new();
    for c in clients.iter_mut() {
        let found = c.until("joined", |m| matches!(m, ServerMsg::Joined { .. } | ServerMsg::Redirect { .. })).await;
        let code = match found {
            ServerMsg::Joined { code, .. } => code,
            ServerMsg::Redirect { code, url, .. } => {
                let addr = url.trim_start_matches("http://").parse().expect("a redirect to host:port");
                c.reconnect(addr).await;
                c.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
                c.until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
                code
            }
            _ => unreachable!(),
        };
        c.until("state", |m| matches!(m, ServerMsg::State { .. })).await;
        codes.push(code);
    }
    codes
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn four_queued_players_are_seated_together_at_a_ranked_table() {
    for db in databases() {
        let url = database_url(&db);
        let name = format!("quick-{}", std::process::id());
        let server =
            ServerProc::start(&url, &name, "127.0.0.1:0", &["--queue-pool", &name, "--allow-same-address-tables"]);
        let mut clients = queued(server.addr, "competition", &["ann", "bob", "cat", "dan"]).await;
        let codes = seated(&mut clients).await;
        assert!(codes.iter().all(|c| *c == codes[0]), "one table: {codes:?}");
        let seats: BTreeSet<_> = clients.iter().map(|c| c.seat.expect("a seat")).collect();
        assert_eq!(seats.len(), 4, "four different seats");
        for c in &clients {
            assert!(
                c.log.iter().any(|m| matches!(m, ServerMsg::QueueStatus { queued: false, found: 4, .. })),
                "{} was told the wait is over",
                c.name
            );
        }
        // It is a real match: a few actions go round, then seat 0's team gives up and the
        // finished match is stored as ranked.
        play(&mut clients, 8).await;
        let by_seat = |clients: &[Client], s: Seat| clients.iter().position(|c| c.seat == Some(s)).unwrap();
        // Seat 0 proposes; its partner (seat 2) and one opponent (seat 1) accept.
        let steps = [
            (Seat::ZERO, ActionKind::ProposeSurrender),
            (Seat::TWO, ActionKind::SurrenderVote { accept: true }),
            (Seat::ONE, ActionKind::SurrenderVote { accept: true }),
        ];
        for (seq, (seat, action)) in (clients[0].last_seq..).zip(steps) {
            let i = by_seat(&clients, seat);
            clients[i].intent(seq, action).await;
            for c in clients.iter_mut() {
                c.sync_to(seq + 1).await;
            }
        }
        let match_no = wait_stored(&mut clients).await;
        let (meta, log) = stored_log(server.addr, &codes[0], match_no);
        assert_eq!(meta["ranked"].as_bool(), Some(true), "a quick-match table is ranked: {meta}");
        assert!(states(&log).last().unwrap().is_over());
        assert_eq!(metric(server.addr, "guandan_queued_players"), Some(0.0));
        eprintln!("[{db}] four queued players: table {} formed and played", codes[0]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn three_players_get_an_ai_seat_after_the_fill_wait() {
    for db in databases() {
        let url = database_url(&db);
        let name = format!("quick-ai-{}", std::process::id());
        let server = ServerProc::start(
            &url,
            &name,
            "127.0.0.1:0",
            &["--queue-ai-fill-ms", "600", "--queue-pool", &name, "--allow-same-address-tables"],
        );
        let started = std::time::Instant::now();
        let mut clients = queued(server.addr, "huaian", &["eve", "fay", "gus"]).await;
        let codes = seated(&mut clients).await;
        assert!(started.elapsed() >= std::time::Duration::from_millis(600), "not before the fill wait");
        assert!(codes.iter().all(|c| *c == codes[0]));
        // The room's info comes with the join, before or after the state.
        let known = clients[0].log.iter().rev().find_map(|m| match m {
            ServerMsg::Room { room } => Some(room.clone()),
            _ => None,
        });
        let room = match known {
            Some(r) => r,
            None => match clients[0].until("room info", |m| matches!(m, ServerMsg::Room { .. })).await {
                ServerMsg::Room { room } => room,
                _ => unreachable!(),
            },
        };
        let ai: Vec<_> = room.seats.iter().filter(|s| s.ai.is_some()).collect();
        assert_eq!(ai.len(), 1, "one AI seat: {room:?}");
        assert_eq!(ai[0].ai, Some(2), "new players (rating 25) meet the normal AI");
        assert_eq!(room.seats.iter().filter(|s| s.player.is_some()).count(), 3);
        // Still a match: the AI seat acts when its turn comes.
        play(&mut clients, 12).await;
        eprintln!("[{db}] three players + AI at {}", codes[0]);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaving_disconnecting_and_queueing_twice_leave_nothing_behind() {
    for db in databases() {
        let url = database_url(&db);
        let name = format!("quick-leave-{}", std::process::id());
        let server =
            ServerProc::start(&url, &name, "127.0.0.1:0", &["--queue-pool", &name, "--allow-same-address-tables"]);
        let addr = server.addr;
        let mut a = Client::new(addr, "ava").await;
        // Bad requests: unknown rules; leaving a queue one is not in.
        a.send(&ClientMsg::QueueJoin { rules: Some("bogus".into()) }).await;
        let e = a.until("refused", |m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(matches!(e, ServerMsg::Error { code, .. } if code == ErrorCode::BadArgument.code()), "{e:?}");
        a.send(&ClientMsg::QueueLeave).await;
        let e = a.until("refused", |m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(matches!(e, ServerMsg::Error { code, .. } if code == ErrorCode::BadRoomState.code()), "{e:?}");
        // Twice: the second is refused, the first still stands; then leave.
        a.send(&queue_join("house")).await;
        a.until("queued", |m| matches!(m, ServerMsg::QueueStatus { queued: true, .. })).await;
        a.send(&queue_join("house")).await;
        let e = a.until("refused", |m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(matches!(e, ServerMsg::Error { code, .. } if code == ErrorCode::BadRoomState.code()), "{e:?}");
        a.send(&ClientMsg::QueueLeave).await;
        a.until("left", |m| matches!(m, ServerMsg::QueueStatus { queued: false, .. })).await;
        // Queued from a room: refused (leave the room first).
        let mut host = Client::new(addr, "hal").await;
        host.send(&ClientMsg::CreateRoom { rules: None, spectator_delay: None, seed: None, spectator_hands: None })
            .await;
        host.until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
        host.send(&queue_join("house")).await;
        let e = host.until("refused", |m| matches!(m, ServerMsg::Error { .. })).await;
        assert!(matches!(e, ServerMsg::Error { code, .. } if code == ErrorCode::BadRoomState.code()), "{e:?}");
        // One queued player drops the connection.
        let mut b = queued(addr, "house", &["bea"]).await.remove(0);
        b.ws.close(None).await.ok();
        drop(b);
        // A queued player who creates a room leaves the queue.
        let mut c = queued(addr, "house", &["cy"]).await.remove(0);
        c.send(&ClientMsg::CreateRoom { rules: None, spectator_delay: None, seed: None, spectator_hands: None }).await;
        c.until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
        // Four new players: they make one table among themselves — nobody who left waits on.
        let mut fresh = queued(addr, "house", &["dot", "eli", "flo", "gil"]).await;
        let codes = seated(&mut fresh).await;
        assert!(codes.iter().all(|c| *c == codes[0]), "the four new players sit together: {codes:?}");
        for cl in [&a, &host, &c] {
            assert!(!cl.log.iter().any(|m| matches!(m, ServerMsg::Joined { code, .. } if *code == codes[0])));
        }
        assert_eq!(metric(addr, "guandan_queued_players"), Some(0.0));
        eprintln!("[{db}] leave / disconnect / twice: nothing left behind");
    }
}

/// Two instances on one PostgreSQL, one pool: two players reach each instance, and the four sit
/// at one table (those on the other instance are redirected to it), then play.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_form_one_table_from_players_on_both() {
    let Some(pg) = databases().into_iter().find(|d| d != "sqlite") else {
        eprintln!("two instances: skipped (no GUANDAN_TEST_POSTGRES)");
        return;
    };
    let pid = std::process::id();
    let pool = format!("quick-two-{pid}");
    let a = ServerProc::start(
        &pg,
        &format!("qa-{pid}"),
        "127.0.0.1:0",
        &["--queue-pool", &pool, "--allow-same-address-tables"],
    );
    let b = ServerProc::start(
        &pg,
        &format!("qb-{pid}"),
        "127.0.0.1:0",
        &["--queue-pool", &pool, "--allow-same-address-tables"],
    );
    let mut clients = queued(a.addr, "competition", &["ia", "ib"]).await;
    clients.extend(queued(b.addr, "competition", &["ic", "id"]).await);
    let codes = seated(&mut clients).await;
    assert!(codes.iter().all(|c| *c == codes[0]), "one table across the instances: {codes:?}");
    let redirected = clients.iter().filter(|c| c.log.iter().any(|m| matches!(m, ServerMsg::Redirect { .. }))).count();
    assert_eq!(redirected, 2, "the two players of the other instance were sent to the table");
    play(&mut clients, 8).await;
    eprintln!("two instances: one table {} for players of both", codes[0]);
}
