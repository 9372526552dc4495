//! The platform's wire format, read leniently: fields of an unexpected type count as missing.

use guandan_core::card::{Card, CardSet, Rank};
use guandan_core::combo::{Play, PlayKind, classify};
use guandan_core::game::Seat;
use guandan_core::rules::RuleConfig;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// A field that is `None` when absent, null or of an unexpected type.
#[derive(Debug, Clone, PartialEq)]
pub struct Lenient<T>(pub Option<T>);

impl<T> Default for Lenient<T> {
    fn default() -> Self {
        Lenient(None)
    }
}

impl<'de, T: DeserializeOwned> Deserialize<'de> for Lenient<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let v = Value::deserialize(d)?;
        Ok(Lenient(serde_json::from_value(v).ok()))
    }
}

/// A rank as the platform writes it.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum WireRank {
    Int(i64),
    Text(String),
}

impl WireRank {
    /// The rank 2–16 (14 = ace, 15/16 = small/big joker); 0 for four jokers.
    pub fn value(&self) -> Option<u8> {
        match self {
            WireRank::Int(1) => Some(14),
            WireRank::Int(i) if (2..=16).contains(i) => Some(*i as u8),
            WireRank::Int(_) => None,
            WireRank::Text(s) => {
                let s = s.trim().to_ascii_uppercase();
                match s.as_str() {
                    "JOKER" | "JOKERS" => Some(0),
                    "B" | "SB" => Some(15),
                    "R" | "HR" => Some(16),
                    "10" => Some(10),
                    _ if s.len() == 1 => Rank::from_char(s.chars().next()?).map(|r| r.0),
                    _ => s.parse::<i64>().ok().and_then(|i| WireRank::Int(i).value()),
                }
            }
        }
    }

    /// A level rank (2–A).
    pub fn level(&self) -> Option<Rank> {
        self.value().filter(|v| (2..=14).contains(v)).map(Rank)
    }
}

/// An integer that may arrive as a number or as digits in a string.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum WireInt {
    Int(i64),
    Text(String),
}

impl WireInt {
    pub fn get(&self) -> Option<i64> {
        match self {
            WireInt::Int(i) => Some(*i),
            WireInt::Text(t) => t.trim().parse().ok(),
        }
    }
}

pub(super) fn int(v: &Lenient<WireInt>) -> Option<i64> {
    v.0.as_ref().and_then(WireInt::get)
}

/// The cards of an action: a list, or the text `PASS`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum WireCards {
    List(Vec<String>),
    Text(String),
}

/// An action: `[type, rank, cards]`, or the object form `{"type", "rank", "actions"}`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(untagged)]
pub enum WireAction {
    Triple(String, Option<WireRank>, Option<WireCards>),
    Object {
        #[serde(rename = "type")]
        kind: String,
        #[serde(default)]
        rank: Option<WireRank>,
        #[serde(default, alias = "cards")]
        actions: Option<WireCards>,
    },
}

/// One seat's public state.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PublicSeat {
    pub rest: Lenient<WireInt>,
    pub play_area: Lenient<WireAction>,
}

/// Any platform message; every field optional.
#[derive(Debug, Clone, Default, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Message {
    #[serde(rename = "type")]
    pub kind: Lenient<String>,
    pub stage: Lenient<String>,
    #[serde(alias = "handCard")]
    pub hand_cards: Lenient<Vec<String>>,
    pub my_pos: Lenient<WireInt>,
    pub public_info: Lenient<Vec<Lenient<PublicSeat>>>,
    pub self_rank: Lenient<WireRank>,
    pub oppo_rank: Lenient<WireRank>,
    pub cur_rank: Lenient<WireRank>,
    pub cur_pos: Lenient<WireInt>,
    pub cur_action: Lenient<WireAction>,
    pub greater_pos: Lenient<WireInt>,
    pub greater_action: Lenient<WireAction>,
    pub action_list: Lenient<Vec<Value>>,
    pub index_range: Lenient<WireInt>,
    /// Tribute or return: `[[from, to, card], ...]`.
    pub result: Lenient<Vec<(i64, i64, String)>>,
    pub anti_nums: Lenient<WireInt>,
    pub anti_pos: Lenient<Vec<i64>>,
    pub order: Lenient<Vec<i64>>,
}

pub(super) fn seat(v: &Lenient<WireInt>) -> Option<Seat> {
    seat_of(int(v)?)
}

pub(super) fn seat_of(v: i64) -> Option<Seat> {
    Seat::try_from(v).ok()
}

/// A card in competition notation, leniently (`s10`, `C10` and `CT` are all the ten of clubs).
pub fn parse_card(text: &str) -> Option<Card> {
    let t = text.trim().to_ascii_uppercase();
    let t = match t.strip_suffix("10") {
        Some(suit) if suit.len() == 1 => format!("{suit}T"),
        _ => t,
    };
    Card::parse(&t).ok()
}

/// What an action of `actionList` (or a notification) is.
#[derive(Debug, Clone, PartialEq)]
pub enum Act {
    Pass,
    /// `rank` is normalized like [`guandan_core::combo::Pattern::rank`]: 2–16 for groups, the
    /// lowest position (1 = ace low) for sequences, 0 for four jokers. `cards` is `None` when a
    /// card did not parse.
    Play {
        kind: PlayKind,
        rank: Option<u8>,
        cards: Option<Vec<Card>>,
    },
    Tribute(Option<Vec<Card>>),
    Back(Option<Vec<Card>>),
    Unknown,
}

impl Act {
    pub fn from_wire(w: &WireAction) -> Act {
        let (kind, rank, cards) = match w {
            WireAction::Triple(k, r, c) => (k, r.as_ref(), c.as_ref()),
            WireAction::Object { kind, rank, actions } => (kind, rank.as_ref(), actions.as_ref()),
        };
        let cards = match cards {
            Some(WireCards::List(list)) => list.iter().map(|c| parse_card(c)).collect::<Option<Vec<Card>>>(),
            Some(WireCards::Text(t)) => parse_card(t).map(|c| vec![c]),
            None => None,
        };
        let lower = kind.trim().to_ascii_lowercase();
        match lower.as_str() {
            "pass" | "" => return Act::Pass,
            "tribute" => return Act::Tribute(cards),
            "back" => return Act::Back(cards),
            _ => {}
        }
        let Some(mut kind) = PlayKind::ALL.into_iter().find(|k| k.name().eq_ignore_ascii_case(&lower)) else {
            return Act::Unknown;
        };
        let mut rank = rank.and_then(WireRank::value);
        let all_jokers = cards.as_ref().is_some_and(|c| c.len() == 4 && c.iter().all(|c| c.rank().is_joker()));
        if kind == PlayKind::Bomb && (rank == Some(0) || all_jokers) {
            kind = PlayKind::FourKings;
        }
        if kind == PlayKind::FourKings {
            rank = Some(0);
        } else if kind.is_sequence() && rank == Some(14) {
            // A sequence's rank is its lowest card: an ace there is the low ace.
            rank = Some(1);
        }
        Act::Play { kind, rank, cards }
    }

    pub(super) fn from_value(v: &Value) -> Act {
        match serde_json::from_value::<WireAction>(v.clone()) {
            Ok(w) => Act::from_wire(&w),
            Err(_) => Act::Unknown,
        }
    }
}

/// Card values as a sorted multiset.
pub(super) fn multiset(cards: &[Card]) -> Vec<Card> {
    let mut v = cards.to_vec();
    v.sort();
    v
}

/// Gives each card the first copy not in `taken` (and not yet given).
pub(super) fn ids_for(cards: &[Card], taken: CardSet) -> CardSet {
    let mut out = CardSet::EMPTY;
    for c in cards {
        if let Some(id) = c.ids().into_iter().find(|&i| !taken.contains(i) && !out.contains(i)) {
            out.insert(id);
        }
    }
    out
}

/// The reading of `cards` the platform meant by `kind`/`rank`.
pub(super) fn reading(
    kind: PlayKind,
    rank: Option<u8>,
    cards: CardSet,
    level: Rank,
    rules: &RuleConfig,
) -> Option<Play> {
    let readings = classify(cards, level, rules);
    readings
        .iter()
        .find(|p| p.pattern.kind == kind && rank.is_none_or(|r| p.pattern.rank == r))
        .or_else(|| readings.iter().find(|p| p.pattern.kind == kind))
        .or_else(|| readings.first())
        .copied()
}
