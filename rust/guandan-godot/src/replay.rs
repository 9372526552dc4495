//! `ReplayRecorder`: collects what a match needs to be replayed. For now that is the match seed;
//! the action log joins it when the rules engine has one.

use godot::prelude::*;

use crate::args;

#[derive(GodotClass)]
#[class(init, base = RefCounted)]
pub struct ReplayRecorder {
    seed: Option<u64>,
}

#[godot_api]
impl ReplayRecorder {
    /// Starts a recording for a match with this seed (any int, as in `GuandanEngine.deal`),
    /// dropping whatever was recorded before.
    #[func]
    pub fn begin(&mut self, seed: i64) {
        self.seed = Some(args::seed_from_int(seed));
    }

    /// Whether `begin` was called since creation or the last `clear`.
    #[func]
    pub fn is_recording(&self) -> bool {
        self.seed.is_some()
    }

    /// The recorded seed as GDScript passed it; 0 and a warning when nothing is recorded.
    #[func]
    pub fn get_seed(&self) -> i64 {
        match self.seed {
            Some(seed) => args::seed_to_int(seed),
            None => {
                godot_warn!("ReplayRecorder.get_seed: nothing recorded; call begin(seed) first");
                0
            }
        }
    }

    /// Forgets the recording.
    #[func]
    pub fn clear(&mut self) {
        self.seed = None;
    }
}
