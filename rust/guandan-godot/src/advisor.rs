//! `MoveAdvisor`: card and move presentation help for the UI; grows into the AI's hints.

use godot::prelude::*;

use crate::args;

/// Stateless helper; create with `MoveAdvisor.new()`.
#[derive(GodotClass)]
#[class(init, base = RefCounted)]
pub struct MoveAdvisor {}

#[godot_api]
impl MoveAdvisor {
    /// Competition notation of one card id (`S2`, `HT`, `SB` small joker, `HR` big joker).
    /// An id outside 0..107 gives `""` and a warning.
    #[func]
    pub fn card_notation(&self, id: i64) -> String {
        match args::card_notation(id) {
            Some(text) => text,
            None => {
                godot_warn!("MoveAdvisor.card_notation: card id {id} is not in 0..107");
                String::new()
            }
        }
    }

    /// Space-separated notation of a hand, sorted by rank then suit (jokers last). Ids must be
    /// distinct and in 0..107; otherwise `""` and a warning.
    #[func]
    pub fn hand_notation(&self, ids: PackedInt32Array) -> String {
        match args::card_set(ids.as_slice()) {
            Ok(set) => set.notation(),
            Err(e) => {
                godot_warn!("MoveAdvisor.hand_notation: {e}");
                String::new()
            }
        }
    }
}
