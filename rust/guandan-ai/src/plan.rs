//! Hand planning: how good a hand is, as the groups it splits into. A greedy split (sequences
//! first where they save turns, then groups by rank, wilds where they gain most) scored by group
//! strength, bombs kept, and the turns needed to empty the hand.

use crate::agent::Weights;
use guandan_core::card::{Card, CardSet, Rank};
use guandan_core::combo::{Play, position_rank, rank_order};

/// Counts by rank (index 2–16) of the natural cards, plus the wilds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Shape {
    pub ranks: [u8; 17],
    pub wilds: u8,
}

impl Shape {
    pub fn new(hand: CardSet, wilds: CardSet) -> Shape {
        let mut ranks = [0u8; 17];
        for id in hand.minus(wilds).iter() {
            ranks[Card::from_id(id).rank().0 as usize] += 1;
        }
        Shape { ranks, wilds: hand.intersect(wilds).len() as u8 }
    }

    pub fn cards(&self) -> u8 {
        self.ranks.iter().sum::<u8>() + self.wilds
    }
}

/// Strength of a group keyed by an order value (2 … 17): below 10 weak, above A strong.
#[inline]
fn strength(order: u8) -> f32 {
    (order as f32 - 10.0) / 5.0
}

/// What a plan found, for explanations and heat maps.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Evaluation {
    pub value: f32,
    /// Non-bomb groups still to play.
    pub turns: u8,
    pub bombs: u8,
}

/// Scores groups by rank after sequences were taken out; wilds join the rank where they gain most.
fn group_value(s: &Shape, level: Rank, w: &Weights) -> Evaluation {
    let mut best = group_value_fixed(&s.ranks, s.wilds, level, w);
    if s.wilds == 0 {
        return best;
    }
    // Place one wild at a time where it gains most (or keep it as a level card).
    let mut ranks = s.ranks;
    let mut left = s.wilds;
    while left > 0 {
        let mut choice: Option<usize> = None;
        for r in 2..=14usize {
            if ranks[r] == 0 || r == level.0 as usize {
                continue;
            }
            ranks[r] += 1;
            let e = group_value_fixed(&ranks, left - 1, level, w);
            ranks[r] -= 1;
            if e.value > best.value {
                best = e;
                choice = Some(r);
            }
        }
        match choice {
            Some(r) => {
                ranks[r] += 1;
                left -= 1;
            }
            None => break,
        }
    }
    best
}

/// Groups by rank with `loose` wilds kept as level cards.
fn group_value_fixed(ranks: &[u8; 17], loose: u8, level: Rank, w: &Weights) -> Evaluation {
    let mut value = 0.0;
    let (mut singles, mut pairs, mut trips, mut bombs) = (0u8, 0u8, 0u8, 0u8);
    let mut counts = *ranks;
    counts[level.0 as usize] += loose;
    // Four jokers.
    if counts[15] == 2 && counts[16] == 2 {
        value += w.bomb_value * 3.0;
        bombs += 1;
        counts[15] = 0;
        counts[16] = 0;
    }
    for r in 2..=16u8 {
        let c = counts[r as usize];
        if c == 0 {
            continue;
        }
        let st = strength(rank_order(r, level));
        if c >= 4 && r <= 14 {
            bombs += 1;
            value += w.bomb_value * (1.6 + 0.25 * (c as f32 - 4.0)) + 0.1 * st;
            continue;
        }
        match c {
            1 => {
                singles += 1;
                value += st;
            }
            2 => {
                pairs += 1;
                value += st * 1.1;
            }
            _ => {
                trips += 1;
                value += st * 1.2;
            }
        }
    }
    // Each triple carries a pair (one turn for both).
    let carried = trips.min(pairs);
    let turns = singles + pairs + trips - carried;
    value -= w.turn_cost * turns as f32;
    Evaluation { value, turns, bombs }
}

/// A sequence shape: positions and copies per position.
const SEQUENCES: [(u8, u8, f32); 3] = [(5, 1, 0.35), (3, 2, 0.45), (2, 3, 0.5)];

/// Greedy plan value of a hand.
pub fn evaluate_shape(s: &Shape, level: Rank, w: &Weights) -> Evaluation {
    let mut shape = *s;
    let mut seq_value = 0.0;
    let mut seq_turns = 0u8;
    let mut best = group_value(&shape, level, w);
    // Take out the sequence that improves the plan most, up to three times.
    for _ in 0..3 {
        let mut improved: Option<(Shape, f32, Evaluation, f32)> = None;
        for (len, copies, bonus) in SEQUENCES {
            for start in 1..=(15 - len) {
                let mut next = shape;
                let mut ok = true;
                for pos in start..start + len {
                    let r = position_rank(pos) as usize;
                    // Never break a bomb for a sequence.
                    let have = next.ranks[r].min(copies);
                    let need = copies - have;
                    if next.ranks[r] >= 4 || need > next.wilds {
                        ok = false;
                        break;
                    }
                    next.ranks[r] -= have;
                    next.wilds -= need;
                }
                if !ok {
                    continue;
                }
                let center = start as f32 + (len as f32 - 1.0) / 2.0;
                let sv = (center - 8.0) / 5.0 + bonus;
                let e = group_value(&next, level, w);
                let total = seq_value + sv + e.value - w.turn_cost * (seq_turns + 1) as f32;
                if total > best.value + 1e-6 && improved.as_ref().is_none_or(|(_, v, _, _)| total > *v) {
                    improved = Some((next, total, e, sv));
                }
            }
        }
        let Some((next, total, e, sv)) = improved else { break };
        seq_value += sv;
        seq_turns += 1;
        shape = next;
        best = Evaluation { value: total, turns: e.turns + seq_turns, bombs: e.bombs };
    }
    best
}

/// Plans already made on this thread, by shape and level, for one set of weights: a playout asks
/// for the same shapes again and again (every candidate of every turn), and suits do not matter.
#[derive(Default)]
struct Memo {
    weights: Option<Weights>,
    plans: std::collections::HashMap<(Shape, u8), Evaluation>,
}

/// Bounds the memo's memory (about 40 bytes an entry): past it the memo starts again.
const MEMO_ENTRIES: usize = 1 << 18;

thread_local! {
    static MEMO: std::cell::RefCell<Memo> = std::cell::RefCell::new(Memo::default());
}

/// [`evaluate_shape`], remembered per thread (a pure function of its arguments, so results and
/// decisions are the same with or without the memo).
fn evaluate_shape_memo(s: &Shape, level: Rank, w: &Weights) -> Evaluation {
    MEMO.with(|memo| {
        let mut memo = memo.borrow_mut();
        if memo.weights.as_ref() != Some(w) || memo.plans.len() >= MEMO_ENTRIES {
            memo.weights = Some(*w);
            memo.plans.clear();
        }
        *memo.plans.entry((*s, level.0)).or_insert_with(|| evaluate_shape(s, level, w))
    })
}

/// Plan value of a hand of cards.
pub fn evaluate(hand: CardSet, wilds: CardSet, level: Rank, w: &Weights) -> Evaluation {
    let mut e = evaluate_shape_memo(&Shape::new(hand, wilds), level, w);
    // A natural straight flush held whole is a bomb the greedy split may have missed.
    if has_natural_straight_flush(hand.minus(wilds)) {
        e.value += 0.5 * w.bomb_value;
    }
    if hand.is_empty() {
        e.value += 100.0;
    }
    e
}

fn has_natural_straight_flush(hand: CardSet) -> bool {
    // Card values 0..52 are suit × 13 + (rank − 2); each value has two ids (two decks).
    const VALUES: u32 = 54;
    let bits = hand.0;
    let values = (bits & ((1u128 << VALUES) - 1)) | (bits >> VALUES);
    (0..4).any(|suit| {
        let ranks = ((values >> (13 * suit)) & 0x1fff) as u32;
        // Bit p − 1 for straight position p: the ace is position 1 and 14.
        let pos = (ranks << 1) | ((ranks >> 12) & 1);
        pos & (pos >> 1) & (pos >> 2) & (pos >> 3) & (pos >> 4) != 0
    })
}

/// The natural group a play splits: the rank (and how many cards of it the hand holds) of a
/// triple or a bomb the play takes some but not all of. The biggest such group when several.
pub fn broken_group(p: &Play, hand: CardSet, wilds: CardSet) -> Option<(u8, usize)> {
    let natural = hand.minus(wilds);
    let used = p.cards.minus(wilds);
    let mut worst: Option<(u8, usize)> = None;
    for id in used.iter() {
        let rank = Card::from_id(id).rank();
        if rank.is_joker() {
            continue;
        }
        let of_rank = |set: CardSet| set.iter().filter(|&c| Card::from_id(c).rank() == rank).count();
        let (held, taken) = (of_rank(natural), of_rank(used));
        if held >= 3 && taken < held && worst.is_none_or(|(_, n)| held > n) {
            worst = Some((rank.0, held));
        }
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_core::card::Suit;

    fn v(hand: &str, level: u8) -> f32 {
        let h = CardSet::parse(hand).unwrap();
        let wilds = guandan_core::combo::wild_set(Rank(level), &guandan_core::rules::RuleConfig::competition());
        evaluate(h, wilds, Rank(level), &Weights::default()).value
    }

    #[test]
    fn fewer_turns_and_higher_cards_score_better() {
        assert!(v("S3 S4 D5 S6 S7", 2) > v("S3 S4 D5 S6 S9", 2));
        assert!(v("SA DA", 2) > v("S3 D3", 2));
        assert!(v("S3 D3 C3 H3", 2) > v("S3 D3 C3 S9", 2));
        assert!(v("", 2) > v("S3", 2));
    }

    /// The memo answers for the weights it was filled with only: switching weights on one thread
    /// (L3's playouts and the advisor's profile) never returns another profile's plan.
    #[test]
    fn remembered_plans_follow_the_weights() {
        let hand = CardSet::parse("S3 D3 S7 D8 C9 ST SJ HK SA H2").unwrap();
        let wilds = guandan_core::combo::wild_set(Rank(2), &guandan_core::rules::RuleConfig::competition());
        let shape = Shape::new(hand, wilds);
        let fresh = |w: &Weights| evaluate_shape(&shape, Rank(2), w);
        for w in [Weights::TUNED, Weights::V1, Weights::TUNED, Weights::V1] {
            assert_eq!(evaluate(hand, wilds, Rank(2), &w).value, fresh(&w).value);
        }
        assert_ne!(fresh(&Weights::TUNED).value, fresh(&Weights::V1).value, "the weights must matter here");
    }

    #[test]
    fn natural_straight_flushes_are_found_at_both_ends() {
        let h = |s: &str| CardSet::parse(s).unwrap();
        assert!(has_natural_straight_flush(h("SA S2 S3 S4 S5")));
        assert!(has_natural_straight_flush(h("ST SJ SQ SK SA")));
        assert!(has_natural_straight_flush(h("D6 D7 D8 D9 DT C2")));
        assert!(!has_natural_straight_flush(h("SJ SQ SK SA S2")), "no wrap past the ace");
        assert!(!has_natural_straight_flush(h("S6 S7 S8 S9 DT")));
        assert!(!has_natural_straight_flush(h("H3 H4 H5 H6 S7 SB HR")));
        // Every suit, every start, against the plain definition.
        for suit in Suit::NATURAL {
            for start in 1..=10u8 {
                let set = (start..start + 5)
                    .fold(CardSet::EMPTY, |set, p| set.with(Card::new(suit, Rank(position_rank(p))).ids()[1]));
                assert!(has_natural_straight_flush(set));
                let gap = set.minus(CardSet::EMPTY.with(Card::new(suit, Rank(position_rank(start + 2))).ids()[1]));
                assert!(!has_natural_straight_flush(gap));
            }
        }
    }

    #[test]
    fn a_wild_completes_a_bomb() {
        // 9 9 9 + wild is a bomb: worth more than 9 9 9 + a plain level card.
        assert!(v("S9 D9 C9 H2", 2) > v("S9 D9 C9 S2", 2));
    }
}
