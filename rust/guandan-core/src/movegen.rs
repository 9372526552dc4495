//! Legal move generation: every distinct play a hand can lead, or every play that beats the table,
//! each with a canonical choice of cards (naturals before wilds; cards least useful to straight
//! flushes first), plus the enumeration of alternative card choices for one play.

use crate::card::{Card, CardId, CardSet, Rank, Suit};
use crate::combo::{
    Counts, Pattern, Play, PlayKind, beats, classify, position_rank, rank_order, wild_set, window_range,
};
use crate::rules::RuleConfig;
use arrayvec::ArrayVec;

/// Upper bound on distinct plays of one hand (27–28 cards stay far below it).
pub const MAX_MOVES: usize = 384;
/// A fixed-capacity move list.
pub type MoveList = ArrayVec<Play, MAX_MOVES>;

/// Context shared by the generator's helpers.
struct Gen<'a> {
    c: Counts,
    level: Rank,
    rules: &'a RuleConfig,
    /// How many potential straight flushes each value belongs to: taken last.
    sf_use: [u8; 54],
}

impl<'a> Gen<'a> {
    fn new(hand: CardSet, level: Rank, rules: &'a RuleConfig) -> Self {
        let c = Counts::new(hand, wild_set(level, rules));
        let mut sf_use = [0u8; 54];
        let (lo, hi) = window_range(PlayKind::StraightFlush, rules);
        for suit in Suit::NATURAL {
            for start in lo..=hi {
                let have = (start..start + 5).filter(|&p| c.suit_rank(suit, position_rank(p)) > 0).count() as u8;
                if have + c.w >= 5 {
                    for p in start..start + 5 {
                        sf_use[Card::new(suit, Rank(position_rank(p))).0 as usize] += 1;
                    }
                }
            }
        }
        Gen { c, level, rules, sf_use }
    }

    /// Takes up to `k` natural cards of `rank` (any suit, or only `suit`), least useful first.
    fn take_naturals(&self, rank: u8, suit: Option<Suit>, k: u8, into: &mut CardSet) -> u8 {
        let mut values: ArrayVec<Card, 5> = ArrayVec::new();
        if rank >= 15 {
            values.push(if rank == 15 { Card::SMALL_JOKER } else { Card::BIG_JOKER });
        } else {
            for s in Suit::NATURAL {
                if suit.is_none_or(|x| x == s) {
                    values.push(Card::new(s, Rank(rank)));
                }
            }
        }
        values.sort_by_key(|v| (self.sf_use[v.0 as usize], std::cmp::Reverse(self.c.value[v.0 as usize]), v.0));
        let mut taken = 0;
        for v in values {
            for id in self.c.naturals.minus(*into).ids_of(v) {
                if taken == k {
                    return taken;
                }
                into.insert(id);
                taken += 1;
            }
        }
        taken
    }

    fn take_wilds(&self, k: u8, into: &mut CardSet) {
        for id in self.c.wilds.minus(*into).iter().take(k as usize) {
            into.insert(id);
        }
    }

    /// A group of `k` cards of one rank, naturals first.
    fn group(&self, rank: u8, k: u8, into: &mut CardSet) -> Option<u8> {
        let nat = self.c.rank[rank as usize];
        if rank >= 15 {
            return (nat >= k).then(|| self.take_naturals(rank, None, k, into)).map(|_| 0);
        }
        // Wilds alone read as level cards; with a natural they may stand for any rank.
        if nat == 0 && rank != self.level.0 {
            return None;
        }
        let nat_take = nat.min(k);
        let wilds = k - nat_take;
        if wilds > self.c.w {
            return None;
        }
        self.take_naturals(rank, None, nat_take, into);
        self.take_wilds(wilds, into);
        Some(wilds)
    }

    fn play(&self, kind: PlayKind, rank: u8, suit: Option<Suit>, cards: CardSet, wilds_used: u8) -> Play {
        let pure = wilds_used == 0 || (kind == PlayKind::Bomb && rank == self.level.0) || {
            matches!(kind, PlayKind::Single | PlayKind::Pair | PlayKind::Trips) && rank == self.level.0
        };
        Play { pattern: Pattern { kind, rank, size: cards.len() as u8, suit }, cards, pure }
    }

    fn groups(&self, kind: PlayKind, out: &mut MoveList) {
        let k = match kind {
            PlayKind::Single => 1,
            PlayKind::Pair => 2,
            _ => 3,
        };
        let top = if kind == PlayKind::Trips { 14 } else { 16 };
        for rank in 2..=top {
            let mut cards = CardSet::EMPTY;
            if let Some(w) = self.group(rank, k, &mut cards) {
                push(out, self.play(kind, rank, None, cards, w));
            }
        }
    }

    fn three_with_two(&self, out: &mut MoveList) {
        for t in 2..=14u8 {
            let mut triple = CardSet::EMPTY;
            let Some(wt) = self.group(t, 3, &mut triple) else { continue };
            // Cheapest pair: no wilds, then not from a bomb or triple, then lowest.
            let best = (2..=16u8)
                .filter(|&p| p != t)
                .filter_map(|p| {
                    let mut cards = triple;
                    let wp = match self.group(p, 2, &mut cards) {
                        Some(wp) => wp,
                        // Two wilds may be the pair of a rank the hand lacks: the triple's
                        // natural cards let them stand for it.
                        None if p <= 14 && self.c.rank[p as usize] == 0 && wt < 3 && self.c.w >= 2 => {
                            self.take_wilds(2, &mut cards);
                            2
                        }
                        None => return None,
                    };
                    (wt + wp <= self.c.w).then_some(())?;
                    let n = self.c.rank[p as usize];
                    Some(((wp, (n >= 4) as u8, (n == 3) as u8, rank_order(p, self.level)), cards, wp))
                })
                .min_by_key(|(key, _, _)| *key);
            if let Some((_, cards, wp)) = best {
                push(out, self.play(PlayKind::ThreeWithTwo, t, None, cards, wt + wp));
            }
        }
    }

    fn sequences(&self, kind: PlayKind, out: &mut MoveList) {
        let Some((len, copies)) = kind.sequence_shape() else { return };
        let (lo, hi) = window_range(kind, self.rules);
        let suits: &[Option<Suit>] = if kind == PlayKind::StraightFlush {
            &[Some(Suit::Spades), Some(Suit::Hearts), Some(Suit::Clubs), Some(Suit::Diamonds)]
        } else {
            &[None]
        };
        for &suit in suits {
            'window: for start in lo..=hi {
                let mut cards = CardSet::EMPTY;
                let mut wilds = 0u8;
                for pos in start..start + len {
                    let r = position_rank(pos);
                    let got = self.take_naturals(r, suit, copies, &mut cards);
                    wilds += copies - got;
                    if wilds > self.c.w {
                        continue 'window;
                    }
                }
                if kind == PlayKind::Straight && wilds == 0 && one_suit(cards) {
                    // Five naturals of one suit are a straight flush; swap one card for another
                    // suit, or let a wild stand for another suit.
                    match self.plain_straight_swap(cards) {
                        Some(swapped) => cards = swapped,
                        None if self.c.w > 0 => {
                            let hi_card = cards.iter().last().unwrap_or(CardId::ALL[0]);
                            let lowest = cards.iter().min_by_key(|&id| Card::from_id(id).rank()).unwrap_or(hi_card);
                            cards.remove(lowest);
                            self.take_wilds(1, &mut cards);
                            wilds = 1;
                        }
                        None => continue 'window,
                    }
                }
                self.take_wilds(wilds.saturating_sub(cards.intersect(self.c.wilds).len() as u8), &mut cards);
                push(out, self.play(kind, start, suit, cards, wilds));
            }
        }
    }

    /// Replaces one card of a one-suit run with a natural of the same rank in another suit.
    fn plain_straight_swap(&self, cards: CardSet) -> Option<CardSet> {
        let suit = Card::from_id(cards.iter().next()?).suit();
        for id in cards.iter() {
            let rank = Card::from_id(id).rank();
            for s in Suit::NATURAL {
                if s == suit {
                    continue;
                }
                if let Some(other) = self.c.naturals.ids_of(Card::new(s, rank)).next() {
                    let mut out = cards;
                    out.remove(id);
                    out.insert(other);
                    return Some(out);
                }
            }
        }
        None
    }

    fn bombs(&self, out: &mut MoveList) {
        for rank in 2..=14u8 {
            let nat = self.c.rank[rank as usize];
            if nat == 0 && rank != self.level.0 {
                continue;
            }
            for size in 4..=(nat + self.c.w).min(10) {
                let mut cards = CardSet::EMPTY;
                if let Some(w) = self.group(rank, size, &mut cards) {
                    push(out, self.play(PlayKind::Bomb, rank, None, cards, w));
                }
            }
        }
        if self.c.rank[15] == 2 && self.c.rank[16] == 2 {
            let cards = self.c.naturals.intersect(joker_ids());
            push(out, self.play(PlayKind::FourKings, 0, None, cards, 0));
        }
    }
}

fn joker_ids() -> CardSet {
    CardSet::from_ids(&[52, 53, 106, 107].map(|i| CardId::ALL[i]))
}

fn one_suit(cards: CardSet) -> bool {
    let mut it = cards.iter().map(|id| Card::from_id(id).suit());
    let first = it.next();
    it.all(|s| Some(s) == first)
}

fn push(out: &mut MoveList, p: Play) {
    debug_assert!(!out.is_full(), "move list overflow");
    let _ = out.try_push(p);
}

/// Every distinct play the hand can lead (no PASS).
pub fn leads(hand: CardSet, level: Rank, rules: &RuleConfig) -> MoveList {
    generate(hand, None, level, rules)
}

/// Every distinct play that beats `table` (PASS is always also legal when following).
pub fn follows(hand: CardSet, table: &Play, level: Rank, rules: &RuleConfig) -> MoveList {
    generate(hand, Some(table), level, rules)
}

/// Leads when `table` is `None`, otherwise the plays that beat it.
pub fn generate(hand: CardSet, table: Option<&Play>, level: Rank, rules: &RuleConfig) -> MoveList {
    let g = Gen::new(hand, level, rules);
    let mut out = MoveList::new();
    let want = |k: PlayKind| match table {
        None => true,
        Some(t) => k.is_bomb() || k == t.pattern.kind,
    };
    for kind in [PlayKind::Single, PlayKind::Pair, PlayKind::Trips] {
        if want(kind) {
            g.groups(kind, &mut out);
        }
    }
    if want(PlayKind::ThreeWithTwo) {
        g.three_with_two(&mut out);
    }
    for kind in [PlayKind::Straight, PlayKind::ThreePair, PlayKind::TwoTrips, PlayKind::StraightFlush] {
        if want(kind) {
            g.sequences(kind, &mut out);
        }
    }
    g.bombs(&mut out);
    if let Some(t) = table {
        out.retain(|p| beats(p, t, level, rules));
    }
    out
}

/// Every distinct choice of cards (by value; the copy taken is the lowest free id) that plays
/// `pattern` from `hand`, up to `limit` choices.
pub fn card_choices(hand: CardSet, pattern: &Pattern, level: Rank, rules: &RuleConfig, limit: usize) -> Vec<CardSet> {
    let c = Counts::new(hand, wild_set(level, rules));
    let relevant: Vec<Card> =
        (0..54u8).map(Card).filter(|v| c.value[v.0 as usize] > 0 && may_take_part(*v, pattern)).collect();
    let mut out = Vec::new();
    let mut chosen = CardSet::EMPTY;
    enumerate_choices(&c, &relevant, 0, pattern.size, &mut chosen, &mut |cards| {
        let ok = classify(cards, level, rules).iter().any(|p| p.pattern == *pattern);
        if ok {
            out.push(cards);
        }
        out.len() < limit
    });
    out
}

fn may_take_part(v: Card, pattern: &Pattern) -> bool {
    let r = v.rank().0;
    match pattern.kind {
        PlayKind::ThreeWithTwo | PlayKind::FourKings => true,
        PlayKind::Single | PlayKind::Pair | PlayKind::Trips | PlayKind::Bomb => r == pattern.rank,
        kind => {
            let (len, _) = kind.sequence_shape().unwrap_or((5, 1));
            let in_window = (pattern.rank..pattern.rank + len).any(|p| position_rank(p) == r);
            in_window && pattern.suit.is_none_or(|s| s == v.suit())
        }
    }
}

/// Walks sub-multisets of `values` (then wilds) of exactly `size` cards; `visit` returns false to stop.
fn enumerate_choices(
    c: &Counts,
    values: &[Card],
    i: usize,
    size: u8,
    chosen: &mut CardSet,
    visit: &mut impl FnMut(CardSet) -> bool,
) -> bool {
    let have = chosen.len() as u8;
    if i == values.len() {
        let need = size.saturating_sub(have);
        if need > c.w {
            return true;
        }
        let mut cards = *chosen;
        for id in c.wilds.iter().take(need as usize) {
            cards.insert(id);
        }
        return visit(cards);
    }
    let ids: ArrayVec<CardId, 2> = c.naturals.ids_of(values[i]).collect();
    for k in 0..=ids.len() {
        if have + k as u8 > size {
            break;
        }
        let mut next = *chosen;
        for &id in &ids[..k] {
            next.insert(id);
        }
        if !enumerate_choices(c, values, i + 1, size, &mut next, visit) {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names(moves: &MoveList) -> Vec<String> {
        moves.iter().map(|p| p.pattern.to_string()).collect()
    }

    #[test]
    fn generated_plays_classify_as_themselves() {
        let rules = RuleConfig::competition();
        let hand = CardSet::parse("S2 H2 S3 S4 S5 S6 S7 D7 C7 H7 SB SB HR HR SA DA HA CA").unwrap();
        for level in [2u8, 7, 14] {
            for p in leads(hand, Rank(level), &rules) {
                let readings = classify(p.cards, Rank(level), &rules);
                assert!(readings.iter().any(|r| r.pattern == p.pattern), "{} {:?}", p.pattern, p.cards);
            }
        }
    }

    #[test]
    fn follow_keeps_only_beating_plays() {
        let rules = RuleConfig::competition();
        let hand = CardSet::parse("S3 S4 S5 S6 S7 D9 D9 SK").unwrap();
        let table = classify(CardSet::parse("C8").unwrap(), Rank(2), &rules)[0];
        let f = names(&follows(hand, &table, Rank(2), &rules));
        assert_eq!(f, ["Single 9", "Single K", "StraightFlush 3 S"]);
    }

    #[test]
    fn canonical_straight_keeps_the_flush_whole() {
        // 3-7 of spades plus a loose diamond 5: the plain straight should take the diamond.
        let rules = RuleConfig::competition();
        let hand = CardSet::parse("S3 S4 S5 S6 S7 D5").unwrap();
        let m = leads(hand, Rank(2), &rules);
        let st = m.iter().find(|p| p.pattern.kind == PlayKind::Straight).unwrap();
        assert!(st.cards.contains(Card::parse("D5").unwrap().ids()[0]), "{:?}", st.cards);
    }

    #[test]
    fn choices_enumerate_suits() {
        let rules = RuleConfig::competition();
        let hand = CardSet::parse("S9 D9 H9 C4").unwrap();
        let pair9 = Pattern { kind: PlayKind::Pair, rank: 9, size: 2, suit: None };
        assert_eq!(card_choices(hand, &pair9, Rank(2), &rules, 100).len(), 3);
    }
}
