//! The engine's crash guard (spec: crash report): a panic inside a guarded call is caught at the
//! engine's boundary and never reaches Godot; the match is stopped, a report written
//! ([`super::crash`], plain Rust), `crashed` emitted, and the record's valid part kept for
//! `resume_last_valid`.

use godot::prelude::*;
use guandan_core::error::ErrorCode;
use guandan_runtime::Runtime;

use super::parse::parse_seats;
use super::{GuandanEngine, crash};
use crate::codes::Fail;
use crate::forward::Emit;

#[godot_api(secondary)]
impl GuandanEngine {
    /// After a fatal error (`crashed`): resumes the stopped match from its last valid state with
    /// these seats (as in `start_match`), announced like `resume_from`. Returns `OK`,
    /// `ERR_NO_RECORD` (no fatal error to recover from) or `ERR_BAD_ARGUMENT`.
    #[func]
    pub fn resume_last_valid(&mut self, seats: VarArray) -> i64 {
        let r = (|| {
            let seats = parse_seats(&seats)?;
            let log =
                self.last_valid.clone().ok_or_else(|| Fail::new(ErrorCode::NoRecord, "no stopped match to resume"))?;
            let (rt, notices) = Runtime::resume_replaying_deal(log, seats, self.use_turn_timer).map_err(Fail::from)?;
            self.install(rt, &notices);
            self.last_valid = None;
            Ok(())
        })();
        self.finish("resume_last_valid", r)
    }

    /// The path of the last crash report written by this engine, `""` if none.
    #[func]
    pub fn get_last_crash_report(&self) -> GString {
        GString::from(self.last_crash_report.as_str())
    }

    /// Tests: a Rust panic inside a guarded engine call, after the match's state was read. The
    /// guard turns it into `crashed` + a report; the call returns `ERR_INTERNAL`. Debug builds
    /// only (elsewhere `ERR_BAD_ARGUMENT`).
    #[func]
    pub fn debug_force_panic(&mut self) -> i64 {
        let r = if cfg!(debug_assertions) {
            self.guard("debug_force_panic", |e| {
                let seq = e.runtime().map_or(0, |rt| rt.state().seq());
                panic!("forced panic at seq {seq} (debug_force_panic)")
            })
        } else {
            Err(Fail::bad_argument("debug_force_panic exists in debug builds only"))
        };
        self.finish("debug_force_panic", r)
    }
}

impl GuandanEngine {
    /// Runs `f`; a panic inside it is caught here (it never reaches Godot): the match is stopped,
    /// a crash report written, `crashed` queued, and the record's valid part kept.
    pub(super) fn guard(&mut self, what: &str, f: impl FnOnce(&mut Self) -> Result<(), Fail>) -> Result<(), Fail> {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(&mut *self))) {
            Ok(r) => r,
            Err(payload) => Err(self.crashed(what, &crash::panic_message(payload.as_ref()))),
        }
    }

    fn crashed(&mut self, what: &str, error: &str) -> Fail {
        let log = self.runtime().map(|rt| rt.log().clone());
        let mut report_path = String::new();
        if let Some(log) = &log {
            let valid = crash::last_valid(log);
            let report = crash::report(what, error, log, &valid);
            match crash::write_report(&crate::user_dirs::user_dirs().crash(), &report) {
                Ok(p) => report_path = p.to_string_lossy().into_owned(),
                Err(f) => godot_warn!("GuandanEngine: the crash report could not be written: {}", f.message),
            }
            self.last_valid = Some(valid);
        }
        godot_warn!("GuandanEngine: fatal error during {what}; the match was stopped (report: {report_path})");
        self.discard_match();
        self.last_crash_report = report_path.clone();
        let message = format!("fatal error during {what}: {error}");
        self.queue.push_back(Emit::Crashed { message: message.clone(), report: report_path });
        Fail::new(ErrorCode::Internal, message)
    }
}
