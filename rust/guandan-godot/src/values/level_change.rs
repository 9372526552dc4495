//! `LevelChange`: how a deal's end moved the two teams' levels.

use godot::prelude::*;
use guandan_core::card::Rank;
use guandan_core::game::Team;

/// The teams' levels before and after a deal, and the team that won it.
#[derive(GodotClass)]
#[class(no_init, base = RefCounted)]
pub struct LevelChange {
    /// The team (0 or 1) that won the deal.
    #[var(no_set)]
    winner_team: i64,
    /// Both teams' levels (2–14) before the deal: `[team 0, team 1]`.
    #[var(no_set)]
    before: PackedInt32Array,
    /// Both teams' levels (2–14) after it.
    #[var(no_set)]
    after: PackedInt32Array,
}

impl LevelChange {
    pub fn make(winner_team: Team, before: &[Rank; 2], after: &[Rank; 2]) -> Gd<LevelChange> {
        let pair = |r: &[Rank; 2]| PackedInt32Array::from(&[i32::from(r[0].0), i32::from(r[1].0)]);
        Gd::from_object(LevelChange {
            winner_team: i64::from(u8::from(winner_team)),
            before: pair(before),
            after: pair(after),
        })
    }
}

#[godot_api]
impl LevelChange {
    /// A level change from plain values (tests, tools): levels must be 2–14 and the winner 0 or 1,
    /// else null with a warning.
    #[func]
    pub fn of(winner_team: i64, before: PackedInt32Array, after: PackedInt32Array) -> Option<Gd<LevelChange>> {
        let ok = |p: &PackedInt32Array| p.len() == 2 && p.as_slice().iter().all(|l| (2..=14).contains(l));
        if !(0..=1).contains(&winner_team) || !ok(&before) || !ok(&after) {
            godot_warn!("LevelChange.of: the winner must be 0 or 1 and both level pairs 2–14");
            return None;
        }
        Some(Gd::from_object(LevelChange { winner_team, before, after }))
    }
}
