//! The agent interface: a seat's view in, an action (and optionally its reasons) out.

use guandan_core::card::{Card, CardId, CardSet};
use guandan_core::combo::{Play, rank_order};
use guandan_core::game::{ActionKind, Match, Phase, Seat};
use guandan_core::view::PlayerView;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};
use std::time::{Duration, Instant};

/// The design's hard limit on one decision: beyond it the decision falls back to L1.
pub const MAX_AI_DECISION_MS: u64 = 3000;

/// The desktop level's worker threads ([`AiProfile::desktop`]).
pub const DESKTOP_THREADS: u32 = 2;
/// The desktop level's budget in multiples of L3's (playouts and work cap).
pub const DESKTOP_WORK: u32 = 6;

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
    /// Bonus for passing while the partner wins the trick.
    pub pass_partner: f32,
    /// Cost of passing while an opponent who is close to out keeps the lead (× danger).
    pub pass_danger: f32,
    /// Cost of overtaking a partner who wins the trick.
    pub overtake: f32,
    /// Extra cost of overtaking the partner with a bomb.
    pub overtake_bomb: f32,
    /// Extra cost of overtaking a partner holding three cards or fewer.
    pub overtake_close: f32,
    /// Bonus for leading a low single (pair) to a partner holding one (two) cards.
    pub feed: f32,
    /// Cost of leading a group of the size an opponent can go out on.
    pub lead_risk: f32,
    /// Bonus for taking the lead back from an opponent.
    pub take_lead: f32,
    /// Extra bonus for taking the lead back from an opponent close to out (× danger).
    pub take_lead_danger: f32,
    /// Bonus for bombing an opponent close to out (× danger).
    pub bomb_danger: f32,
    /// Cost of spending a bomb at all.
    pub bomb_cost: f32,
}

impl Weights {
    /// The weights L2 played with before self-play tuning (issue 11): `AiProfile::v1`.
    pub const V1: Weights = Weights {
        hand: 1.0,
        partner: 1.0,
        threat: 1.0,
        turn_cost: 1.0,
        bomb_value: 1.2,
        pass_partner: 0.6,
        pass_danger: 1.5,
        overtake: 1.5,
        overtake_bomb: 3.0,
        overtake_close: 2.0,
        feed: 1.2,
        lead_risk: 1.5,
        take_lead: 0.4,
        take_lead_danger: 1.5,
        bomb_danger: 2.0,
        bomb_cost: 0.3,
    };

    /// The weights as a vector (for tuning), in field order.
    pub fn to_vec(&self) -> Vec<f32> {
        vec![
            self.hand,
            self.partner,
            self.threat,
            self.turn_cost,
            self.bomb_value,
            self.pass_partner,
            self.pass_danger,
            self.overtake,
            self.overtake_bomb,
            self.overtake_close,
            self.feed,
            self.lead_risk,
            self.take_lead,
            self.take_lead_danger,
            self.bomb_danger,
            self.bomb_cost,
        ]
    }

    /// The inverse of [`Weights::to_vec`]; `None` unless exactly 16 finite values.
    pub fn from_slice(v: &[f32]) -> Option<Weights> {
        let &[
            hand,
            partner,
            threat,
            turn_cost,
            bomb_value,
            pass_partner,
            pass_danger,
            overtake,
            overtake_bomb,
            overtake_close,
            feed,
            lead_risk,
            take_lead,
            take_lead_danger,
            bomb_danger,
            bomb_cost,
        ] = v
        else {
            return None;
        };
        v.iter().all(|x| x.is_finite()).then_some(Weights {
            hand,
            partner,
            threat,
            turn_cost,
            bomb_value,
            pass_partner,
            pass_danger,
            overtake,
            overtake_bomb,
            overtake_close,
            feed,
            lead_risk,
            take_lead,
            take_lead_danger,
            bomb_danger,
            bomb_cost,
        })
    }
}

impl Weights {
    /// Tuned by self-play against `V1` (issue 11); regenerate with
    /// `guandan tune --start L2v1 --opponent L2v1 --deals 400 --generations 30 --children 8 --seed 1
    /// --out rust/guandan-ai/tuning/l2.json` (about 7 minutes on one core; the result does not
    /// depend on `--threads`).
    pub const TUNED: Weights = Weights {
        hand: 1.3657826,
        partner: 1.5915003,
        threat: 1.7299471,
        turn_cost: 3.1215277,
        bomb_value: 1.3982915,
        pass_partner: 1.765635,
        pass_danger: 1.8485994,
        overtake: 0.172044,
        overtake_bomb: 0.7836779,
        overtake_close: 1.7616055,
        feed: 1.0337847,
        lead_risk: 1.4302112,
        take_lead: 1.1098993,
        take_lead_danger: 1.2352057,
        bomb_danger: 15.339736,
        bomb_cost: 0.6797176,
    };
}

impl Default for Weights {
    fn default() -> Self {
        Weights::TUNED
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
    /// How L3 searches (each improvement of issue 11 is a switch here).
    pub search: SearchConfig,
    /// L2 only: rank play decisions by L2's score plus the learned ranker's correction (issue
    /// 40: `L2+`, the default L2 since it measured stronger; off in `v1`/`v2`, the arena's `L2v2`).
    pub ranker: bool,
    /// Which committed ranker generation the ranker switches use (`ranker::agent::generation`:
    /// 1 = `ranker-g1`; 0 = today's, `ranker::agent::DEFAULT`).
    pub ranker_generation: u8,
}

/// L3's search switches. `SearchConfig::V1` is the search as it was before issue 11.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct SearchConfig {
    /// Candidates searched (the L2 top few).
    pub width: u32,
    /// Weight of the L2 score against the playout mean.
    pub prior: f32,
    /// Successive halving: all `width` candidates share the first worlds, the better half goes on
    /// to the next round, and so on (the same total playouts as a flat split).
    pub halving: bool,
    /// A cap on the work of one decision, in cards: each playout costs the number of cards still
    /// in hand when it starts (0 = no cap). Full hands then get fewer worlds than endgames, so
    /// the slowest decisions stay bounded while `iterations` caps the rest. Counted, not timed.
    pub work: u32,
    /// The inferences about hidden hands that shape the sampled worlds (`belief.rs`).
    pub infer: crate::belief::Inferences,
    /// Exact endgames: a world with at most this many cards left in play after a candidate is
    /// solved to the end of the deal (`endgame::solve`, within `endgame_nodes` positions)
    /// instead of played out by L2 (0 = off).
    pub endgame_cards: u32,
    /// The solver's node budget per world; past it the world is played out as before.
    pub endgame_nodes: u64,
    /// Search the pass and the best bomb too when they are not among L2's best `width`.
    pub keep_pass_and_bomb: bool,
    /// Levels added to a playout won (taken from one lost) on top of its level outcome: the
    /// search then values winning the deal itself, not only by how much. Keep it a multiple of
    /// 1/4 so outcome sums stay exact whatever the threads (0 = levels only).
    pub win_bonus: f32,
    /// Playouts choose among L2's candidates at random, each weighted by how close its score is
    /// to the best (weight 1 − gap / temperature, none past it), from a generator seeded by the
    /// world: playouts see more than L2's one line (0 = L2's best, as before).
    pub rollout_temperature: f32,
    /// Playouts rank each seat's choice by the learned ranker (L2's best 8 re-scored, as `L2+`
    /// plays) instead of L2's score (issue 40; off = L2, as before).
    pub rollout_ranker: bool,
    /// With `rollout_ranker`: only the first this many plies of a playout are the ranker's, the
    /// rest L2's (0 = every ply). The early plies are where the lines part; the ranker costs
    /// more than a world's whole L2 playout.
    pub rollout_ranker_plies: u32,
    /// The learned ranker orders the candidates and scores the prior: L3 searches the ranker's
    /// best `width` (a candidate filter when `width` is below L2+'s 8) and blends each mean with
    /// L2's score plus the ranker's correction instead of L2's alone (issue 40; off = L2's).
    pub prior_ranker: bool,
}

impl SearchConfig {
    pub const V1: SearchConfig = SearchConfig {
        width: 4,
        prior: 0.15,
        halving: false,
        work: 0,
        infer: crate::belief::Inferences { tribute: false, ..crate::belief::Inferences::V2 },
        endgame_cards: 0,
        endgame_nodes: 0,
        keep_pass_and_bomb: false,
        win_bonus: 0.0,
        rollout_temperature: 0.0,
        rollout_ranker: false,
        rollout_ranker_plies: 0,
        prior_ranker: false,
    };
}

impl SearchConfig {
    /// The search as it was before issue 25 (the arena's `L3v2`).
    pub const V2: SearchConfig = SearchConfig {
        width: 8,
        prior: 0.15,
        halving: true,
        work: 16_000,
        infer: crate::belief::Inferences::V2,
        endgame_cards: 0,
        endgame_nodes: 20_000,
        keep_pass_and_bomb: false,
        win_bonus: 0.0,
        rollout_temperature: 0.0,
        rollout_ranker: false,
        rollout_ranker_plies: 0,
        prior_ranker: false,
    };
}

impl SearchConfig {
    /// Today's L3 (issue 40): the learned ranker picks the 4 candidates searched and scores the
    /// prior; each gets twice the worlds of V2's 8. Measured against V2 (`L3v3`) on 200
    /// duplicate deals of two seeds: 55.5 % of deals, +0.60 levels a deal, where the same
    /// width by L2's order loses (docs/ai.md, "L3 with the ranker").
    pub const V4: SearchConfig = SearchConfig { width: 4, prior_ranker: true, ..SearchConfig::V2 };
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig::V4
    }
}

impl Default for AiProfile {
    fn default() -> Self {
        AiProfile {
            level: AiLevel::L2,
            iterations: 400,
            budget_ms: 0,
            threads: 1,
            weights: Weights::default(),
            trace: false,
            search: SearchConfig::default(),
            ranker: true,
            ranker_generation: 0,
        }
    }
}

impl AiProfile {
    pub fn level(level: AiLevel) -> Self {
        AiProfile { level, ..AiProfile::default() }
    }

    /// The agent of that level as it played before issue 11 (the arena's `L2v1`, `L3v1`).
    pub fn v1(level: AiLevel) -> Self {
        AiProfile {
            level,
            iterations: 160,
            weights: Weights::V1,
            search: SearchConfig::V1,
            ranker: false,
            ..AiProfile::default()
        }
    }

    /// The desktop level above L3 (the arena's, the bench's and the game's `L4`, issue 56): L3's
    /// search, its worlds split over [`DESKTOP_THREADS`] worker threads, with [`DESKTOP_WORK`]
    /// times L3's playouts and work cap. Still a fixed amount of work, never a clock: the worlds
    /// are seeded by their index and the outcome sums are exact, so a decision is the same
    /// whatever the threads and their timing (tested); the threads only make it arrive sooner.
    pub fn desktop() -> Self {
        let l3 = AiProfile::level(AiLevel::L3);
        AiProfile {
            iterations: l3.iterations * DESKTOP_WORK,
            threads: DESKTOP_THREADS,
            search: SearchConfig { work: l3.search.work * DESKTOP_WORK, ..l3.search },
            ..l3
        }
    }

    /// L3 with its budget times `scale` (playouts and work cap together; the candidates
    /// searched and their split unchanged): the budget curve of docs/ai.md.
    pub fn l3_scaled(scale: f32) -> Self {
        let l3 = AiProfile::level(AiLevel::L3);
        let times = |n: u32| ((n as f32 * scale).round() as u32).max(1);
        AiProfile {
            iterations: times(l3.iterations),
            search: SearchConfig { work: times(l3.search.work), ..l3.search },
            ..l3
        }
    }

    /// The agent of that level as it played before issue 25 and L2 and L3 before issue 40's
    /// ranker (the arena's `L2v2`, `L3v2`; `L3v3` is the same L3).
    pub fn v2(level: AiLevel) -> Self {
        AiProfile {
            level,
            iterations: 400,
            weights: Weights::TUNED,
            search: SearchConfig::V2,
            ranker: false,
            ..AiProfile::default()
        }
    }
}

/// One candidate's score and its parts.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Candidate {
    /// `None` = pass (or the tribute/return card in `card`).
    pub play: Option<Play>,
    pub card: Option<CardId>,
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
    /// Candidate evaluations in sampled worlds, and how many of them the exact endgame solver
    /// decided (the rest were played out).
    #[serde(default)]
    pub evaluations: u32,
    #[serde(default)]
    pub solved: u32,
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

    /// No time limit at all, not even the hard one: the decision depends on the work asked for
    /// only (tests counting playouts or comparing decisions, where a loaded machine must not cut
    /// a search short; never for a live table).
    pub fn untimed() -> Self {
        Budget { hard: Duration::MAX, ..Budget::unlimited() }
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
pub fn card_order(id: CardId, view: &PlayerView) -> u8 {
    rank_order(Card::from_id(id).rank().0, view.level)
}

/// The forced part of tribute and return: choose among allowed cards by a preference (lower key
/// first). Returns `None` when nothing is owed.
pub fn pick_card(options: CardSet, key: impl Fn(CardId) -> i64) -> Option<CardId> {
    options.iter().min_by_key(|&id| (key(id), id))
}

/// What the view's seat must do now.
pub fn duty(view: &PlayerView) -> Option<Phase> {
    let seat = view.seat?;
    view.to_act.contains(&seat).then_some(view.phase)
}

/// Runs an agent on the seat that must act in `m` (a convenience for arenas and tests).
pub fn act(agent: &mut dyn Agent, m: &Match, rng: &mut ChaCha8Rng) -> Option<(Seat, Decision)> {
    let seat = *m.to_act().first()?;
    let view = m.view(Some(seat));
    Some((seat, agent.decide(&view, rng, &Budget::unlimited())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn weights_round_trip_through_a_vector() {
        for w in [Weights::V1, Weights::TUNED] {
            assert_eq!(Weights::from_slice(&w.to_vec()), Some(w));
        }
        assert_eq!(Weights::from_slice(&[1.0; 15]), None);
        let mut v = Weights::V1.to_vec();
        v[3] = f32::NAN;
        assert_eq!(Weights::from_slice(&v), None);
    }

    /// Every profile of the ablation (`tools/ai-ablation`) reads as an L3 profile that differs
    /// from L3v3, the search the rows are measured against (a row that changed nothing would
    /// measure nothing), and states the switches in which today's default search differs from
    /// L3v3's, so that a later default does not change what a row measured. One that uses the
    /// ranker names the generation it was measured with.
    #[test]
    fn ablation_profiles_are_l3_variants() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tuning/ablation");
        let mut n = 0;
        for entry in std::fs::read_dir(dir).expect("the ablation directory") {
            let path = entry.unwrap().path();
            let text = std::fs::read_to_string(&path).unwrap();
            let p: AiProfile = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path:?}: {e}"));
            assert_eq!(p.level, AiLevel::L3, "{path:?}");
            assert_ne!(p, AiProfile::v2(AiLevel::L3), "{path:?} changes nothing");
            let raw: serde_json::Value = serde_json::from_str(&text).unwrap();
            for key in ["width", "prior_ranker"] {
                assert!(raw["search"].get(key).is_some(), "{path:?} does not say its search.{key}");
            }
            if p.search.prior_ranker || p.search.rollout_ranker {
                assert!(p.ranker_generation > 0, "{path:?} does not say its ranker generation");
            }
            n += 1;
        }
        assert!(n >= 4);
        // Both keys are all there is between the two searches.
        let today = SearchConfig::default();
        assert_eq!(SearchConfig { width: today.width, prior_ranker: today.prior_ranker, ..SearchConfig::V2 }, today);
    }

    #[test]
    fn v2_profiles_keep_the_agents_before_issue_25() {
        for level in [AiLevel::L2, AiLevel::L3] {
            let p = AiProfile::v2(level);
            assert_eq!((p.iterations, p.weights, p.search), (400, Weights::TUNED, SearchConfig::V2));
        }
        assert_eq!(SearchConfig::V2.infer, crate::belief::Inferences::V2);
        assert_eq!(SearchConfig::V2.endgame_cards, 0);
    }

    /// L4 is L3's search with more threads and `DESKTOP_WORK` times the playouts and work cap,
    /// nothing else; `l3_scaled` moves the two budget numbers together and nothing else.
    #[test]
    fn the_desktop_level_is_l3_with_more_work_and_threads() {
        let (l3, l4) = (AiProfile::level(AiLevel::L3), AiProfile::desktop());
        const { assert!(DESKTOP_THREADS >= 2 && DESKTOP_WORK > 1) };
        assert_eq!(
            (l4.iterations, l4.search.work, l4.threads),
            (l3.iterations * DESKTOP_WORK, l3.search.work * DESKTOP_WORK, DESKTOP_THREADS)
        );
        let back = AiProfile {
            iterations: l3.iterations,
            threads: l3.threads,
            search: SearchConfig { work: l3.search.work, ..l4.search },
            ..l4.clone()
        };
        assert_eq!(back, l3);
        assert_eq!(AiProfile::l3_scaled(1.0), l3);
        let half = AiProfile::l3_scaled(0.5);
        assert_eq!((half.iterations, half.search.work), (l3.iterations / 2, l3.search.work / 2));
        assert_eq!(AiProfile { iterations: l3.iterations, search: l3.search, ..half }, l3);
        let x25 = AiProfile::l3_scaled(2.5);
        assert_eq!((x25.iterations, x25.search.work), (1000, 40_000));
    }

    /// The candidate budgets measured for issue 56 (`tuning/budget/l3-xN.json`) are today's L3
    /// at N times its budget, with the ranker generation they were measured with named.
    #[test]
    fn budget_profiles_are_scaled_l3() {
        let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tuning/budget");
        let mut n = 0;
        for entry in std::fs::read_dir(dir).expect("the budget directory") {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_str().unwrap().to_owned();
            let scale: f32 = name.strip_prefix("l3-x").and_then(|x| x.parse().ok()).expect("named l3-xN.json");
            let p: AiProfile = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            assert!(p.ranker_generation > 0, "{name} does not say its ranker generation");
            assert_eq!(
                p,
                AiProfile { ranker_generation: p.ranker_generation, ..AiProfile::l3_scaled(scale) },
                "{name}"
            );
            n += 1;
        }
        assert!(n >= 2);
    }

    #[test]
    fn v1_profiles_keep_the_agents_before_tuning() {
        let p = AiProfile::v1(AiLevel::L3);
        assert_eq!((p.iterations, p.weights, p.search), (160, Weights::V1, SearchConfig::V1));
        assert_ne!(AiProfile::level(AiLevel::L3), p);
    }
}
