//! Cards, ranks, suits and the competition text notation.
//!
//! A card has a stable *id* (0–107: deck × 54 + value) used by logs, replays and the UI, and a
//! *value* (0–53: suit × 13 + rank − 2, then the two jokers) that is equal for both copies and is
//! all the rules ever look at.

use serde::{Deserialize, Serialize};
use std::fmt;

/// Number of cards in the two decks.
pub const DECK_SIZE: usize = 108;

/// A card's stable id, 0–107 (deck × 54 + value). The field is private, so every `CardId` in
/// hand names one of the 108 cards: the range is checked once, where a number comes in (wire and
/// files through serde's `try_from`, FFI and CLI through [`CardId::new`] / `TryFrom`), never
/// inside the rules. Serialized as its number, so JSON, bincode and stored records are unchanged.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(try_from = "u8", into = "u8")]
pub struct CardId(u8);

/// A number that names no card (kept wide, as the front end or the file gave it).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("card id {0} is out of range 0-107")]
pub struct CardIdOutOfRange(pub i64);

impl CardId {
    /// The 108 ids in increasing order.
    pub const ALL: [CardId; DECK_SIZE] = {
        let mut all = [CardId(0); DECK_SIZE];
        let mut i = 0;
        while i < DECK_SIZE {
            all[i] = CardId(i as u8);
            i += 1;
        }
        all
    };

    /// `Some` for 0–107.
    pub const fn new(n: u8) -> Option<CardId> {
        if (n as usize) < DECK_SIZE { Some(CardId(n)) } else { None }
    }

    /// The id at `index` 0–107 (e.g. a position in a deck array); `None` beyond.
    pub const fn from_index(index: usize) -> Option<CardId> {
        if index < DECK_SIZE { Some(CardId(index as u8)) } else { None }
    }

    /// 0–107, to index per-card data or shift a bit mask.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// The card's rule value (equal for both copies).
    pub const fn card(self) -> Card {
        Card(self.0 % VALUES as u8)
    }

    /// Ids from the front end (any integer width), each checked; the first one out of range is
    /// the error.
    pub fn try_from_all<I: Copy + Into<i64>>(ids: &[I]) -> Result<Vec<CardId>, CardIdOutOfRange> {
        ids.iter().map(|&i| CardId::try_from(i.into())).collect()
    }
}

impl TryFrom<u8> for CardId {
    type Error = CardIdOutOfRange;
    fn try_from(n: u8) -> Result<Self, Self::Error> {
        CardId::new(n).ok_or(CardIdOutOfRange(i64::from(n)))
    }
}

impl TryFrom<i64> for CardId {
    type Error = CardIdOutOfRange;
    fn try_from(n: i64) -> Result<Self, Self::Error> {
        u8::try_from(n).ok().and_then(CardId::new).ok_or(CardIdOutOfRange(n))
    }
}

impl From<CardId> for u8 {
    fn from(id: CardId) -> u8 {
        id.0
    }
}

impl From<CardId> for i64 {
    fn from(id: CardId) -> i64 {
        i64::from(id.0)
    }
}

impl From<CardId> for i32 {
    fn from(id: CardId) -> i32 {
        i32::from(id.0)
    }
}

impl From<CardId> for usize {
    fn from(id: CardId) -> usize {
        id.index()
    }
}

/// The bare number, as logs and the rules' messages have always written a card id.
impl fmt::Display for CardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// The bare number too, so debug dumps read as they did when an id was a `u8`.
impl fmt::Debug for CardId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}
/// Number of distinct card values (52 + 2 jokers).
pub const VALUES: usize = 54;

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[repr(u8)]
pub enum Suit {
    Spades = 0,
    Hearts = 1,
    Clubs = 2,
    Diamonds = 3,
    Joker = 4,
}

impl Suit {
    pub const NATURAL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Clubs, Suit::Diamonds];

    pub fn from_index(i: u8) -> Option<Suit> {
        Some(match i {
            0 => Suit::Spades,
            1 => Suit::Hearts,
            2 => Suit::Clubs,
            3 => Suit::Diamonds,
            4 => Suit::Joker,
            _ => return None,
        })
    }

    pub fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Clubs => 'C',
            Suit::Diamonds => 'D',
            Suit::Joker => 'J',
        }
    }
}

/// A rank: 2–14 (14 = ace), 15 = small joker, 16 = big joker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Rank(pub u8);

impl Rank {
    pub const TWO: Rank = Rank(2);
    pub const TEN: Rank = Rank(10);
    pub const ACE: Rank = Rank(14);
    pub const SMALL_JOKER: Rank = Rank(15);
    pub const BIG_JOKER: Rank = Rank(16);

    pub fn is_joker(self) -> bool {
        self.0 >= 15
    }

    /// A level rank (2–A).
    pub fn is_level(self) -> bool {
        (2..=14).contains(&self.0)
    }

    /// The rank's character in the competition notation (`T` for ten, `B`/`R` for the jokers).
    pub fn char(self) -> char {
        match self.0 {
            2..=9 => (b'0' + self.0) as char,
            10 => 'T',
            11 => 'J',
            12 => 'Q',
            13 => 'K',
            14 => 'A',
            15 => 'B',
            16 => 'R',
            _ => '?',
        }
    }

    /// Parses a level/sequence rank character (`2`–`9`, `T`, `J`, `Q`, `K`, `A`).
    pub fn from_char(c: char) -> Option<Rank> {
        Some(Rank(match c {
            '2'..='9' => c as u8 - b'0',
            'T' => 10,
            'J' => 11,
            'Q' => 12,
            'K' => 13,
            'A' => 14,
            _ => return None,
        }))
    }

    /// Parses a level rank as written on the command line: `2`–`10`, `T`, `J`, `Q`, `K`, `A`.
    pub fn parse_level(s: &str) -> Result<Rank, ParseError> {
        let r = match s {
            "10" => Some(Rank::TEN),
            _ if s.chars().count() == 1 => Rank::from_char(s.chars().next().unwrap_or('?')),
            _ => None,
        };
        r.ok_or_else(|| ParseError::BadLevel(s.to_string()))
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A card's rule value (0–53), equal for both copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Card(pub u8);

impl Card {
    pub const SMALL_JOKER: Card = Card(52);
    pub const BIG_JOKER: Card = Card(53);

    pub fn new(suit: Suit, rank: Rank) -> Card {
        match suit {
            Suit::Joker => {
                if rank == Rank::BIG_JOKER {
                    Card::BIG_JOKER
                } else {
                    Card::SMALL_JOKER
                }
            }
            _ => Card(suit as u8 * 13 + rank.0 - 2),
        }
    }

    pub fn from_id(id: CardId) -> Card {
        id.card()
    }

    /// The two ids that carry this value. (A value past 53 cannot come from a card; it is
    /// taken modulo 54, so the ids stay in the decks.)
    pub fn ids(self) -> [CardId; 2] {
        let v = self.0 % VALUES as u8;
        [CardId(v), CardId(v + VALUES as u8)]
    }

    pub fn suit(self) -> Suit {
        if self.0 >= 52 { Suit::Joker } else { Suit::from_index(self.0 / 13).unwrap_or(Suit::Joker) }
    }

    pub fn rank(self) -> Rank {
        match self.0 {
            52 => Rank::SMALL_JOKER,
            53 => Rank::BIG_JOKER,
            v => Rank(v % 13 + 2),
        }
    }

    /// Whether this card is a wild (heart of the level rank).
    pub fn is_wild(self, level: Rank) -> bool {
        self.suit() == Suit::Hearts && self.rank() == level
    }

    /// Competition notation: `S2`, `HT`, `SB` (small joker), `HR` (big joker).
    pub fn notation(self) -> String {
        match self {
            Card::SMALL_JOKER => "SB".into(),
            Card::BIG_JOKER => "HR".into(),
            c => format!("{}{}", c.suit().letter(), c.rank().char()),
        }
    }

    pub fn parse(s: &str) -> Result<Card, ParseError> {
        let bad = || ParseError::BadCard(s.to_string());
        let mut chars = s.chars();
        let (Some(sc), Some(rc), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(bad());
        };
        match (sc, rc) {
            ('S', 'B') => return Ok(Card::SMALL_JOKER),
            ('H', 'R') => return Ok(Card::BIG_JOKER),
            _ => {}
        }
        let suit = match sc {
            'S' => Suit::Spades,
            'H' => Suit::Hearts,
            'C' => Suit::Clubs,
            'D' => Suit::Diamonds,
            _ => return Err(bad()),
        };
        let rank = Rank::from_char(rc).ok_or_else(bad)?;
        Ok(Card::new(suit, rank))
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.notation())
    }
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("bad card {0:?}: expected suit S/H/C/D then rank 2-9/T/J/Q/K/A, or SB / HR for the jokers")]
    BadCard(String),
    #[error("bad level {0:?}: expected 2-10, T, J, Q, K or A")]
    BadLevel(String),
    #[error("card {0} appears more than twice")]
    TooManyCopies(String),
    #[error("card id {0} out of range 0-107")]
    IdOutOfRange(u32),
    #[error("card id {0} listed twice")]
    DuplicateId(u32),
}

/// A set of card ids (the two decks fit in 108 bits).
#[derive(Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct CardSet(pub u128);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    pub const FULL: CardSet = CardSet((1u128 << DECK_SIZE) - 1);

    pub fn from_ids(ids: &[CardId]) -> CardSet {
        ids.iter().fold(CardSet::EMPTY, |s, &i| s.with(i))
    }

    /// Builds a set from untrusted ids: rejects out-of-range and repeated ids.
    pub fn try_from_ids(ids: &[i64]) -> Result<CardSet, ParseError> {
        let mut s = CardSet::EMPTY;
        for &i in ids {
            let id = CardId::try_from(i).map_err(|_| ParseError::IdOutOfRange(i.clamp(0, u32::MAX as i64) as u32))?;
            if s.contains(id) {
                return Err(ParseError::DuplicateId(u32::from(id.0)));
            }
            s.insert(id);
        }
        Ok(s)
    }

    #[inline]
    pub fn contains(self, id: CardId) -> bool {
        (self.0 >> id.0) & 1 == 1
    }
    #[inline]
    pub fn insert(&mut self, id: CardId) {
        self.0 |= 1u128 << id.0;
    }
    #[inline]
    pub fn remove(&mut self, id: CardId) {
        self.0 &= !(1u128 << id.0);
    }
    #[inline]
    pub fn with(mut self, id: CardId) -> CardSet {
        self.insert(id);
        self
    }
    #[inline]
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    #[inline]
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    #[inline]
    pub fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }
    #[inline]
    pub fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }
    #[inline]
    pub fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }
    #[inline]
    pub fn intersect(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    /// Ids in increasing order (bits past the 108 cards, which no id can set, are not ids).
    pub fn iter(self) -> impl Iterator<Item = CardId> {
        let mut bits = self.0 & CardSet::FULL.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = CardId(bits.trailing_zeros() as u8);
            bits &= bits - 1;
            Some(i)
        })
    }

    pub fn ids(self) -> Vec<CardId> {
        self.iter().collect()
    }

    /// How many copies (0–2) of a value the set holds.
    #[inline]
    pub fn count(self, card: Card) -> u8 {
        let [a, b] = card.ids();
        self.contains(a) as u8 + self.contains(b) as u8
    }

    /// The ids of a value held in the set.
    pub fn ids_of(self, card: Card) -> impl Iterator<Item = CardId> {
        card.ids().into_iter().filter(move |&i| self.contains(i))
    }

    /// Parses space-separated notation, giving each card the first free copy's id.
    pub fn parse(text: &str) -> Result<CardSet, ParseError> {
        let mut s = CardSet::EMPTY;
        for tok in text.split_whitespace() {
            let card = Card::parse(tok)?;
            let id = card
                .ids()
                .into_iter()
                .find(|&i| !s.contains(i))
                .ok_or_else(|| ParseError::TooManyCopies(tok.to_string()))?;
            s.insert(id);
        }
        Ok(s)
    }

    /// Notation sorted by rank then suit (jokers last).
    pub fn notation(self) -> String {
        let mut cards: Vec<Card> = self.iter().map(Card::from_id).collect();
        cards.sort_by_key(|c| (c.rank(), c.suit()));
        cards.iter().map(|c| c.notation()).collect::<Vec<_>>().join(" ")
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "CardSet[{}]", self.notation())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_value_round_trips_through_notation() {
        for v in 0..VALUES as u8 {
            let c = Card(v);
            assert_eq!(Card::parse(&c.notation()), Ok(c), "{}", c.notation());
            assert_eq!(Card::new(c.suit(), c.rank()), c);
        }
    }

    #[test]
    fn notation_is_case_sensitive_and_strict() {
        for bad in ["s2", "H1", "HRR", "", "X5", "SR", "HB", "h", "10"] {
            assert!(Card::parse(bad).is_err(), "{bad} parsed");
        }
        assert_eq!(Card::parse("SB"), Ok(Card::SMALL_JOKER));
        assert_eq!(Card::parse("HR"), Ok(Card::BIG_JOKER));
        assert_eq!(Card::parse("HT").map(|c| c.rank()), Ok(Rank::TEN));
    }

    #[test]
    fn parse_set_assigns_second_copy_and_rejects_third() {
        let s = CardSet::parse("S2 S2").unwrap();
        assert_eq!(s.ids(), vec![CardId(0), CardId(54)]);
        assert!(matches!(CardSet::parse("S2 S2 S2"), Err(ParseError::TooManyCopies(_))));
    }

    #[test]
    fn untrusted_ids_are_checked() {
        assert!(matches!(CardSet::try_from_ids(&[1, 108]), Err(ParseError::IdOutOfRange(108))));
        assert!(matches!(CardSet::try_from_ids(&[-1]), Err(ParseError::IdOutOfRange(0))));
        assert!(matches!(CardSet::try_from_ids(&[3, 3]), Err(ParseError::DuplicateId(3))));
        assert_eq!(CardSet::try_from_ids(&[0, 107]).unwrap().len(), 2);
    }

    #[test]
    fn card_ids_are_their_number_on_the_wire_and_refuse_others() {
        let id = CardId::new(107).unwrap();
        assert_eq!(serde_json::to_string(&id).unwrap(), "107");
        assert_eq!(serde_json::to_string(&[CardId::ALL[0], id]).unwrap(), "[0,107]");
        assert_eq!(serde_json::from_str::<CardId>("53").map(u8::from).unwrap(), 53);
        for bad in ["108", "255", "256", "-1", "\"3\"", "1.5"] {
            assert!(serde_json::from_str::<CardId>(bad).is_err(), "{bad} accepted");
        }
        let err = serde_json::from_str::<CardId>("108").unwrap_err().to_string();
        assert!(err.contains("card id 108 is out of range 0-107"), "{err}");
        assert_eq!(CardId::try_from(200u8), Err(CardIdOutOfRange(200)));
        assert_eq!(CardId::try_from(-1i64), Err(CardIdOutOfRange(-1)));
        assert_eq!(CardId::try_from(i64::MAX), Err(CardIdOutOfRange(i64::MAX)));
        assert_eq!(CardId::try_from(0i64).map(usize::from), Ok(0));
        assert_eq!((CardId::new(108), CardId::from_index(108)), (None, None));
        assert_eq!(CardId::try_from_all(&[3i32, 200, 4]), Err(CardIdOutOfRange(200)));
        assert_eq!(format!("{} {:?}", id, id), "107 107");
    }

    #[test]
    fn all_ids_are_the_decks_in_order() {
        assert_eq!(CardId::ALL.len(), DECK_SIZE);
        assert!(CardId::ALL.iter().enumerate().all(|(i, id)| id.index() == i));
        assert_eq!(CardSet::FULL.ids(), CardId::ALL.to_vec());
        assert_eq!(CardId::ALL[54].card(), CardId::ALL[0].card());
        assert_eq!(CardSet(u128::MAX).len(), 128);
        assert_eq!(CardSet(u128::MAX).iter().count(), DECK_SIZE, "bits past the decks are no ids");
    }

    #[test]
    fn wild_is_heart_of_level() {
        let h5 = Card::parse("H5").unwrap();
        assert!(h5.is_wild(Rank(5)));
        assert!(!h5.is_wild(Rank(6)));
        assert!(!Card::parse("S5").unwrap().is_wild(Rank(5)));
    }
}
