//! Serde adapters that write card sets as lists of card ids (0–107), for the types a front end
//! reads as JSON ([`crate::view::PlayerView`], [`crate::notice::Out`]): GDScript and JavaScript
//! read JSON numbers as doubles, which cannot hold the 108-bit [`CardSet`]. The match's own
//! serialized form (the state hash) keeps the plain sets; only these fields opt in.

use crate::card::{CardId, CardSet};
use crate::combo::{Pattern, Play};
use crate::game::Turn;
use crate::seat::Seat;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// `#[serde(with = "card_ids::set")]`: a [`CardSet`] as its ids in increasing order.
pub mod set {
    use super::*;

    pub fn serialize<S: Serializer>(set: &CardSet, s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(set.iter())
    }

    /// Ids outside the two decks are refused by [`CardId`]'s own decoding.
    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<CardSet, D::Error> {
        Ok(CardSet::from_ids(&Vec::<CardId>::deserialize(d)?))
    }
}

/// A [`Play`] with its cards as ids, listed first (the order the protocol has always sent).
#[derive(Serialize, Deserialize)]
struct IdPlay {
    #[serde(with = "set")]
    cards: CardSet,
    pattern: Pattern,
    pure: bool,
}

impl From<Play> for IdPlay {
    fn from(p: Play) -> Self {
        IdPlay { cards: p.cards, pattern: p.pattern, pure: p.pure }
    }
}

impl From<IdPlay> for Play {
    fn from(p: IdPlay) -> Self {
        Play { pattern: p.pattern, cards: p.cards, pure: p.pure }
    }
}

#[derive(Serialize, Deserialize)]
struct IdTurn {
    seat: Seat,
    play: Option<IdPlay>,
}

/// `#[serde(with = "card_ids::play")]`
pub mod play {
    use super::*;

    pub fn serialize<S: Serializer>(p: &Play, s: S) -> Result<S::Ok, S::Error> {
        IdPlay::from(*p).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Play, D::Error> {
        IdPlay::deserialize(d).map(Play::from)
    }
}

/// `#[serde(with = "card_ids::table")]`: the play on the table and who made it.
pub mod table {
    use super::*;

    pub fn serialize<S: Serializer>(t: &Option<(Seat, Play)>, s: S) -> Result<S::Ok, S::Error> {
        t.map(|(seat, p)| (seat, IdPlay::from(p))).serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<(Seat, Play)>, D::Error> {
        Ok(Option::<(Seat, IdPlay)>::deserialize(d)?.map(|(seat, p)| (seat, p.into())))
    }
}

/// `#[serde(with = "card_ids::history")]`
pub mod history {
    use super::*;

    pub fn serialize<S: Serializer>(h: &[Turn], s: S) -> Result<S::Ok, S::Error> {
        s.collect_seq(h.iter().map(|t| IdTurn { seat: t.seat, play: t.play.map(IdPlay::from) }))
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Turn>, D::Error> {
        let turns = Vec::<IdTurn>::deserialize(d)?;
        Ok(turns.into_iter().map(|t| Turn { seat: t.seat, play: t.play.map(Play::from) }).collect())
    }
}

#[cfg(test)]
mod tests {
    use crate::view::PlayerView;
    use crate::{game::Match, rules::RuleConfig};

    #[test]
    fn a_view_reads_back_and_refuses_cards_outside_the_decks() {
        let (m, _) = Match::new(9, RuleConfig::competition()).unwrap();
        let v = m.view(Some(crate::seat::Seat::TWO));
        let mut json = serde_json::to_value(&v).unwrap();
        assert_eq!(json["hand"].as_array().unwrap().len(), 27, "the hand as a list of ids");
        assert_eq!(serde_json::from_value::<PlayerView>(json.clone()).unwrap(), v);
        json["hand"][0] = 108.into();
        let err = serde_json::from_value::<PlayerView>(json).unwrap_err().to_string();
        assert!(err.contains("card id 108 is out of range 0-107"), "{err}");
    }
}
