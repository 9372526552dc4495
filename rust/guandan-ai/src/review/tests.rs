//! The deal review's tests: a planted blunder is a mistake with the right better play, L3's own
//! play is hardly ever marked, a damaged record is refused, the same inputs give the same review.

use super::*;
use crate::agent::{Agent, Budget};
use guandan_core::card::{Card, CardId, Rank};
use guandan_core::combo::PlayKind;
use guandan_core::rules::RuleConfig;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// Plays one step with `agent` for whoever acts and records it.
fn step(m: &mut Match, log: &mut MatchLog, agent: &mut dyn Agent, rng: &mut ChaCha8Rng) {
    let seat = m.to_act()[0];
    let d = agent.decide(&m.view(Some(seat)), rng, &Budget::untimed());
    apply(m, log, seat, d.action);
}

fn apply(m: &mut Match, log: &mut MatchLog, seat: Seat, kind: ActionKind) {
    let a = m.action(seat, kind);
    let mut events = Vec::new();
    m.apply_into(&a, &mut events).unwrap();
    log.record(&a, &events, m);
}

/// The rank of a natural bomb (4+ cards of one rank, no wild) in `hand` whose single beats
/// `single` — a card the bomb would lose if played alone.
fn bomb_that_beats(view: &PlayerView, single: &Play) -> Option<(Rank, Play)> {
    let legal = crate::agent::legal_plays(view);
    let wilds = guandan_core::combo::wild_set(view.level, &view.rules);
    let natural = view.hand.minus(wilds);
    legal.iter().filter(|p| p.pattern.kind == PlayKind::Single && p.cards.intersect(wilds).is_empty()).find_map(|p| {
        let rank = Card::from_id(p.cards.iter().next()?).rank();
        let n = natural.iter().filter(|&id| Card::from_id(id).rank() == rank).count();
        (n >= 4 && guandan_core::combo::beats(p, single, view.level, &view.rules)).then_some((rank, *p))
    })
}

/// A match played by L2 (up to its 4th deal) in which seat 0, with its partner's single standing (East passed)
/// and the partner about to go out (4 cards or fewer), breaks a natural bomb to beat it — taking
/// the lead from the partner and a card from the bomb; the rest of the deal by L2. The record, and the index of
/// the planted play.
fn planted_blunder() -> (MatchLog, usize, Rank) {
    planted_from(1, 4)
}

/// The first planted blunder from seed `first` on, the partner holding at most `partner` cards.
fn planted_from(first: u64, partner: u8) -> (MatchLog, usize, Rank) {
    for seed in first..first + 400 {
        let rules = RuleConfig::competition();
        let (mut m, _) = Match::new(seed, rules.clone()).unwrap();
        let mut log = MatchLog::new(seed, rules);
        let mut l2 = crate::l2::L2::new(crate::agent::Weights::default(), false);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut planted = None;
        while m.deal_no() < 4 && !m.is_over() && planted.is_none_or(|(_, _, d)| d == m.deal_no()) {
            let seat = m.to_act()[0];
            if planted.is_none() && seat == Seat::ZERO && m.phase() == Phase::Play {
                let view = m.view(Some(Seat::ZERO));
                if let Some((Seat::TWO, single)) = view.table
                    && single.pattern.kind == PlayKind::Single
                    && view.card_counts[2] <= partner
                    && let Some((rank, p)) = bomb_that_beats(&view, &single)
                {
                    planted = Some((log.actions.len(), rank, m.deal_no()));
                    apply(&mut m, &mut log, Seat::ZERO, Match::play_kind(&p));
                    continue;
                }
            }
            step(&mut m, &mut log, &mut l2, &mut rng);
        }
        if let Some((at, rank, _)) = planted {
            return (log, at, rank);
        }
    }
    panic!("no seed gave the position");
}

fn quick() -> ReviewConfig {
    ReviewConfig::default()
}

#[test]
fn breaking_a_bomb_to_beat_the_partners_single_is_a_mistake_with_the_right_better_play() {
    let (log, at, rank) = planted_blunder();
    let l3 = reviewer(1);
    let r = review(&log, Seat::ZERO, &quick(), &l3, |_, _| {}).unwrap();
    let m = r.deals.iter().flat_map(|d| &d.moves).find(|m| m.action == at).expect("the planted play is reviewed");
    assert_eq!(m.mark, Mark::Mistake, "{m:?}");
    // The better play keeps the bomb: a pass, or a play without a card of that rank.
    assert!(m.best.cards.iter().all(|&id| Card::from_id(id).rank() != rank), "{m:?}");
    assert!(m.measure() >= quick().mistake && m.value_best > m.value_played, "{m:?}");
    assert_eq!(r.biggest.map(|(d, i)| r.deals[d].moves[i].action), Some(at), "the biggest mistake of the match");
    assert!(!m.reason.is_empty());
}

#[test]
fn the_same_record_seed_and_worlds_give_the_same_review_and_another_seed_may_differ_only_in_values() {
    let (log, _, _) = planted_blunder();
    let cfg = ReviewConfig { worlds: 8, ..ReviewConfig::default() };
    let a = review(&log, Seat::ZERO, &cfg, &reviewer(1), |_, _| {}).unwrap();
    let b = review(&log, Seat::ZERO, &cfg, &reviewer(2), |_, _| {}).unwrap();
    assert_eq!(a, b, "threads never change a review");
    assert_eq!(a.record_hash, log.replay().unwrap().state_hash());
    let mut progress = Vec::new();
    review(&log, Seat::TWO, &cfg, &reviewer(1), |done, total| progress.push((done, total))).unwrap();
    assert!(
        !progress.is_empty()
            && progress.iter().all(|&(d, t)| d <= t)
            && progress.last().map(|p| p.0 == p.1) == Some(true)
    );
}

#[test]
fn a_damaged_or_tampered_record_is_refused_with_a_message() {
    let (log, at, _) = planted_blunder();
    let l3 = reviewer(1);
    // Tampered: the planted play's cards swapped for another card of the hand (the record's
    // checkpoints or the rules refuse it).
    let mut tampered = log.clone();
    if let ActionKind::Play { cards, .. } = &mut tampered.actions[at].kind {
        cards[0] = CardId::ALL[(cards[0].index() + 1) % CardId::ALL.len()];
    }
    let e = review(&tampered, Seat::ZERO, &quick(), &l3, |_, _| {}).unwrap_err();
    assert!(matches!(e, ReviewError::Log(_)), "{e}");
    assert!(e.to_string().contains("does not replay"), "{e}");
    // Malformed text, a stored match without its log, a bad seat and a bad budget.
    let text = log.to_jsonl();
    let broken = text.replacen("\"seat\"", "\"seet\"", 1);
    assert!(matches!(parse_record(&broken), Err(ReviewError::Log(LogError::Malformed { .. }))));
    assert!(parse_record("{\"meta\":{}}").unwrap_err().to_string().contains("without its log"));
    assert!(parse_record("not a record").is_err());
    let none = ReviewConfig { worlds: 0, ..quick() };
    assert_eq!(review(&log, Seat::ZERO, &none, &l3, |_, _| {}), Err(ReviewError::Worlds(0)));
    // A stored online match (the server's `{meta, log}`) reads as its log.
    let stored = serde_json::json!({ "meta": { "deals": 1 }, "log": text }).to_string();
    assert_eq!(parse_record(&stored).unwrap(), MatchLog::parse(&text).unwrap());
}

/// L3 reviewing a deal L3 played (seat 0; L2 elsewhere, to keep the test short) marks almost
/// nothing: its own choices differ from the review's best only by the noise of sampled worlds.
#[test]
fn l3_reviewing_its_own_play_marks_almost_nothing() {
    let rules = RuleConfig::competition();
    let (mut mistakes, mut inaccuracies, mut moves) = (0, 0, 0);
    for seed in [5u64, 6] {
        let (mut m, _) = Match::new(seed, rules.clone()).unwrap();
        let mut log = MatchLog::new(seed, rules.clone());
        let mut l3 = reviewer(1);
        let mut l2 = crate::l2::L2::new(crate::agent::Weights::default(), false);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        while m.deal_no() == 0 && !m.is_over() {
            if m.to_act()[0] == Seat::ZERO {
                step(&mut m, &mut log, &mut l3, &mut rng);
            } else {
                step(&mut m, &mut log, &mut l2, &mut rng);
            }
        }
        let r = review(&log, Seat::ZERO, &quick(), &reviewer(1), |_, _| {}).unwrap();
        mistakes += r.mistakes;
        inaccuracies += r.inaccuracies;
        moves += r.moves;
    }
    assert!(moves >= 10, "{moves} decisions reviewed");
    assert_eq!(mistakes, 0, "{mistakes} mistakes in {moves} of L3's own decisions");
    assert!(inaccuracies * 10 <= moves, "{inaccuracies} inaccuracies in {moves} of L3's own decisions");
}

/// Issue 53: a cost is a level estimate. On stored records (the replay corpus: a house-rules
/// match and an unfinished competition match, every seat) every cost lies within the level
/// scale and equals the values' difference; the marks rank decisions as L3's measure does (as
/// before the fix: `cost + keep_cost` is the old cost). With L2's score in the cost (before the
/// fix) costs reached 36 "levels" on these records.
#[test]
fn every_cost_lies_within_the_level_scale_and_marks_follow_the_costs() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/replay-corpus");
    let cfg = ReviewConfig { worlds: 4, ..ReviewConfig::default() };
    let l3 = reviewer(1);
    let mut costs = 0;
    for name in ["good_unfinished_match.jsonl", "good_house_match.jsonl"] {
        let log = parse_record(&std::fs::read_to_string(dir.join(name)).unwrap()).unwrap();
        let scale = level_scale(&log.header.rules, &l3);
        assert!(scale > 0.0 && scale <= 24.0);
        for seat in Seat::ALL {
            let r = review(&log, seat, &cfg, &l3, |_, _| {}).unwrap();
            let moves: Vec<&ReviewedMove> = r.deals.iter().flat_map(|d| &d.moves).collect();
            for m in &moves {
                assert!((0.0..=scale).contains(&m.cost), "{name} seat {seat}: cost {} past {scale}: {m:?}", m.cost);
                for v in [m.value_best, m.value_played] {
                    assert!(v.abs() <= scale / 2.0, "{name}: value {v} past the scale");
                }
                assert_eq!(m.cost, (m.value_best - m.value_played).max(0.0), "{m:?}");
                let mark = match m.measure() {
                    x if x >= cfg.mistake => Mark::Mistake,
                    x if x >= cfg.inaccuracy => Mark::Inaccuracy,
                    _ => Mark::Good,
                };
                assert_eq!(m.mark, mark, "{m:?}");
                costs += 1;
            }
            // A heavier mark never goes with a smaller measure; the thresholds are the measure's.
            let severity = |m: &ReviewedMove| match m.mark {
                Mark::Good => 0,
                Mark::Inaccuracy => 1,
                Mark::Mistake => 2,
            };
            for a in &moves {
                for b in &moves {
                    if severity(a) > severity(b) {
                        assert!(a.measure() > b.measure(), "{a:?} marked above {b:?}");
                    }
                }
            }
            let biggest = r.biggest.map(|(d, i)| r.deals[d].moves[i].measure());
            let most = moves.iter().filter(|m| m.mark != Mark::Good).map(|m| m.measure()).reduce(f32::max);
            assert_eq!(biggest, most, "the biggest is the marked decision of the largest measure");
        }
    }
    assert!(costs > 100, "{costs} decisions valued");
}

#[test]
fn a_cancelled_review_stops_at_the_next_decision() {
    let (log, _, _) = planted_blunder();
    let cfg = ReviewConfig { worlds: 4, ..ReviewConfig::default() };
    let cancel = AtomicBool::new(false);
    let mut valued = 0;
    // Cancelled after the first decision: no second one is valued.
    let r = review_cancellable(&log, Seat::ZERO, &cfg, &reviewer(1), &cancel, |done, total| {
        assert!(total > 1, "the match has more than one decision of seat 0");
        valued = done;
        cancel.store(true, Ordering::Relaxed);
    });
    assert!(matches!(r, Err(ReviewError::Cancelled)), "{r:?}");
    assert_eq!(valued, 1);
    // Cancelled before it starts: nothing is valued.
    let r = review_cancellable(&log, Seat::ZERO, &cfg, &reviewer(1), &cancel, |_, _| panic!("no decision is valued"));
    assert!(matches!(r, Err(ReviewError::Cancelled)), "{r:?}");
}

#[test]
fn a_deals_review_is_that_deals_part_of_the_whole_review_and_a_missing_deal_is_refused() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/replay-corpus");
    let log = parse_record(&std::fs::read_to_string(dir.join("good_unfinished_match.jsonl")).unwrap()).unwrap();
    let cfg = ReviewConfig { worlds: 2, ..ReviewConfig::default() };
    let l3 = reviewer(1);
    let whole = review(&log, Seat::ONE, &cfg, &l3, |_, _| {}).unwrap();
    assert!(whole.deals.len() >= 2, "the record holds {} deals", whole.deals.len());
    let never = AtomicBool::new(false);
    for deal in &whole.deals {
        let mut totals = Vec::new();
        let one =
            review_deal_cancellable(&log, Seat::ONE, Some(deal.deal_no), &cfg, &l3, &never, |_, t| totals.push(t))
                .unwrap();
        assert_eq!(one.deals, vec![deal.clone()], "deal {}", deal.deal_no);
        assert_eq!(one.record_hash, whole.record_hash);
        // The progress counts that deal's decisions only.
        assert_eq!(totals.first().copied(), Some(deal.moves.len() + deal.forced as usize));
    }
    let last = log.replay().unwrap().deal_no();
    let r =
        review_deal_cancellable(&log, Seat::ONE, Some(last + 1), &cfg, &l3, &never, |_, _| panic!("nothing is valued"));
    assert_eq!(r, Err(ReviewError::Deal(last + 1)));
}
