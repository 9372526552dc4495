//! `Play`: one play on the table (its kind, rank, size, suit and cards).

use godot::prelude::*;
use guandan_core::card::Rank;
use guandan_core::combo::{self, choose_reading, classify};
use guandan_core::rules::RuleConfig;

use crate::args;
use crate::packing::{ids, name_key};

/// A play: a set of cards read as one combination. Made by the engine, the advisor and the
/// replay recorder; `Play.of(cards, level)` reads one from card ids (tests, tools).
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct Play {
    /// The combination: `Single`, `Pair`, `Trips`, `ThreeWithTwo`, `Straight`, `ThreePair`,
    /// `TwoTrips`, `StraightFlush`, `Bomb` or `FourKings`.
    #[var(no_set)]
    kind: GString,
    /// The rank that orders it (2–14 for A, 15/16 for the jokers; the lowest card of a sequence).
    #[var(no_set)]
    rank: i64,
    /// The rank as players write it (`"10"`, `"A"`, …).
    #[var(no_set)]
    rank_text: GString,
    /// How many cards.
    #[var(no_set)]
    size: i64,
    /// The suit letter of a straight flush (`"S"`, `"H"`, `"C"`, `"D"`), else `""`.
    #[var(no_set)]
    suit: GString,
    /// The card ids played.
    #[var(no_set)]
    cards: PackedInt32Array,
    /// A bomb (bombs, straight flushes, four kings).
    #[var(no_set)]
    bomb: bool,
    /// Translation key of the kind (`play.straight`, …).
    #[var(no_set)]
    name_key: GString,
    /// The rules core's notation of the play (logs, tests).
    #[var(no_set)]
    text: GString,
}

impl Play {
    /// The Godot object of a rules-core play.
    pub fn make(p: &combo::Play) -> Gd<Play> {
        let pat = &p.pattern;
        Gd::from_object(Play {
            kind: pat.kind.name().into(),
            rank: i64::from(pat.rank),
            rank_text: pat.rank_text().as_str().into(),
            size: i64::from(pat.size),
            suit: pat.suit.map(|s| s.letter().to_string()).unwrap_or_default().as_str().into(),
            cards: ids(p.cards),
            bomb: pat.kind.is_bomb(),
            name_key: name_key(pat.kind).into(),
            text: pat.to_string().as_str().into(),
        })
    }

    /// `make` as a Variant, or nil for no play (a pass).
    pub fn variant(p: Option<&combo::Play>) -> Variant {
        p.map_or_else(Variant::nil, |p| Play::make(p).to_variant())
    }
}

#[godot_api]
impl Play {
    /// The play these distinct card ids make at `level` (2–14) under the competition rules, read
    /// as `kind` when given (`"Straight"`, …; the cards may read as several) or else as the engine
    /// would read them on an empty table; null (with a warning) when they make no such play.
    #[func]
    pub fn of(cards: PackedInt32Array, level: i64, #[opt(default = "")] kind: GString) -> Option<Gd<Play>> {
        let set = match args::card_set(cards.as_slice()) {
            Ok(set) => set,
            Err(e) => {
                godot_warn!("Play.of: {e}");
                return None;
            }
        };
        if !(2..=14).contains(&level) {
            godot_warn!("Play.of: level {level} is not 2–14");
            return None;
        }
        let level = Rank(level as u8);
        let rules = RuleConfig::competition();
        let readings = classify(set, level, &rules);
        let play = if kind.is_empty() {
            choose_reading(&readings, None, level, &rules)
        } else {
            readings.iter().find(|p| kind == p.pattern.kind.name()).copied()
        };
        if play.is_none() {
            godot_warn!(
                "Play.of: the cards make no play{}",
                if kind.is_empty() { String::new() } else { format!(" of kind {kind}") }
            );
        }
        play.as_ref().map(Play::make)
    }
}
