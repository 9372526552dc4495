//! Time that is not the player's: a turn's clock counts only while the player can act. Time spent
//! in the lobby before the match and time the server itself was stopped (SIGSTOP, an overloaded
//! machine) are nobody's thinking time; a player whose heartbeats were waiting while the server
//! was stopped keeps the seat; AI seats (and a hosted seat) act at the room's pace, so a player
//! who drops out has a match to come back to; and a deal's end is followed by a break in which
//! nothing moves (the result is read, a player on auto-play takes the seat back).

mod common;

use common::*;
use guandan_core::seat::Seat;
use guandan_proto::{ClientMsg, SeatSetting, ServerMsg, WireOut};
use std::process::Command;
use std::time::{Duration, Instant};

/// The competition preset's turn limit (s).
const TURN_LIMIT: u64 = 30;

/// A server of its own on SQLite and loopback (named for the test), with these flags.
fn server(name: &str, flags: &[&str]) -> ServerProc {
    ServerProc::start(&database_url("sqlite"), &format!("{name}-{}", std::process::id()), "127.0.0.1:0", flags)
}

/// A room with `host` in seat 0 and L1 AI seats in 1–3.
async fn room_with_ai(addr: std::net::SocketAddr, seed: u64) -> Client {
    let mut host = Client::new(addr, "south").await;
    create_room(&mut host, seed, None).await;
    for seat in [Seat::ONE, Seat::TWO, Seat::THREE] {
        host.send(&ClientMsg::SetSeat { seat, setting: SeatSetting::Ai { level: 1 } }).await;
    }
    host
}

async fn start(host: &mut Client) {
    host.send(&ClientMsg::Ready { ready: true }).await;
    host.send(&ClientMsg::Start).await;
    host.until("the match", |m| matches!(m, ServerMsg::State { .. } | ServerMsg::Applied { .. })).await;
}

/// Receives (with heartbeats) for `d`; returns the messages.
async fn idle(c: &mut Client, d: Duration) -> Vec<ServerMsg> {
    let until = Instant::now() + d;
    let mut got = Vec::new();
    while let Some(left) = until.checked_duration_since(Instant::now()) {
        if let Some(m) = c.try_recv(left.min(Duration::from_millis(300))).await {
            got.push(m);
        }
    }
    got
}

/// Plays (L1) until the host is prompted in the play phase; returns the prompt's seq.
async fn until_prompted_to_play(c: &mut Client) -> u64 {
    let deadline = Instant::now() + Duration::from_secs(60);
    loop {
        assert!(Instant::now() < deadline, "never prompted to play");
        if let Some(view) = c.prompt.clone() {
            if view.phase == guandan_core::game::Phase::Play {
                return view.seq;
            }
            c.act().await;
        }
        c.recv().await;
    }
}

/// The actions of `seat` among `msgs` (a timeout the server made for it included).
fn acted_for(msgs: &[ServerMsg], seat: Seat) -> Vec<&ServerMsg> {
    msgs.iter().filter(|m| matches!(m, ServerMsg::Applied { seat: s, .. } if *s == seat)).collect()
}

/// The lobby's waiting time was counted as the first turn's (the clock ran from the room's
/// creation): a player who waited in the lobby for longer than the turn limit was timed out
/// ("You: pass") before seeing the table.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn time_in_the_lobby_is_not_the_first_turns() {
    let server = server("lobby", &[]);
    let mut host = room_with_ai(server.addr, 5).await;
    idle(&mut host, Duration::from_secs(TURN_LIMIT + 2)).await;
    start(&mut host).await;
    let seq = until_prompted_to_play(&mut host).await;
    // Well inside the turn limit: nothing happens for south.
    let got = idle(&mut host, Duration::from_secs(4)).await;
    let acted = acted_for(&got, Seat::ZERO);
    assert!(acted.is_empty(), "south was acted for within 4 s of its first prompt: {acted:?}");
    assert_eq!(host.last_seq, seq, "the table moved on without south");
    // And south's own play is taken.
    host.act().await;
    host.until("south's play", |m| matches!(m, ServerMsg::Applied { seat: Seat::ZERO, .. })).await;
    assert!(host.errors().is_empty(), "{:?}", host.errors());
}

/// The server was stopped (SIGSTOP) for longer than the heartbeat timeout while south had to
/// play: when it resumes, south's heartbeats (waiting in the socket) keep the seat, and the
/// stopped time is not south's: the turn still has about its whole limit.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stopped_server_costs_no_one_the_seat_or_the_turn() {
    let server = server("stop", &["--heartbeat-timeout-ms", "4000"]);
    let mut host = room_with_ai(server.addr, 6).await;
    start(&mut host).await;
    let seq = until_prompted_to_play(&mut host).await;
    let pid = server.pid().to_string();
    assert!(Command::new("kill").args(["-STOP", &pid]).status().unwrap().success());
    // Heartbeats go on meanwhile (into the socket's buffer); the server hears nothing of them.
    let stopped = idle(&mut host, Duration::from_secs(16)).await;
    assert!(Command::new("kill").args(["-CONT", &pid]).status().unwrap().success());
    assert!(stopped.is_empty(), "a stopped server sent {stopped:?}");
    // The turn limit minus what passed before the stop is still ahead; 16 s of it is enough to
    // see the difference (before: timed out about 14 s after the resume).
    let got = idle(&mut host, Duration::from_secs(TURN_LIMIT - 14)).await;
    assert!(
        !got.iter().any(|m| matches!(m, ServerMsg::Hosting { seat: Seat::ZERO, on: true })),
        "south was handed to the AI although its heartbeats were waiting"
    );
    let acted = acted_for(&got, Seat::ZERO);
    assert!(acted.is_empty(), "south was acted for: {acted:?}");
    assert_eq!(host.last_seq, seq, "the table moved on without south");
    host.act().await;
    host.until("south's play", |m| matches!(m, ServerMsg::Applied { seat: Seat::ZERO, .. })).await;
    assert!(host.errors().is_empty(), "{:?}", host.errors());
}

/// AI seats wait the room's pace after every action; so does the AI hosting a player who
/// dropped out (before: the match ran on at machine speed to its end while the player was away).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ai_and_hosted_seats_act_at_the_rooms_pace() {
    const PACE_MS: u64 = 400;
    let server = server("pace-ai", &["--ai-pace-ms", &PACE_MS.to_string(), "--heartbeat-timeout-ms", "1000"]);
    let mut host = room_with_ai(server.addr, 8).await;
    let code = match host.log.iter().find(|m| matches!(m, ServerMsg::Joined { .. })) {
        Some(ServerMsg::Joined { code, .. }) => code.clone(),
        _ => unreachable!(),
    };
    start(&mut host).await;
    // South plays a few turns; every AI action arrives at least the pace after the previous
    // action (less a margin for the loopback's jitter).
    let mut last: Option<Instant> = None;
    let mut ai_gaps = Vec::new();
    let deadline = Instant::now() + Duration::from_secs(60);
    while ai_gaps.len() < 12 {
        assert!(Instant::now() < deadline, "too few AI actions: {ai_gaps:?}");
        if host.prompt.is_some() {
            host.act().await;
        }
        let m = host.recv().await;
        if let ServerMsg::Applied { seat, actions, .. } = m {
            let now = Instant::now();
            if seat != Seat::ZERO
                && actions == 1
                && let Some(t) = last
            {
                ai_gaps.push(now - t);
            }
            last = Some(now);
        }
    }
    let margin = Duration::from_millis(100);
    assert!(
        ai_gaps.iter().all(|g| *g + margin >= Duration::from_millis(PACE_MS)),
        "AI actions closer than the pace: {ai_gaps:?}"
    );
    // South drops out: after the heartbeat timeout the AI hosts the seat, at the same pace.
    let (id, token) = (host.player_id.clone(), host.token.clone());
    drop(host);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let away = Duration::from_secs(4);
    // The match moves on by about one action per pace (a deal's end may add a timeout or
    // two at once), never by hundreds.
    let before = stored_actions(server.addr);
    tokio::time::sleep(away).await;
    let after = stored_actions(server.addr);
    let most = away.as_millis() as u64 / PACE_MS + 4;
    assert!(after > before, "the hosted match stands still ({before} → {after})");
    assert!(after - before <= most, "{} actions in {away:?} while south was away (at most {most})", after - before);
    // Back: south rejoins its seat and the match is still on.
    let mut back = Client::login(server.addr, "south", id, token).await;
    back.send(&ClientMsg::JoinRoom { code, last_action_seq: None }).await;
    back.until("the table again", |m| matches!(m, ServerMsg::State { .. })).await;
    assert!(
        !back.log.iter().any(|m| matches!(m, ServerMsg::MatchStored { .. })),
        "the match ended while south was away"
    );
}

/// Actions this server has applied (its metrics).
fn stored_actions(addr: std::net::SocketAddr) -> u64 {
    metric(addr, "guandan_actions_total").expect("guandan_actions_total") as u64
}

/// A player away when the match ended and back during the rematch vote is sent the finished
/// match's full state with how it ended (the client shows the result panel; before, it got a
/// state without the result and waited on "restoring the table").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_player_back_after_the_end_is_told_the_result() {
    let server = server("back", &["--heartbeat-timeout-ms", "300", "--hosting-ai", "1", "--vote-timeout-ms", "120000"]);
    let mut host = room_with_ai(server.addr, 9).await;
    let code = match host.log.iter().find(|m| matches!(m, ServerMsg::Joined { .. })) {
        Some(ServerMsg::Joined { code, .. }) => code.clone(),
        _ => unreachable!(),
    };
    start(&mut host).await;
    let (id, token) = (host.player_id.clone(), host.token.clone());
    drop(host);
    // The server's AI plays south's seat to the end (no pace here).
    let deadline = Instant::now() + Duration::from_secs(120);
    while metric(server.addr, "guandan_matches_finished_total") != Some(1.0) {
        assert!(Instant::now() < deadline, "the hosted match did not end");
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let mut back = Client::login(server.addr, "south", id, token).await;
    back.send(&ClientMsg::JoinRoom { code, last_action_seq: None }).await;
    match back.until("the final state", |m| matches!(m, ServerMsg::State { .. })).await {
        ServerMsg::State { view, outcome, .. } => {
            assert_eq!(view.phase, guandan_core::game::Phase::MatchOver);
            assert!(outcome.is_some(), "a finished match's state says how it ended");
        }
        _ => unreachable!(),
    }
    back.until("the stored match", |m| matches!(m, ServerMsg::MatchStored { .. })).await;
}

/// The turn's clock starts when the player saw the prompt (`seen`; the client was still drawing
/// the table), but a client saying it saw late gets back no more than the server's grace: seen
/// 8 s after the prompt with a 2 s grace, the turn times out 32 s after the prompt — not at 30
/// (the time before the sight all counted) and not at 38 (the whole limit after a late claim).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_prompt_seen_late_restarts_the_clock_within_the_grace() {
    let server = server("seen", &["--seen-grace-ms", "2000"]);
    let mut host = room_with_ai(server.addr, 10).await;
    start(&mut host).await;
    let seq = until_prompted_to_play(&mut host).await;
    let prompted = Instant::now();
    // The full state says how long south's turn has left (the client's clock shows it).
    host.send(&ClientMsg::Resync).await;
    match host.until("the full state", |m| matches!(m, ServerMsg::State { .. })).await {
        ServerMsg::State { time_left_s, .. } => assert!(
            time_left_s.is_some_and(|t| t > TURN_LIMIT as f64 - 3.0 && t <= TURN_LIMIT as f64),
            "time left on south's turn: {time_left_s:?}"
        ),
        _ => unreachable!(),
    }
    let early = idle(&mut host, Duration::from_secs(8).saturating_sub(prompted.elapsed())).await;
    assert!(acted_for(&early, Seat::ZERO).is_empty(), "south was acted for within 8 s: {early:?}");
    // A spectator has no prompt to see.
    let code = match host.log.iter().find(|m| matches!(m, ServerMsg::Joined { .. })) {
        Some(ServerMsg::Joined { code, .. }) => code.clone(),
        _ => unreachable!(),
    };
    let mut watcher = Client::new(server.addr, "watcher").await;
    watcher.send(&ClientMsg::Spectate { code }).await;
    watcher.until("the room", |m| matches!(m, ServerMsg::Joined { .. })).await;
    watcher.send(&ClientMsg::Seen { seq }).await;
    let refused = watcher.until("the refusal", |m| matches!(m, ServerMsg::Error { .. })).await;
    assert!(
        matches!(refused, ServerMsg::Error { code, .. } if code == guandan_proto::ErrorCode::NotYourSeat as i32),
        "{refused:?}"
    );
    // An earlier state's sight gives nothing; the current one gives back the grace.
    host.send(&ClientMsg::Seen { seq: seq - 1 }).await;
    host.send(&ClientMsg::Seen { seq }).await;
    let before =
        idle(&mut host, (prompted + Duration::from_millis(31_300)).saturating_duration_since(Instant::now())).await;
    assert!(acted_for(&before, Seat::ZERO).is_empty(), "south timed out before the grace it was given: {before:?}");
    assert_eq!(host.last_seq, seq, "the table moved on without south");
    assert_eq!(metric(server.addr, "guandan_prompts_seen_total"), Some(1.0), "only south's current sight counts");
    let after =
        idle(&mut host, (prompted + Duration::from_millis(35_500)).saturating_duration_since(Instant::now())).await;
    assert!(
        !acted_for(&after, Seat::ZERO).is_empty(),
        "south's turn did not time out within the limit and the grace: {after:?}"
    );
    assert!(host.errors().is_empty(), "{:?}", host.errors());
}

/// The ready check timed out while the host sat in a full lobby (three AI seats): the room went
/// back to waiting and every later "ready" was refused ("no ready check now"), so the room could
/// never start. A ready in a full waiting room starts a new ready check.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_lobby_starts_after_its_ready_check_timed_out() {
    let server = server("ready", &["--ready-timeout-ms", "500"]);
    let mut host = room_with_ai(server.addr, 11).await;
    idle(&mut host, Duration::from_millis(1500)).await;
    host.send(&ClientMsg::Ready { ready: true }).await;
    host.send(&ClientMsg::Start).await;
    let first = host
        .until("the match or a refusal", |m| {
            matches!(m, ServerMsg::State { .. } | ServerMsg::Applied { .. } | ServerMsg::Error { .. })
        })
        .await;
    assert!(!matches!(first, ServerMsg::Error { .. }), "refused: {first:?}");
    // The match runs: south is prompted to play.
    until_prompted_to_play(&mut host).await;
}

/// A deal's end is followed by the room's break: no AI (or hosted) seat acts and no clock runs
/// until it is over, and the room tells clients its length. Before, the next deal's tribute was
/// paid a pace after the last card while the player's table still showed the deal's result, so a
/// player on auto-play could not take the seat back for it (issue 24).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deals_end_is_followed_by_the_rooms_break() {
    const BREAK_MS: u64 = 3000;
    let server = server("break", &["--deal-break-ms", &BREAK_MS.to_string()]);
    let mut host = room_with_ai(server.addr, 12).await;
    let told = host.until("the room", |m| matches!(m, ServerMsg::Room { .. })).await;
    assert!(
        matches!(&told, ServerMsg::Room { room } if u64::from(room.deal_break_ms) == BREAK_MS),
        "the room does not tell its break: {told:?}"
    );
    start(&mut host).await;
    // South plays (L1) until the first deal ends.
    let deadline = Instant::now() + Duration::from_secs(120);
    loop {
        assert!(Instant::now() < deadline, "the first deal did not end");
        if host.prompt.is_some() {
            host.act().await;
        }
        let m = host.recv().await;
        if let ServerMsg::Applied { events, .. } = &m
            && events.iter().any(|e| matches!(e, WireOut::DealEnded { .. }))
        {
            break;
        }
    }
    let ended = Instant::now();
    // Within the break nothing is acted (south, on duty or not, does not act either).
    let quiet = idle(&mut host, Duration::from_millis(BREAK_MS - 300)).await;
    let moved: Vec<&ServerMsg> =
        quiet.iter().filter(|m| matches!(m, ServerMsg::Applied { actions: 1.., .. })).collect();
    assert!(moved.is_empty(), "acted within the break: {moved:?}");
    // Then the next deal goes on: south answers its prompts, the AI seats act.
    let deadline = ended + Duration::from_secs(20);
    loop {
        assert!(Instant::now() < deadline, "the next deal did not go on after the break");
        if host.prompt.is_some() {
            host.act().await;
        }
        if let Some(ServerMsg::Applied { seat: Seat::ONE | Seat::TWO | Seat::THREE, actions: 1.., .. }) =
            host.try_recv(Duration::from_millis(300)).await
        {
            break;
        }
    }
    assert!(ended.elapsed() >= Duration::from_millis(BREAK_MS - 100), "an AI seat acted within the break");
    assert!(host.errors().is_empty(), "{:?}", host.errors());
}

/// A player who takes the seat back from auto-play while the AI holds its duty is told that duty
/// anew (its turn with the time left, its tribute or return): the table drew the duty while the
/// seat was the AI's and offered nothing. Before, the message said only that the seat was the
/// player's again, and online the player's return timed out (issue 24).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_seat_taken_back_from_auto_play_is_told_its_duty() {
    // The pace holds south's AI on its turn long enough to take the seat back.
    let server = server("take-back", &["--ai-pace-ms", "1500"]);
    let mut host = room_with_ai(server.addr, 13).await;
    start(&mut host).await;
    until_prompted_to_play(&mut host).await;
    host.act().await;
    host.send(&ClientMsg::AutoPlay { on: true }).await;
    host.until("the AI hosts south", |m| matches!(m, ServerMsg::Hosting { seat: Seat::ZERO, on: true })).await;
    // South's next turn comes while its AI waits the pace: the seat is taken back then.
    host.until("south's turn under the AI", |m| {
        matches!(m, ServerMsg::Applied { events, .. }
            if events.iter().any(|e| matches!(e, WireOut::TurnStarted { seat: Seat::ZERO, .. })))
    })
    .await;
    host.send(&ClientMsg::AutoPlay { on: false }).await;
    let told = host
        .until("the seat back", |m| {
            matches!(m, ServerMsg::Applied { actions: 0, events, .. }
                if events.iter().any(|e| matches!(e, WireOut::ControllerChanged { seat: Seat::ZERO, ai: false })))
        })
        .await;
    let ServerMsg::Applied { events, .. } = &told else { unreachable!() };
    assert!(
        events
            .iter()
            .any(|e| matches!(e, WireOut::TurnStarted { seat: Seat::ZERO, time_limit_s, .. } if *time_limit_s > 0.0)),
        "south was not told its turn with its time: {events:?}"
    );
    // And it is south's to play: its own play is taken.
    assert!(host.prompt.is_some(), "no prompt with the seat back");
    host.act().await;
    host.until("south's own play", |m| matches!(m, ServerMsg::Applied { seat: Seat::ZERO, actions: 1, .. })).await;
    assert!(host.errors().is_empty(), "{:?}", host.errors());
}

/// Taking a seat back from auto-play while another seat's hard AI was thinking stopped the room
/// for good: the seat's return made every decision in flight stale, the late answer was dropped,
/// but the room still waited for it, so no AI seat ever acted again (seen in play: East "thinking"
/// for minutes after Auto-play was turned off).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn taking_a_seat_back_while_a_hard_ai_thinks_does_not_stop_the_room() {
    let server = server("take-back-l3", &["--ai-pace-ms", "0", "--deal-break-ms", "0"]);
    let mut host = Client::new(server.addr, "south").await;
    create_room(&mut host, 17, None).await;
    for seat in [Seat::ONE, Seat::TWO, Seat::THREE] {
        host.send(&ClientMsg::SetSeat { seat, setting: SeatSetting::Ai { level: 3 } }).await;
    }
    start(&mut host).await;
    until_prompted_to_play(&mut host).await;
    host.act().await;
    host.send(&ClientMsg::AutoPlay { on: true }).await;
    host.until("the AI hosts south", |m| matches!(m, ServerMsg::Hosting { seat: Seat::ZERO, on: true })).await;
    // South's AI (the fast hosting level) plays; East's hard AI starts thinking at once.
    host.until("south's AI plays", |m| matches!(m, ServerMsg::Applied { seat: Seat::ZERO, actions: 1.., .. })).await;
    host.send(&ClientMsg::AutoPlay { on: false }).await;
    host.until("the seat back", |m| matches!(m, ServerMsg::Hosting { seat: Seat::ZERO, on: false })).await;
    // The other seats go on playing until South is to act again.
    let deadline = Instant::now() + Duration::from_secs(90);
    let mut others = 0;
    while host.prompt.is_none() || others == 0 {
        assert!(Instant::now() < deadline, "the room stopped: {others} AI actions after the seat was taken back");
        if let Some(ServerMsg::Applied { seat: Seat::ONE | Seat::TWO | Seat::THREE, actions: 1.., .. }) =
            host.try_recv(Duration::from_secs(1)).await
        {
            others += 1;
        }
    }
    assert!(host.errors().is_empty(), "{:?}", host.errors());
}
