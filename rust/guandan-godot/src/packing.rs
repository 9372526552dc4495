//! Small Rust → Godot packings shared by the converters (convert.rs) and the typed values
//! (values/): card ids and seats as packed arrays, phases, a play kind's translation key.

use godot::prelude::*;
use guandan_core::card::CardSet;
use guandan_core::combo::PlayKind;
use guandan_core::game::{Phase, Seat};
use guandan_core::view::PlayerView;

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

pub const PHASE_NONE: i64 = 0;
pub const PHASE_TRIBUTE: i64 = 1;
pub const PHASE_RETURN: i64 = 2;
pub const PHASE_PLAY: i64 = 3;
pub const PHASE_MATCH_OVER: i64 = 4;

pub fn phase_int(p: Phase) -> i64 {
    match p {
        Phase::Tribute => PHASE_TRIBUTE,
        Phase::Return => PHASE_RETURN,
        Phase::Play => PHASE_PLAY,
        Phase::MatchOver => PHASE_MATCH_OVER,
    }
}

pub fn phase_name(p: Phase) -> &'static str {
    match p {
        Phase::Tribute => "tribute",
        Phase::Return => "return",
        Phase::Play => "play",
        Phase::MatchOver => "match_over",
    }
}

pub fn seats(seats: &[Seat]) -> PackedInt32Array {
    seats.iter().map(|&s| i32::from(s)).collect()
}

/// A seat (or team) for GDScript, -1 for none.
pub fn opt_seat<T: Into<u8>>(s: Option<T>) -> i64 {
    s.map_or(-1, |s| i64::from(s.into()))
}

/// The two teams' levels `[team 0, team 1]`.
pub fn team_levels(v: &PlayerView) -> PackedInt32Array {
    PackedInt32Array::from(&[i32::from(v.team_levels[0].0), i32::from(v.team_levels[1].0)])
}
