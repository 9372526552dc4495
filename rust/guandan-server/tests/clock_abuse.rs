//! Issue 37: holding the table. A surrender proposal (and the votes on it) restarted the turn's
//! clock, so a player could hold its duty for minutes (propose, the partner refuses, `seen`,
//! again); a player whose heartbeat lives but who never acts held every duty for the whole limit
//! all match long; and in a ranked room the AI seats agreed to any surrender (rating tanking in
//! seconds) while a stand-in for a player who left refused every one (its partner could never
//! give up). Real server, real WebSockets, the competition preset's 30 s turn.

mod common;

use common::*;
use guandan_core::game::{ActionKind, Phase};
use guandan_core::seat::Seat;
use guandan_proto::{ClientMsg, ErrorCode, SeatSetting, ServerMsg, WireOut};
use std::time::{Duration, Instant};

/// The competition preset's turn limit (s).
const TURN_LIMIT: u64 = 30;

/// A server of its own on SQLite and loopback (named for the test), with these flags.
fn server(name: &str, flags: &[&str]) -> ServerProc {
    ServerProc::start(&database_url("sqlite"), &format!("{name}-{}", std::process::id()), "127.0.0.1:0", flags)
}

/// Receives on every client (with heartbeats) for `d`.
async fn idle_all(c: &mut [Client], d: Duration) {
    let until = Instant::now() + d;
    while Instant::now() < until {
        for x in c.iter_mut() {
            let left = until.saturating_duration_since(Instant::now());
            x.try_recv(left.min(Duration::from_millis(100))).await;
        }
    }
}

/// Whether an `applied` holds this event.
fn has(m: &ServerMsg, event: &WireOut) -> bool {
    matches!(m, ServerMsg::Applied { events, .. } if events.contains(event))
}

/// The room's code as its creator was told it.
fn code_of(c: &Client) -> String {
    c.log
        .iter()
        .find_map(|m| match m {
            ServerMsg::Joined { code, .. } => Some(code.clone()),
            _ => None,
        })
        .expect("joined")
}

/// A match with `host` in seat 0 and L1 AI in seats 1–3, started.
async fn host_and_three_ai(addr: std::net::SocketAddr, seed: u64) -> Client {
    let mut host = Client::new(addr, "south").await;
    create_room(&mut host, seed, None).await;
    for seat in [Seat::ONE, Seat::TWO, Seat::THREE] {
        host.send(&ClientMsg::SetSeat { seat, setting: SeatSetting::Ai { level: 1 } }).await;
    }
    host.send(&ClientMsg::Ready { ready: true }).await;
    host.send(&ClientMsg::Start).await;
    host.until("the match", |m| matches!(m, ServerMsg::State { .. })).await;
    host
}

/// Proposes to surrender for `c`'s seat (again on a newer state when the table moved first);
/// returns the `applied` that carries the proposal.
async fn propose(c: &mut Client) -> ServerMsg {
    let proposed = WireOut::SurrenderProposed { seat: c.seat.expect("a seat") };
    for _ in 0..10 {
        let seq = c.last_seq;
        c.intent(seq, ActionKind::ProposeSurrender).await;
        let m =
            c.until("the proposal or a refusal", |m| matches!(m, ServerMsg::Error { .. }) || has(m, &proposed)).await;
        if matches!(m, ServerMsg::Applied { .. }) {
            return m;
        }
    }
    panic!("{}: the proposal was never taken: {:?}", c.name, c.errors());
}

/// Propose, the partner refuses, `seen` the new prompt, and again: the proposals, the votes and
/// the sights made no duty longer. The duty times out at the limit plus the seen grace once
/// (before: each proposal restarted the clock, a duty was held for 108.7 s of a 30 s limit).
/// A team's second proposal of the deal is refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn proposing_refusing_and_seeing_cannot_hold_a_duty_past_the_limit() {
    const GRACE_MS: u64 = 2000;
    let server = server("cycle", &["--seen-grace-ms", &GRACE_MS.to_string()]);
    let mut host = Client::new(server.addr, "south").await;
    let code = create_room(&mut host, 21, None).await;
    host.send(&ClientMsg::SetSeat { seat: Seat::ONE, setting: SeatSetting::Ai { level: 1 } }).await;
    let mut partner = Client::new(server.addr, "north").await;
    partner.send(&ClientMsg::JoinRoom { code, last_action_seq: None }).await;
    partner.until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
    assert_eq!(partner.seat, Some(Seat::TWO));
    host.send(&ClientMsg::SetSeat { seat: Seat::THREE, setting: SeatSetting::Ai { level: 1 } }).await;
    let mut c = vec![host, partner];
    start_when_ready(&mut c).await;
    // Both play (L1) until south is to play.
    let deadline = Instant::now() + Duration::from_secs(60);
    let seq = loop {
        assert!(Instant::now() < deadline, "south was never prompted to play");
        if let Some(v) = c[0].prompt.clone() {
            if v.phase == Phase::Play {
                break v.seq;
            }
            c[0].act().await;
        }
        if c[1].prompt.is_some() {
            c[1].act().await;
        }
        for x in c.iter_mut() {
            x.try_recv(Duration::from_millis(50)).await;
        }
    };
    let prompted = Instant::now();
    c[0].send(&ClientMsg::Seen { seq }).await;
    idle_all(&mut c, Duration::from_secs(8)).await;
    assert_eq!(c[0].last_seq, seq, "the table moved on without south");
    // Propose; the partner refuses; south sees its prompt again.
    propose(&mut c[0]).await;
    let refused = WireOut::SurrenderVoted { seat: Seat::TWO, accept: false };
    let vote_seq = c[0].last_seq;
    c[1].sync_to(vote_seq).await;
    c[1].intent(vote_seq, ActionKind::SurrenderVote { accept: false }).await;
    c[0].until("the partner's refusal", |m| has(m, &refused)).await;
    let seen = c[0].last_seq;
    c[0].send(&ClientMsg::Seen { seq: seen }).await;
    idle_all(&mut c, (prompted + Duration::from_secs(16)).saturating_duration_since(Instant::now())).await;
    // Again: the team made its proposal of this deal (either of its players); the answers are
    // checked after the clock.
    let mut answers = Vec::new();
    for x in c.iter_mut() {
        let seq = x.last_seq;
        x.intent(seq, ActionKind::ProposeSurrender).await;
        let until = Instant::now() + Duration::from_secs(3);
        let mut answer = None;
        while answer.is_none() && Instant::now() < until {
            answer = x.try_recv(Duration::from_millis(100)).await.filter(|m| {
                matches!(m, ServerMsg::Error { .. }) || has(m, &WireOut::SurrenderProposed { seat: Seat::ZERO })
            });
        }
        answers.push((x.name.clone(), answer));
    }
    let seq = c[0].last_seq;
    c[0].send(&ClientMsg::Seen { seq }).await;
    // The duty ends by the limit and the grace (the tick is 0.5 s; a margin for the loopback).
    let latest = prompted + Duration::from_millis(TURN_LIMIT * 1000 + GRACE_MS + 1500);
    let timed_out = WireOut::TimedOut { seat: Seat::ZERO };
    let mut at = None;
    while at.is_none() && Instant::now() < latest {
        for x in c.iter_mut() {
            if let Some(m) = x.try_recv(Duration::from_millis(100)).await
                && has(&m, &timed_out)
            {
                at = Some(prompted.elapsed());
            }
        }
    }
    let at = at.unwrap_or_else(|| panic!("south still held its duty {:?} after the prompt", prompted.elapsed()));
    assert!(at >= Duration::from_secs(TURN_LIMIT - 1), "timed out early: {at:?}");
    for (name, answer) in answers {
        assert!(
            matches!(&answer, Some(ServerMsg::Error { code, .. }) if *code == ErrorCode::SurrenderRefused.code()),
            "{name}'s second proposal of the deal: {answer:?}"
        );
    }
    eprintln!("south's duty timed out {at:?} after its prompt");
}

/// A player whose heartbeat lives but who lets its duties time out is handed to the AI after
/// `--auto-play-after-timeouts` of them in a row (the room is told: `hosting`, the seat's info);
/// any intent of the player takes the seat back, and it is asked for its duties again. Before,
/// such a player held every duty for the whole limit all match long (≈ 5 hours).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_who_never_acts_is_handed_to_the_ai_and_takes_the_seat_back_by_acting() {
    let server = server("idle", &["--auto-play-after-timeouts", "2"]);
    let mut host = host_and_three_ai(server.addr, 22).await;
    // South does nothing: two of its duties time out, then the AI takes the seat.
    let deadline = Instant::now() + Duration::from_secs(2 * TURN_LIMIT + 20);
    let timed_out = WireOut::TimedOut { seat: Seat::ZERO };
    let mut timeouts = 0;
    loop {
        assert!(Instant::now() < deadline, "south was not handed to the AI ({timeouts} timeouts)");
        let Some(m) = host.try_recv(Duration::from_millis(300)).await else { continue };
        if has(&m, &timed_out) {
            timeouts += 1;
        }
        if matches!(m, ServerMsg::Hosting { seat: Seat::ZERO, on: true }) {
            break;
        }
    }
    assert_eq!(timeouts, 2, "handed over after the second timeout in a row");
    host.until("the seat shown hosted", |m| matches!(m, ServerMsg::Room { room } if room.seats[0].hosted)).await;
    // The AI plays the seat: an action of south's that is no timeout.
    host.until(
        "the AI plays south",
        |m| matches!(m, ServerMsg::Applied { seat: Seat::ZERO, actions: 1.., events, .. } if !events.contains(&timed_out)),
    )
    .await;
    // South acts again (any intent): the seat is its own again.
    let seq = host.last_seq;
    host.intent(seq, ActionKind::Pass).await;
    host.until("the seat back", |m| matches!(m, ServerMsg::Hosting { seat: Seat::ZERO, on: false })).await;
    let deadline = Instant::now() + Duration::from_secs(TURN_LIMIT);
    while host.prompt.is_none() {
        assert!(Instant::now() < deadline, "south is not asked for its duty again");
        let m = host.recv().await;
        assert!(!has(&m, &timed_out), "south timed out again: {m:?}");
    }
    host.act().await;
    host.until(
        "south's own action",
        |m| matches!(m, ServerMsg::Applied { seat: Seat::ZERO, actions: 1.., events, .. } if !events.contains(&timed_out)),
    )
    .await;
}

/// In a ranked room an AI seat (the queue's fill) never agrees to a surrender: alone with AI
/// partners, a player could otherwise lose a rated match on purpose in seconds.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_ranked_room_an_ai_partner_refuses_a_surrender() {
    let server = server("ranked-ai", &["--test-ranked-rooms"]);
    let mut host = host_and_three_ai(server.addr, 23).await;
    let m = propose(&mut host).await;
    assert!(has(&m, &WireOut::SurrenderVoted { seat: Seat::TWO, accept: false }), "the AI partner refuses: {m:?}");
    let ServerMsg::Applied { events, .. } = &m else { unreachable!() };
    assert!(!events.iter().any(|e| matches!(e, WireOut::MatchEnded { .. })), "the match was given up: {m:?}");
    // The match goes on.
    host.send(&ClientMsg::Resync).await;
    match host.until("the state", |m| matches!(m, ServerMsg::State { .. })).await {
        ServerMsg::State { outcome, view, .. } => assert!(outcome.is_none() && view.phase != Phase::MatchOver),
        _ => unreachable!(),
    }
}

/// In a ranked room the stand-in for a player on auto-play (or gone) refuses the opponents'
/// proposal but agrees to its partner's: the partner who stayed can give up (before: never,
/// the stand-in refused every proposal).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_ranked_room_a_stand_in_accepts_its_partners_proposal() {
    let server = server("ranked-stand-in", &["--test-ranked-rooms"]);
    let (_code, mut c) = four_player_room(server.addr, 24).await;
    play(&mut c, 4).await;
    c[2].send(&ClientMsg::AutoPlay { on: true }).await;
    for x in c.iter_mut() {
        x.until("seat 2 on auto-play", |m| matches!(m, ServerMsg::Hosting { seat: Seat::TWO, on: true })).await;
    }
    // The opponents propose: the stand-in refuses; east's partner too, which closes the vote.
    let m = propose(&mut c[1]).await;
    assert!(has(&m, &WireOut::SurrenderVoted { seat: Seat::TWO, accept: false }), "{m:?}");
    let seq = c[1].last_seq;
    c[3].sync_to(seq).await;
    c[3].intent(seq, ActionKind::SurrenderVote { accept: false }).await;
    c[1].until("the vote closed", |m| has(m, &WireOut::SurrenderVoted { seat: Seat::THREE, accept: false })).await;
    // Its partner proposes: the stand-in agrees; an opponent accepts and the match ends.
    let seq = c[1].last_seq;
    c[0].sync_to(seq).await;
    let m = propose(&mut c[0]).await;
    assert!(
        has(&m, &WireOut::SurrenderVoted { seat: Seat::TWO, accept: true }),
        "the stand-in follows its partner: {m:?}"
    );
    let seq = c[0].last_seq;
    c[1].sync_to(seq).await;
    c[1].intent(seq, ActionKind::SurrenderVote { accept: true }).await;
    c[0].until("the match given up", |m| {
        matches!(m, ServerMsg::Applied { events, .. } if events.iter().any(|e| matches!(e,
            WireOut::MatchEnded { outcome } if outcome.reason() == guandan_core::game::EndReason::Surrender)))
    })
    .await;
    let no = c[0].stored().await;
    let (meta, _) = stored_log(server.addr, &code_of(&c[0]), no);
    assert_eq!(meta["ranked"].as_bool(), Some(true), "{meta}");
}
