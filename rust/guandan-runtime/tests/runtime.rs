//! The runtime as a host drives it: whole matches, filtering per recipient, stale AI results,
//! resume at every phase, clocks.

use guandan_ai::service::AiResult;
use guandan_ai::{AiLevel, AiProfile};
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

fn ai(level: AiLevel) -> Controller {
    Controller::Ai(AiProfile::level(level))
}

fn config(seed: u64, seats: [Controller; 4]) -> RuntimeConfig {
    RuntimeConfig { seed, rules: RuleConfig::competition(), seats, clocks: false }
}

/// Every notice a viewer receives holds only what that viewer may see.
fn check_private(notices: &[Notice]) {
    let viewers = [
        Viewer::Seat(Seat::ZERO),
        Viewer::Seat(Seat::ONE),
        Viewer::Seat(Seat::TWO),
        Viewer::Seat(Seat::THREE),
        Viewer::Spectator,
        Viewer::Team(Team::ZERO),
        Viewer::Team(Team::ONE),
    ];
    for viewer in viewers {
        for out in for_viewer(notices, viewer) {
            match (out, viewer) {
                (Out::HandChanged { seat, .. }, Viewer::Seat(v)) => assert_eq!(seat, v, "a hand reached another seat"),
                (Out::HandChanged { .. }, Viewer::Spectator) => panic!("a spectator received a hand"),
                (Out::HandChanged { seat, .. }, Viewer::Team(t)) => {
                    assert!(t.has(seat), "seat {seat}'s hand reached {t}")
                }
                (Out::TributeGiven { from, to, card: Some(_) } | Out::ReturnGiven { from, to, card: Some(_) }, v) => {
                    let involved = match v {
                        Viewer::Seat(s) => s == from || s == to,
                        Viewer::Team(t) => t.has(from) || t.has(to),
                        Viewer::Spectator | Viewer::Omniscient => false,
                    };
                    assert!(involved, "a tribute card reached {v:?}")
                }
                _ => {}
            }
        }
    }
}

/// Plays a runtime to the end: AI seats through `decide_now`, human seats with random legal
/// actions; returns every notice.
fn play_out(rt: &mut Runtime, seed: u64) -> Vec<Notice> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut all = Vec::new();
    for _ in 0..40_000 {
        if rt.state().is_over() {
            return all;
        }
        if let Some(n) = rt.decide_now() {
            all.extend(n);
            continue;
        }
        let a = random_action(rt.state(), &mut rng).expect("someone must act");
        all.extend(rt.act(a.seat, a.kind).expect("random legal actions are accepted"));
    }
    panic!("the match did not end");
}

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
fn clocks_time_out_humans_only_and_end_the_match_by_time() {
    let mut rules = RuleConfig::competition();
    rules.turn_time_limit_s = 10;
    let seats = [Controller::Human, Controller::Human, Controller::Human, Controller::Human];
    let cfg = RuntimeConfig { seed: 6, rules: rules.clone(), seats, clocks: true };
    let (mut rt, first) = Runtime::start(cfg).unwrap();
    assert!(first.iter().any(|n| matches!(n.out, Out::TurnStarted { time_limit_s, .. } if time_limit_s == 10.0)));
    let turn = rt.state().turn();
    assert_eq!(rt.time_left(turn), Some(10.0));
    assert!(rt.tick(Duration::from_secs(9)).unwrap().is_empty());
    let timed = rt.tick(Duration::from_secs(2)).unwrap();
    assert!(matches!(timed[0].out, Out::TimedOut { seat } if seat == turn));
    assert_eq!(rt.log().actions.len(), 1);
    // AI seats have no clock.
    let seats = [ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1)];
    let (mut rt, first) = Runtime::start(RuntimeConfig { seed: 6, rules: rules.clone(), seats, clocks: true }).unwrap();
    assert!(first.iter().all(|n| !matches!(n.out, Out::TurnStarted { time_limit_s, .. } if time_limit_s != 0.0)));
    assert!(rt.tick(Duration::from_secs(60)).unwrap().is_empty());
    // The match clock.
    rules.max_match_minutes = 1;
    let seats = [Controller::Human, Controller::Human, Controller::Human, Controller::Human];
    let (mut rt, _) = Runtime::start(RuntimeConfig { seed: 6, rules, seats, clocks: true }).unwrap();
    rt.tick(Duration::from_secs(5)).unwrap();
    let ended = rt.tick(Duration::from_secs(61)).unwrap();
    assert!(ended.iter().any(|n| matches!(n.out, Out::MatchEnded { .. })));
    assert!(rt.state().is_over());
}

/// A player who saw the prompt late (the client was still drawing the table) gets the whole
/// limit from then, but never more than `max_credit` back; a late or foreign notice gives nothing.
#[test]
fn a_prompt_seen_late_restarts_the_clock_within_its_credit() {
    let mut rules = RuleConfig::competition();
    rules.turn_time_limit_s = 10;
    let seats = [Controller::Human, ai(AiLevel::L1), Controller::Human, ai(AiLevel::L1)];
    let start = |rules: &RuleConfig| {
        let cfg = RuntimeConfig { seed: 6, rules: rules.clone(), seats: seats.clone(), clocks: true };
        let (mut rt, _) = Runtime::start(cfg).unwrap();
        // To the first human play duty.
        while rt.human_duties().is_empty() || rt.state().phase() != Phase::Play {
            rt.decide_now().expect("only AI seats act before the humans");
        }
        rt
    };
    let credit = Duration::from_secs(5);
    let mut rt = start(&rules);
    let turn = rt.state().turn();
    let seq = rt.state().seq();
    rt.tick(Duration::from_secs(3)).unwrap();
    // Another seat, or a notice about an earlier state: nothing.
    assert_eq!(rt.prompt_seen(turn.next(), seq, credit), None);
    assert_eq!(rt.prompt_seen(turn, seq.wrapping_sub(1), credit), None);
    assert_eq!(rt.time_left(turn), Some(7.0));
    assert_eq!(rt.prompt_seen(turn, seq, credit), Some(3.0));
    assert_eq!(rt.time_left(turn), Some(10.0));
    // Seen again: nothing more.
    assert_eq!(rt.prompt_seen(turn, seq, credit), Some(0.0));
    assert!(rt.tick(Duration::from_secs(9)).unwrap().is_empty(), "9 s after the sight: still the player's time");
    assert!(matches!(rt.tick(Duration::from_secs(2)).unwrap()[0].out, Out::TimedOut { seat } if seat == turn));
    // Seen 8 s late with a 5 s credit: 5 s back, so 7 s are left, not 10.
    let mut rt = start(&rules);
    let (turn, seq) = (rt.state().turn(), rt.state().seq());
    rt.tick(Duration::from_secs(8)).unwrap();
    assert_eq!(rt.prompt_seen(turn, seq, credit), Some(5.0));
    assert_eq!(rt.time_left(turn), Some(7.0));
    assert!(rt.tick(Duration::from_secs(6)).unwrap().is_empty());
    assert!(!rt.tick(Duration::from_secs(2)).unwrap().is_empty(), "the credit is bounded");
}

/// Sights whose times do not add up exactly in floating point (0.1 s, then 0.2 s more) once
/// left the clock a hair below zero, and the player's next action panicked the room (seen in
/// the online screenshot tour: a room stopped answering its players).
#[test]
fn prompts_seen_never_leave_the_clock_below_zero() {
    let mut rules = RuleConfig::competition();
    rules.turn_time_limit_s = 10;
    let seats = [Controller::Human, ai(AiLevel::L1), Controller::Human, ai(AiLevel::L1)];
    let cfg = RuntimeConfig { seed: 6, rules, seats, clocks: true };
    let (mut rt, _) = Runtime::start(cfg).unwrap();
    while rt.human_duties().is_empty() || rt.state().phase() != Phase::Play {
        rt.decide_now().expect("only AI seats act before the humans");
    }
    let (turn, seq) = (rt.state().turn(), rt.state().seq());
    let credit = Duration::from_millis(500);
    rt.tick(Duration::from_secs_f64(0.1)).unwrap();
    assert!(rt.prompt_seen(turn, seq, credit).is_some());
    rt.tick(Duration::from_secs_f64(0.2)).unwrap();
    let given = rt.prompt_seen(turn, seq, credit).expect("the current duty");
    assert!((given - 0.2).abs() < 1e-9 && given <= 0.2, "gave back {given}");
    assert!(rt.time_left(turn).is_some_and(|t| t <= 10.0), "never more than the limit");
    rt.act(turn, ActionKind::Pass)
        .or_else(|_| {
            let card = rt.state().hand(turn).iter().next().expect("a card");
            rt.act(turn, ActionKind::Play { cards: vec![card], reading: None })
        })
        .expect("the player's action is taken (it panicked before)");
}

#[test]
fn surrender_is_voted_by_ai_seats_at_once() {
    let seats = [Controller::Human, ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1)];
    let (mut rt, _) = Runtime::start(config(12, seats)).unwrap();
    let notices = rt.act(Seat::ZERO, ActionKind::ProposeSurrender).unwrap();
    let votes = notices.iter().filter(|n| matches!(n.out, Out::SurrenderVoted { accept: true, .. })).count();
    assert_eq!(votes, 3);
    assert!(matches!(notices.last().map(|n| &n.out), Some(Out::MatchEnded { .. })));
}

/// A stand-in (the AI playing a human's seat while they are away) refuses: an absent player's
/// team never gives up for them, and an absent opponent does not decide for them either.
#[test]
fn a_stand_in_refuses_a_surrender_for_its_absent_human() {
    let stand_in = || Controller::StandIn(AiProfile::level(AiLevel::L1));
    // The partner is away: the vote closes on its refusal and the match goes on.
    let seats = [Controller::Human, ai(AiLevel::L1), stand_in(), ai(AiLevel::L1)];
    let (mut rt, _) = Runtime::start(config(12, seats)).unwrap();
    let notices = rt.act(Seat::ZERO, ActionKind::ProposeSurrender).unwrap();
    assert!(
        notices.iter().any(|n| matches!(n.out, Out::SurrenderVoted { seat: Seat::TWO, accept: false })),
        "{notices:?}"
    );
    assert!(!rt.state().is_over() && rt.state().surrender().is_none(), "the vote closed and the match goes on");
    // Taken back by its human, the seat votes again by hand.
    rt.set_controller(Seat::TWO, Controller::Human);
    rt.act(Seat::ZERO, ActionKind::ProposeSurrender).unwrap();
    assert!(rt.state().surrender().is_some(), "the vote waits for the human partner");
    // An away opponent refuses; the other (an AI) accepts, which is enough by the spec's rule.
    let seats = [Controller::Human, stand_in(), Controller::Human, ai(AiLevel::L1)];
    let mut cfg = config(13, seats);
    cfg.rules.surrender_opponent_accepts = 1;
    let (mut rt, _) = Runtime::start(cfg).unwrap();
    let mut notices = rt.act(Seat::ZERO, ActionKind::ProposeSurrender).unwrap();
    notices.extend(rt.act(Seat::TWO, ActionKind::SurrenderVote { accept: true }).unwrap());
    assert!(
        notices.iter().any(|n| matches!(n.out, Out::SurrenderVoted { seat: Seat::ONE, accept: false })),
        "{notices:?}"
    );
    assert!(rt.state().is_over(), "one opponent's acceptance ends it");
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

/// A runtime with clocks at a 10 s turn, humans in seats 0 and 2 and L1 AI in 1 and 3, at the
/// first play duty of a human; returns it with that human's seat.
fn at_a_human_turn(policy: Option<guandan_runtime::SurrenderPolicy>) -> (Runtime, Seat) {
    let mut rules = RuleConfig::competition();
    rules.turn_time_limit_s = 10;
    let seats = [Controller::Human, ai(AiLevel::L1), Controller::Human, ai(AiLevel::L1)];
    let (mut rt, _) = Runtime::start(RuntimeConfig { seed: 6, rules, seats, clocks: true }).unwrap();
    if let Some(p) = policy {
        rt.set_surrender_policy(p);
    }
    while rt.human_duties().is_empty() || rt.state().phase() != Phase::Play {
        rt.decide_now().expect("only AI seats act before the humans");
    }
    let turn = rt.state().turn();
    (rt, turn)
}

/// The turn's seat proposes to surrender and its human partner refuses (the AI opponents accept
/// at once): two actions, and the vote is closed.
fn propose_and_refuse(rt: &mut Runtime, turn: Seat) {
    rt.act(turn, ActionKind::ProposeSurrender).unwrap();
    rt.act(turn.partner(), ActionKind::SurrenderVote { accept: false }).unwrap();
    assert!(rt.state().surrender().is_none(), "the partner's refusal closes the vote");
    assert_eq!(rt.state().turn(), turn, "still the same duty");
}

/// Issue 37: every action restarted the turn's clock, surrender proposals and votes included, so
/// a player could hold its duty for minutes by proposing and having the partner refuse. The clock
/// belongs to the duty: a proposal and the votes on it leave it running.
#[test]
fn a_surrender_proposal_and_its_votes_do_not_restart_the_dutys_clock() {
    let (mut rt, turn) = at_a_human_turn(None);
    rt.tick(Duration::from_secs(6)).unwrap();
    propose_and_refuse(&mut rt, turn);
    assert_eq!(rt.time_left(turn), Some(4.0), "the duty's 6 s still count");
    assert!(rt.tick(Duration::from_secs(3)).unwrap().is_empty());
    let timed = rt.tick(Duration::from_secs(2)).unwrap();
    assert!(matches!(timed.first().map(|n| &n.out), Some(Out::TimedOut { seat }) if *seat == turn), "{timed:?}");
    // The next duty has a clock of its own.
    let next = rt.state().to_act()[0];
    if !rt.is_ai(next) {
        assert_eq!(rt.time_left(next), Some(10.0));
    }
}

/// `seen` gives back at most the grace over a whole duty: a proposal re-prompts the seat (a new
/// `seq` to see) but gives no second grace.
#[test]
fn seen_gives_back_the_grace_once_per_duty_whatever_the_proposals() {
    let credit = Duration::from_secs(5);
    let (mut rt, turn) = at_a_human_turn(None);
    rt.tick(Duration::from_secs(3)).unwrap();
    assert_eq!(rt.prompt_seen(turn, rt.state().seq(), credit), Some(3.0));
    rt.tick(Duration::from_secs(4)).unwrap();
    propose_and_refuse(&mut rt, turn);
    rt.tick(Duration::from_secs(3)).unwrap();
    // 2 s of the grace are left for this duty, not a new 5 s.
    assert_eq!(rt.prompt_seen(turn, rt.state().seq(), credit), Some(2.0));
    assert_eq!(rt.prompt_seen(turn, rt.state().seq(), credit), Some(0.0));
    // 3 + 4 + 3 s ran; 5 s were given back: 5 s are left, and the duty lasts its limit and the
    // grace, no more.
    assert_eq!(rt.time_left(turn), Some(5.0));
    assert!(rt.tick(Duration::from_millis(4900)).unwrap().is_empty());
    assert!(matches!(rt.tick(Duration::from_millis(200)).unwrap().first().map(|n| &n.out), Some(Out::TimedOut { .. })));
}

/// The host's policy limits proposals per team and deal (online: one); the count survives a
/// resume and starts again with the next deal. Offline there is no limit.
#[test]
fn surrender_proposals_per_deal_are_limited_by_the_policy() {
    use guandan_runtime::{RuntimeError, SurrenderPolicy};
    let humans = || [Controller::Human, Controller::Human, Controller::Human, Controller::Human];
    // Offline: as many as the players like.
    let (mut rt, _) = Runtime::start(config(21, humans())).unwrap();
    for _ in 0..3 {
        rt.act(Seat::ZERO, ActionKind::ProposeSurrender).unwrap();
        rt.act(Seat::TWO, ActionKind::SurrenderVote { accept: false }).unwrap();
    }
    // Online: one per team and deal.
    let (mut rt, _) = Runtime::start(config(21, humans())).unwrap();
    rt.set_surrender_policy(SurrenderPolicy::ONLINE);
    rt.act(Seat::ZERO, ActionKind::ProposeSurrender).unwrap();
    rt.act(Seat::TWO, ActionKind::SurrenderVote { accept: false }).unwrap();
    let hash = rt.state().state_hash();
    for seat in [Seat::ZERO, Seat::TWO] {
        let e = rt.act(seat, ActionKind::ProposeSurrender).unwrap_err();
        assert_eq!(e, RuntimeError::ProposalLimit(1));
        assert_eq!(e.code(), ErrorCode::SurrenderRefused);
    }
    assert_eq!(rt.state().state_hash(), hash, "a refused proposal changes nothing");
    // The other team has its own.
    rt.act(Seat::ONE, ActionKind::ProposeSurrender).unwrap();
    rt.act(Seat::THREE, ActionKind::SurrenderVote { accept: false }).unwrap();
    assert!(rt.act(Seat::THREE, ActionKind::ProposeSurrender).is_err());
    // Resumed from its record, the match still counts this deal's proposals.
    let (mut back, _) = Runtime::resume(rt.log().clone(), humans(), false).unwrap();
    back.set_surrender_policy(SurrenderPolicy::ONLINE);
    assert_eq!(back.act(Seat::TWO, ActionKind::ProposeSurrender).unwrap_err(), RuntimeError::ProposalLimit(1));
    // The next deal: one more each.
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let deal = rt.state().deal_no();
    while rt.state().deal_no() == deal {
        let a = random_action(rt.state(), &mut rng).unwrap();
        rt.act(a.seat, a.kind).unwrap();
    }
    rt.act(Seat::TWO, ActionKind::ProposeSurrender).unwrap();
    rt.act(Seat::ZERO, ActionKind::SurrenderVote { accept: false }).unwrap();
    assert!(rt.act(Seat::ZERO, ActionKind::ProposeSurrender).is_err());
}

/// A ranked room's policy: an AI seat never agrees (no rating lost or handed out through the
/// queue's AI fill); a stand-in agrees to its partner's proposal and refuses the opponents'.
#[test]
fn in_a_ranked_room_ai_seats_refuse_and_a_stand_in_follows_its_partner() {
    use guandan_runtime::SurrenderPolicy;
    let stand_in = || Controller::StandIn(AiProfile::level(AiLevel::L1));
    // An AI partner refuses its human's proposal.
    let seats = [Controller::Human, ai(AiLevel::L1), ai(AiLevel::L1), ai(AiLevel::L1)];
    let mut cfg = config(12, seats);
    cfg.rules.surrender_opponent_accepts = 1;
    let (mut rt, _) = Runtime::start(cfg).unwrap();
    rt.set_surrender_policy(SurrenderPolicy::RANKED);
    let notices = rt.act(Seat::ZERO, ActionKind::ProposeSurrender).unwrap();
    assert!(
        notices.iter().any(|n| matches!(n.out, Out::SurrenderVoted { seat: Seat::TWO, accept: false })),
        "{notices:?}"
    );
    assert!(!rt.state().is_over() && rt.state().surrender().is_none());
    // Two humans may give up against AI opponents, who accept: the humans take the loss.
    let seats = [Controller::Human, ai(AiLevel::L1), Controller::Human, ai(AiLevel::L1)];
    let mut cfg = config(12, seats);
    cfg.rules.surrender_opponent_accepts = 1;
    let (mut rt, _) = Runtime::start(cfg).unwrap();
    rt.set_surrender_policy(SurrenderPolicy::RANKED);
    let mut notices = rt.act(Seat::ZERO, ActionKind::ProposeSurrender).unwrap();
    notices.extend(rt.act(Seat::TWO, ActionKind::SurrenderVote { accept: true }).unwrap());
    assert!(
        notices.iter().any(|n| matches!(n.out, Out::SurrenderVoted { seat: Seat::ONE | Seat::THREE, accept: true })),
        "{notices:?}"
    );
    assert!(rt.state().is_over(), "{notices:?}");
    // A stand-in accepts its partner's proposal and refuses an opponent's.
    let seats = [Controller::Human, Controller::Human, stand_in(), Controller::Human];
    let mut cfg = config(13, seats);
    cfg.rules.surrender_opponent_accepts = 1;
    let (mut rt, _) = Runtime::start(cfg).unwrap();
    rt.set_surrender_policy(SurrenderPolicy::RANKED);
    let notices = rt.act(Seat::ONE, ActionKind::ProposeSurrender).unwrap();
    assert!(
        notices.iter().any(|n| matches!(n.out, Out::SurrenderVoted { seat: Seat::TWO, accept: false })),
        "{notices:?}"
    );
    rt.act(Seat::THREE, ActionKind::SurrenderVote { accept: false }).unwrap();
    let notices = rt.act(Seat::ZERO, ActionKind::ProposeSurrender).unwrap();
    assert!(
        notices.iter().any(|n| matches!(n.out, Out::SurrenderVoted { seat: Seat::TWO, accept: true })),
        "{notices:?}"
    );
    rt.act(Seat::ONE, ActionKind::SurrenderVote { accept: true }).unwrap();
    assert!(rt.state().is_over(), "the partner who stayed gave up");
}

/// The runtime counts each seat's duties timed out in a row (a host hands such a seat to the
/// AI); the seat's own duty, or a change of hands, starts the count again.
#[test]
fn timeouts_in_a_row_are_counted_until_the_player_acts() {
    let (mut rt, turn) = at_a_human_turn(None);
    let to_my_turn = |rt: &mut Runtime| {
        while !rt.human_duties().contains(&turn) {
            if rt.decide_now().is_none() {
                // The other human: a duty of its own.
                let seat = rt.human_duties()[0];
                let kind = guandan_ai::l1::l1_decision(&rt.state().view(Some(seat))).action;
                rt.act(seat, kind).unwrap();
            }
        }
    };
    for n in 1..=2 {
        rt.tick(Duration::from_secs(11)).unwrap();
        assert_eq!(rt.timeouts_in_a_row(turn), n);
        to_my_turn(&mut rt);
    }
    // A surrender proposal is not the duty: the count stands.
    rt.act(turn, ActionKind::ProposeSurrender).unwrap();
    rt.act(turn.partner(), ActionKind::SurrenderVote { accept: false }).unwrap();
    assert_eq!(rt.timeouts_in_a_row(turn), 2);
    let kind = guandan_ai::l1::l1_decision(&rt.state().view(Some(turn))).action;
    rt.act(turn, kind).unwrap();
    assert_eq!(rt.timeouts_in_a_row(turn), 0);
    to_my_turn(&mut rt);
    rt.tick(Duration::from_secs(11)).unwrap();
    assert_eq!(rt.timeouts_in_a_row(turn), 1);
    rt.set_controller(turn, Controller::StandIn(AiProfile::level(AiLevel::L1)));
    assert_eq!(rt.timeouts_in_a_row(turn), 0);
}
