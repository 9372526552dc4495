//! Small Rust → Godot packings shared by the converters (convert.rs) and the typed values
//! (values/): card ids as a packed array, a play kind's translation key.

use godot::prelude::*;
use guandan_core::card::CardSet;
use guandan_core::combo::PlayKind;

/// Translation key of a play kind (`play.straight`, ...).
pub fn name_key(kind: PlayKind) -> &'static str {
    match kind {
        PlayKind::Single => "play.single",
        PlayKind::Pair => "play.pair",
        PlayKind::Trips => "play.trips",
        PlayKind::ThreeWithTwo => "play.three_with_two",
        PlayKind::Straight => "play.straight",
        PlayKind::ThreePair => "play.three_pair",
        PlayKind::TwoTrips => "play.two_trips",
        PlayKind::StraightFlush => "play.straight_flush",
        PlayKind::Bomb => "play.bomb",
        PlayKind::FourKings => "play.four_kings",
    }
}

pub fn ids(set: CardSet) -> PackedInt32Array {
    set.iter().map(i32::from).collect()
}
