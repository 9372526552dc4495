//! `ReplayRecorder`: a match's record (seed + rules + actions, with state-hash checkpoints),
//! saved to and loaded from `user://records/`, and played back step by step.
//!
//! Records are guandan-core's versioned JSON Lines (`MatchLog`), the same files the `guandan`
//! CLI reads. A record is replayed from scratch when it is taken or loaded by guandan-core's one
//! verifier (`MatchLog::replay_with`, which the CLI and the server use too), so a recorder that
//! holds a record holds a valid one; corrupt input leaves the recorder empty and returns an
//! error code (20–25, 30–32) with a message. The files themselves (names, size limit, atomic
//! writes, listing) are [`crate::store`]'s.

use godot::prelude::*;
use guandan_core::game::Match;
use guandan_core::log::{LogError, MatchLog};
use guandan_core::seat::Seat;

use crate::codes::{self, Fail};
use crate::convert::{ids, recorded_signal};
use crate::forward::Forwarder;
use crate::resources::GuandanRules;
use crate::store;
use crate::user_dirs::user_dirs;
use crate::values::{MatchState, PlayerStatistics, RecordedAction, RecordedSignal};
use guandan_core::error::ErrorCode;
use guandan_runtime::{Controller, Runtime};
use std::cell::RefCell;

/// A state kept every this many actions, so seeking replays at most this many.
const SNAPSHOT_EVERY: usize = 32;

/// A verified record with playback snapshots.
pub(crate) struct Loaded {
    log: MatchLog,
    /// `(actions applied, state)`, one every `SNAPSHOT_EVERY` actions, the first at 0.
    snapshots: Vec<(usize, Match)>,
    final_hash: String,
}

/// Verifies the whole log with core's replay verifier and keeps playback snapshots.
pub(crate) fn verify(log: MatchLog) -> Result<Loaded, LogError> {
    let mut snapshots = Vec::new();
    let last = log.replay_with(|index, _, _, m| {
        if (index + 1) % SNAPSHOT_EVERY == 0 {
            snapshots.push((index + 1, m.clone()));
        }
    })?;
    // The verifier accepted the header, so its start position exists.
    let (start, _) = log.start().map_err(|error| LogError::Rejected { index: 0, error })?;
    snapshots.insert(0, (0, start));
    Ok(Loaded { final_hash: last.state_hash(), log, snapshots })
}

impl Loaded {
    /// The state after `n` actions (n ≤ action count).
    fn state_at(&self, n: usize) -> Match {
        let (start, snap) = self.snapshots.iter().rev().find(|(k, _)| *k <= n).unwrap_or(&self.snapshots[0]);
        let mut m = snap.clone();
        for a in &self.log.actions[*start..n] {
            if let Err(e) = m.apply(a) {
                // Verified on load, so this cannot happen; say so rather than show a wrong state.
                godot_error!("ReplayRecorder: a verified record failed to replay (code {})", e.code().code());
                break;
            }
        }
        m
    }
}

/// Whether `text` is a record that replays whole (every action legal, every checkpoint right).
pub(crate) fn check_record(text: &str) -> Result<(), Fail> {
    parse_and_verify(text).map(|_| ())
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
    /// A runtime standing at some position of the record, to translate the next action into
    /// events (`get_events` walks forward through a deal one action at a time).
    cursor: RefCell<Option<Runtime>>,
}

#[godot_api]
impl ReplayRecorder {
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
            let name = name.to_string();
            // A bad name is reported before an empty recorder.
            store::check_name(&name)?;
            let text = self
                .loaded
                .as_ref()
                .map(|l| l.log.to_jsonl())
                .ok_or_else(|| Fail::new(ErrorCode::NoRecord, "nothing recorded"))?;
            store::write_record(&user_dirs().records(), &name, &text).map(|_| ())
        })();
        self.report("save", r)
    }

    /// Loads `user://records/<name>.jsonl`, verifying every checkpoint; the position is then 0.
    /// Returns `OK`, `ERR_NOT_FOUND`, `ERR_IO`, `ERR_BAD_ARGUMENT`, or a log error (20–24) for a
    /// damaged file, leaving the recorder empty.
    #[func]
    pub fn load(&mut self, name: GString) -> i64 {
        let r = store::read_record(&user_dirs().records(), &name.to_string()).and_then(|text| parse_and_verify(&text));
        self.take(r, "load", false)
    }

    /// Names of the saved records, sorted.
    #[func]
    pub fn list_records() -> PackedStringArray {
        store::list_records(&user_dirs().records()).iter().map(|n| GString::from(n.as_str())).collect()
    }

    /// Deletes a saved record. Returns `OK`, `ERR_NOT_FOUND`, `ERR_BAD_ARGUMENT` or `ERR_IO`.
    #[func]
    pub fn delete_record(name: GString) -> i64 {
        match store::delete_record(&user_dirs().records(), &name.to_string()) {
            Ok(()) => codes::OK,
            Err(f) => {
                godot_warn!("ReplayRecorder.delete_record: {} ({})", f.message, f.num());
                f.num()
            }
        }
    }

    /// Player statistics over every saved record (guandan-core's `stats`, the figures of
    /// `guandan stats --json`), as JSON text: `{origin, error, path, version, sources, records,
    /// damaged: [{name, code, error}], stats: {players: {name: {...}}, matches: [...]}}`.
    /// Read from `user://stats/stats.json` when it matches the records on disk; otherwise (or
    /// with `rebuild`) rebuilt from the records and stored again. `origin` says which:
    /// `stored`, `rebuilt`, `missing` or `repaired` (the file was damaged). A damaged record is
    /// listed in `damaged` and counts for nothing; `error` is `""` or why the file could not be
    /// written. Never fails.
    #[func]
    pub fn stats_json(#[opt(default = false)] rebuild: bool) -> GString {
        let dirs = user_dirs();
        let (file, origin, err) = crate::stats_store::load_or_rebuild(&dirs.records(), &dirs.stats(), rebuild);
        if let Some(e) = &err {
            godot_warn!("ReplayRecorder.stats_json: {} ({})", e.message, e.num());
        }
        let mut v = serde_json::to_value(&file).unwrap_or_default();
        if let Some(obj) = v.as_object_mut() {
            obj.insert("origin".into(), origin.name().into());
            obj.insert("error".into(), err.map(|e| e.message).unwrap_or_default().into());
            let path = crate::stats_store::stats_path(&dirs.stats());
            obj.insert("path".into(), path.to_string_lossy().into_owned().into());
        }
        GString::from(v.to_string().as_str())
    }

    /// The same statistics as typed values (read or rebuilt as `stats_json` says).
    #[func]
    pub fn stats(#[opt(default = false)] rebuild: bool) -> Gd<PlayerStatistics> {
        let dirs = user_dirs();
        let (file, origin, err) = crate::stats_store::load_or_rebuild(&dirs.records(), &dirs.stats(), rebuild);
        if let Some(e) = &err {
            godot_warn!("ReplayRecorder.stats: {} ({})", e.message, e.num());
        }
        let path = crate::stats_store::stats_path(&dirs.stats());
        let error = err.map(|e| e.message).unwrap_or_default();
        PlayerStatistics::make(&file, origin.name(), &error, &path.to_string_lossy())
    }

    /// The absolute directory the records are saved in (`user://records`).
    #[func]
    pub fn get_records_dir() -> GString {
        GString::from(user_dirs().records().to_string_lossy().as_ref())
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
        *self.cursor.borrow_mut() = None;
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

    /// Who sat where, from the record's header (`meta`): four `{name, ai}` — `name` `""` when
    /// the host gave none, `ai` the AI level `"L1"`…`"L3"` of an AI seat, `""` for a person. An
    /// empty array when the record has no such header (made before it existed) or when empty.
    #[func]
    pub fn get_players(&self) -> Array<VarDictionary> {
        let meta = self.loaded.as_ref().and_then(|l| l.log.header.meta.as_ref());
        meta.map(|m| {
            m.players
                .iter()
                .map(|p| vdict! { "name" => p.name.as_str(), "ai" => p.ai.as_deref().unwrap_or("") })
                .collect()
        })
        .unwrap_or_default()
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
            let loaded = self.loaded.as_ref().ok_or_else(|| Fail::new(ErrorCode::NoRecord, "nothing recorded"))?;
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
            let loaded = self.loaded.as_ref().ok_or_else(|| Fail::new(ErrorCode::NoRecord, "nothing recorded"))?;
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
    /// as `GuandanEngine`'s signals with their arguments; every card is shown.
    #[func]
    pub fn get_events(&self) -> Array<Gd<RecordedSignal>> {
        let Some(loaded) = &self.loaded else { return Array::new() };
        // Every seat human, seen omnisciently: every card shown, no hand updates (as for an
        // AI-only table); the runtime translates, so the events are exactly the engine's.
        let humans = || std::array::from_fn(|_| Controller::Human);
        let (rt, notices) = if self.position == 0 {
            let cfg = guandan_runtime::RuntimeConfig {
                seed: loaded.log.header.seed,
                rules: loaded.log.header.rules.clone(),
                seats: humans(),
                clocks: false,
            };
            match Runtime::start(cfg) {
                Ok(x) => x,
                Err(_) => return Array::new(),
            }
        } else {
            let before = self.position - 1;
            let mut cursor = self.cursor.borrow_mut().take();
            if cursor.as_ref().is_none_or(|rt| rt.log().actions.len() != before) {
                cursor = Runtime::resume(loaded.log.truncated(before), humans(), false).ok().map(|(rt, _)| rt);
            }
            let Some(mut rt) = cursor else { return Array::new() };
            let a = &loaded.log.actions[before];
            match rt.act(a.seat, a.kind.clone()) {
                Ok(notices) => (rt, notices),
                Err(_) => return Array::new(),
            }
        };
        let mut fw = Forwarder::omniscient();
        let events = fw.forward(&rt, &notices).iter().filter_map(recorded_signal).collect();
        *self.cursor.borrow_mut() = Some(rt);
        events
    }

    /// Action `i` of the record; null for a bad index.
    #[func]
    pub fn get_action(&self, i: i64) -> Option<Gd<RecordedAction>> {
        let action = self.loaded.as_ref().and_then(|l| usize::try_from(i).ok().and_then(|i| l.log.actions.get(i)));
        action.map(RecordedAction::make)
    }

    /// The position at the playback position, every hand visible; null without a record.
    #[func]
    pub fn get_state(&self) -> Option<Gd<MatchState>> {
        self.current().map(|m| MatchState::make(&m.view(None), |seat| Some(m.hand(seat)), m.outcome()))
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
        match (self.current(), Seat::try_from(seat).ok()) {
            (Some(m), Some(s)) => ids(m.hand(s)),
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

    /// The record cut at the current position (for `GuandanEngine.resume_from`).
    pub(crate) fn log_at_position(&self) -> Result<MatchLog, Fail> {
        let loaded = self.loaded.as_ref().ok_or_else(|| Fail::new(ErrorCode::NoRecord, "nothing recorded"))?;
        Ok(loaded.log.truncated(self.position))
    }

    pub(crate) fn take(&mut self, r: Result<Loaded, Fail>, what: &str, at_end: bool) -> i64 {
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
                godot_warn!("ReplayRecorder.{what}: {} (code {})", f.message, f.num());
                self.last_error = f.message.clone();
                f.num()
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use guandan_core::game::ActionKind;
    use guandan_core::rules::RuleConfig;

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
        assert_eq!(parse_and_verify("").err().unwrap().code, ErrorCode::LogEmpty);
        assert_eq!(parse_and_verify("{not json").err().unwrap().code, ErrorCode::LogMalformed);
        let newer = text.replacen("\"version\":1", "\"version\":99", 1);
        assert_eq!(parse_and_verify(&newer).err().unwrap().code, ErrorCode::LogVersion);
        // A changed seed deals other cards: the first action no longer applies, or a hash differs.
        let seed = log.header.seed;
        let reseeded = text.replacen(&format!("\"seed\":{seed}"), &format!("\"seed\":{}", seed + 1), 1);
        let code = parse_and_verify(&reseeded).err().unwrap().code;
        assert!(code == ErrorCode::LogRejected || code == ErrorCode::LogHash, "{code}");
        if let Some(cp) = log.checkpoints.first() {
            let bad = text.replacen(&cp.hash, &"0".repeat(64), 1);
            assert_eq!(parse_and_verify(&bad).err().unwrap().code, ErrorCode::LogHash);
        }
        assert!(parse_and_verify(&text).is_ok());
    }
}
