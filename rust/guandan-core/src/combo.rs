//! Combinations: what a set of cards can be read as, and how plays compare.
//!
//! A [`Pattern`] is a play without its cards (kind, rank or window, size, suit for straight
//! flushes); two plays are "the same play" when their patterns are equal. Sequences are keyed by
//! the *position* of their lowest card, 1 (ace low) … 13, so A2345 is window 1 and 10JQKA window 10.

use crate::card::{Card, CardSet, Rank, Suit};
use crate::rules::{BombOrder, RuleConfig, StraightFlushOrder};
use serde::{Deserialize, Serialize};
use std::fmt;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum PlayKind {
    Single,
    Pair,
    Trips,
    ThreeWithTwo,
    Straight,
    ThreePair,
    TwoTrips,
    StraightFlush,
    Bomb,
    FourKings,
}

impl PlayKind {
    pub const ALL: [PlayKind; 10] = [
        PlayKind::Single,
        PlayKind::Pair,
        PlayKind::Trips,
        PlayKind::ThreeWithTwo,
        PlayKind::Straight,
        PlayKind::ThreePair,
        PlayKind::TwoTrips,
        PlayKind::StraightFlush,
        PlayKind::Bomb,
        PlayKind::FourKings,
    ];

    /// The competition wire name.
    pub fn name(self) -> &'static str {
        match self {
            PlayKind::Single => "Single",
            PlayKind::Pair => "Pair",
            PlayKind::Trips => "Trips",
            PlayKind::ThreeWithTwo => "ThreeWithTwo",
            PlayKind::Straight => "Straight",
            PlayKind::ThreePair => "ThreePair",
            PlayKind::TwoTrips => "TwoTrips",
            PlayKind::StraightFlush => "StraightFlush",
            PlayKind::Bomb => "Bomb",
            PlayKind::FourKings => "FourKings",
        }
    }

    pub fn from_name(s: &str) -> Option<PlayKind> {
        PlayKind::ALL.into_iter().find(|k| k.name() == s)
    }

    /// Bombs, straight flushes and four jokers beat any non-bomb.
    pub fn is_bomb(self) -> bool {
        matches!(self, PlayKind::Bomb | PlayKind::StraightFlush | PlayKind::FourKings)
    }

    pub fn is_sequence(self) -> bool {
        matches!(self, PlayKind::Straight | PlayKind::ThreePair | PlayKind::TwoTrips | PlayKind::StraightFlush)
    }

    /// Reading priority when a set is ambiguous (lower first): four jokers > bomb > straight
    /// flush > steel plate > three pairs > straight > triple with pair > triple > pair > single.
    pub fn priority(self) -> u8 {
        match self {
            PlayKind::FourKings => 0,
            PlayKind::Bomb => 1,
            PlayKind::StraightFlush => 2,
            PlayKind::TwoTrips => 3,
            PlayKind::ThreePair => 4,
            PlayKind::Straight => 5,
            PlayKind::ThreeWithTwo => 6,
            PlayKind::Trips => 7,
            PlayKind::Pair => 8,
            PlayKind::Single => 9,
        }
    }

    /// Sequence length in positions and copies per position.
    pub(crate) fn sequence_shape(self) -> Option<(u8, u8)> {
        match self {
            PlayKind::Straight | PlayKind::StraightFlush => Some((5, 1)),
            PlayKind::ThreePair => Some((3, 2)),
            PlayKind::TwoTrips => Some((2, 3)),
            _ => None,
        }
    }
}

/// A play without its cards: equal patterns are the same play.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct Pattern {
    pub kind: PlayKind,
    /// Rank (2–16) for groups; lowest position (1 = ace low … 13) for sequences; 0 for four jokers.
    pub rank: u8,
    /// Number of cards.
    pub size: u8,
    /// Suit of a straight flush.
    pub suit: Option<Suit>,
}

impl Pattern {
    /// The rank character of the wire format (`A` for an ace-low sequence, `JOKER` for four jokers).
    pub fn rank_text(&self) -> String {
        match self.kind {
            PlayKind::FourKings => "JOKER".into(),
            _ if self.kind.is_sequence() => Rank(position_rank(self.rank)).char().to_string(),
            _ => Rank(self.rank).char().to_string(),
        }
    }
}

impl fmt::Display for Pattern {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.kind.name(), self.rank_text())?;
        if self.kind == PlayKind::Bomb {
            write!(f, " x{}", self.size)?;
        }
        if let Some(s) = self.suit {
            write!(f, " {}", s.letter())?;
        }
        Ok(())
    }
}

/// A combination with its cards.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Play {
    pub pattern: Pattern,
    pub cards: CardSet,
    /// No wild stands for another card (only matters with `wild_bomb_purity`).
    pub pure: bool,
}

impl Play {
    pub fn kind(&self) -> PlayKind {
        self.pattern.kind
    }

    /// `[type, rank, cards]` in the competition wire format.
    pub fn to_wire(&self) -> serde_json::Value {
        let cards: Vec<String> = self.cards.notation().split_whitespace().map(String::from).collect();
        serde_json::json!([self.pattern.kind.name(), self.pattern.rank_text(), cards])
    }
}

/// Rank of a sequence position (1 is the low ace).
#[inline]
pub fn position_rank(pos: u8) -> u8 {
    if pos == 1 { 14 } else { pos }
}

/// Order of a rank for singles, pairs, triples, triple-with-pair and bombs: the level rank sits
/// above the ace and below the jokers.
#[inline]
pub fn rank_order(rank: u8, level: Rank) -> u8 {
    if rank == level.0 {
        15
    } else if rank >= 15 {
        rank + 1
    } else {
        rank
    }
}

/// The wild cards of a deal: the hearts of the level rank, as many as the rules allow.
pub fn wild_set(level: Rank, rules: &RuleConfig) -> CardSet {
    let ids = Card::new(Suit::Hearts, level).ids();
    ids.iter().take(rules.wild_count as usize).fold(CardSet::EMPTY, |s, &i| s.with(i))
}

/// Bomb strength: higher wins. Four jokers are always on top.
fn bomb_strength(p: &Play, level: Rank, rules: &RuleConfig) -> u32 {
    let pat = &p.pattern;
    let purity = (rules.wild_bomb_purity && p.pure) as u32;
    match pat.kind {
        PlayKind::FourKings => u32::MAX,
        PlayKind::StraightFlush => {
            let tier = match (rules.straight_flush_order, rules.bomb_order) {
                (StraightFlushOrder::BelowAllBombs, _) => 1,
                (StraightFlushOrder::AboveAllBombs, _) | (_, BombOrder::RankFirst) => 1000,
                (StraightFlushOrder::BetweenFiveAndSix, BombOrder::SizeFirst) => 11,
            };
            // Suit never breaks a tie, and purity does not apply to straight flushes.
            tier << 16 | (pat.rank as u32) << 8
        }
        PlayKind::Bomb => {
            let r = rank_order(pat.rank, level) as u32;
            let size = pat.size as u32;
            match rules.bomb_order {
                BombOrder::SizeFirst => (size * 2) << 16 | r << 8 | purity,
                BombOrder::RankFirst => 100 << 16 | r << 8 | size << 1 | purity,
            }
        }
        _ => 0,
    }
}

/// Whether `a` beats `b` (the play on the table).
pub fn beats(a: &Play, b: &Play, level: Rank, rules: &RuleConfig) -> bool {
    let (ka, kb) = (a.pattern.kind, b.pattern.kind);
    match (ka.is_bomb(), kb.is_bomb()) {
        (true, false) => true,
        (false, true) => false,
        (true, true) => bomb_strength(a, level, rules) > bomb_strength(b, level, rules),
        (false, false) => {
            if ka != kb || a.pattern.size != b.pattern.size {
                return false;
            }
            if ka.is_sequence() {
                a.pattern.rank > b.pattern.rank
            } else {
                rank_order(a.pattern.rank, level) > rank_order(b.pattern.rank, level)
            }
        }
    }
}

/// Non-wild counts of a set, by value and by rank.
#[derive(Clone, Copy, Debug)]
pub struct Counts {
    pub value: [u8; 54],
    pub rank: [u8; 17],
    pub naturals: CardSet,
    pub wilds: CardSet,
    pub w: u8,
}

impl Counts {
    pub fn new(cards: CardSet, wilds: CardSet) -> Counts {
        let naturals = cards.minus(wilds);
        let mut value = [0u8; 54];
        let mut rank = [0u8; 17];
        for id in naturals.iter() {
            let c = Card::from_id(id);
            value[c.0 as usize] += 1;
            rank[c.rank().0 as usize] += 1;
        }
        let w = cards.intersect(wilds);
        Counts { value, rank, naturals, wilds: w, w: w.len() as u8 }
    }

    #[inline]
    pub fn suit_rank(&self, suit: Suit, rank: u8) -> u8 {
        self.value[Card::new(suit, Rank(rank)).0 as usize]
    }
}

/// Every reading of a set of cards, in default priority order (see [`PlayKind::priority`]; within
/// a kind, higher first). Empty when the set is no combination.
pub fn classify(cards: CardSet, level: Rank, rules: &RuleConfig) -> Vec<Play> {
    let c = Counts::new(cards, wild_set(level, rules));
    let n = cards.len() as u8;
    let mut out = Vec::new();
    let mut push =
        |kind, rank, suit, pure| out.push(Play { pattern: Pattern { kind, rank, size: n, suit }, cards, pure });
    if n == 0 {
        return Vec::new();
    }
    // Ranks present among the natural cards.
    let present: Vec<u8> = (2..=16u8).filter(|&r| c.rank[r as usize] > 0).collect();
    let jokers = c.rank[15] + c.rank[16];
    let w = c.w;
    // A group made of wilds only reads as level cards.
    let group_rank = |present: &[u8]| -> Option<u8> {
        match present {
            [] => Some(level.0),
            [r] if *r <= 14 || w == 0 => Some(*r),
            _ => None,
        }
    };
    match n {
        1 => {
            push(PlayKind::Single, present.first().copied().unwrap_or(level.0), None, true);
        }
        2 | 3 => {
            if let Some(r) = group_rank(&present) {
                // A joker pair must be two of the same joker; jokers never form triples.
                if r <= 14 || n == 2 {
                    let kind = if n == 2 { PlayKind::Pair } else { PlayKind::Trips };
                    push(kind, r, None, w == 0 || r == level.0);
                }
            }
        }
        _ => {}
    }
    if n == 4 && c.rank[15] == 2 && c.rank[16] == 2 {
        push(PlayKind::FourKings, 0, None, true);
    }
    if (4..=10).contains(&n)
        && jokers == 0
        && let Some(r) = group_rank(&present)
    {
        push(PlayKind::Bomb, r, None, w == 0 || r == level.0);
    }
    if n == 5 {
        classify_sequences(&c, PlayKind::StraightFlush, rules, &mut push);
        classify_sequences(&c, PlayKind::Straight, rules, &mut push);
        // Triple with pair: triple rank t (never jokers), pair of another rank.
        if jokers == 0 || (c.rank[15] == 2 && jokers == 2) || (c.rank[16] == 2 && jokers == 2) {
            let mut seen = 0u32;
            for &t in &present {
                if t > 14 {
                    continue;
                }
                let need_t = 3u8.saturating_sub(c.rank[t as usize]);
                if c.rank[t as usize] > 3 || need_t > w {
                    continue;
                }
                let left = w - need_t;
                let others: Vec<u8> = present.iter().copied().filter(|&r| r != t).collect();
                let ok = match others.as_slice() {
                    // The pair is made of the remaining wilds.
                    [] => left == 2,
                    [p] => c.rank[*p as usize] + left == 2,
                    _ => false,
                };
                if ok && seen & (1 << t) == 0 {
                    seen |= 1 << t;
                    push(PlayKind::ThreeWithTwo, t, None, w == 0);
                }
            }
        }
    }
    if n == 6 {
        classify_sequences(&c, PlayKind::TwoTrips, rules, &mut push);
        classify_sequences(&c, PlayKind::ThreePair, rules, &mut push);
    }
    out.sort_by_key(|p| (p.pattern.kind.priority(), std::cmp::Reverse(p.pattern.rank)));
    out
}

/// First and last allowed window start for a sequence kind.
pub(crate) fn window_range(kind: PlayKind, rules: &RuleConfig) -> (u8, u8) {
    let (len, _) = kind.sequence_shape().unwrap_or((5, 1));
    let lo = if rules.sequences_ace_low { 1 } else { 2 };
    let hi = if rules.sequences_ace_high { 15 - len } else { 14 - len };
    (lo, hi)
}

fn classify_sequences(
    c: &Counts,
    kind: PlayKind,
    rules: &RuleConfig,
    push: &mut impl FnMut(PlayKind, u8, Option<Suit>, bool),
) {
    let Some((len, copies)) = kind.sequence_shape() else { return };
    if c.rank[15] + c.rank[16] > 0 {
        return;
    }
    let (lo, hi) = window_range(kind, rules);
    let suits: &[Suit] = if kind == PlayKind::StraightFlush { &Suit::NATURAL } else { &[Suit::Joker] };
    for &suit in suits {
        if kind == PlayKind::StraightFlush {
            // Every natural card must be of this suit.
            let in_suit: u8 = (2..=14).map(|r| c.suit_rank(suit, r)).sum();
            if in_suit != c.naturals.len() as u8 {
                continue;
            }
        }
        for start in lo..=hi {
            let mut covered = 0u8;
            let mut ok = true;
            for pos in start..start + len {
                let k = c.rank[position_rank(pos) as usize];
                if k > copies {
                    ok = false;
                    break;
                }
                covered += k;
            }
            // Every natural card must sit inside the window, the wilds fill the rest.
            if !ok || covered as u32 != c.naturals.len() as u32 {
                continue;
            }
            if kind == PlayKind::Straight && c.w == 0 {
                // Five natural cards of one suit are a straight flush only.
                let one_suit = Suit::NATURAL
                    .iter()
                    .any(|&s| (2..=14).map(|r| c.suit_rank(s, r)).sum::<u8>() == c.naturals.len() as u8);
                if one_suit {
                    continue;
                }
            }
            let sf_suit = (kind == PlayKind::StraightFlush).then_some(suit);
            push(kind, start, sf_suit, c.w == 0);
        }
    }
}

/// The reading to use for a set: when following, the highest-priority reading that beats the
/// table; when leading, the highest-priority reading.
pub fn choose_reading(readings: &[Play], table: Option<&Play>, level: Rank, rules: &RuleConfig) -> Option<Play> {
    match table {
        None => readings.first().copied(),
        Some(t) => readings.iter().find(|p| beats(p, t, level, rules)).copied(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cls(cards: &str, level: u8) -> Vec<String> {
        classify(CardSet::parse(cards).unwrap(), Rank(level), &RuleConfig::competition())
            .iter()
            .map(|p| p.pattern.to_string())
            .collect()
    }

    #[test]
    fn basic_readings() {
        assert_eq!(cls("S3", 2), ["Single 3"]);
        assert_eq!(cls("S3 H3", 2), ["Pair 3"]);
        assert_eq!(cls("SB SB", 2), ["Pair B"]);
        assert!(cls("SB HR", 2).is_empty());
        assert!(cls("SB SB S3", 2).is_empty());
        assert_eq!(cls("SB SB HR HR", 2), ["FourKings JOKER"]);
        assert_eq!(cls("S3 H3 C3 D3", 2), ["Bomb 3 x4"]);
        assert_eq!(cls("S3 S4 S5 S6 S7", 2), ["StraightFlush 3 S"]);
        assert_eq!(cls("S3 H4 S5 S6 S7", 2), ["Straight 3"]);
        assert_eq!(cls("SA S2 D3 S4 S5", 9), ["Straight A"]);
        assert_eq!(cls("ST SJ DQ SK SA", 9), ["Straight T"]);
        assert!(cls("SK SA D2 S3 S4", 9).is_empty());
        assert_eq!(cls("SA DA S2 D2 S3 C3", 9), ["ThreePair A"]);
        assert_eq!(cls("SA DA HA S2 D2 C2", 9), ["TwoTrips A"]);
        assert_eq!(cls("SK DK HK SA DA CA", 9), ["TwoTrips K"]);
        assert_eq!(cls("S5 D5 H5 SB SB", 9), ["ThreeWithTwo 5"]);
        assert!(cls("S5 D5 H5 S6", 9).is_empty());
        assert!(cls("S5 D5 S6 D6 S7 D7 S8 D8", 9).is_empty());
    }

    #[test]
    fn wild_readings_are_all_found() {
        // Level 2: H2 is wild. 4 5 6 + two wilds.
        let r = cls("S4 D5 S6 H2 H2", 2);
        assert!(r.contains(&"Straight 4".to_string()), "{r:?}");
        assert!(r.contains(&"Straight 2".to_string()), "{r:?}");
        assert!(!r.contains(&"Straight 5".to_string()), "{r:?}");
        let r = cls("S4 S5 S6 H2 H2", 2);
        assert_eq!(r[0], "StraightFlush 4 S", "{r:?}");
        assert!(r.contains(&"Straight 4".to_string()), "{r:?}");
        // 4 4 5 5 6? no: 4 5 6 + W W can be three pairs only with 6 cards. 4 4 5 + W W:
        let r = cls("S4 D4 S5 H2 H2", 2);
        assert!(r.contains(&"ThreeWithTwo 4".to_string()), "{r:?}");
        assert!(r.contains(&"ThreeWithTwo 5".to_string()), "{r:?}");
        // A lone wild is a level card; two wilds are a level pair.
        assert_eq!(cls("H2", 2), ["Single 2"]);
        assert_eq!(cls("H7 H7", 7), ["Pair 7"]);
        assert_eq!(cls("S9 H7", 7), ["Pair 9"]);
        assert_eq!(cls("S9 S9 H7 H7", 7), ["Bomb 9 x4"]);
    }

    #[test]
    fn comparisons_follow_competition_order() {
        let rules = RuleConfig::competition();
        let lv = Rank(2);
        let p = |s: &str| classify(CardSet::parse(s).unwrap(), lv, &rules)[0];
        let four = p("S3 H3 C3 D3");
        let five = p("S3 H3 C3 D3 D3");
        let sf = p("S3 S4 S5 S6 S7");
        let six = p("S3 S3 H3 C3 D3 D3");
        let kings = p("SB SB HR HR");
        assert!(five.pattern.size == 5 && beats(&five, &four, lv, &rules));
        assert!(beats(&sf, &five, lv, &rules) && beats(&six, &sf, lv, &rules));
        assert!(beats(&kings, &six, lv, &rules) && !beats(&six, &kings, lv, &rules));
        assert!(!beats(&sf, &sf, lv, &rules));
        // Level rank above ace for singles.
        assert!(beats(&p("D2"), &p("SA"), lv, &rules));
        assert!(!beats(&p("SA SA"), &p("S3"), lv, &rules));
    }
}
