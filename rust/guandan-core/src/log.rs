//! The action log: seed + rules + actions, saved as versioned JSON Lines. Replaying it from scratch
//! reproduces the match exactly; state hashes recorded after every deal are checked on replay.
//!
//! File layout: line 1 is the header `{"version":1,"seed":…,"rules":{…}}`; each further line is
//! either an action `{"seq":…,"seat":…,"type":…}` or a checkpoint `{"checkpoint":seq,"hash":"…"}`.
//! A truncated or damaged tail can be recovered up to the last valid line.

use crate::game::{Action, Event, Match, RuleError};
use crate::rules::RuleConfig;
use serde::{Deserialize, Serialize};

/// Current save format version.
pub const LOG_VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    pub version: u32,
    pub seed: u64,
    pub rules: RuleConfig,
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
    Version(u32),
    #[error("action {index} rejected: {error}")]
    Rejected { index: usize, error: RuleError },
    #[error("hash mismatch after {actions} actions: log says {expected}, replay gives {actual}")]
    HashMismatch { actions: u64, expected: String, actual: String },
}

impl LogError {
    /// Error code for hosts (Godot, CLI): 20 + kind.
    pub fn code(&self) -> i32 {
        match self {
            LogError::Empty => 20,
            LogError::Malformed { .. } => 21,
            LogError::Version(_) => 22,
            LogError::Rejected { .. } => 23,
            LogError::HashMismatch { .. } => 24,
        }
    }
}

/// A match's record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchLog {
    pub header: Header,
    pub actions: Vec<Action>,
    pub checkpoints: Vec<Checkpoint>,
}

/// Upgrades an older header/line to the current format. Version 1 is the first; later versions
/// add their conversions here.
fn migrate(header: serde_json::Value) -> Result<serde_json::Value, LogError> {
    let v = header.get("version").and_then(|v| v.as_u64()).unwrap_or(0) as u32;
    match v {
        LOG_VERSION => Ok(header),
        other => Err(LogError::Version(other)),
    }
}

impl MatchLog {
    pub fn new(seed: u64, rules: RuleConfig) -> Self {
        MatchLog { header: Header { version: LOG_VERSION, seed, rules }, actions: Vec::new(), checkpoints: Vec::new() }
    }

    /// Records an applied action; adds a checkpoint when the action ended a deal or the match.
    pub fn record(&mut self, action: &Action, events: &[Event], state: &Match) {
        self.actions.push(action.clone());
        if events.iter().any(|e| matches!(e, Event::DealEnded { .. } | Event::MatchEnded { .. })) {
            self.checkpoints.push(Checkpoint { checkpoint: self.actions.len() as u64, hash: state.state_hash() });
        }
    }

    pub fn to_jsonl(&self) -> String {
        let mut out = serde_json::to_string(&self.header).unwrap_or_default();
        out.push('\n');
        let mut cps = self.checkpoints.iter().peekable();
        for (i, a) in self.actions.iter().enumerate() {
            out.push_str(&serde_json::to_string(a).unwrap_or_default());
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
        let mut log = MatchLog { header, actions: Vec::new(), checkpoints: Vec::new() };
        for (i, line) in lines {
            match serde_json::from_str::<Line>(line) {
                Ok(Line::Action(a)) => log.actions.push(a),
                Ok(Line::Checkpoint(c)) => log.checkpoints.push(c),
                Err(e) => return Ok((log, Some(LogError::Malformed { line: i + 1, message: e.to_string() }))),
            }
        }
        Ok((log, None))
    }

    /// Replays every action from scratch and checks every checkpoint.
    pub fn replay(&self) -> Result<Match, LogError> {
        self.replay_to(self.actions.len())
    }

    /// The state after the first `n` actions (checkpoints up to there are checked).
    pub fn replay_to(&self, n: usize) -> Result<Match, LogError> {
        let (mut m, _) = Match::new(self.header.seed, self.header.rules.clone())
            .map_err(|error| LogError::Rejected { index: 0, error })?;
        let mut events = Vec::new();
        let mut cps = self.checkpoints.iter().peekable();
        for (index, a) in self.actions.iter().take(n).enumerate() {
            events.clear();
            m.apply_into(a, &mut events).map_err(|error| LogError::Rejected { index, error })?;
            while let Some(cp) = cps.next_if(|cp| cp.checkpoint <= index as u64 + 1) {
                if cp.checkpoint == index as u64 + 1 {
                    let actual = m.state_hash();
                    if actual != cp.hash {
                        return Err(LogError::HashMismatch {
                            actions: cp.checkpoint,
                            expected: cp.hash.clone(),
                            actual,
                        });
                    }
                }
            }
        }
        Ok(m)
    }

    /// Replays as far as the actions are valid: the state and how many actions it holds.
    pub fn recover(&self) -> (Match, usize, Option<LogError>) {
        let (mut m, _) = match Match::new(self.header.seed, self.header.rules.clone()) {
            Ok(x) => x,
            Err(error) => {
                let (m, _) = Match::new(self.header.seed, RuleConfig::competition()).expect("default rules are valid");
                return (m, 0, Some(LogError::Rejected { index: 0, error }));
            }
        };
        for (index, a) in self.actions.iter().enumerate() {
            if let Err(error) = m.apply(a) {
                return (m, index, Some(LogError::Rejected { index, error }));
            }
        }
        (m, self.actions.len(), None)
    }
}
