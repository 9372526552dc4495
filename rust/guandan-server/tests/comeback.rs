//! A player back from a long silence (issue 52: a 36 s server stall, the game's connection given
//! up and made again) rejoins as the game does — `join_room` with its last action seq, then
//! `resync` — and every message is placed by the protocol's `Session` as the game's network
//! thread places it. The seat must come back to the player with its duty told: on its turn a
//! prompt with a running clock, nothing left waiting for a state that never comes.

mod common;

use common::*;
use guandan_core::seat::Seat;
use guandan_proto::{ClientMsg, Event, Order, SeatSetting, ServerMsg};
use std::time::{Duration, Instant};

fn server(name: &str, flags: &[&str]) -> ServerProc {
    ServerProc::start(&database_url("sqlite"), &format!("{name}-{}", std::process::id()), "127.0.0.1:0", flags)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_back_after_being_hosted_gets_its_turn_with_a_clock() {
    // A 1 s heartbeat timeout: the seat is hosted soon after the drop; the AI waits 6 s a move,
    // so the player comes back while its own turn is the hosting AI's.
    let server = server("comeback", &["--heartbeat-timeout-ms", "1000", "--ai-pace-ms", "6000"]);
    let mut host = Client::new(server.addr, "south").await;
    let code = create_room(&mut host, 11, None).await;
    for seat in [Seat::ONE, Seat::TWO, Seat::THREE] {
        host.send(&ClientMsg::SetSeat { seat, setting: SeatSetting::Ai { level: 1 } }).await;
    }
    host.send(&ClientMsg::Ready { ready: true }).await;
    host.send(&ClientMsg::Start).await;
    host.until("the match", |m| matches!(m, ServerMsg::State { .. } | ServerMsg::Applied { .. })).await;
    // A few own plays first.
    let deadline = Instant::now() + Duration::from_secs(60);
    while host.prompt.as_ref().is_none_or(|p| p.phase != guandan_core::game::Phase::Play) {
        assert!(Instant::now() < deadline, "never prompted to play");
        host.act().await;
        host.recv().await;
    }
    let last = host.last_seq;
    let (id, token) = (host.player_id.clone(), host.token.clone());
    drop(host);
    // Away on the player's own turn, long enough to be hosted (not for the AI to play it).
    tokio::time::sleep(Duration::from_millis(2500)).await;

    let mut back = Client::login(server.addr, "south", id, token).await;
    // What the game's session sends after the welcome of a reconnect: the rejoin, and the resync.
    back.send(&ClientMsg::JoinRoom { code, last_action_seq: Some(last) }).await;
    back.send(&ClientMsg::Resync).await;
    // The session has been told of the rejoin (`sending`): place what comes as the game would.
    let mut placed = Vec::new();
    let until = Instant::now() + Duration::from_secs(20);
    let mut prompted_with_clock = false;
    while Instant::now() < until && !prompted_with_clock {
        let Some(m) = back.try_recv(Duration::from_millis(500)).await else { continue };
        let (event, answers) = back.session.received(m.clone(), Instant::now());
        for a in answers {
            back.send(&a).await;
        }
        let Event::Message(_, order) = event else { continue };
        placed.push(format!("{} {order:?}", describe(&m)));
        if back.session.awaiting_state() {
            continue;
        }
        match (&m, order) {
            (ServerMsg::State { view, time_left_s, .. }, _) if view.seat.is_some_and(|s| view.to_act.contains(&s)) => {
                prompted_with_clock = time_left_s.is_some_and(|t| t > 1.0);
                assert!(
                    prompted_with_clock,
                    "the state after the rejoin gives the player's turn no clock: {placed:#?}"
                );
            }
            (ServerMsg::Applied { prompt: Some(_), events, .. }, Order::Next) => {
                prompted_with_clock = events.iter().any(|e| {
                    matches!(e, guandan_proto::WireOut::TurnStarted { seat: Seat::ZERO, time_limit_s, .. } if *time_limit_s > 1.0)
                }) || matches!(
                    m,
                    ServerMsg::Applied { prompt: Some(ref p), .. } if p.phase != guandan_core::game::Phase::Play
                );
            }
            _ => {}
        }
    }
    assert!(
        !back.session.awaiting_state(),
        "the session still waits for a state after 20 s (every action since is a gap): {placed:#?}"
    );
    assert!(prompted_with_clock, "never prompted with a running clock after the rejoin: {placed:#?}");
    // And the seat is the player's: its play is taken.
    back.act().await;
    back.until("south's own play", |m| matches!(m, ServerMsg::Applied { seat: Seat::ZERO, .. })).await;
    assert!(back.errors().is_empty(), "{:?}", back.errors());
}

fn describe(m: &ServerMsg) -> String {
    match m {
        ServerMsg::Applied { action_seq, actions, events, prompt, .. } => {
            format!("applied {action_seq} ({actions}) {:?} prompt={}", events, prompt.is_some())
        }
        ServerMsg::State { action_seq, time_left_s, view, .. } => {
            format!("state {action_seq} time_left={time_left_s:?} to_act={:?}", view.to_act)
        }
        other => format!("{other:?}").chars().take(120).collect(),
    }
}

/// Issue 52: a quick match's end reached the players as "the host closed the room" (there is no
/// host). The room's last `room` message now says why it closed: after a match, `match_over`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_quick_match_room_closes_as_match_over() {
    let name = format!("closed-{}", std::process::id());
    let server = ServerProc::start(
        &database_url("sqlite"),
        &name,
        "127.0.0.1:0",
        &["--queue-pool", &name, "--allow-same-address-tables", "--vote-timeout-ms", "1500"],
    );
    let mut clients = Vec::new();
    for n in ["ann", "bob", "cat", "dan"] {
        let mut c = Client::new(server.addr, n).await;
        c.send(&ClientMsg::QueueJoin { rules: Some("competition".into()) }).await;
        c.until("queued", |m| matches!(m, ServerMsg::QueueStatus { queued: true, .. })).await;
        clients.push(c);
    }
    for c in clients.iter_mut() {
        c.until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
        c.until("state", |m| matches!(m, ServerMsg::State { .. })).await;
    }
    // Seat 0's team gives up: the partner and an opponent accept.
    let by_seat = |clients: &[Client], s: Seat| clients.iter().position(|c| c.seat == Some(s)).unwrap();
    let steps = [
        (Seat::ZERO, guandan_core::game::ActionKind::ProposeSurrender),
        (Seat::TWO, guandan_core::game::ActionKind::SurrenderVote { accept: true }),
        (Seat::ONE, guandan_core::game::ActionKind::SurrenderVote { accept: true }),
    ];
    for (seq, (seat, action)) in (clients[0].last_seq..).zip(steps) {
        let i = by_seat(&clients, seat);
        clients[i].intent(seq, action).await;
        for c in clients.iter_mut() {
            c.sync_to(seq + 1).await;
        }
    }
    // Nobody votes to play again: the vote closes, the seats go, the room closes.
    let closed = clients[0]
        .until(
            "the room's end",
            |m| matches!(m, ServerMsg::Room { room } if room.state == guandan_proto::RoomState::Destroyed),
        )
        .await;
    let ServerMsg::Room { room } = closed else { unreachable!() };
    assert_eq!(room.closed, Some(guandan_proto::RoomClosed::MatchOver), "{room:?}");
    // "Find another table" (played in windows, session 28): the game says goodbye to the closed
    // room, maybe twice (its own close handling and the button), then queues. No refusal may land
    // on the queue request (it read one as "every seat must be taken"), and the queue takes it.
    let c = &mut clients[0];
    c.send(&ClientMsg::Leave).await;
    c.send(&ClientMsg::Leave).await;
    c.send(&ClientMsg::QueueJoin { rules: Some("competition".into()) }).await;
    let answer =
        c.until("the queue's answer", |m| matches!(m, ServerMsg::QueueStatus { .. } | ServerMsg::Error { .. })).await;
    assert!(matches!(answer, ServerMsg::QueueStatus { queued: true, .. }), "{}", describe(&answer));
}

/// Issue 52: Auto-play the player turned on was turned off by a reconnect (the seat came back
/// with its duty on the clock). It stays on until the player turns it off.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn auto_play_the_player_chose_survives_a_reconnect() {
    // The AI at a pace: the match (every seat the AI's meanwhile) is still on when south is back.
    let server = server("keep-auto", &["--heartbeat-timeout-ms", "1000", "--ai-pace-ms", "400"]);
    let mut host = Client::new(server.addr, "south").await;
    let code = create_room(&mut host, 12, None).await;
    for seat in [Seat::ONE, Seat::TWO, Seat::THREE] {
        host.send(&ClientMsg::SetSeat { seat, setting: SeatSetting::Ai { level: 1 } }).await;
    }
    host.send(&ClientMsg::Ready { ready: true }).await;
    host.send(&ClientMsg::Start).await;
    host.until("the match", |m| matches!(m, ServerMsg::State { .. } | ServerMsg::Applied { .. })).await;
    host.send(&ClientMsg::AutoPlay { on: true }).await;
    host.until("auto-play on", |m| matches!(m, ServerMsg::Hosting { seat: Seat::ZERO, on: true })).await;
    let (id, token, last) = (host.player_id.clone(), host.token.clone(), host.last_seq);
    drop(host);
    tokio::time::sleep(Duration::from_millis(2500)).await;
    let mut back = Client::login(server.addr, "south", id, token).await;
    back.send(&ClientMsg::JoinRoom { code, last_action_seq: Some(last) }).await;
    let room = back.until("the room", |m| matches!(m, ServerMsg::Room { .. })).await;
    let ServerMsg::Room { room } = room else { unreachable!() };
    assert!(room.state.in_game(), "the match is still on: {room:?}");
    assert!(room.seats[0].hosted, "Auto-play is still on after the reconnect: {room:?}");
    // Nothing hands the seat back by itself meanwhile; turning Auto-play off does.
    let got: Vec<ServerMsg> = {
        let mut got = Vec::new();
        let until = Instant::now() + Duration::from_secs(2);
        while let Some(left) = until.checked_duration_since(Instant::now()) {
            if let Some(m) = back.try_recv(left.min(Duration::from_millis(300))).await {
                got.push(m);
            }
        }
        got
    };
    assert!(!got.iter().any(|m| matches!(m, ServerMsg::Hosting { seat: Seat::ZERO, on: false })), "{got:?}");
    back.send(&ClientMsg::AutoPlay { on: false }).await;
    let mut after = Vec::new();
    let until = Instant::now() + Duration::from_secs(10);
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        match back.try_recv(left.min(Duration::from_millis(300))).await {
            Some(m @ ServerMsg::Hosting { seat: Seat::ZERO, on: false }) => {
                after.push(m);
                break;
            }
            Some(m) => after.push(m),
            None => {}
        }
    }
    assert!(
        matches!(after.last(), Some(ServerMsg::Hosting { seat: Seat::ZERO, on: false })),
        "Auto-play off takes the seat back: {:?}",
        after.iter().map(|m| format!("{m:?}").chars().take(160).collect::<String>()).collect::<Vec<_>>()
    );
}

/// A player back after its room closed (the rejoin refused as `room_not_found`) is told the room
/// is gone — the game shows that (and a finished match's result) instead of waiting behind
/// "resyncing…" for a state that never comes — and the session does not go back to it again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejoin_of_a_room_closed_while_away_says_the_room_is_gone() {
    let server = server("gone", &[]);
    let mut host = Client::new(server.addr, "south").await;
    let code = create_room(&mut host, 12, None).await;
    let joined = ServerMsg::Joined { code: code.clone(), seat: Some(Seat::ZERO) };
    assert!(matches!(host.session.received(joined, Instant::now()).0, Event::Message(..)));
    // The room closes behind the session's back (as it would while the player is away), and the
    // connection drops.
    host.send_text(serde_json::to_string(&ClientMsg::Disband).unwrap()).await;
    host.until(
        "the room's close",
        |m| matches!(m, ServerMsg::Room { room } if room.state == guandan_proto::RoomState::Destroyed),
    )
    .await;
    host.session.dropped(Instant::now(), 0);
    host.reconnect(server.addr).await;
    // The session's rejoin after the welcome, as the game sends it.
    assert_eq!(host.session.room(), Some((code.as_str(), Some(Seat::ZERO))));
    host.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
    let refusal = host.until("the refusal", |m| matches!(m, ServerMsg::Error { .. })).await;
    let (event, answers) = host.session.received(refusal.clone(), Instant::now());
    assert!(
        matches!(&event, Event::RoomGone { code: gone, .. } if *gone == code),
        "the refused rejoin is the room gone: {event:?} ({refusal:?})"
    );
    assert!(answers.is_empty());
    assert_eq!(host.session.room(), None, "nothing to go back to");
}
