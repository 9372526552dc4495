//! The runtime as a host drives it: whole matches, filtering per recipient, stale AI results,
//! resume at every phase, the record (clocks and surrender: clocks_and_surrender.rs).

use guandan_ai::AiLevel;
use guandan_ai::service::AiResult;
use guandan_core::card::CardSet;
use guandan_core::game::{ActionKind, ErrorCode, Phase, Team};
use guandan_core::log::MatchLog;
use guandan_core::rules::RuleConfig;
use guandan_core::seat::Seat;
use guandan_core::sim::random_action;
use guandan_runtime::{Controller, Notice, Out, Runtime, RuntimeConfig, Viewer, for_viewer};
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use std::time::Duration;

mod common;

use common::{ai, check_private, config, play_out};

#[test]
fn an_ai_match_runs_to_the_end_and_its_log_replays() {
    let seats = [ai(AiLevel::L2), ai(AiLevel::L1), ai(AiLevel::L2), ai(AiLevel::L1)];
    let (mut rt, first) = Runtime::start(config(5, seats)).unwrap();
    assert!(matches!(first[0].out, Out::MatchStarted { seed: 5 }));
    let notices = play_out(&mut rt, 1);
    assert!(matches!(notices.last().map(|n| &n.out), Some(Out::MatchEnded { .. })));
    let replayed = MatchLog::parse(&rt.log().to_jsonl()).unwrap().replay().unwrap();
    assert_eq!(replayed.state_hash(), rt.state().state_hash());
}

#[test]
fn ai_matches_are_reproducible() {
    let run = || {
        let seats = [ai(AiLevel::L2), ai(AiLevel::L2), ai(AiLevel::L2), ai(AiLevel::L2)];
        let (mut rt, _) = Runtime::start(RuntimeConfig { rules: RuleConfig::house(), ..config(11, seats) }).unwrap();
        play_out(&mut rt, 0);
        rt.state().state_hash()
    };
    assert_eq!(run(), run());
}

#[test]
fn hot_seat_humans_each_see_their_own_hand_only() {
    let seats = [Controller::Human, ai(AiLevel::L1), Controller::Human, ai(AiLevel::L1)];
    let (mut rt, mut notices) = Runtime::start(config(3, seats)).unwrap();
    notices.extend(play_out(&mut rt, 3));
    check_private(&notices);
    // Each human seat was told its hands, and the last one it was told is the hand it holds.
    for seat in [Seat::ZERO, Seat::TWO] {
        let hands: Vec<CardSet> = for_viewer(&notices, Viewer::Seat(seat))
            .into_iter()
            .filter_map(|o| match o {
                Out::HandChanged { hand, .. } => Some(hand),
                _ => None,
            })
            .collect();
        assert!(hands.len() > 10, "seat {seat} got {} hand updates", hands.len());
        assert_eq!(*hands.last().unwrap(), rt.state().hand(seat));
    }
}

#[test]
fn four_humans_with_tributes_never_leak_a_card() {
    for seed in 0..6 {
        let seats = [Controller::Human, Controller::Human, Controller::Human, Controller::Human];
        let (mut rt, mut notices) = Runtime::start(config(seed, seats)).unwrap();
        notices.extend(play_out(&mut rt, seed));
        assert!(notices.iter().any(|n| matches!(n.out, Out::TributeGiven { .. })), "seed {seed}: no tribute");
        check_private(&notices);
        // The spectator's stream has every public event: as many plays as the log.
        let plays =
            for_viewer(&notices, Viewer::Spectator).iter().filter(|o| matches!(o, Out::CardsPlayed { .. })).count();
        assert!(plays > 0);
    }
}

#[test]
fn refused_actions_leave_state_and_log_alone() {
    let seats = [Controller::Human, Controller::Human, ai(AiLevel::L1), Controller::Human];
    let (mut rt, _) = Runtime::start(config(8, seats)).unwrap();
    let hash = rt.state().state_hash();
    let turn = rt.state().turn();
    let wrong = Seat::ALL.into_iter().find(|&s| s != turn && s != Seat::TWO).unwrap();
    if turn != Seat::TWO {
        assert_eq!(rt.act(wrong, ActionKind::Pass).unwrap_err().code(), ErrorCode::NotYourTurn);
        assert_eq!(rt.act(turn, ActionKind::Pass).unwrap_err().code(), ErrorCode::CannotPass);
    }
    assert_eq!(rt.act(Seat::TWO, ActionKind::Pass).unwrap_err().code(), ErrorCode::NotHuman);
    assert_eq!(rt.state().state_hash(), hash);
    assert!(rt.log().actions.is_empty());
}

#[test]
fn stale_ai_results_are_dropped() {
    let seats = [ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1)];
    let (mut rt, _) = Runtime::start(config(4, seats)).unwrap();
    let req = rt.ai_request(7).unwrap();
    assert!(rt.ai_request(7).is_none(), "one decision at a time");
    let seat = req.view.seat.unwrap();
    let decide = |generation: u64, seq: u64| AiResult {
        id: 1,
        generation,
        seat,
        seq,
        decision: guandan_ai::l1::l1_decision(&req.view),
        elapsed: Duration::ZERO,
        fell_back: false,
    };
    assert!(rt.ai_result(decide(6, req.view.seq)).is_empty(), "older generation");
    assert!(rt.ai_result(decide(7, req.view.seq + 1)).is_empty(), "another state");
    // The seat goes back to a human: the awaited decision is dropped when it arrives.
    rt.set_controller(seat, Controller::Human);
    assert!(rt.ai_result(decide(7, req.view.seq)).is_empty(), "seat no longer AI");
    assert_eq!(rt.log().actions.len(), 0);
    // Back to the AI: a fresh request, and its result applies.
    let notices = rt.set_controller(seat, ai(AiLevel::L1));
    assert!(matches!(notices[0].out, Out::ControllerChanged { ai: true, .. }));
    let req = rt.ai_request(8).unwrap();
    let r = AiResult { generation: 8, seq: req.view.seq, ..decide(8, 0) };
    let applied = rt.ai_result(r);
    assert!(matches!(applied[0].out, Out::AiDecided { .. }));
    assert_eq!(rt.log().actions.len(), 1);
}

#[test]
fn an_illegal_ai_decision_falls_back_and_the_table_goes_on() {
    let seats = [ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1)];
    let (mut rt, _) = Runtime::start(config(4, seats)).unwrap();
    let req = rt.ai_request(0).unwrap();
    let mut d = guandan_ai::l1::l1_decision(&req.view);
    d.action = ActionKind::Pass; // the leader may not pass
    let r = AiResult {
        id: 1,
        generation: 0,
        seat: req.view.seat.unwrap(),
        seq: req.view.seq,
        decision: d,
        elapsed: Duration::ZERO,
        fell_back: false,
    };
    rt.ai_result(r);
    assert_eq!(rt.log().actions.len(), 1);
}

/// A recorded match with tribute and return, cut at every action, resumes to the same state and
/// announces the duty in progress.
#[test]
fn resume_announces_every_phase() {
    let seats = || [Controller::Human, Controller::Human, Controller::Human, Controller::Human];
    let (mut rt, _) = Runtime::start(config(2, seats())).unwrap();
    play_out(&mut rt, 2);
    let log = rt.log().clone();
    let mut seen = std::collections::BTreeSet::new();
    for n in 0..log.actions.len() {
        let cut = log.truncated(n);
        let expected = log.replay_to(n).unwrap();
        let (resumed, notices) = Runtime::resume(cut, seats(), false).unwrap();
        assert_eq!(resumed.state().state_hash(), expected.state_hash());
        check_private(&notices);
        let outs = for_viewer(&notices, Viewer::Omniscient);
        let phase = expected.phase();
        seen.insert(format!("{phase:?}"));
        match phase {
            Phase::Tribute => assert!(outs.iter().any(|o| matches!(o, Out::TributePhase { .. }))),
            Phase::Return => {
                assert!(outs.iter().any(|o| matches!(o, Out::TributeGiven { card: Some(_), .. })));
                assert!(matches!(outs.last(), Some(Out::ReturnPhase { receivers }) if !receivers.is_empty()));
            }
            Phase::Play => {
                assert!(outs.iter().any(|o| matches!(o, Out::TurnStarted { seat, .. } if *seat == expected.turn())))
            }
            Phase::MatchOver => assert!(outs.iter().any(|o| matches!(o, Out::MatchEnded { .. }))),
        }
        for seat in Seat::ALL {
            let told = for_viewer(&notices, Viewer::Seat(seat)).into_iter().find_map(|o| match o {
                Out::HandChanged { hand, .. } => Some(hand),
                _ => None,
            });
            assert_eq!(told, Some(expected.hand(seat)));
        }
    }
    for phase in ["Tribute", "Return", "Play"] {
        assert!(seen.contains(phase), "no resume was tried during {phase}");
    }
}

/// Resuming with the deal replayed announces exactly what the live match announced since the
/// current deal began (AI decisions aside), for every viewer, at cuts in every phase.
#[test]
fn resume_replaying_deal_announces_the_deal_as_it_was_played() {
    let seats = || [Controller::Human, ai(AiLevel::L1), Controller::Human, ai(AiLevel::L2)];
    let (mut rt, start) = Runtime::start(config(2, seats())).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    // (actions in the log after the step, the step's notices)
    let mut steps: Vec<(usize, Vec<Notice>)> = vec![(0, start)];
    while !rt.state().is_over() {
        let notices = match rt.decide_now() {
            Some(n) => n,
            None => {
                let a = random_action(rt.state(), &mut rng).expect("someone must act");
                rt.act(a.seat, a.kind).expect("random legal actions are accepted")
            }
        };
        steps.push((rt.log().actions.len(), notices));
    }
    let log = rt.log().clone();
    let mut seen = std::collections::BTreeSet::new();
    for (k, &(n, _)) in steps.iter().enumerate() {
        let live: Vec<Notice> = steps[..=k].iter().flat_map(|(_, ns)| ns.iter().cloned()).collect();
        let from = live.iter().rposition(|x| matches!(x.out, Out::DealStarted { .. })).unwrap();
        let mut expected = vec![Notice::everyone(0, Out::MatchStarted { seed: 2 })];
        expected.extend(live[from..].iter().filter(|x| !matches!(x.out, Out::AiDecided { .. })).cloned());
        let (resumed, got) = Runtime::resume_replaying_deal(log.truncated(n), seats(), false).unwrap();
        let state = log.replay_to(n).unwrap();
        assert_eq!(resumed.state().state_hash(), state.state_hash());
        seen.insert(format!("{:?}", state.phase()));
        check_private(&got);
        for viewer in [
            Viewer::Seat(Seat::ZERO),
            Viewer::Seat(Seat::ONE),
            Viewer::Seat(Seat::TWO),
            Viewer::Seat(Seat::THREE),
            Viewer::Spectator,
        ] {
            assert_eq!(for_viewer(&got, viewer), for_viewer(&expected, viewer), "after {n} actions, for {viewer:?}");
        }
    }
    for phase in ["Tribute", "Return", "Play", "MatchOver"] {
        assert!(seen.contains(phase), "no resume was tried during {phase}");
    }
}

/// Turn limits in the replayed deal are the resumed match's: a human's with clocks on, none for AI.
#[test]
fn resume_replaying_deal_gives_the_turn_its_time() {
    let seats = || [Controller::Human, ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1)];
    let (mut rt, _) = Runtime::start(config(4, seats())).unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    for _ in 0..30 {
        if rt.decide_now().is_none() {
            let a = random_action(rt.state(), &mut rng).unwrap();
            rt.act(a.seat, a.kind).unwrap();
        }
    }
    while rt.state().turn() != Seat::ZERO || rt.state().phase() != Phase::Play {
        if rt.decide_now().is_none() {
            let a = random_action(rt.state(), &mut rng).unwrap();
            rt.act(a.seat, a.kind).unwrap();
        }
    }
    let (_, got) = Runtime::resume_replaying_deal(rt.log().clone(), seats(), true).unwrap();
    let limit = f64::from(RuleConfig::competition().turn_time_limit_s);
    let turns: Vec<(Seat, f64)> = for_viewer(&got, Viewer::Seat(Seat::ZERO))
        .into_iter()
        .filter_map(|o| match o {
            Out::TurnStarted { seat, time_limit_s, .. } => Some((seat, time_limit_s)),
            _ => None,
        })
        .collect();
    assert!(turns.len() > 1, "the deal's turns are announced");
    assert_eq!(turns.last().map(|t| t.0), Some(Seat::ZERO), "the last announced turn is the player's");
    for (seat, t) in turns {
        assert_eq!(t, if seat == Seat::ZERO { limit } else { 0.0 }, "seat {seat}");
    }
}

#[test]
fn a_damaged_log_is_not_resumed() {
    let seats = || [Controller::Human, ai(AiLevel::L1), Controller::Human, ai(AiLevel::L1)];
    let (mut rt, _) = Runtime::start(config(9, seats())).unwrap();
    play_out(&mut rt, 9);
    let mut log = rt.log().clone();
    log.actions.swap(3, 4);
    assert_eq!(Runtime::resume(log, seats(), false).err().map(|e| e.code()), Some(ErrorCode::LogRejected));
}

#[test]
fn the_record_names_ai_levels_and_times_decisions() {
    let seats = [Controller::Human, ai(AiLevel::L2), ai(AiLevel::L1), ai(AiLevel::L3)];
    let (mut rt, _) = Runtime::start(config(14, seats)).unwrap();
    let meta = rt.log().header.meta.clone().unwrap();
    let levels: Vec<Option<String>> = meta.players.iter().map(|p| p.ai.clone()).collect();
    assert_eq!(levels, [None, Some("L2".into()), Some("L1".into()), Some("L3".into())]);
    // Seat 0 thinks 2.5 s (clocks off: not enforced, still measured), then acts.
    while rt.state().turn() != Seat::ZERO {
        rt.decide_now().unwrap();
    }
    rt.tick(Duration::from_millis(2500)).unwrap();
    let play = rt.state().legal_plays()[0];
    rt.act(Seat::ZERO, guandan_core::game::Match::play_kind(&play)).unwrap();
    let n = rt.log().actions.len();
    assert_eq!(rt.log().think_ms[n - 1], Some(2500));
    assert!(rt.log().think_ms[..n - 1].iter().all(Option::is_some), "AI decisions carry their time");
    let text = rt.log().to_jsonl();
    assert_eq!(MatchLog::parse(&text).unwrap().think_ms, rt.log().think_ms);
}

/// A host that stores the record itself (the server) takes every action once, in order, and
/// the runtime then holds only what is not taken: the taken lines rebuild the same record.
#[test]
fn a_host_keeping_the_record_takes_every_action_once_and_the_runtime_forgets_them() {
    let seats = [Controller::Human, ai(AiLevel::L1), Controller::Human, ai(AiLevel::L2)];
    let (mut whole, _) = Runtime::start(config(11, seats.clone())).unwrap();
    let (mut tail, _) = Runtime::start(config(11, seats)).unwrap();
    tail.keep_whole_record(false);
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut taken = Vec::new();
    let mut most_held = 0;
    for _ in 0..40_000 {
        if whole.state().is_over() {
            break;
        }
        // One AI decision applied to both (decide_now would time each separately, and the two
        // records' thinking times would differ by the machine's load).
        match whole.ai_request(0) {
            Some(req) => {
                let result = guandan_ai::service::decide(&req, Duration::from_secs(3));
                tail.ai_request(0).expect("the same AI duty");
                whole.ai_result(result.clone());
                tail.ai_result(result);
            }
            None => {
                let a = random_action(whole.state(), &mut rng).expect("someone must act");
                whole.act(a.seat, a.kind.clone()).unwrap();
                tail.act(a.seat, a.kind).unwrap();
            }
        }
        most_held = most_held.max(tail.log().actions.len());
        // Taken now and then, as a host's writes complete.
        if rng.next_u32() % 3 == 0 {
            taken.extend(tail.take_unsaved());
            assert!(tail.log().actions.is_empty(), "taken actions are forgotten");
        }
    }
    taken.extend(tail.take_unsaved());
    assert!(whole.state().is_over());
    assert_eq!(tail.state().state_hash(), whole.state().state_hash());
    let record = whole.log().clone();
    assert_eq!(taken.len(), record.actions.len(), "every action taken exactly once");
    for (i, (a, ms)) in taken.iter().enumerate() {
        assert_eq!(a, &record.actions[i]);
        assert_eq!(*ms, record.think_ms[i]);
    }
    assert!(most_held < 20, "the tail stays short (held {most_held})");
    assert_eq!(tail.log().checkpoints, record.checkpoints, "checkpoints are numbered by action, not by what is held");
    // The taken lines and the kept header/checkpoints are the whole record again.
    let mut rebuilt = tail.log().clone();
    rebuilt.actions = taken.iter().map(|(a, _)| a.clone()).collect();
    rebuilt.think_ms = taken.iter().map(|(_, ms)| *ms).collect();
    assert_eq!(rebuilt.to_jsonl(), record.to_jsonl());
    // The whole record still hands out each action once.
    assert_eq!(whole.take_unsaved().len(), record.actions.len());
    assert!(whole.take_unsaved().is_empty());
    assert_eq!(whole.log().actions.len(), record.actions.len());
}

#[test]
fn a_resumed_record_counts_as_saved() {
    let (mut rt, _) =
        Runtime::start(config(4, [ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1)])).unwrap();
    for _ in 0..30 {
        rt.decide_now().unwrap();
    }
    let log = rt.log().clone();
    let (mut back, _) = Runtime::resume(log, std::array::from_fn(|_| ai(AiLevel::L1)), false).unwrap();
    assert!(back.take_unsaved().is_empty());
    back.decide_now().unwrap();
    let new = back.take_unsaved();
    assert_eq!(new.len(), 1);
    assert_eq!(new[0].0.seq, 30);
}

/// A team's viewer (a friend room's spectator shown that team's hands) is told each of the
/// team's hands exactly as its seat is, never another hand, and one copy of each tribute.
#[test]
fn a_team_viewer_follows_its_team_s_hands_as_the_seats_do() {
    let seats = [ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1)];
    let (mut rt, mut notices) = Runtime::start(config(5, seats)).unwrap();
    notices.extend(play_out(&mut rt, 5));
    check_private(&notices);
    let hands = |v: Viewer, seat: Seat| -> Vec<CardSet> {
        for_viewer(&notices, v)
            .into_iter()
            .filter_map(|o| match o {
                Out::HandChanged { seat: s, hand } if s == seat => Some(hand),
                _ => None,
            })
            .collect()
    };
    for seat in Seat::ALL {
        let own = hands(Viewer::Seat(seat), seat);
        assert!(own.len() > 10, "a whole match changes a hand often");
        assert_eq!(hands(Viewer::Team(Team::of(seat)), seat), own);
        assert!(hands(Viewer::Team(Team::of(seat).other()), seat).is_empty());
    }
    let gifts = |v: Viewer| {
        for_viewer(&notices, v)
            .iter()
            .filter(|o| matches!(o, Out::TributeGiven { .. } | Out::ReturnGiven { .. }))
            .count()
    };
    assert_eq!(gifts(Viewer::Team(Team::ZERO)), gifts(Viewer::Spectator));
    assert_eq!(gifts(Viewer::Team(Team::ONE)), gifts(Viewer::Spectator));
    // The runtime's view for a team viewer shows those hands as the match holds them.
    for team in Team::BOTH {
        let v = rt.view(Viewer::Team(team));
        assert!(v.hand.is_empty() && v.seat.is_none());
        for h in &v.shown_hands {
            assert!(team.has(h.seat));
            assert_eq!(h.hand, rt.state().hand(h.seat));
        }
    }
}
