//! Surrender votes: the proposer's partner must agree; then `surrender_opponent_accepts` of the
//! opponents (1 = the design spec's rule, 2 = unanimous, what old records implied).

use guandan_core::game::{ActionKind, EndReason, Event, Match, Phase, Seat, Team};
use guandan_core::rules::RuleConfig;

fn start(opponent_accepts: u8) -> Match {
    let rules = RuleConfig { surrender_opponent_accepts: opponent_accepts, ..RuleConfig::competition() };
    Match::new(7, rules).unwrap().0
}

fn vote(m: &mut Match, seat: u8, kind: ActionKind) -> Vec<Event> {
    m.apply(&m.action(Seat::new(seat).unwrap(), kind)).unwrap()
}

fn accept(m: &mut Match, seat: u8) -> Vec<Event> {
    vote(m, seat, ActionKind::SurrenderVote { accept: true })
}

fn refuse(m: &mut Match, seat: u8) -> Vec<Event> {
    vote(m, seat, ActionKind::SurrenderVote { accept: false })
}

fn surrendered(events: &[Event]) -> bool {
    events.iter().any(|e| matches!(e, Event::MatchEnded { outcome } if outcome.winner() == Some(Team::ONE) && outcome.reason() == EndReason::Surrender))
}

#[test]
fn one_opponent_refusing_and_one_accepting_ends_the_match() {
    let mut m = start(1);
    vote(&mut m, 0, ActionKind::ProposeSurrender);
    assert!(accept(&mut m, 2).is_empty());
    assert!(refuse(&mut m, 1).is_empty(), "one refusal leaves the vote open");
    assert!(m.surrender().is_some());
    let again = m.apply(&m.action(Seat::ONE, ActionKind::SurrenderVote { accept: true }));
    assert!(again.is_err(), "a seat votes once");
    assert!(surrendered(&accept(&mut m, 3)));
    assert_eq!(m.phase(), Phase::MatchOver);
}

#[test]
fn both_opponents_refusing_lets_play_continue() {
    let mut m = start(1);
    vote(&mut m, 0, ActionKind::ProposeSurrender);
    accept(&mut m, 2);
    refuse(&mut m, 3);
    let events = refuse(&mut m, 1);
    assert!(matches!(events[..], [Event::SurrenderRejected { seat: Seat::ONE }]), "{events:?}");
    assert!(m.surrender().is_none());
    assert_eq!(m.phase(), Phase::Play);
}

#[test]
fn the_partner_refusing_closes_the_vote_at_once() {
    let mut m = start(1);
    vote(&mut m, 1, ActionKind::ProposeSurrender);
    assert!(matches!(refuse(&mut m, 3)[..], [Event::SurrenderRejected { seat: Seat::THREE }]));
    assert!(m.surrender().is_none());
}

#[test]
fn an_opponent_accepting_before_the_partner_waits_for_the_partner() {
    let mut m = start(1);
    vote(&mut m, 0, ActionKind::ProposeSurrender);
    assert!(accept(&mut m, 1).is_empty());
    assert!(surrendered(&accept(&mut m, 2)));
}

#[test]
fn unanimous_rules_end_only_when_all_accept_and_close_on_any_refusal() {
    let mut m = start(2);
    vote(&mut m, 0, ActionKind::ProposeSurrender);
    accept(&mut m, 2);
    assert!(accept(&mut m, 1).is_empty(), "one opponent is not enough");
    assert!(surrendered(&accept(&mut m, 3)));
    let mut m = start(2);
    vote(&mut m, 0, ActionKind::ProposeSurrender);
    accept(&mut m, 2);
    assert!(matches!(refuse(&mut m, 1)[..], [Event::SurrenderRejected { seat: Seat::ONE }]));
    assert!(m.surrender().is_none());
}
