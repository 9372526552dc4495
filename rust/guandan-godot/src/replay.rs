//! `ReplayRecorder`: a match's record (seed + rules + actions, with state-hash checkpoints),
//! saved to and loaded from `user://records/`, and played back step by step.
//!
//! Records are guandan-core's versioned JSON Lines (`MatchLog`), the same files the `guandan`
//! CLI reads. A record is replayed from scratch when it is taken or loaded, checking every
//! checkpoint, so a recorder that holds a record holds a valid one; corrupt input leaves the
//! recorder empty and returns an error code (20–24, 30–32) with a message.

use std::path::PathBuf;

use godot::classes::Os;
use godot::prelude::*;
use guandan_core::game::{Action, ActionKind, Match};
use guandan_core::log::{LogError, MatchLog};

use crate::codes::{self, Fail};
use crate::convert::{self, ids, out_dict};
use crate::engine::GuandanEngine;
use crate::resources::GuandanRules;
use crate::session::Session;

/// A state kept every this many actions, so seeking replays at most this many.
const SNAPSHOT_EVERY: usize = 32;
/// Records larger than this are refused (a long match is well under 1 MB).
const MAX_RECORD_BYTES: u64 = 32 << 20;
/// File extension of saved records.
pub const RECORD_EXT: &str = "jsonl";

/// A verified record with playback snapshots.
struct Loaded {
    log: MatchLog,
    /// `(actions applied, state)`, one every `SNAPSHOT_EVERY` actions, the first at 0.
    snapshots: Vec<(usize, Match)>,
    final_hash: String,
}

/// Replays the whole log from scratch, checking each checkpoint, and keeps snapshots.
fn verify(log: MatchLog) -> Result<Loaded, LogError> {
    let (mut m, _) = Match::new(log.header.seed, log.header.rules.clone())
        .map_err(|error| LogError::Rejected { index: 0, error })?;
    let mut snapshots = vec![(0, m.clone())];
    let mut events = Vec::new();
    let mut cps = log.checkpoints.iter().peekable();
    for (index, a) in log.actions.iter().enumerate() {
        events.clear();
        m.apply_into(a, &mut events).map_err(|error| LogError::Rejected { index, error })?;
        let done = index + 1;
        while let Some(cp) = cps.next_if(|cp| cp.checkpoint as usize <= done) {
            if cp.checkpoint as usize == done {
                let actual = m.state_hash();
                if actual != cp.hash {
                    return Err(LogError::HashMismatch { actions: cp.checkpoint, expected: cp.hash.clone(), actual });
                }
            }
        }
        if done % SNAPSHOT_EVERY == 0 {
            snapshots.push((done, m.clone()));
        }
    }
    if let Some(cp) = cps.next() {
        return Err(LogError::Malformed {
            line: 0,
            message: format!("checkpoint after {} actions, but the record has {}", cp.checkpoint, log.actions.len()),
        });
    }
    Ok(Loaded { final_hash: m.state_hash(), log, snapshots })
}

impl Loaded {
    /// The state after `n` actions (n ≤ action count).
    fn state_at(&self, n: usize) -> Match {
        let (start, snap) = self.snapshots.iter().rev().find(|(k, _)| *k <= n).unwrap_or(&self.snapshots[0]);
        let mut m = snap.clone();
        for a in &self.log.actions[*start..n] {
            // Verified on load: every action applies.
            let _ = m.apply(a);
        }
        m
    }
}

/// A record name is a file name without directories: letters, digits, `_`, `-`, `.`; at most
/// 64 characters; not starting with a dot. A trailing `.jsonl` is accepted and ignored.
pub fn check_name(name: &str) -> Result<&str, Fail> {
    let stem = name.strip_suffix(&format!(".{RECORD_EXT}")).unwrap_or(name);
    let ok = !stem.is_empty()
        && stem.len() <= 64
        && !stem.starts_with('.')
        && stem.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.'));
    if ok {
        Ok(stem)
    } else {
        Err(Fail::bad_argument(format!(
            "record name {name:?} must be 1-64 letters, digits, '_', '-' or '.', not starting with '.'"
        )))
    }
}

/// Writes `text` to `dir/name.jsonl` atomically: a temporary file in the same directory,
/// flushed to disk, then renamed over the target.
pub fn write_atomic(dir: &std::path::Path, stem: &str, text: &str) -> Result<PathBuf, Fail> {
    use std::io::Write;
    let io = |what: &str, e: std::io::Error| Fail::new(codes::ERR_IO, format!("{what}: {e}"));
    std::fs::create_dir_all(dir).map_err(|e| io("cannot create the records directory", e))?;
    let target = dir.join(format!("{stem}.{RECORD_EXT}"));
    let tmp = dir.join(format!(".{stem}.{RECORD_EXT}.{}.tmp", std::process::id()));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp).map_err(|e| io("cannot create the file", e))?;
        f.write_all(text.as_bytes()).map_err(|e| io("cannot write", e))?;
        f.sync_all().map_err(|e| io("cannot flush", e))?;
        std::fs::rename(&tmp, &target).map_err(|e| io("cannot rename", e))
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map(|()| target)
}

/// Reads a record file (size-limited, UTF-8).
pub fn read_record(path: &std::path::Path) -> Result<String, Fail> {
    let meta = std::fs::metadata(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Fail::new(codes::ERR_NOT_FOUND, "no such record"),
        _ => Fail::new(codes::ERR_IO, format!("cannot read the record: {e}")),
    })?;
    if meta.len() > MAX_RECORD_BYTES {
        return Err(Fail::new(codes::ERR_IO, format!("record is {} bytes, more than {MAX_RECORD_BYTES}", meta.len())));
    }
    let bytes = std::fs::read(path).map_err(|e| Fail::new(codes::ERR_IO, format!("cannot read the record: {e}")))?;
    String::from_utf8(bytes).map_err(|_| Fail::new(codes::ERR_LOG_MALFORMED, "record is not UTF-8 text"))
}

/// Parses and verifies record text.
fn parse_and_verify(text: &str) -> Result<Loaded, Fail> {
    let log = MatchLog::parse(text)?;
    Ok(verify(log)?)
}

/// Records, saves, loads and plays back matches.
///
/// Take a record of a running or finished match with `record(engine)`, or `load(name)` a saved
/// one; then `seek(n)`, `step_forward()`, `step_back()` and read the state at the current
/// position with `get_state()` (all hands visible) and `get_state_hash()`. `get_events()` lists
/// what the last action did, with the same names and arguments as `GuandanEngine`'s signals.
/// Files live in `user://records/` as `<name>.jsonl` and are written atomically.
#[derive(GodotClass)]
#[class(init, base = RefCounted)]
pub struct ReplayRecorder {
    loaded: Option<Loaded>,
    position: usize,
    state: Option<Match>,
    last_error: String,
}

#[godot_api]
impl ReplayRecorder {
    /// Takes the record of the engine's match so far (the position is then at its end).
    /// Returns `OK`, `ERR_NO_MATCH`, or a log error if the record does not replay.
    #[func]
    pub fn record(&mut self, engine: Option<Gd<GuandanEngine>>) -> i64 {
        let r = (|| {
            let engine = engine.ok_or_else(|| Fail::bad_argument("engine is null"))?;
            let log = engine
                .bind()
                .session()
                .map(|s| s.log.clone())
                .ok_or_else(|| Fail::new(codes::ERR_NO_MATCH, "the engine has no match"))?;
            Ok(verify(log)?)
        })();
        self.take(r, "record", true)
    }

    /// Loads a record from text (the JSON Lines format). Returns `OK` or an error code; on
    /// error the recorder is empty.
    #[func]
    pub fn load_text(&mut self, text: GString) -> i64 {
        let r = parse_and_verify(&text.to_string());
        self.take(r, "load_text", false)
    }

    /// The record as text (JSON Lines); `""` when empty.
    #[func]
    pub fn to_text(&self) -> GString {
        GString::from(self.loaded.as_ref().map(|l| l.log.to_jsonl()).unwrap_or_default().as_str())
    }

    /// Saves the record as `user://records/<name>.jsonl` (atomically: a temporary file, then a
    /// rename). Returns `OK`, `ERR_NO_RECORD`, `ERR_BAD_ARGUMENT` (bad name) or `ERR_IO`.
    #[func]
    pub fn save(&mut self, name: GString) -> i64 {
        let r = (|| {
            let stem = check_name(&name.to_string())?.to_string();
            let text = self
                .loaded
                .as_ref()
                .map(|l| l.log.to_jsonl())
                .ok_or_else(|| Fail::new(codes::ERR_NO_RECORD, "nothing recorded"))?;
            write_atomic(&records_dir(), &stem, &text).map(|_| ())
        })();
        self.report("save", r)
    }

    /// Loads `user://records/<name>.jsonl`, verifying every checkpoint; the position is then 0.
    /// Returns `OK`, `ERR_NOT_FOUND`, `ERR_IO`, `ERR_BAD_ARGUMENT`, or a log error (20–24) for a
    /// damaged file, leaving the recorder empty.
    #[func]
    pub fn load(&mut self, name: GString) -> i64 {
        let r = (|| {
            let name = name.to_string();
            let stem = check_name(&name)?;
            let text = read_record(&records_dir().join(format!("{stem}.{RECORD_EXT}")))?;
            parse_and_verify(&text)
        })();
        self.take(r, "load", false)
    }

    /// Names of the saved records, sorted.
    #[func]
    pub fn list_records() -> PackedStringArray {
        let mut names: Vec<String> = std::fs::read_dir(records_dir())
            .map(|d| {
                d.filter_map(|e| e.ok())
                    .filter_map(|e| e.file_name().into_string().ok())
                    .filter(|n| !n.starts_with('.'))
                    .filter_map(|n| n.strip_suffix(&format!(".{RECORD_EXT}")).map(String::from))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names.iter().map(|n| GString::from(n.as_str())).collect()
    }

    /// Deletes a saved record. Returns `OK`, `ERR_NOT_FOUND`, `ERR_BAD_ARGUMENT` or `ERR_IO`.
    #[func]
    pub fn delete_record(name: GString) -> i64 {
        let r = check_name(&name.to_string()).and_then(|stem| {
            std::fs::remove_file(records_dir().join(format!("{stem}.{RECORD_EXT}"))).map_err(|e| match e.kind() {
                std::io::ErrorKind::NotFound => Fail::new(codes::ERR_NOT_FOUND, "no such record"),
                _ => Fail::new(codes::ERR_IO, format!("cannot delete: {e}")),
            })
        });
        match r {
            Ok(()) => codes::OK,
            Err(f) => {
                godot_warn!("ReplayRecorder.delete_record: {} ({})", f.message, f.code);
                f.code
            }
        }
    }

    /// The absolute directory the records are saved in (`user://records`).
    #[func]
    pub fn get_records_dir() -> GString {
        GString::from(records_dir().to_string_lossy().as_ref())
    }

    /// Whether a record is loaded.
    #[func]
    pub fn has_record(&self) -> bool {
        self.loaded.is_some()
    }

    /// Forgets the record.
    #[func]
    pub fn clear(&mut self) {
        self.loaded = None;
        self.state = None;
        self.position = 0;
    }

    /// The recorded match seed (0 when empty).
    #[func]
    pub fn get_seed(&self) -> i64 {
        self.loaded.as_ref().map_or(0, |l| crate::args::seed_to_int(l.log.header.seed))
    }

    /// The recorded rules as a new `GuandanRules` (null when empty).
    #[func]
    pub fn get_rules(&self) -> Option<Gd<GuandanRules>> {
        self.loaded.as_ref().map(|l| GuandanRules::from_config(&l.log.header.rules))
    }

    /// Number of recorded actions.
    #[func]
    pub fn get_action_count(&self) -> i64 {
        self.loaded.as_ref().map_or(0, |l| l.log.actions.len() as i64)
    }

    /// Actions applied at the current position (0 = the match start).
    #[func]
    pub fn get_position(&self) -> i64 {
        self.position as i64
    }

    /// Moves to the state after `n` actions (0 ..= action count). Returns `OK`, `ERR_NO_RECORD`
    /// or `ERR_BAD_ARGUMENT`.
    #[func]
    pub fn seek(&mut self, n: i64) -> i64 {
        let r = (|| {
            let loaded = self.loaded.as_ref().ok_or_else(|| Fail::new(codes::ERR_NO_RECORD, "nothing recorded"))?;
            let count = loaded.log.actions.len();
            let n = usize::try_from(n)
                .ok()
                .filter(|&n| n <= count)
                .ok_or_else(|| Fail::bad_argument(format!("position {n} is not in 0..{count}")))?;
            self.state = Some(loaded.state_at(n));
            self.position = n;
            Ok(())
        })();
        self.report("seek", r)
    }

    /// One action forward. Returns `OK`, `ERR_NO_RECORD` or `ERR_BAD_ARGUMENT` at the end.
    #[func]
    pub fn step_forward(&mut self) -> i64 {
        let r = (|| {
            let loaded = self.loaded.as_ref().ok_or_else(|| Fail::new(codes::ERR_NO_RECORD, "nothing recorded"))?;
            let a = loaded
                .log
                .actions
                .get(self.position)
                .ok_or_else(|| Fail::bad_argument("already at the end of the record"))?;
            let state = self.state.get_or_insert_with(|| loaded.state_at(self.position));
            state.apply(a)?;
            self.position += 1;
            Ok(())
        })();
        self.report("step_forward", r)
    }

    /// One action back. Returns `OK`, `ERR_NO_RECORD` or `ERR_BAD_ARGUMENT` at the start.
    #[func]
    pub fn step_back(&mut self) -> i64 {
        if self.loaded.is_some() && self.position == 0 {
            return self.report("step_back", Err(Fail::bad_argument("already at the start of the record")));
        }
        let target = self.position as i64 - 1;
        self.seek(target.max(0))
    }

    /// What the action that led to the current position did (at position 0: the match start),
    /// as `[{signal, ...arguments}]` with `GuandanEngine`'s signal names and arguments; every
    /// card is shown.
    #[func]
    pub fn get_events(&self) -> Array<VarDictionary> {
        let Some(loaded) = &self.loaded else { return Array::new() };
        let header = &loaded.log.header;
        // Every seat "AI": the session is an all-seeing spectator.
        let spectator = || std::array::from_fn(|_| Some(guandan_ai::AiProfile::default()));
        if self.position == 0 {
            return match Session::new(header.seed, header.rules.clone(), spectator(), 0.0) {
                Ok((_, outs)) => outs.iter().map(out_dict).collect(),
                Err(_) => Array::new(),
            };
        }
        let mut before = loaded.state_at(self.position - 1);
        let Ok(events) = before.apply(&loaded.log.actions[self.position - 1]) else { return Array::new() };
        let mut session = Session::resume(MatchLog::new(header.seed, header.rules.clone()), before, spectator());
        session.translate(&events, 0.0).iter().map(out_dict).collect()
    }

    /// Action `i` of the record: `{seq, seat, type, cards, card, accept}` (`type` is `play`,
    /// `pass`, `tribute`, `return`, `timeout`, `propose_surrender`, `surrender_vote`, `time_up`;
    /// `cards`/`card`/`accept` only where they apply). `{}` for a bad index.
    #[func]
    pub fn get_action(&self, i: i64) -> VarDictionary {
        let action = self.loaded.as_ref().and_then(|l| usize::try_from(i).ok().and_then(|i| l.log.actions.get(i)));
        action.map_or_else(VarDictionary::new, action_dict)
    }

    /// The state at the current position, every hand visible (see "Data shapes").
    #[func]
    pub fn get_state(&self) -> VarDictionary {
        self.current().map_or_else(VarDictionary::new, |m| convert::state_dict(&m, |_| true))
    }

    /// The state hash at the current position (`""` when empty).
    #[func]
    pub fn get_state_hash(&self) -> GString {
        GString::from(self.current().map(|m| m.state_hash()).unwrap_or_default().as_str())
    }

    /// The state hash after the last action (`""` when empty).
    #[func]
    pub fn get_final_hash(&self) -> GString {
        GString::from(self.loaded.as_ref().map(|l| l.final_hash.as_str()).unwrap_or(""))
    }

    /// A hand at the current position (replays show every hand).
    #[func]
    pub fn get_hand(&self, seat: i64) -> PackedInt32Array {
        match (self.current(), usize::try_from(seat).ok().filter(|&s| s < 4)) {
            (Some(m), Some(s)) => ids(m.hands()[s]),
            _ => PackedInt32Array::new(),
        }
    }

    /// The message of the last failed call.
    #[func]
    pub fn get_last_error(&self) -> GString {
        GString::from(self.last_error.as_str())
    }
}

impl ReplayRecorder {
    fn current(&self) -> Option<Match> {
        match (&self.state, &self.loaded) {
            (Some(m), _) => Some(m.clone()),
            (None, Some(l)) => Some(l.state_at(self.position)),
            _ => None,
        }
    }

    /// The record cut at the current position and the state there (for `GuandanEngine.resume_from`).
    pub(crate) fn snapshot(&self) -> Result<(MatchLog, Match), Fail> {
        let loaded = self.loaded.as_ref().ok_or_else(|| Fail::new(codes::ERR_NO_RECORD, "nothing recorded"))?;
        let state = self.current().ok_or_else(|| Fail::new(codes::ERR_NO_RECORD, "nothing recorded"))?;
        Ok((crate::engine::truncated_log(&loaded.log, self.position), state))
    }

    fn take(&mut self, r: Result<Loaded, Fail>, what: &str, at_end: bool) -> i64 {
        self.clear();
        let r = r.map(|loaded| {
            self.position = if at_end { loaded.log.actions.len() } else { 0 };
            self.loaded = Some(loaded);
        });
        self.report(what, r)
    }

    fn report(&mut self, what: &str, r: Result<(), Fail>) -> i64 {
        match r {
            Ok(()) => codes::OK,
            Err(f) => {
                // Record errors name line numbers and hashes, never hands.
                godot_warn!("ReplayRecorder.{what}: {} (code {})", f.message, f.code);
                self.last_error = f.message;
                f.code
            }
        }
    }
}

/// `user://records` as an absolute path.
pub fn records_dir() -> PathBuf {
    PathBuf::from(Os::singleton().get_user_data_dir().to_string()).join("records")
}

fn action_dict(a: &Action) -> VarDictionary {
    let mut d = vdict! { "seq" => a.seq as i64, "seat" => i64::from(a.seat) };
    let kind = match &a.kind {
        ActionKind::Play { cards, .. } => {
            let set: PackedInt32Array = cards.iter().map(|&c| i32::from(c)).collect();
            d.set("cards", &set);
            "play"
        }
        ActionKind::Pass => "pass",
        ActionKind::Tribute { card } => {
            d.set("card", i64::from(*card));
            "tribute"
        }
        ActionKind::Return { card } => {
            d.set("card", i64::from(*card));
            "return"
        }
        ActionKind::Timeout => "timeout",
        ActionKind::ProposeSurrender => "propose_surrender",
        ActionKind::SurrenderVote { accept } => {
            d.set("accept", *accept);
            "surrender_vote"
        }
        ActionKind::TimeUp => "time_up",
    };
    d.set("type", kind);
    d
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_core::rules::RuleConfig;

    #[test]
    fn names_are_plain_file_names() {
        assert_eq!(check_name("match-1").unwrap(), "match-1");
        assert_eq!(check_name("a.b_c.jsonl").unwrap(), "a.b_c");
        for bad in ["", ".hidden", "../x", "a/b", "a\\b", "é", &"x".repeat(65)] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
    }

    fn recorded_match(seed: u64) -> MatchLog {
        let (mut m, _) = Match::new(seed, RuleConfig::competition()).unwrap();
        let mut log = MatchLog::new(seed, RuleConfig::competition());
        let mut n = 0u64;
        while !m.is_over() && n < 600 {
            let seat = m.to_act()[0];
            let kind = match m.phase() {
                guandan_core::game::Phase::Play => match m.legal_plays().first() {
                    Some(p) if !m.can_pass() || n.is_multiple_of(3) => Match::play_kind(p),
                    _ if m.can_pass() => ActionKind::Pass,
                    _ => ActionKind::Timeout,
                },
                _ => ActionKind::Timeout,
            };
            let a = m.action(seat, kind);
            let events = m.apply(&a).unwrap();
            log.record(&a, &events, &m);
            n += 1;
        }
        log
    }

    #[test]
    fn verified_records_seek_to_the_same_states() {
        let log = recorded_match(4);
        let loaded = verify(log.clone()).unwrap();
        for n in [0, 1, 31, 32, 33, 100, log.actions.len()] {
            let n = n.min(log.actions.len());
            assert_eq!(loaded.state_at(n).state_hash(), log.replay_to(n).unwrap().state_hash(), "{n}");
        }
        assert_eq!(loaded.final_hash, log.replay().unwrap().state_hash());
    }

    #[test]
    fn damaged_records_are_refused_with_codes() {
        let log = recorded_match(6);
        let text = log.to_jsonl();
        assert_eq!(parse_and_verify("").err().unwrap().code, codes::ERR_LOG_EMPTY);
        assert_eq!(parse_and_verify("{not json").err().unwrap().code, codes::ERR_LOG_MALFORMED);
        let newer = text.replacen("\"version\":1", "\"version\":99", 1);
        assert_eq!(parse_and_verify(&newer).err().unwrap().code, codes::ERR_LOG_VERSION);
        // A changed seed deals other cards: the first action no longer applies, or a hash differs.
        let seed = log.header.seed;
        let reseeded = text.replacen(&format!("\"seed\":{seed}"), &format!("\"seed\":{}", seed + 1), 1);
        let code = parse_and_verify(&reseeded).err().unwrap().code;
        assert!(code == codes::ERR_LOG_REJECTED || code == codes::ERR_LOG_HASH, "{code}");
        if let Some(cp) = log.checkpoints.first() {
            let bad = text.replacen(&cp.hash, &"0".repeat(64), 1);
            assert_eq!(parse_and_verify(&bad).err().unwrap().code, codes::ERR_LOG_HASH);
        }
        assert!(parse_and_verify(&text).is_ok());
    }

    #[test]
    fn atomic_writes_leave_no_temporary_files() {
        let dir = std::env::temp_dir().join(format!("guandan-records-{}", std::process::id()));
        let path = write_atomic(&dir, "m", "hello\n").unwrap();
        assert_eq!(read_record(&path).unwrap(), "hello\n");
        write_atomic(&dir, "m", "again\n").unwrap();
        assert_eq!(read_record(&path).unwrap(), "again\n");
        let names: Vec<_> = std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names.len(), 1, "{names:?}");
        assert_eq!(read_record(&dir.join("none.jsonl")).unwrap_err().code, codes::ERR_NOT_FOUND);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
