//! The statistics file of the game: `guandan_core::stats::Stats` over every saved record,
//! stored as JSON (`user://stats/stats.json`) with the list of records it was built from. It is
//! rebuilt from the records when it is missing, damaged, or no longer matches the records on
//! disk; a damaged record is listed with its error code and adds nothing. Plain Rust (the
//! directories are arguments), covered by `cargo test`; `ReplayRecorder.stats_json` is the Godot
//! entry.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use guandan_core::error::ErrorCode;
use guandan_core::log::MatchLog;
use guandan_core::stats::Stats;
use serde::{Deserialize, Serialize};

use crate::codes::Fail;
use crate::store;

/// Version of the file's layout; another version is rebuilt (2: unfinished matches counted apart).
pub const STATS_VERSION: u32 = 2;
/// The file's stem in the stats directory.
pub const STATS_STEM: &str = "stats";

/// A record that could not be counted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Damaged {
    pub name: String,
    pub code: i64,
    pub error: String,
}

/// What `user://stats/stats.json` holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct StatsFile {
    pub version: u32,
    /// Every record file seen (name -> size in bytes): the file is stale when this changes.
    pub sources: BTreeMap<String, u64>,
    /// The records counted, in name order (= time order for the game's names), parallel to
    /// `stats.matches`.
    pub records: Vec<String>,
    pub damaged: Vec<Damaged>,
    pub stats: Stats,
}

/// How the statistics were obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Read from the stats file, up to date.
    Stored,
    /// Rebuilt because the records changed, or a rebuild was asked for.
    Rebuilt,
    /// Rebuilt because the stats file was missing.
    Missing,
    /// Rebuilt because the stats file could not be read (damaged, another version).
    Repaired,
}

impl Origin {
    pub fn name(self) -> &'static str {
        match self {
            Origin::Stored => "stored",
            Origin::Rebuilt => "rebuilt",
            Origin::Missing => "missing",
            Origin::Repaired => "repaired",
        }
    }
}

/// The stats file in `stats_dir`.
pub fn stats_path(stats_dir: &Path) -> PathBuf {
    stats_dir.join(format!("{STATS_STEM}.json"))
}

/// Statistics of every record in `records_dir`.
pub fn build(records_dir: &Path) -> StatsFile {
    let sources = store::record_files(records_dir);
    let mut stats = Stats::default();
    let mut records = Vec::new();
    let mut damaged = Vec::new();
    for name in sources.keys() {
        // By path, not by name: a listed file counts even if its name could not be saved today.
        let r = store::read_record_file(&store::record_path(records_dir, name))
            .and_then(|text| MatchLog::parse(&text).map_err(Fail::from))
            .and_then(|log| stats.add(&log).map_err(Fail::from));
        match r {
            Ok(()) => records.push(name.clone()),
            Err(f) => damaged.push(Damaged { name: name.clone(), code: f.num(), error: f.message }),
        }
    }
    StatsFile { version: STATS_VERSION, sources, records, damaged, stats }
}

/// The stored statistics if the file in `stats_dir` is readable and matches the records;
/// otherwise rebuilt from `records_dir` and written back (atomically). `force` always rebuilds.
/// An error only when the rebuilt file cannot be written (the figures are still returned).
pub fn load_or_rebuild(records_dir: &Path, stats_dir: &Path, force: bool) -> (StatsFile, Origin, Option<Fail>) {
    let origin = match std::fs::read_to_string(stats_path(stats_dir)) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Origin::Missing,
        Err(_) => Origin::Repaired,
        Ok(text) => match serde_json::from_str::<StatsFile>(&text) {
            Ok(f) if f.version != STATS_VERSION => Origin::Repaired,
            Ok(f) if !force && f.sources == store::record_files(records_dir) => return (f, Origin::Stored, None),
            Ok(_) => Origin::Rebuilt,
            Err(_) => Origin::Repaired,
        },
    };
    let file = build(records_dir);
    let err = write(stats_dir, &file).err();
    (file, origin, err)
}

/// Writes the stats file atomically.
pub fn write(stats_dir: &Path, file: &StatsFile) -> Result<(), Fail> {
    let text = serde_json::to_string_pretty(file)
        .map_err(|e| Fail::new(ErrorCode::Io, format!("cannot encode the statistics: {e}")))?;
    store::write_file_atomic(stats_dir, &format!("{STATS_STEM}.json"), &text).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_ai::{AiLevel, AiProfile};
    use guandan_core::rules::RuleConfig;
    use guandan_runtime::{Controller, Runtime, RuntimeConfig};

    fn temp_dir(tag: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("guandan-stats-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn ai_match(seed: u64, actions: usize) -> MatchLog {
        let ai = || Controller::Ai(AiProfile::level(AiLevel::L1));
        let cfg =
            RuntimeConfig { seed, rules: RuleConfig::competition(), seats: [ai(), ai(), ai(), ai()], clocks: false };
        let (mut rt, _) = Runtime::start(cfg).unwrap();
        for _ in 0..actions {
            if rt.state().is_over() || rt.decide_now().is_none() {
                break;
            }
        }
        rt.log().clone()
    }

    #[test]
    fn built_from_records_stored_reused_and_rebuilt_when_damaged_or_stale() {
        let records = temp_dir("records");
        let stats_dir = temp_dir("stats");
        let logs = [ai_match(1, 400), ai_match(2, 150)];
        for (i, log) in logs.iter().enumerate() {
            std::fs::write(records.join(format!("match_{i}.jsonl")), log.to_jsonl()).unwrap();
        }
        std::fs::write(records.join("match_9.jsonl"), "not a record\n").unwrap();
        let mut expected = Stats::default();
        for log in &logs {
            expected.add(log).unwrap();
        }

        let (f, origin, err) = load_or_rebuild(&records, &stats_dir, false);
        assert_eq!(origin, Origin::Missing);
        assert!(err.is_none());
        assert_eq!(f.stats, expected, "the same figures as guandan_core::stats over the good records");
        assert_eq!(f.records, ["match_0", "match_1"]);
        assert_eq!(f.damaged.len(), 1);
        assert_eq!(f.damaged[0].name, "match_9");
        assert_eq!(f.damaged[0].code, i64::from(ErrorCode::LogMalformed.code()));

        let (again, origin, _) = load_or_rebuild(&records, &stats_dir, false);
        assert_eq!(origin, Origin::Stored);
        assert_eq!(again, f);

        // A damaged stats file is rebuilt, not trusted.
        std::fs::write(stats_dir.join("stats.json"), "{ broken").unwrap();
        let (repaired, origin, _) = load_or_rebuild(&records, &stats_dir, false);
        assert_eq!(origin, Origin::Repaired);
        assert_eq!(repaired, f);

        // A new record makes it stale.
        std::fs::remove_file(records.join("match_1.jsonl")).unwrap();
        let (fewer, origin, _) = load_or_rebuild(&records, &stats_dir, false);
        assert_eq!(origin, Origin::Rebuilt);
        let mut one = Stats::default();
        one.add(&logs[0]).unwrap();
        assert_eq!(fewer.stats, one);
        let _ = std::fs::remove_dir_all(&records);
        let _ = std::fs::remove_dir_all(&stats_dir);
    }
}
