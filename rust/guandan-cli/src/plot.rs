//! Arena charts (placeholder until plotters is wired in): writes nothing but an error.

use guandan_ai::arena::ArenaReport;

pub fn arena_chart(_report: &ArenaReport, _path: &str) -> Result<(), String> {
    Err("charts are not built yet".into())
}
