//! Fatal errors (spec: crash report). A panic inside the engine is caught at the engine's own
//! boundary (`GuandanEngine::guard`) and never reaches Godot: the match is stopped, a report —
//! the error and the last 100 actions, with the record's valid part — is written to
//! `user://crash/`, and the valid part of the record is kept so the player can resume from the
//! last valid state. The report itself is plain Rust, covered by `cargo test`.

use std::any::Any;
use std::path::{Path, PathBuf};

use guandan_core::log::MatchLog;
use serde_json::json;

use crate::codes::Fail;

/// Actions listed in a report.
pub const REPORT_ACTIONS: usize = 100;

/// The text of a panic payload.
pub fn panic_message(payload: &(dyn Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_string()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "a panic without a message".to_string()
    }
}

/// The longest valid beginning of `log` (replayed with the one verifier).
pub fn last_valid(log: &MatchLog) -> MatchLog {
    let (_, n, _) = log.recover();
    log.truncated(n)
}

/// The report of a fatal error during `what`: the error, the last 100 actions of the record
/// and the valid record (JSON Lines) to resume from.
pub fn report(what: &str, error: &str, log: &MatchLog, valid: &MatchLog) -> serde_json::Value {
    let from = log.actions.len().saturating_sub(REPORT_ACTIONS);
    json!({
        "error": error,
        "during": what,
        "version": env!("CARGO_PKG_VERSION"),
        "seed": log.header.seed,
        "actions_total": log.actions.len(),
        "valid_actions": valid.actions.len(),
        "last_actions": &log.actions[from..],
        "record": valid.to_jsonl(),
    })
}

/// Writes a report to `dir/crash_<ms since 1970>.json`; returns its path.
pub fn write_report(dir: &Path, report: &serde_json::Value) -> Result<PathBuf, Fail> {
    // Wall-clock time only names the file; nothing of the match depends on it.
    let ms = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis());
    let text = serde_json::to_string_pretty(report).unwrap_or_default();
    crate::store::write_file_atomic(dir, &format!("crash_{ms}.json"), &text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_ai::{AiLevel, AiProfile};
    use guandan_core::rules::RuleConfig;
    use guandan_runtime::{Controller, Runtime, RuntimeConfig};

    #[test]
    fn a_report_holds_the_last_100_actions_and_the_valid_record() {
        let ai = || Controller::Ai(AiProfile::level(AiLevel::L1));
        let cfg =
            RuntimeConfig { seed: 4, rules: RuleConfig::competition(), seats: [ai(), ai(), ai(), ai()], clocks: false };
        let (mut rt, _) = Runtime::start(cfg).unwrap();
        for _ in 0..150 {
            rt.decide_now();
        }
        let mut log = rt.log().clone();
        let good = log.actions.len();
        assert!(good > 100);
        // A damaged tail: the last action repeated (illegal the second time).
        let last = log.actions[good - 1].clone();
        log.actions.push(last);
        log.think_ms.push(None);
        let valid = last_valid(&log);
        assert_eq!(valid.actions.len(), good);
        let r = report("play", "boom", &log, &valid);
        assert_eq!(r["error"], "boom");
        assert_eq!(r["last_actions"].as_array().unwrap().len(), REPORT_ACTIONS);
        assert_eq!(r["valid_actions"], good);
        let back = MatchLog::parse(r["record"].as_str().unwrap()).unwrap();
        assert_eq!(back.replay().unwrap().state_hash(), rt.state().state_hash());
        let dir = std::env::temp_dir().join(format!("guandan-crash-{}", std::process::id()));
        let path = write_report(&dir, &r).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(serde_json::from_str::<serde_json::Value>(&text).unwrap(), r);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn panic_messages_are_read() {
        let p = std::panic::catch_unwind(|| panic!("forced {}", 1)).unwrap_err();
        assert_eq!(panic_message(p.as_ref()), "forced 1");
        let p = std::panic::catch_unwind(|| panic!("plain")).unwrap_err();
        assert_eq!(panic_message(p.as_ref()), "plain");
    }
}
