//! `guandan replay`: a saved match log verified from scratch (`verify`), and a random match
//! recorded to a file (`record`).

use crate::input::{Usage, rules_arg};
use guandan_core::log::MatchLog;
use guandan_core::sim;
use std::process::ExitCode;

/// `guandan replay verify`: exit 0 valid, 1 damaged (2 unreadable, as a usage error).
pub fn verify(file: &str, json: bool) -> Result<ExitCode, Usage> {
    let text = std::fs::read_to_string(file).map_err(|e| Usage(format!("cannot read {file}: {e}")))?;
    // Core's one verifier, as the game and the server use it.
    let verdict = MatchLog::parse(&text).and_then(|log| log.replay().map(|m| (log, m)));
    let report = match &verdict {
        Ok((log, m)) => serde_json::json!({"ok": true, "code": 0, "name": "ok", "message": "",
            "actions": log.actions.len(), "checkpoints": log.checkpoints.len(), "hash": m.state_hash()}),
        Err(e) => serde_json::json!({"ok": false, "code": e.code().code(), "name": e.code().name(),
            "message": e.to_string()}),
    };
    match (&verdict, json) {
        (_, true) => println!("{report}"),
        (Ok((log, m)), false) => println!(
            "ok: {} actions, {} checkpoints verified, final hash {}",
            log.actions.len(),
            log.checkpoints.len(),
            m.state_hash()
        ),
        (Err(e), false) => eprintln!("{file}: {e} (code {})", e.code()),
    }
    if verdict.is_err() {
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

/// `guandan replay record`: plays a random match and saves its log.
pub fn record(seed: u64, rules: &str, file: &str) -> Result<ExitCode, Usage> {
    let rules = rules_arg(rules)?;
    let (m, log) = sim::random_match(seed, rules, 200_000).map_err(|v| Usage(v.to_string()))?;
    std::fs::write(file, log.to_jsonl()).map_err(|e| Usage(format!("cannot write {file}: {e}")))?;
    println!("recorded {} actions to {file}, final hash {}", log.actions.len(), m.state_hash());
    Ok(ExitCode::SUCCESS)
}
