//! One seat per account across instances: two real `guandan-server` processes on one
//! PostgreSQL (`GUANDAN_TEST_POSTGRES`; skipped without it — SQLite has one instance, and
//! `hostile_conn.rs` `an_account_holds_one_seat_on_an_instance` covers it). Each test failed
//! before the seat holds were shared (`src/db/seats.rs`).

mod common;
use common::*;
use guandan_proto::{ClientMsg, ErrorCode, ServerMsg};
use std::time::{Duration, Instant};

fn postgres() -> Option<String> {
    let pg = databases().into_iter().find(|d| d != "sqlite");
    if pg.is_none() {
        eprintln!("cluster seats: skipped (no GUANDAN_TEST_POSTGRES)");
    }
    pg
}

/// Two instances of one deployment on `pg` (`extra` flags for the first).
fn two(pg: &str, tag: &str, extra_a: &[&str]) -> (ServerProc, ServerProc) {
    let pid = std::process::id();
    let pool = format!("cs-{tag}-{pid}");
    let mut a_args = vec!["--queue-pool", pool.as_str(), "--allow-same-address-tables"];
    a_args.extend_from_slice(extra_a);
    let a = ServerProc::start(pg, &format!("csa-{tag}-{pid}"), "127.0.0.1:0", &a_args);
    let b = ServerProc::start(
        pg,
        &format!("csb-{tag}-{pid}"),
        "127.0.0.1:0",
        &["--queue-pool", &pool, "--allow-same-address-tables"],
    );
    (a, b)
}

fn is_answer(m: &ServerMsg) -> bool {
    matches!(m, ServerMsg::Error { .. } | ServerMsg::Joined { .. } | ServerMsg::QueueStatus { .. })
}

fn already_seated_in(m: &ServerMsg, code: &str) -> bool {
    matches!(m, ServerMsg::Error { code: c, message, .. } if *c == ErrorCode::AlreadySeated.code() && message.contains(code))
}

/// A round trip on the connection: everything it sent before has been handled.
async fn settled(c: &mut Client) {
    c.send(&ClientMsg::Heartbeat).await;
    c.until("pong", |m| matches!(m, ServerMsg::Pong)).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn one_account_sitting_down_on_two_instances_at_once_gets_one_seat() {
    let Some(pg) = postgres() else { return };
    let (a, b) = two(&pg, "race", &[]);
    let mut host_a = Client::new(a.addr, "host-a").await;
    let room_a = create_room(&mut host_a, 1, None).await;
    let mut host_b = Client::new(b.addr, "host-b").await;
    let room_b = create_room(&mut host_b, 2, None).await;
    let mut on_a = Client::new(a.addr, "twice").await;
    let mut on_b = Client::login(b.addr, "twice-b", on_a.player_id.clone(), on_a.token.clone()).await;
    let mut wins = [0u32; 2];
    for round in 0..25 {
        let (ja, jb) = (
            ClientMsg::JoinRoom { code: room_a.clone(), last_action_seq: None },
            ClientMsg::JoinRoom { code: room_b.clone(), last_action_seq: None },
        );
        // Both at once: each send is handled by its instance as soon as it arrives.
        tokio::join!(on_a.send(&ja), on_b.send(&jb));
        let (ma, mb) = tokio::join!(on_a.until("an answer", is_answer), on_b.until("an answer", is_answer));
        let seated_a = matches!(ma, ServerMsg::Joined { seat: Some(_), .. });
        let seated_b = matches!(mb, ServerMsg::Joined { seat: Some(_), .. });
        assert!(seated_a ^ seated_b, "round {round}: exactly one seat, got {ma:?} and {mb:?}");
        let (winner, loser_msg, held) = if seated_a { (&mut on_a, &mb, &room_a) } else { (&mut on_b, &ma, &room_b) };
        assert!(already_seated_in(loser_msg, held), "round {round}: the other refused naming {held}: {loser_msg:?}");
        wins[usize::from(!seated_a)] += 1;
        winner.send(&ClientMsg::Leave).await;
        settled(winner).await;
    }
    eprintln!("one seat across instances: 25 concurrent rounds, won on A {} and on B {}", wins[0], wins[1]);
    // The rooms hold only their hosts.
    for (host, code) in [(&mut host_a, &room_a), (&mut host_b, &room_b)] {
        host.send(&ClientMsg::Resync).await;
        let ServerMsg::Room { room } = host.until("its room", |m| matches!(m, ServerMsg::Room { .. })).await else {
            unreachable!()
        };
        assert_eq!(room.seats.iter().filter(|s| s.player.is_some()).count(), 1, "{code}: {room:?}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn queueing_on_one_instance_while_seated_on_the_other_is_refused() {
    let Some(pg) = postgres() else { return };
    let (a, b) = two(&pg, "queue", &[]);
    let mut host = Client::new(a.addr, "host").await;
    let room = create_room(&mut host, 3, None).await;
    let mut on_a = Client::new(a.addr, "seated").await;
    let mut on_b = Client::login(b.addr, "seated-b", on_a.player_id.clone(), on_a.token.clone()).await;
    on_a.send(&ClientMsg::JoinRoom { code: room.clone(), last_action_seq: None }).await;
    on_a.until("joined", |m| matches!(m, ServerMsg::Joined { seat: Some(_), .. })).await;
    // Seated on A: B refuses the queue, a room of its own and a seat in B's lobby.
    on_b.send(&ClientMsg::QueueJoin { rules: None }).await;
    let m = on_b.until("an answer to queue_join", is_answer).await;
    assert!(already_seated_in(&m, &room), "queue_join on B while seated on A: {m:?}");
    on_b.send(&ClientMsg::CreateRoom { rules: None, spectator_delay: None, seed: Some(4), spectator_hands: None })
        .await;
    let m = on_b.until("an answer to create_room", is_answer).await;
    assert!(already_seated_in(&m, &room), "create_room on B while seated on A: {m:?}");
    // Out of the room on A: B may queue; then A refuses a seat while B's queue holds the account.
    on_a.send(&ClientMsg::Leave).await;
    settled(&mut on_a).await;
    on_b.send(&ClientMsg::QueueJoin { rules: None }).await;
    let m = on_b.until("an answer to queue_join", is_answer).await;
    assert!(matches!(m, ServerMsg::QueueStatus { queued: true, .. }), "queue_join on B after leaving A: {m:?}");
    on_a.send(&ClientMsg::JoinRoom { code: room.clone(), last_action_seq: None }).await;
    let m = on_a.until("an answer to join_room", is_answer).await;
    assert!(
        matches!(&m, ServerMsg::Error { code, message, .. } if *code == ErrorCode::AlreadySeated.code() && message.contains("queue")),
        "join_room on A while queued on B: {m:?}"
    );
    assert!(metric(a.addr, "guandan_seats_refused_total").unwrap_or(0.0) >= 1.0);
    assert!(metric(b.addr, "guandan_seats_refused_total").unwrap_or(0.0) >= 2.0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crashed_instances_seats_free_themselves() {
    let Some(pg) = postgres() else { return };
    let (mut a, b) = two(&pg, "crash", &["--lease-ms", "900"]);
    let mut host = Client::new(a.addr, "host").await;
    let room = create_room(&mut host, 5, None).await;
    let mut on_a = Client::new(a.addr, "seated").await;
    on_a.send(&ClientMsg::JoinRoom { code: room.clone(), last_action_seq: None }).await;
    on_a.until("joined", |m| matches!(m, ServerMsg::Joined { seat: Some(_), .. })).await;
    let mut on_b = Client::login(b.addr, "seated-b", on_a.player_id.clone(), on_a.token.clone()).await;
    on_b.send(&ClientMsg::QueueJoin { rules: None }).await;
    let m = on_b.until("an answer to queue_join", is_answer).await;
    assert!(already_seated_in(&m, &room), "while A lives: {m:?}");
    a.kill();
    let killed = Instant::now();
    // The hold lapses with A's lease (900 ms); until then B refuses.
    let mut tries = 0;
    loop {
        tries += 1;
        on_b.send(&ClientMsg::QueueJoin { rules: None }).await;
        let m = on_b.until("an answer to queue_join", is_answer).await;
        if matches!(m, ServerMsg::QueueStatus { queued: true, .. }) {
            break;
        }
        assert!(already_seated_in(&m, &room), "only the old seat refuses: {m:?}");
        assert!(killed.elapsed() < Duration::from_secs(20), "the seat on the dead instance was never freed");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    eprintln!("crashed instance: its seat free on B after {:?} ({tries} tries)", killed.elapsed());
}
