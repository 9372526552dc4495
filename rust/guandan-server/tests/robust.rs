//! Lost connections, restarts, surrender: against the real binary over loopback, on SQLite and
//! (when configured) PostgreSQL. Bad input from seated players is in `bad_intents.rs`.

mod common;
use common::*;
use guandan_core::game::ActionKind;
use guandan_core::seat::Seat;
use guandan_proto::{ClientMsg, ServerMsg};
use std::time::Duration;

/// Heartbeat loss → HOSTING (the AI plays the seat) → reconnect with the last action seq →
/// the missed actions, in order → the human plays again; the match finishes, nothing leaked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn heartbeat_loss_hosting_and_reconnect_with_catch_up() {
    for db in databases() {
        let server = ServerProc::start(
            &database_url(&db),
            &format!("host-{}", std::process::id()),
            "127.0.0.1:0",
            &["--heartbeat-timeout-ms", "2500", "--hosting-ai", "1"],
        );
        let (code, mut c) = four_player_room(server.addr, 5150).await;
        play(&mut c, 30).await;
        // East goes silent: the socket closes without a word.
        let mut east = c.remove(1);
        let _ = east.ws.close(None).await;
        let left_at = east.last_seq;
        for _ in 0..200 {
            if c[0].log.iter().any(|m| matches!(m, ServerMsg::Hosting { seat: Seat::ONE, on: true })) {
                break;
            }
            play(&mut c, 1).await;
        }
        assert!(
            c[0].log.iter().any(|m| matches!(m, ServerMsg::Hosting { seat: Seat::ONE, on: true })),
            "hosting announced"
        );
        // The AI plays east's seat while the others play on.
        let mut ai_moves = 0;
        for _ in 0..200 {
            play(&mut c, 1).await;
            let logged = c[0]
                .log
                .iter()
                .filter(|m| matches!(m, ServerMsg::Applied { seat: Seat::ONE, actions: 1.., .. }))
                .count();
            ai_moves = logged;
            if logged >= 3 && c[0].last_seq > left_at + 15 {
                break;
            }
        }
        assert!(ai_moves >= 1, "the AI acted for the hosted seat");
        let missed = c[0].last_seq - left_at;
        // Back with the last action seq received: the missed actions arrive, in order.
        east.reconnect(server.addr).await;
        east.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: Some(left_at) }).await;
        east.until("joined", |m| matches!(m, ServerMsg::Joined { seat: Some(Seat::ONE), .. })).await;
        let target = c[0].last_seq;
        east.sync_to(target).await;
        let caught: Vec<u64> = east
            .log
            .iter()
            .filter_map(|m| match m {
                ServerMsg::Applied { action_seq, actions: 1.., .. } if *action_seq > left_at => Some(*action_seq),
                _ => None,
            })
            .collect();
        assert_eq!(caught, (left_at + 1..=target).collect::<Vec<_>>(), "catch-up: every missed action once");
        assert!(missed as usize == caught.len());
        c[0].until("hosting off", |m| matches!(m, ServerMsg::Hosting { seat: Seat::ONE, on: false })).await;
        c.insert(1, east);
        play(&mut c, 20_000).await;
        let no = wait_stored(&mut c).await;
        let (_, log) = stored_log(server.addr, &code, no);
        let states = states(&log);
        for x in &c {
            scan(x, &log, &states, x.seat, Some(0));
        }
        eprintln!("[{db}] hosting: {missed} actions missed and caught up; {} in the match", log.actions.len());
    }
}

/// kill -9 mid-match; the restarted server restores the room from the stored log to the same
/// state hash; the clients reconnect and finish. Then SIGTERM: clients are told.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn restart_mid_match_restores_the_same_hash() {
    for db in databases() {
        let mut server =
            ServerProc::start(&database_url(&db), &format!("restart-{}", std::process::id()), "127.0.0.1:0", &[]);
        let (code, mut c) = four_player_room(server.addr, 31337).await;
        play(&mut c, 150).await;
        let seq = c[0].last_seq;
        let hash = c[0].resync_hash().await;
        server.kill_and_restart();
        for x in c.iter_mut() {
            x.reconnect(server.addr).await;
            x.prompt = None;
            let last = x.last_seq;
            x.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: Some(last) }).await;
            x.until("joined", |m| matches!(m, ServerMsg::Joined { .. })).await;
        }
        for x in c.iter_mut() {
            assert_eq!(x.resync_hash().await, hash, "{}: restored to the same state", x.name);
            assert_eq!(x.last_seq, seq);
        }
        play(&mut c, 20_000).await;
        let no = wait_stored(&mut c).await;
        let (_, log) = stored_log(server.addr, &code, no);
        let states = states(&log);
        assert_eq!(states[seq as usize].state_hash(), hash);
        for x in &c {
            scan(x, &log, &states, x.seat, None);
        }
        let status = server.terminate();
        assert!(status.success(), "graceful exit: {status:?}");
        for x in c.iter_mut() {
            x.until("bye", |m| matches!(m, ServerMsg::Bye { code: 57, .. })).await;
        }
        eprintln!("[{db}] restart at action {seq}: same hash; match finished with {} actions", log.actions.len());
    }
}

/// Surrender as the design spec says: proposer → partner agrees → opponents vote; one
/// opponent's acceptance suffices. Both opponents refuse: play goes on. Later (the other team:
/// each team proposes once a deal), one refuses and the other accepts: the match ends by
/// surrender and is stored.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn surrender_with_an_opponents_veto() {
    for db in databases() {
        let server = ServerProc::start(&database_url(&db), &format!("sur-{}", std::process::id()), "127.0.0.1:0", &[]);
        let (code, mut c) = four_player_room(server.addr, 808).await;
        play(&mut c, 10).await;
        let heard = |c: &Client, seat: Seat, accept: bool| {
            c.log
                .iter()
                .filter(|m| {
                    matches!(m, ServerMsg::Applied { events, .. }
                    if events.contains(&guandan_proto::WireOut::SurrenderVoted { seat, accept }))
                })
                .count()
        };
        let vote = async |c: &mut Vec<Client>, steps: &[(usize, ActionKind)]| {
            for (who, action) in steps {
                let seq = c[*who].last_seq;
                c[*who].intent(seq, action.clone()).await;
                for x in c.iter_mut() {
                    x.sync_to(seq + 1).await;
                }
            }
        };
        let (yes, no) = (ActionKind::SurrenderVote { accept: true }, ActionKind::SurrenderVote { accept: false });
        // Both opponents refuse: the vote closes on the second refusal and play continues.
        vote(&mut c, &[(0, ActionKind::ProposeSurrender), (2, yes.clone()), (1, no.clone()), (3, no.clone())]).await;
        for x in c.iter() {
            assert_eq!(
                (heard(x, Seat::ONE, false), heard(x, Seat::THREE, false)),
                (1, 1),
                "{}: everyone hears both refusals",
                x.name
            );
            assert!(x.errors().is_empty(), "{}: {:?}", x.name, x.errors());
        }
        for x in c.iter_mut() {
            x.send(&ClientMsg::Resync).await;
            x.until("state", |m| matches!(m, ServerMsg::State { .. })).await;
        }
        let before = c[0].last_seq;
        let after = play(&mut c, 10).await;
        assert!(after >= before + 10, "the match goes on after both opponents refused");
        // The other team proposes; one opponent refuses, the other accepts: the team surrenders.
        vote(&mut c, &[(1, ActionKind::ProposeSurrender), (3, yes.clone()), (0, no.clone()), (2, yes.clone())]).await;
        let no_ = wait_stored(&mut c).await;
        let ended = c[1].log.iter().any(|m| {
            matches!(m, ServerMsg::Applied { events, .. } if events.iter().any(|e| matches!(e,
                guandan_proto::WireOut::MatchEnded { outcome } if outcome.winner().map(|t| t.index()) == Some(0)
                    && outcome.reason() == guandan_core::game::EndReason::Surrender)))
        });
        assert!(ended, "the match ended by surrender, won by the opponents");
        let (meta, log) = stored_log(server.addr, &code, no_);
        assert_eq!(log.header.rules.surrender_opponent_accepts, 1, "online rooms use the spec's rule");
        assert_eq!(meta["outcome"]["reason"], "surrender", "{meta}");
        eprintln!("[{db}] surrender: both opponents refused, play went on; one refused, one accepted: ended");
    }
}

/// A seated player who drops out of a lobby (no `leave`) keeps the seat for the lobby grace and
/// gets it back on rejoining; away longer, the seat is freed for others.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_lobby_seat_is_kept_for_the_grace_then_freed() {
    for db in databases() {
        let server = ServerProc::start(
            &database_url(&db),
            &format!("lobby-{}", std::process::id()),
            "127.0.0.1:0",
            &["--lobby-grace-ms", "1500"],
        );
        let mut host = Client::new(server.addr, "host").await;
        let code = create_room(&mut host, 3, None).await;
        let mut guest = Client::new(server.addr, "guest").await;
        let join = ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None };
        guest.send(&join).await;
        guest.until("joined", |m| matches!(m, ServerMsg::Joined { seat: Some(Seat::ONE), .. })).await;
        let away = |m: &ServerMsg| matches!(m, ServerMsg::Room { room } if room.seats[1].player.is_some() && !room.seats[1].connected);
        let free = |m: &ServerMsg| matches!(m, ServerMsg::Room { room } if room.seats[1].player.is_none());
        // Dropped: the seat stays taken, and the player gets it back.
        let _ = guest.ws.close(None).await;
        host.until("guest away", away).await;
        let from = host.log.len();
        guest.reconnect(server.addr).await;
        guest.send(&join).await;
        guest.until("joined again", |m| matches!(m, ServerMsg::Joined { seat: Some(Seat::ONE), .. })).await;
        host.until("guest back", |m| matches!(m, ServerMsg::Room { room } if room.seats[1].connected)).await;
        assert!(!host.log[from..].iter().any(free), "the seat was kept while the guest was away");
        // Away past the grace: the seat is freed.
        let _ = guest.ws.close(None).await;
        let dropped = std::time::Instant::now();
        host.until("guest away", away).await;
        host.until("seat freed", free).await;
        assert!(dropped.elapsed() >= Duration::from_millis(1400), "freed after the grace, not before");
        eprintln!("[{db}] lobby seat kept through a drop, freed {:?} after the second", dropped.elapsed());
    }
}

/// Two instances on one PostgreSQL: a client that reaches the wrong one is told where the room
/// lives, goes there and plays.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_instances_redirect_to_the_rooms_owner() {
    let Some(pg) = databases().into_iter().find(|d| d != "sqlite") else {
        eprintln!("two instances: skipped (no GUANDAN_TEST_POSTGRES)");
        return;
    };
    let pid = std::process::id();
    let a = ServerProc::start(&pg, &format!("a-{pid}"), "127.0.0.1:0", &[]);
    let b = ServerProc::start(&pg, &format!("b-{pid}"), "127.0.0.1:0", &[]);
    let mut host = Client::new(a.addr, "host-a").await;
    let code = create_room(&mut host, 1, None).await;
    // Players are shared: an account made on A logs in on B.
    let mut guest = Client::new(b.addr, "guest-b").await;
    guest.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
    let m = guest.until("redirect", |m| matches!(m, ServerMsg::Redirect { .. } | ServerMsg::Error { .. })).await;
    let ServerMsg::Redirect { url, instance, .. } = m else { panic!("expected a redirect, got {m:?}") };
    assert_eq!(instance, format!("a-{pid}"));
    assert_eq!(url, a.url());
    // The directory answers the same on both instances.
    for s in [&a, &b] {
        let (status, body) = http(s.addr, "GET", &format!("/v1/rooms/{code}"), "");
        assert_eq!(status, 200);
        assert!(body.contains(&a.url()), "{body}");
    }
    let (id, token) = (guest.player_id.clone(), guest.token.clone());
    let mut guest = Client::login(a.addr, "guest-b", id, token).await;
    guest.send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
    guest.until("joined", |m| matches!(m, ServerMsg::Joined { seat: Some(Seat::ONE), .. })).await;
    for (seat, level) in [(Seat::TWO, 1), (Seat::THREE, 1)] {
        host.send(&ClientMsg::SetSeat { seat, setting: guandan_proto::SeatSetting::Ai { level } }).await;
    }
    // The guest's `ready` must not overtake the host's seat settings (another connection).
    host.until(
        "ready check",
        |m| matches!(m, ServerMsg::Room { room } if room.state == guandan_proto::RoomState::ReadyCheck),
    )
    .await;
    let mut c = vec![host, guest];
    start_when_ready(&mut c).await;
    let n = play(&mut c, 30).await;
    assert!(n >= 30);
    eprintln!("two instances: redirected from {} to {} and played {n} actions", b.url(), a.url());
}

/// An `applied` names the seat whose action opened it: a proposal the AI seats answer at once
/// (their votes come in the same message) is the proposer's. Before, it named the last AI voter,
/// so the proposer's client never counted its intent as answered and refused every later action
/// of its own ("an action is already on its way"): the online tour's surrender step.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_proposal_answered_by_ai_votes_is_the_proposers_action() {
    let server =
        ServerProc::start(&database_url("sqlite"), &format!("prop-{}", std::process::id()), "127.0.0.1:0", &[]);
    let mut host = Client::new(server.addr, "south").await;
    create_room(&mut host, 31, None).await;
    for seat in [Seat::ONE, Seat::TWO, Seat::THREE] {
        host.send(&ClientMsg::SetSeat { seat, setting: guandan_proto::SeatSetting::Ai { level: 1 } }).await;
    }
    host.send(&ClientMsg::Ready { ready: true }).await;
    host.send(&ClientMsg::Start).await;
    // Play (L1 hints) until south may act in the play phase.
    let deadline = std::time::Instant::now() + Duration::from_secs(60);
    let seq = loop {
        assert!(std::time::Instant::now() < deadline, "never prompted to play");
        match host.prompt.clone() {
            Some(v) if v.phase == guandan_core::game::Phase::Play => break v.seq,
            Some(_) => {
                host.act().await;
            }
            None => {}
        }
        host.recv().await;
    };
    host.intent(seq, ActionKind::ProposeSurrender).await;
    let m =
        host.until("the proposal", |m| matches!(m, ServerMsg::Applied { action_seq, .. } if *action_seq > seq)).await;
    let ServerMsg::Applied { seat, actions, events, .. } = &m else { unreachable!() };
    assert!(*actions >= 2, "the AI seats' votes come with the proposal: {m:?}");
    assert!(events.contains(&guandan_proto::WireOut::SurrenderProposed { seat: Seat::ZERO }), "{m:?}");
    assert_eq!(*seat, Seat::ZERO, "the message names the proposer, whose action opened it: {m:?}");
    assert!(host.errors().is_empty(), "{:?}", host.errors());
}

/// A vote made on a state where the vote was open still answers it when a play reached the
/// server first (votes are made beside the play, by a seat that is not to act). Before, it was
/// refused as stale and the vote stayed open with no way to answer it again (the online tour:
/// south pressed "no", and the match ended by surrender minutes later when south dropped out and
/// the AI hosting its seat accepted).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vote_overtaken_by_a_play_still_answers_the_vote() {
    let server =
        ServerProc::start(&database_url("sqlite"), &format!("late-vote-{}", std::process::id()), "127.0.0.1:0", &[]);
    let (_code, mut c) = four_player_room(server.addr, 909).await;
    for (i, x) in c.iter().enumerate() {
        assert_eq!(x.seat, Seat::from_index(i), "{}", x.name);
    }
    play(&mut c, 6).await;
    // Whoever is to act plays after the proposal; the proposing team is the other one, whose
    // second member votes on the state before that play.
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    let actor = loop {
        if let Some(i) =
            c.iter().position(|x| x.prompt.as_ref().is_some_and(|v| v.phase == guandan_core::game::Phase::Play))
        {
            break i;
        }
        assert!(std::time::Instant::now() < deadline, "nobody was asked to play");
        play(&mut c, 1).await;
    };
    let (proposer, voter) = if actor % 2 == 0 { (1, 3) } else { (0, 2) };
    let seq = c[proposer].last_seq;
    c[proposer].intent(seq, ActionKind::ProposeSurrender).await;
    for x in c.iter_mut() {
        x.sync_to(seq + 1).await;
    }
    let play_seq = c[actor].act().await.expect("the actor's prompt");
    assert_eq!(play_seq, seq + 1);
    for x in c.iter_mut() {
        x.sync_to(seq + 2).await;
    }
    // The voter's state is the one before the play: its vote carries that seq.
    c[voter].intent(seq + 1, ActionKind::SurrenderVote { accept: false }).await;
    let refused = guandan_proto::WireOut::SurrenderVoted { seat: Seat::ALL[voter], accept: false };
    let m = c[voter]
        .until("the vote or a refusal", |m| {
            matches!(m, ServerMsg::Error { .. })
                || matches!(m, ServerMsg::Applied { events, .. } if events.contains(&refused))
        })
        .await;
    assert!(matches!(m, ServerMsg::Applied { .. }), "the late vote was refused: {m:?}");
    assert!(c[voter].errors().is_empty(), "{:?}", c[voter].errors());
}

/// The AI that plays a seat for its player (auto-play, or a player who dropped out) speaks for
/// no one: it refuses a surrender its player's partner proposes, and the match goes on. Before,
/// it accepted, so a partner's proposal made while the player was away gave the match up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_ai_playing_for_an_absent_player_does_not_give_up_for_them() {
    let server =
        ServerProc::start(&database_url("sqlite"), &format!("stand-in-{}", std::process::id()), "127.0.0.1:0", &[]);
    let (_code, mut c) = four_player_room(server.addr, 910).await;
    play(&mut c, 4).await;
    c[2].send(&ClientMsg::AutoPlay { on: true }).await;
    c[0].until("seat 2 on auto-play", |m| matches!(m, ServerMsg::Hosting { seat: Seat::TWO, on: true })).await;
    let proposed = guandan_proto::WireOut::SurrenderProposed { seat: Seat::ZERO };
    let mut answer = None;
    for _ in 0..10 {
        let seq = c[0].last_seq;
        c[0].intent(seq, ActionKind::ProposeSurrender).await;
        let m = c[0]
            .until("the proposal or a refusal", |m| {
                matches!(m, ServerMsg::Error { .. })
                    || matches!(m, ServerMsg::Applied { events, .. } if events.contains(&proposed))
            })
            .await;
        // The stand-in may have played first (a stale seq): propose again on the new state.
        if let ServerMsg::Applied { events, .. } = m {
            answer = Some(events);
            break;
        }
    }
    let events = answer.expect("the proposal was never taken");
    assert!(
        events.contains(&guandan_proto::WireOut::SurrenderVoted { seat: Seat::TWO, accept: false }),
        "the stand-in refuses for its player: {events:?}"
    );
    assert!(
        !events.iter().any(|e| matches!(e, guandan_proto::WireOut::MatchEnded { .. })),
        "the match was given up: {events:?}"
    );
}

/// A server of its own (named `tag`) and four players in a match a few actions old, where seat
/// 0 has just proposed to give up (everyone has seen it); the seq the proposal made.
async fn proposed_in_a_room(tag: &str, seed: u64) -> (ServerProc, String, Vec<Client>, u64) {
    let server =
        ServerProc::start(&database_url("sqlite"), &format!("{tag}-{}", std::process::id()), "127.0.0.1:0", &[]);
    let (code, mut c) = four_player_room(server.addr, seed).await;
    play(&mut c, 4).await;
    let seq = c[0].last_seq;
    c[0].intent(seq, ActionKind::ProposeSurrender).await;
    for x in c.iter_mut() {
        x.sync_to(seq + 1).await;
    }
    (server, code, c, seq)
}

/// A player back by a full state (a resync, or a reconnect) while a surrender vote waits for
/// them is asked again: the open vote follows the state as a notice (the proposal and the votes
/// so far). Before, the full state did not carry it and the vote could never be answered.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_vote_follows_the_full_state_of_a_player_who_has_not_answered() {
    let (server, code, mut c, seq) = proposed_in_a_room("vote-back", 911).await;
    let asked = |m: &ServerMsg| {
        matches!(m, ServerMsg::Applied { actions: 0, events, .. }
            if events.contains(&guandan_proto::WireOut::SurrenderProposed { seat: Seat::ZERO }))
    };
    let after_state = |c: &mut Client| {
        let from = c.log.iter().rposition(|m| matches!(m, ServerMsg::State { .. })).expect("a full state");
        c.log[from + 1..].iter().any(asked)
    };
    // The partner asks for the whole state.
    c[2].send(&ClientMsg::Resync).await;
    c[2].until("the state", |m| matches!(m, ServerMsg::State { .. })).await;
    c[2].until("the open vote", asked).await;
    assert!(after_state(&mut c[2]), "the vote came after the state");
    // An opponent comes back on a new connection with no seq: the full state, then the vote.
    c[1].reconnect(server.addr).await;
    c[1].send(&ClientMsg::JoinRoom { code: code.clone(), last_action_seq: None }).await;
    c[1].until("the state", |m| matches!(m, ServerMsg::State { .. })).await;
    c[1].until("the open vote", asked).await;
    // The proposer has answered (its proposal is its vote): nothing follows its state.
    c[0].send(&ClientMsg::Resync).await;
    c[0].until("the state", |m| matches!(m, ServerMsg::State { .. })).await;
    assert!(c[0].try_recv(Duration::from_millis(600)).await.is_none_or(|m| !asked(&m)), "the proposer is not asked");
    // The partner's answer still counts.
    c[2].intent(seq + 1, ActionKind::SurrenderVote { accept: false }).await;
    c[2].until("the refusal", |m| {
        matches!(m, ServerMsg::Applied { events, .. }
        if events.contains(&guandan_proto::WireOut::SurrenderVoted { seat: Seat::TWO, accept: false }))
    })
    .await;
    assert!(c[2].errors().is_empty(), "{:?}", c[2].errors());
}

/// A seat handed to the AI while a vote waits for it: the stand-in's refusal is an action like
/// any other, stored before it is announced (counted in `actions`), and the match goes on.
/// Before, it was applied inside the hand-over and announced as no action: never stored with
/// its step, and the room's next action stopped the room (debug builds) on the unsaved one.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_vote_answered_by_a_stand_in_is_stored_like_any_action() {
    let (_server, _code, mut c, seq) = proposed_in_a_room("vote-hand", 912).await;
    c[2].send(&ClientMsg::AutoPlay { on: true }).await;
    let refusal = guandan_proto::WireOut::SurrenderVoted { seat: Seat::TWO, accept: false };
    let m = c[0]
        .until(
            "the stand-in's refusal",
            |m| matches!(m, ServerMsg::Applied { events, .. } if events.contains(&refusal)),
        )
        .await;
    assert!(matches!(m, ServerMsg::Applied { actions: 1, action_seq, .. } if action_seq == seq + 2), "{m:?}");
    // The match goes on: more actions are applied and announced (the room did not stop).
    for x in c.iter_mut() {
        x.sync_to(seq + 2).await;
    }
    let after = play(&mut c[..], 6).await;
    assert!(after > seq + 2, "the match stood still after the hand-over");
}
