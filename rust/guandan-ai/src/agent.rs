//! The agent interface: a seat's view in, an action (and optionally its reasons) out.

use guandan_core::card::{Card, CardSet};
use guandan_core::combo::{Play, rank_order};
use guandan_core::game::{ActionKind, Match, Phase};
use guandan_core::view::PlayerView;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The design's hard limit on one decision: beyond it the decision falls back to L1.
pub const MAX_AI_DECISION_MS: u64 = 3000;

/// Difficulty levels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub enum AiLevel {
    L1,
    L2,
    L3,
}

impl AiLevel {
    pub fn parse(s: &str) -> Option<AiLevel> {
        match s {
            "L1" | "l1" | "1" | "easy" => Some(AiLevel::L1),
            "L2" | "l2" | "2" | "medium" => Some(AiLevel::L2),
            "L3" | "l3" | "3" | "hard" => Some(AiLevel::L3),
            _ => None,
        }
    }
}

/// Weights of the L2/L3 scoring (designers tune these in the `AiProfile` resource).
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct Weights {
    /// Weight of the remaining hand's quality.
    pub hand: f32,
    /// Weight of partner cooperation.
    pub partner: f32,
    /// Weight of the opponents' threat.
    pub threat: f32,
    /// Cost of one extra turn needed to empty the hand.
    pub turn_cost: f32,
    /// Value kept by holding a bomb.
    pub bomb_value: f32,
}

impl Default for Weights {
    fn default() -> Self {
        Weights { hand: 1.0, partner: 1.0, threat: 1.0, turn_cost: 1.0, bomb_value: 1.2 }
    }
}

/// How an agent plays: level, search budget, weights.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct AiProfile {
    pub level: AiLevel,
    /// L3 rollouts per decision (deterministic budget).
    pub iterations: u32,
    /// Optional wall-clock budget for L3 in ms (0 = iterations only; a time budget makes choices
    /// depend on machine speed, so replays of AI games record the actions, not the budget).
    pub budget_ms: u32,
    /// Worker threads an L3 search may use.
    pub threads: u32,
    pub weights: Weights,
    /// Record a trace of candidates and scores.
    pub trace: bool,
}

impl Default for AiProfile {
    fn default() -> Self {
        AiProfile {
            level: AiLevel::L2,
            iterations: 160,
            budget_ms: 0,
            threads: 1,
            weights: Weights::default(),
            trace: false,
        }
    }
}

impl AiProfile {
    pub fn level(level: AiLevel) -> Self {
        AiProfile { level, ..AiProfile::default() }
    }
}

/// One candidate's score and its parts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// `None` = pass (or the tribute/return card in `card`).
    pub play: Option<Play>,
    pub card: Option<u8>,
    pub score: f32,
    pub hand: f32,
    pub partner: f32,
    pub threat: f32,
    /// Mean outcome of L3 playouts, when searched.
    pub search: Option<f32>,
}

/// Why an agent chose what it chose.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub agent: String,
    pub candidates: Vec<Candidate>,
    /// A message key for the reason (localized in Godot), with arguments.
    pub reason: String,
    pub reason_args: Vec<String>,
    pub playouts: u32,
    pub fell_back: bool,
}

/// An agent's answer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Decision {
    pub action: ActionKind,
    pub trace: Option<Trace>,
}

/// Deadline and cancellation for one decision.
#[derive(Clone, Debug)]
pub struct Budget {
    pub start: Instant,
    pub soft: Option<Duration>,
    pub hard: Duration,
    pub cancel: Option<std::sync::Arc<std::sync::atomic::AtomicBool>>,
}

impl Budget {
    pub fn unlimited() -> Self {
        Budget { start: Instant::now(), soft: None, hard: Duration::from_millis(MAX_AI_DECISION_MS), cancel: None }
    }

    pub fn with_soft_ms(ms: u32) -> Self {
        Budget { soft: (ms > 0).then(|| Duration::from_millis(ms as u64)), ..Budget::unlimited() }
    }

    /// Past the hard limit or cancelled: stop now.
    pub fn must_stop(&self) -> bool {
        self.start.elapsed() >= self.hard
            || self.cancel.as_ref().is_some_and(|c| c.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Past the soft budget (only when a time budget was asked for).
    pub fn soft_expired(&self) -> bool {
        self.soft.is_some_and(|s| self.start.elapsed() >= s) || self.must_stop()
    }
}

/// A player: sees only its seat's view.
pub trait Agent: Send {
    fn name(&self) -> String;
    /// Decides for `view.seat` (which must be one of `view.to_act`).
    fn decide(&mut self, view: &PlayerView, rng: &mut ChaCha8Rng, budget: &Budget) -> Decision;
}

/// The legal plays of a view's seat (empty if it is not that seat's turn to play).
pub fn legal_plays(view: &PlayerView) -> guandan_core::movegen::MoveList {
    let table = view.table.as_ref().map(|t| &t.1);
    guandan_core::movegen::generate(view.hand, table, view.level, &view.rules)
}

/// Card order value for a single card under the view's level.
pub fn card_order(id: u8, view: &PlayerView) -> u8 {
    rank_order(Card::from_id(id).rank().0, view.level)
}

/// The forced part of tribute and return: choose among allowed cards by a preference (lower key
/// first). Returns `None` when nothing is owed.
pub fn pick_card(options: CardSet, key: impl Fn(u8) -> i64) -> Option<u8> {
    options.iter().min_by_key(|&id| (key(id), id))
}

/// What the view's seat must do now.
pub fn duty(view: &PlayerView) -> Option<Phase> {
    let seat = view.seat?;
    view.to_act.contains(&seat).then_some(view.phase)
}

/// Runs an agent on the seat that must act in `m` (a convenience for arenas and tests).
pub fn act(agent: &mut dyn Agent, m: &Match, rng: &mut ChaCha8Rng) -> Option<(u8, Decision)> {
    let seat = *m.to_act().first()?;
    let view = m.view(Some(seat));
    Some((seat, agent.decide(&view, rng, &Budget::unlimited())))
}
