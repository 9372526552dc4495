//! `GuandanEngine`: the game's single entry into the rules. A Node so the main scene can own it
//! (and, later, emit signals as a match progresses). For now it deals.

use godot::prelude::*;
use guandan_core::deal::deal_for_seed;

use crate::args;

/// The rules engine as seen from Godot.
#[derive(GodotClass)]
#[class(init, base = Node)]
pub struct GuandanEngine {
    base: Base<Node>,
}

#[godot_api]
impl GuandanEngine {
    /// Players at the table.
    #[constant]
    pub const SEATS: i32 = 4;
    /// Cards in each hand after a deal.
    #[constant]
    pub const HAND_SIZE: i32 = 27;
    /// Cards in the two decks; card ids are `0 ..= DECK_SIZE - 1`.
    #[constant]
    pub const DECK_SIZE: i32 = guandan_core::card::DECK_SIZE as i32;

    /// Deals the two decks for a match seed: four `PackedInt32Array` hands (seat 0..3), 27 card
    /// ids each, increasing. Any int is a valid seed (negative ones are read as their `u64` bits);
    /// the same seed always gives the same deal, on every platform.
    #[func]
    pub fn deal(&self, seed: i64) -> Array<PackedInt32Array> {
        deal_for_seed(args::seed_from_int(seed))
            .iter()
            .map(|hand| PackedInt32Array::from(args::ids_i32(*hand).as_slice()))
            .collect()
    }

    /// The version of the Rust crates, for about screens and bug reports.
    #[func]
    pub fn version(&self) -> String {
        env!("CARGO_PKG_VERSION").to_string()
    }
}
