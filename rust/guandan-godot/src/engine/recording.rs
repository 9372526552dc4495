//! A match between the engine and a `ReplayRecorder`: `ReplayRecorder.record(engine)` takes the
//! record of the engine's match, `GuandanEngine.resume_from(recorder)` plays on from the
//! recorder's position. Both live here, on the engine's side, so that the recorder (replay.rs)
//! knows nothing of the engine: the engine uses the recorder, never the other way round.

use godot::prelude::*;
use guandan_core::error::ErrorCode;
use guandan_runtime::Runtime;

use super::GuandanEngine;
use super::parse::parse_seats;
use crate::codes::Fail;
use crate::replay::{ReplayRecorder, verify};

#[godot_api(secondary)]
impl GuandanEngine {
    /// Whether the engine holds its match's whole record (a match played here); a followed
    /// online match is only this player's view, and `ReplayRecorder.record` refuses it.
    #[func]
    pub fn is_recorded(&self) -> bool {
        self.runtime().is_some()
    }

    /// Restores a recorded match at the recorder's current position and plays on from there
    /// with these seats (as in `start_match`). The current deal is announced as it was played,
    /// all signals emitted before this call returns: `match_started`, then every signal the
    /// deal gave the viewer the first time (`deal_started`, hands, tribute and return, each
    /// play and pass, tables cleared, places) up to the duty in progress — so a table that draws
    /// them at once shows the deal exactly as it was. Returns `OK`, `ERR_NO_RECORD` or
    /// `ERR_BAD_ARGUMENT`.
    #[func]
    pub fn resume_from(&mut self, recorder: Option<Gd<ReplayRecorder>>, seats: VarArray) -> i64 {
        let r = (|| {
            let recorder = recorder.ok_or_else(|| Fail::bad_argument("recorder is null"))?;
            let seats = parse_seats(&seats)?;
            let log = recorder.bind().log_at_position()?;
            Runtime::resume_replaying_deal(log, seats, self.use_turn_timer).map_err(Fail::from)
        })();
        let r = r.map(|(rt, notices)| self.install(rt, &notices));
        self.finish("resume_from", r)
    }
}

#[godot_api(secondary)]
impl ReplayRecorder {
    /// Takes the record of the engine's match so far (the position is then at its end).
    /// Returns `OK`, `ERR_NO_MATCH`, or a log error if the record does not replay.
    #[func]
    pub fn record(&mut self, engine: Option<Gd<GuandanEngine>>) -> i64 {
        let r = (|| {
            let engine = engine.ok_or_else(|| Fail::bad_argument("engine is null"))?;
            let log = engine
                .bind()
                .runtime()
                .map(|rt| rt.log().clone())
                .ok_or_else(|| Fail::new(ErrorCode::NoMatch, "the engine has no match"))?;
            Ok(verify(log)?)
        })();
        self.take(r, "record", true)
    }
}
