//! The runtime's clocks (turn timeouts, a prompt seen late, the match's time) and surrender
//! (AI votes, stand-ins, the policy's limits, proposals and the duty's clock).

mod common;

use common::{ai, config};
use guandan_ai::{AiLevel, AiProfile};
use guandan_core::game::{ActionKind, ErrorCode, Phase};
use guandan_core::rules::RuleConfig;
use guandan_core::seat::Seat;
use guandan_core::sim::random_action;
use guandan_runtime::{Controller, Out, Runtime, RuntimeConfig};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::time::Duration;

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
