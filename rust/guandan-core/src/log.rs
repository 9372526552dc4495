//! The action log: seed + rules + actions, saved as versioned JSON Lines. Replaying it from scratch
//! reproduces the match exactly; state hashes recorded after every deal are checked on replay.
//!
//! File layout: line 1 is the header `{"version":1,"seed":…,"rules":{…}}`; each further line is
//! either an action `{"seq":…,"seat":…,"type":…}` or a checkpoint `{"checkpoint":seq,"hash":"…"}`.
//! A truncated or damaged tail can be recovered up to the last valid line.

use crate::error::ErrorCode;
use crate::game::{Action, Event, Match};
use crate::rule_error::RuleError;
use crate::rules::{FIRST_RULES_REVISION, RULES_REVISION, RuleConfig, check_revision};
use serde::{Deserialize, Serialize};

/// Current save format version.
pub const LOG_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub version: u32,
    pub seed: u64,
    pub rules: RuleConfig,
    /// The rules engine's revision the match was played under (see
    /// [`crate::rules::RULES_REVISION`]); records made before revisions existed have none and
    /// are revision 1, which they replay under.
    #[serde(default = "first_revision")]
    pub rules_revision: u32,
    /// Who played, for statistics and lists; never read by the rules.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub meta: Option<MatchMeta>,
}

/// What a host knows about a match besides its rules: who sat where.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MatchMeta {
    pub players: [PlayerMeta; 4],
    /// The host's mode name (`training`, `match`, `online`…), empty when unknown.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub mode: String,
}

/// One seat's player.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerMeta {
    /// Display name; empty when the host gave none.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub name: String,
    /// The AI level (`L1`, `L2`, `L3`) of an AI seat; `None` for a human.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ai: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Checkpoint {
    /// Number of actions applied when the hash was taken.
    pub checkpoint: u64,
    pub hash: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
enum Line {
    Checkpoint(Checkpoint),
    Action(Action),
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    #[error("empty log")]
    Empty,
    #[error("line {line}: {message}")]
    Malformed { line: usize, message: String },
    #[error("unsupported log version {0} (this build reads up to {LOG_VERSION})")]
    Version(u64),
    #[error("recorded under rules revision {0}; this build knows revisions 1 to {RULES_REVISION}: update to read it")]
    RulesRevision(u32),
    #[error("action {index} rejected: {error}")]
    Rejected { index: usize, error: RuleError },
    #[error("hash mismatch after {actions} actions: log says {expected}, replay gives {actual}")]
    HashMismatch { actions: u64, expected: String, actual: String },
    /// A checkpoint that does not follow the action it was taken after: past the end, out of
    /// order, or a duplicate.
    #[error("checkpoint {checkpoint}: {problem}")]
    Checkpoint { checkpoint: u64, problem: String },
}

/// Why a line is neither an action nor a checkpoint, in the words of the one it looks like (the
/// untagged `Line`'s own error names no field: "card id 200 is out of range 0-107" does).
fn line_error(line: &str, e: serde_json::Error) -> String {
    let specific = if line.contains("\"checkpoint\"") {
        serde_json::from_str::<Checkpoint>(line).err()
    } else {
        serde_json::from_str::<Action>(line).err()
    };
    specific.unwrap_or(e).to_string()
}

impl LogError {
    pub fn code(&self) -> ErrorCode {
        match self {
            LogError::Empty => ErrorCode::LogEmpty,
            LogError::Malformed { .. } => ErrorCode::LogMalformed,
            LogError::Version(_) | LogError::RulesRevision(_) => ErrorCode::LogVersion,
            LogError::Rejected { .. } => ErrorCode::LogRejected,
            LogError::HashMismatch { .. } => ErrorCode::LogHash,
            LogError::Checkpoint { .. } => ErrorCode::LogCheckpoint,
        }
    }
}

fn first_revision() -> u32 {
    FIRST_RULES_REVISION
}

/// A match's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchLog {
    pub header: Header,
    pub actions: Vec<Action>,
    pub checkpoints: Vec<Checkpoint>,
    /// Thinking time of each action in ms, when the host measured it (the `ms` of an action line).
    pub think_ms: Vec<Option<u32>>,
}

/// The optional `ms` of an action line.
#[derive(Deserialize)]
struct ThinkTime {
    #[serde(default)]
    ms: Option<u32>,
}

/// Upgrades an older header/line to the current format. Version 1 is the first; later versions
/// add their conversions here.
fn migrate(header: serde_json::Value) -> Result<serde_json::Value, LogError> {
    // Compared as the full number: a huge version is unsupported, never truncated to a small one.
    match header.get("version").and_then(|v| v.as_u64()).unwrap_or(0) {
        v if v == u64::from(LOG_VERSION) => Ok(header),
        other => Err(LogError::Version(other)),
    }
}

impl MatchLog {
    pub fn new(seed: u64, rules: RuleConfig) -> Self {
        MatchLog {
            header: Header { version: LOG_VERSION, seed, rules, rules_revision: RULES_REVISION, meta: None },
            actions: Vec::new(),
            checkpoints: Vec::new(),
            think_ms: Vec::new(),
        }
    }

    /// The match's start position, under the rules and revision the header names: where every
    /// replay of this record begins.
    pub fn start(&self) -> Result<(Match, Vec<Event>), RuleError> {
        Match::new_revision(self.header.seed, self.header.rules.clone(), self.header.rules_revision)
    }

    /// Records an applied action; adds a checkpoint when the action ended a deal or the match.
    pub fn record(&mut self, action: &Action, events: &[Event], state: &Match) {
        self.record_timed(action, events, state, None);
    }

    /// [`record`](Self::record) with the time the player took, when the host measured it.
    pub fn record_timed(
        &mut self,
        action: &Action,
        events: &[Event],
        state: &Match,
        think: Option<std::time::Duration>,
    ) {
        self.think_ms.push(think.map(|d| d.as_millis().min(u128::from(u32::MAX)) as u32));
        self.actions.push(action.clone());
        if events.iter().any(|e| matches!(e, Event::DealEnded { .. } | Event::MatchEnded { .. })) {
            // Counted by the action's own number: a host may keep only the tail of `actions`.
            self.checkpoints.push(Checkpoint { checkpoint: action.seq + 1, hash: state.state_hash() });
        }
    }

    /// One action line of the text format: the action, and `ms` when its thinking time is known.
    pub fn action_line(action: &Action, think_ms: Option<u32>) -> String {
        let mut line = serde_json::to_string(action).unwrap_or_default();
        if let Some(ms) = think_ms {
            line.pop();
            line.push_str(&format!(",\"ms\":{ms}}}"));
        }
        line
    }

    pub fn to_jsonl(&self) -> String {
        let mut out = serde_json::to_string(&self.header).unwrap_or_default();
        out.push('\n');
        let mut cps = self.checkpoints.iter().peekable();
        for (i, a) in self.actions.iter().enumerate() {
            out.push_str(&Self::action_line(a, self.think_ms.get(i).copied().flatten()));
            out.push('\n');
            while let Some(cp) = cps.next_if(|cp| cp.checkpoint == i as u64 + 1) {
                out.push_str(&serde_json::to_string(cp).unwrap_or_default());
                out.push('\n');
            }
        }
        out
    }

    /// Strict parse: any bad line is an error.
    pub fn parse(text: &str) -> Result<MatchLog, LogError> {
        let (log, err) = Self::parse_lenient(text)?;
        match err {
            Some(e) => Err(e),
            None => Ok(log),
        }
    }

    /// Parses as far as the text is valid; returns the valid prefix and the first problem, if any.
    pub fn parse_lenient(text: &str) -> Result<(MatchLog, Option<LogError>), LogError> {
        let mut lines = text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty());
        let (_, first) = lines.next().ok_or(LogError::Empty)?;
        let raw: serde_json::Value =
            serde_json::from_str(first).map_err(|e| LogError::Malformed { line: 1, message: e.to_string() })?;
        let header: Header = serde_json::from_value(migrate(raw)?)
            .map_err(|e| LogError::Malformed { line: 1, message: e.to_string() })?;
        header.rules.validate().map_err(|m| LogError::Malformed { line: 1, message: m })?;
        check_revision(header.rules_revision).map_err(|_| LogError::RulesRevision(header.rules_revision))?;
        let mut log = MatchLog { header, actions: Vec::new(), checkpoints: Vec::new(), think_ms: Vec::new() };
        for (i, line) in lines {
            match serde_json::from_str::<Line>(line) {
                Ok(Line::Action(a)) => {
                    let think = if line.contains("\"ms\"") {
                        match serde_json::from_str::<ThinkTime>(line) {
                            Ok(t) => t.ms,
                            Err(e) => {
                                return Ok((log, Some(LogError::Malformed { line: i + 1, message: e.to_string() })));
                            }
                        }
                    } else {
                        None
                    };
                    log.think_ms.push(think);
                    log.actions.push(a)
                }
                Ok(Line::Checkpoint(c)) => {
                    // A checkpoint follows the action it was taken after, once.
                    let placed = c.checkpoint == log.actions.len() as u64
                        && log.checkpoints.last().is_none_or(|p| p.checkpoint < c.checkpoint);
                    if !placed {
                        let problem = format!(
                            "on line {} after {} actions (past the end, out of order or repeated)",
                            i + 1,
                            log.actions.len()
                        );
                        return Ok((log, Some(LogError::Checkpoint { checkpoint: c.checkpoint, problem })));
                    }
                    log.checkpoints.push(c)
                }
                Err(e) => return Ok((log, Some(LogError::Malformed { line: i + 1, message: line_error(line, e) }))),
            }
        }
        Ok((log, None))
    }

    /// Checkpoints strictly increasing, none past the last action, none before the first.
    pub fn check_checkpoints(&self) -> Result<(), LogError> {
        let mut last = 0;
        for cp in &self.checkpoints {
            let problem = if cp.checkpoint > self.actions.len() as u64 {
                format!("past the end ({} actions)", self.actions.len())
            } else if cp.checkpoint <= last {
                "out of order or repeated".to_string()
            } else {
                last = cp.checkpoint;
                continue;
            };
            return Err(LogError::Checkpoint { checkpoint: cp.checkpoint, problem });
        }
        Ok(())
    }

    /// The one replay verifier: replays the first `limit` actions from scratch, checking every
    /// checkpoint on the way, and calls `step(index, action, events, state)` after each action.
    /// Returns the last good state, how many actions it holds, and the first problem.
    fn run(
        &self,
        limit: usize,
        mut step: impl FnMut(usize, &Action, &[Event], &Match),
    ) -> (Match, usize, Option<LogError>) {
        let start = self.start();
        let (mut m, _) = match start {
            Ok(x) => x,
            Err(error) => {
                let (m, _) = Match::new(self.header.seed, RuleConfig::competition()).expect("default rules are valid");
                return (m, 0, Some(LogError::Rejected { index: 0, error }));
            }
        };
        if let Err(e) = self.check_checkpoints() {
            return (m, 0, Some(e));
        }
        let mut events = Vec::new();
        let mut cps = self.checkpoints.iter().peekable();
        for (index, a) in self.actions.iter().take(limit).enumerate() {
            events.clear();
            if let Err(error) = m.apply_into(a, &mut events) {
                return (m, index, Some(LogError::Rejected { index, error }));
            }
            if let Some(cp) = cps.next_if(|cp| cp.checkpoint == index as u64 + 1) {
                let actual = m.state_hash();
                if actual != cp.hash {
                    let e = LogError::HashMismatch { actions: cp.checkpoint, expected: cp.hash.clone(), actual };
                    return (m, index + 1, Some(e));
                }
            }
            step(index, a, &events, &m);
        }
        let n = limit.min(self.actions.len());
        (m, n, None)
    }

    /// Replays every action from scratch, checking every checkpoint, and calls
    /// `step(index, action, events, state)` after each: what every reader of records (CLI,
    /// game, server) verifies with.
    pub fn replay_with(&self, step: impl FnMut(usize, &Action, &[Event], &Match)) -> Result<Match, LogError> {
        match self.run(self.actions.len(), step) {
            (m, _, None) => Ok(m),
            (_, _, Some(e)) => Err(e),
        }
    }

    /// Replays every action from scratch and checks every checkpoint.
    pub fn replay(&self) -> Result<Match, LogError> {
        self.replay_with(|_, _, _, _| {})
    }

    /// The state after the first `n` actions (checkpoints up to there are checked).
    pub fn replay_to(&self, n: usize) -> Result<Match, LogError> {
        match self.run(n, |_, _, _, _| {}) {
            (m, _, None) => Ok(m),
            (_, _, Some(e)) => Err(e),
        }
    }

    /// Replays as far as the record is valid: the state, how many actions it holds, and the
    /// first problem (`None` when the whole record is good).
    pub fn recover(&self) -> (Match, usize, Option<LogError>) {
        self.run(self.actions.len(), |_, _, _, _| {})
    }

    /// The record cut after its first `n` actions, with the checkpoints up to there.
    pub fn truncated(&self, n: usize) -> MatchLog {
        let n = n.min(self.actions.len());
        MatchLog {
            header: self.header.clone(),
            actions: self.actions[..n].to_vec(),
            checkpoints: self.checkpoints.iter().filter(|c| c.checkpoint as usize <= n).cloned().collect(),
            think_ms: self.think_ms.iter().take(n).copied().collect(),
        }
    }
}
