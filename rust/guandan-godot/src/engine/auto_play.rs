//! Auto-play (托管): the viewer's seat handed to the AI and back.

use godot::prelude::*;
use guandan_ai::AiProfile;
use guandan_core::error::ErrorCode;

use super::GuandanEngine;
use crate::codes::Fail;

#[godot_api(secondary)]
impl GuandanEngine {
    /// Auto-play: `true` hands the viewer's seat to the AI (level `auto_play_level`), which
    /// then acts for it — at once if the seat must act now; `false` gives it back, and a duty
    /// the seat has at that moment is announced again (`turn_started`, `tribute_phase` or
    /// `return_phase`). The viewer stays the same and still sees only its own hand.
    /// `controller_changed(seat, ai)` is emitted when it changes. Returns `OK`, `ERR_NO_MATCH`,
    /// `ERR_NOT_HUMAN` (no seat of a person at this table), `ERR_GAME_OVER` or
    /// `ERR_BAD_ARGUMENT` (`auto_play_level` not 1–3).
    #[func]
    pub fn set_auto_play(&mut self, on: bool) -> i64 {
        let r = self.auto_play(on);
        self.finish("set_auto_play", r)
    }

    /// Whether the viewer's seat is being played by the AI (auto-play).
    #[func]
    pub fn is_auto_play(&self) -> bool {
        self.source().is_some_and(|s| s.is_auto_play())
    }
}

impl GuandanEngine {
    fn auto_play(&mut self, on: bool) -> Result<(), Fail> {
        let level = match self.auto_play_level {
            1 => guandan_ai::AiLevel::L1,
            2 => guandan_ai::AiLevel::L2,
            3 => guandan_ai::AiLevel::L3,
            other => return Err(Fail::bad_argument(format!("auto_play_level {other} is not 1, 2 or 3"))),
        };
        let src = self.source_mut().ok_or_else(|| Fail::new(ErrorCode::NoMatch, "no match is running"))?;
        let emits = src.set_auto_play(on, AiProfile::level(level))?;
        self.queue.extend(emits);
        self.after_change();
        Ok(())
    }
}
