//! The ranker's input: a fixed-length vector for each candidate of a play decision, computed from
//! the deciding seat's `PlayerView` and L2's scored candidates only (never another seat's hidden
//! cards: the unseen cards enter as rank counts, which every world consistent with the view shares).
//!
//! Values are quantized at the source to fixed point Q8 (`i16`, value × 256, see [`SHIFT`]): the
//! label files store exactly these integers, the integer network reads them as they are, and the
//! float reference and the trainer read them ÷ 256, so all three see the same inputs. Each value
//! is scaled to a few units at most (the names say by what; over the 52,043 rows of ranker-g1's
//! labels the largest was 6, `turns_saved`), far inside Q8's ±128.

use crate::agent::{Candidate, Weights};
use crate::l2::{Situation, danger};
use crate::plan::{broken_group, evaluate};
use guandan_core::card::{Card, CardSet, Rank};
use guandan_core::combo::{PlayKind, rank_order};
use guandan_core::game::{Seat, partner_of, team_of};
use guandan_core::view::PlayerView;

/// Number of features per candidate.
pub const COUNT: usize = 80;
/// Bumped whenever a feature's meaning or order changes; a weights file names the version it was
/// trained on and is refused under another.
pub const VERSION: u16 = 1;
/// Fixed-point shift of the features: a stored value `q` means `q / 2^SHIFT`.
pub const SHIFT: u32 = 8;

/// One candidate's features, Q8.
pub type Features = [i16; COUNT];

/// The features in order. Seats are relative to the decider: `next` plays after it (an
/// opponent), `partner` opposite, `prev` before it (the other opponent).
pub const NAMES: [&str; COUNT] = [
    // L2's scoring of the candidate (l2.rs / plan.rs).
    "l2_score/10",
    "l2_hand/10",
    "l2_partner/10",
    "l2_threat/10",
    "l2_gap_to_best/10",
    "l2_rank_index/16",
    "hand_value_now/10",
    "turns_now/10",
    "bombs_now/4",
    "turns_after/10",
    "bombs_after/4",
    "turns_saved",
    "bombs_spent",
    // The play itself.
    "is_pass",
    "is_bomb",
    "goes_out",
    "play_cards/10",
    "play_order/17",
    "wilds_used",
    "breaks_triple_or_bomb",
    "kind_single",
    "kind_pair",
    "kind_trips",
    "kind_three_with_two",
    "kind_straight",
    "kind_three_pair",
    "kind_two_trips",
    "kind_straight_flush",
    "kind_bomb",
    "kind_four_kings",
    // The table.
    "leading",
    "partner_on_table",
    "opponent_on_table",
    "table_cards/10",
    "table_order/17",
    "table_is_bomb",
    "passes_since_table/3",
    "table_by_next",
    "table_by_prev",
    // Seats.
    "my_cards/27",
    "next_cards/27",
    "partner_cards/27",
    "prev_cards/27",
    "next_finished",
    "partner_finished",
    "prev_finished",
    "partner_first_out",
    "opponent_first_out",
    "opp_min_cards/27",
    "danger(opp_min)",
    "next_opp_cards/27",
    "aggression",
    "my_cards_after/27",
    // Unseen cards (not in my hand, not played this deal), by rank, ÷ 8 (jokers ÷ 2).
    "unseen_2/8",
    "unseen_3/8",
    "unseen_4/8",
    "unseen_5/8",
    "unseen_6/8",
    "unseen_7/8",
    "unseen_8/8",
    "unseen_9/8",
    "unseen_T/8",
    "unseen_J/8",
    "unseen_Q/8",
    "unseen_K/8",
    "unseen_A/8",
    "unseen_small_joker/2",
    "unseen_big_joker/2",
    "unseen_wilds/2",
    "unseen_cards/81",
    "unseen_ranks_with_4+/13",
    // Control: can the unseen cards beat this play without a bomb?
    "higher_unseen_groups/13",
    "beatable_without_bomb",
    // Levels and wilds.
    "level/14",
    "my_team_level/14",
    "their_team_level/14",
    "declarer(+1 mine, -1 theirs)",
    "wilds_held",
    "wilds_after",
    "played_this_deal/108",
];

/// Decision-wide facts, computed once per view.
struct Context<'a> {
    sit: Situation<'a>,
    /// Unseen cards per rank (index 2–16), wilds excluded from their rank.
    unseen: [u8; 17],
    unseen_wilds: u8,
    shared: [f32; COUNT],
}

fn put(f: &mut [f32; COUNT], name: &str, v: f32) {
    f[index(name)] = v;
}

fn rel(seat: Seat, d: u8) -> Seat {
    seat.after(d)
}

impl<'a> Context<'a> {
    fn new(view: &'a PlayerView, weights: &'a Weights) -> Self {
        let sit = Situation::new(view, weights);
        let seat = sit.seat;
        let hidden = CardSet::FULL.minus(view.hand).minus(view.played);
        let mut unseen = [0u8; 17];
        for id in hidden.minus(sit.wilds).iter() {
            unseen[Card::from_id(id).rank().0 as usize] += 1;
        }
        let unseen_wilds = hidden.intersect(sit.wilds).len() as u8;
        let mut f = [0.0f32; COUNT];
        put(&mut f, "hand_value_now/10", sit.current.value / 10.0);
        put(&mut f, "turns_now/10", sit.current.turns as f32 / 10.0);
        put(&mut f, "bombs_now/4", sit.current.bombs as f32 / 4.0);
        let table = view.table;
        put(&mut f, "leading", f32::from(table.is_none()));
        put(&mut f, "partner_on_table", f32::from(sit.partner_on_table));
        put(&mut f, "opponent_on_table", f32::from(table.is_some() && !sit.partner_on_table));
        if let Some((by, p)) = &table {
            put(&mut f, "table_cards/10", p.cards.len() as f32 / 10.0);
            put(&mut f, "table_order/17", sit.order(p) / 17.0);
            put(&mut f, "table_is_bomb", f32::from(p.pattern.kind.is_bomb()));
            put(&mut f, "table_by_next", f32::from(*by == rel(seat, 1)));
            put(&mut f, "table_by_prev", f32::from(*by == rel(seat, 3)));
        }
        put(&mut f, "passes_since_table/3", view.passes as f32 / 3.0);
        let counts = view.card_counts;
        let cards = |d: u8| counts[rel(seat, d).index()] as f32 / 27.0;
        put(&mut f, "my_cards/27", cards(0));
        put(&mut f, "next_cards/27", cards(1));
        put(&mut f, "partner_cards/27", cards(2));
        put(&mut f, "prev_cards/27", cards(3));
        let done = |d: u8| f32::from(view.finished.contains(&rel(seat, d)));
        put(&mut f, "next_finished", done(1));
        put(&mut f, "partner_finished", done(2));
        put(&mut f, "prev_finished", done(3));
        let first = view.finished.first().copied();
        put(&mut f, "partner_first_out", f32::from(first == Some(partner_of(seat))));
        put(&mut f, "opponent_first_out", f32::from(first.is_some_and(|s| team_of(s) != team_of(seat))));
        put(&mut f, "opp_min_cards/27", sit.opp_min as f32 / 27.0);
        put(&mut f, "danger(opp_min)", danger(sit.opp_min));
        put(&mut f, "next_opp_cards/27", sit.next_opp_cards as f32 / 27.0);
        put(&mut f, "aggression", sit.aggression);
        for r in 2..=14usize {
            f[index("unseen_2/8") + r - 2] = unseen[r] as f32 / 8.0;
        }
        put(&mut f, "unseen_small_joker/2", unseen[15] as f32 / 2.0);
        put(&mut f, "unseen_big_joker/2", unseen[16] as f32 / 2.0);
        put(&mut f, "unseen_wilds/2", unseen_wilds as f32 / 2.0);
        put(&mut f, "unseen_cards/81", hidden.len() as f32 / 81.0);
        put(&mut f, "unseen_ranks_with_4+/13", (2..=14).filter(|&r| unseen[r] >= 4).count() as f32 / 13.0);
        let mine = team_of(seat);
        put(&mut f, "level/14", view.level.0 as f32 / 14.0);
        put(&mut f, "my_team_level/14", view.team_levels[mine.index()].0 as f32 / 14.0);
        put(&mut f, "their_team_level/14", view.team_levels[mine.other().index()].0 as f32 / 14.0);
        put(&mut f, "declarer(+1 mine, -1 theirs)", view.declarer.map_or(0.0, |t| if t == mine { 1.0 } else { -1.0 }));
        put(&mut f, "wilds_held", view.hand.intersect(sit.wilds).len() as f32);
        put(&mut f, "played_this_deal/108", view.played.len() as f32 / 108.0);
        Context { sit, unseen, unseen_wilds, shared: f }
    }

    /// How many ranks the unseen natural cards could beat a single, pair, triple or full house of
    /// `order` with, as a group of the same size (bombs aside); `None` for other kinds.
    fn higher_unseen(&self, kind: PlayKind, order: u8, level: Rank) -> Option<u8> {
        let need = match kind {
            PlayKind::Single => 1,
            PlayKind::Pair => 2,
            PlayKind::Trips | PlayKind::ThreeWithTwo => 3,
            _ => return None,
        };
        let n = (2..=16u8)
            .filter(|&r| rank_order(r, level) > order && self.unseen[r as usize] + self.unseen_wilds.min(need) >= need)
            .filter(|&r| need == 1 || r <= 14)
            .count();
        Some(n as u8)
    }

    fn candidate(&self, c: &Candidate, position: usize, best: f32) -> [f32; COUNT] {
        let view = self.sit.view;
        let mut f = self.shared;
        put(&mut f, "l2_score/10", c.score / 10.0);
        put(&mut f, "l2_hand/10", c.hand / 10.0);
        put(&mut f, "l2_partner/10", c.partner / 10.0);
        put(&mut f, "l2_threat/10", c.threat / 10.0);
        put(&mut f, "l2_gap_to_best/10", (best - c.score) / 10.0);
        put(&mut f, "l2_rank_index/16", position.min(16) as f32 / 16.0);
        let now = self.sit.current;
        let wilds_held = view.hand.intersect(self.sit.wilds).len() as f32;
        let after = match &c.play {
            None => {
                put(&mut f, "is_pass", 1.0);
                put(&mut f, "wilds_after", wilds_held);
                put(&mut f, "my_cards_after/27", view.hand.len() as f32 / 27.0);
                now
            }
            Some(p) => {
                let rest = view.hand.minus(p.cards);
                let e = evaluate(rest, self.sit.wilds, view.level, self.sit.weights);
                let kind = p.pattern.kind;
                put(&mut f, "is_bomb", f32::from(kind.is_bomb()));
                put(&mut f, "goes_out", f32::from(rest.is_empty()));
                put(&mut f, "play_cards/10", p.cards.len() as f32 / 10.0);
                let order = self.sit.order(p);
                put(&mut f, "play_order/17", order / 17.0);
                put(&mut f, "wilds_used", p.cards.intersect(self.sit.wilds).len() as f32);
                put(&mut f, "wilds_after", rest.intersect(self.sit.wilds).len() as f32);
                put(&mut f, "breaks_triple_or_bomb", f32::from(broken_group(p, view.hand, self.sit.wilds).is_some()));
                let k = PlayKind::ALL.iter().position(|&x| x == kind).unwrap_or(0);
                f[index("kind_single") + k] = 1.0;
                put(&mut f, "my_cards_after/27", rest.len() as f32 / 27.0);
                if let Some(n) = self.higher_unseen(kind, order as u8, view.level) {
                    put(&mut f, "higher_unseen_groups/13", n as f32 / 13.0);
                    put(&mut f, "beatable_without_bomb", f32::from(n > 0));
                }
                e
            }
        };
        put(&mut f, "turns_after/10", after.turns as f32 / 10.0);
        put(&mut f, "bombs_after/4", after.bombs as f32 / 4.0);
        put(&mut f, "turns_saved", now.turns as f32 - after.turns as f32);
        put(&mut f, "bombs_spent", now.bombs as f32 - after.bombs as f32);
        f
    }
}

/// The position of a feature in the vector (a name of [`NAMES`]; panics on a typo, which the
/// tests catch since every name is set on some path).
pub fn index(name: &str) -> usize {
    NAMES.iter().position(|&n| n == name).unwrap_or_else(|| panic!("no feature named {name:?}"))
}

/// Rounds to Q8, saturating (values past ±128 do not occur with the scalings above).
pub fn quantize(x: f32) -> i16 {
    (x * (1 << SHIFT) as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16
}

/// A stored feature as the float the trainer and the float reference read.
pub fn dequantize(q: i16) -> f32 {
    q as f32 / (1 << SHIFT) as f32
}

/// The features of every candidate of `cands` (L2's ranking of `view`'s play decision, best
/// first, as `l2::ranked_candidates` gives it), in the same order.
pub fn for_candidates(view: &PlayerView, weights: &Weights, cands: &[Candidate]) -> Vec<Features> {
    let ctx = Context::new(view, weights);
    let best = cands.iter().map(|c| c.score).fold(f32::NEG_INFINITY, f32::max);
    cands.iter().enumerate().map(|(i, c)| ctx.candidate(c, i, best).map(quantize)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::l2::ranked_candidates;
    use guandan_core::game::{Match, Phase};
    use guandan_core::rules::RuleConfig;
    use guandan_core::sim::random_action;
    use rand_chacha::ChaCha8Rng;
    use rand_core::SeedableRng;

    #[test]
    fn names_are_distinct_and_counted() {
        for (i, a) in NAMES.iter().enumerate() {
            assert_eq!(index(a), i, "{a} twice");
        }
    }

    #[test]
    fn quantization_is_q8_and_saturates() {
        assert_eq!(quantize(1.0), 256);
        assert_eq!(quantize(-0.5), -128);
        assert_eq!(quantize(1e6), i16::MAX);
        assert_eq!(dequantize(quantize(0.25)), 0.25);
    }

    /// Random-play positions of several deals; `f` gets each play decision with a choice.
    fn positions(mut f: impl FnMut(&Match)) -> usize {
        let mut n = 0;
        for seed in 0..6u64 {
            let (mut m, _) = Match::new(100 + seed, RuleConfig::competition()).unwrap();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            while m.deal_no() < 2 && m.outcome().is_none() {
                if m.phase() == Phase::Play && m.hand(m.turn()).len() >= 2 {
                    f(&m);
                    n += 1;
                }
                let a = random_action(&m, &mut rng).unwrap();
                m.apply(&a).unwrap();
            }
        }
        n
    }

    /// The features read the view only: a state whose hidden hands differ (cards swapped between
    /// the three other seats, counts kept) gives the same features for every candidate — while
    /// the decider's own cards do change them (so the comparison can fail).
    #[test]
    fn features_never_read_hidden_hands() {
        let w = Weights::default();
        let mut swapped = 0;
        let n = positions(|m| {
            let seat = m.turn();
            let view = m.view(Some(seat));
            let cands = ranked_candidates(&view, &w);
            let mine = for_candidates(&view, &w, &cands);
            for (a, b) in [(1u8, 2u8), (1, 3), (2, 3)] {
                let (a, b) = (rel(seat, a).index(), rel(seat, b).index());
                let mut setup = m.to_setup();
                let (Some(ca), Some(cb)) = (setup.hands[a].iter().last(), setup.hands[b].iter().next()) else {
                    continue;
                };
                if Card::from_id(ca).rank() == Card::from_id(cb).rank() {
                    continue;
                }
                setup.hands[a] = setup.hands[a].minus(CardSet::EMPTY.with(ca)).with(cb);
                setup.hands[b] = setup.hands[b].minus(CardSet::EMPTY.with(cb)).with(ca);
                let other = Match::from_setup(&setup).unwrap();
                let view2 = other.view(Some(seat));
                assert_ne!(other.hands(), m.hands());
                assert_eq!(for_candidates(&view2, &w, &ranked_candidates(&view2, &w)), mine);
                swapped += 1;
            }
            // Another seat's own view of the same state sees other cards.
            let next = rel(seat, 1);
            if m.hand(next).len() >= 2 {
                let mut v = view.clone();
                v.hand = m.hand(next);
                v.seat = Some(next);
                assert_ne!(for_candidates(&v, &w, &cands)[0], mine[0]);
            }
        });
        assert!(n > 100 && swapped > 100, "{n} positions, {swapped} swaps");
    }

    /// The features of L2's best few are the same computed over the whole list or over the
    /// few alone (the ranker computes only those it re-ranks; the labels compute all).
    #[test]
    fn a_prefix_of_the_ranking_has_the_same_features() {
        let w = Weights::default();
        positions(|m| {
            let view = m.view(Some(m.turn()));
            let cands = ranked_candidates(&view, &w);
            let all = for_candidates(&view, &w, &cands);
            let k = cands.len().min(8);
            assert_eq!(for_candidates(&view, &w, &cands[..k]), all[..k]);
        });
    }

    /// Every feature takes a non-zero value somewhere (a name set on no path would be a dead
    /// input), and all stay well inside the Q8 range.
    #[test]
    fn every_feature_is_used_and_bounded() {
        let w = Weights::default();
        let mut seen = [false; COUNT];
        positions(|m| {
            let view = m.view(Some(m.turn()));
            for f in for_candidates(&view, &w, &ranked_candidates(&view, &w)) {
                for (i, &q) in f.iter().enumerate() {
                    seen[i] |= q != 0;
                    assert!(q.unsigned_abs() < 64 * 256, "{} = {}", NAMES[i], dequantize(q));
                }
            }
        });
        // Four jokers in one hand are too rare for random deals to show.
        let dead: Vec<&str> =
            (0..COUNT).filter(|&i| !seen[i] && NAMES[i] != "kind_four_kings").map(|i| NAMES[i]).collect();
        assert!(dead.is_empty(), "never set: {dead:?}");
    }
}
