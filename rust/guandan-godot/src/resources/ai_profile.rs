//! The `AiProfile` resource (`AiProfileRes`): how an AI seat plays and how the move advisor
//! weighs hints, edited in the inspector; [`profile_from_parts`] checks the inspector's values.

use godot::classes::{IResource, Resource};
use godot::prelude::*;
use guandan_ai::agent::{AiLevel, Weights};

use crate::codes::Fail;

/// The defaults of a level as the game numbers them: 1–3 are L1–L3, 4 the desktop level `L4`
/// (L3's search on 2 threads with a larger budget, `AiProfile::desktop`); `None` otherwise.
pub fn level_defaults(level: i64) -> Option<guandan_ai::AiProfile> {
    match level {
        1 => Some(guandan_ai::AiProfile::level(AiLevel::L1)),
        2 => Some(guandan_ai::AiProfile::level(AiLevel::L2)),
        3 => Some(guandan_ai::AiProfile::level(AiLevel::L3)),
        4 => Some(guandan_ai::AiProfile::desktop()),
        _ => None,
    }
}

/// An AI profile from inspector values: `level` 1–4, budgets non-negative, 1–16 threads,
/// finite weights.
pub fn profile_from_parts(
    level: i64,
    iterations: i64,
    budget_ms: i64,
    threads: i64,
    weights: [f64; 5],
    trace: bool,
) -> Result<guandan_ai::AiProfile, String> {
    let base = level_defaults(level).ok_or_else(|| format!("level = {level} is not 1, 2, 3 or 4"))?;
    let iterations = u32::try_from(iterations).map_err(|_| format!("iterations = {iterations} is out of range"))?;
    let budget_ms = u32::try_from(budget_ms).map_err(|_| format!("budget_ms = {budget_ms} is out of range"))?;
    if !(1..=16).contains(&threads) {
        return Err(format!("threads = {threads} is not in 1..16"));
    }
    if let Some(w) = weights.iter().find(|w| !w.is_finite()) {
        return Err(format!("weight {w} is not a finite number"));
    }
    let [hand, partner, threat, turn_cost, bomb_value] = weights.map(|w| w as f32);
    Ok(guandan_ai::AiProfile {
        iterations,
        budget_ms,
        threads: threads as u32,
        weights: Weights { hand, partner, threat, turn_cost, bomb_value, ..Weights::default() },
        trace,
        ..base
    })
}

/// How an AI seat plays (and how the move advisor weighs hints), editable in the inspector and
/// saved as `.tres` (`res://resources/ai/{easy,medium,hard}.tres`).
#[derive(GodotClass)]
#[class(tool, base = Resource, rename = AiProfile)]
pub struct AiProfileRes {
    base: Base<Resource>,
    /// Difficulty: 1 easy (smallest legal play), 2 medium (hand planning), 3 hard (search),
    /// 4 expert (the desktop level: L3's search on 2 threads, a larger budget).
    #[export(enum = (L1 = 1, L2 = 2, L3 = 3, L4 = 4))]
    level: i64,
    /// L3 playouts per decision (a deterministic budget).
    #[export(range = (0.0, 100000.0, or_greater))]
    iterations: i64,
    /// Optional wall-clock budget per decision in ms (0 = iterations only). Whatever it says,
    /// the engine's `ai_hard_limit_ms` (at most 3000) cuts a decision short.
    #[export(range = (0.0, 3000.0, or_greater, suffix = "ms"))]
    budget_ms: i64,
    /// Threads an L3 search may use.
    #[export(range = (1.0, 16.0))]
    threads: i64,
    /// Weight of the remaining hand's quality.
    #[export]
    #[export_group(name = "Weights", prefix = "weight_")]
    weight_hand: f64,
    /// Weight of partner cooperation.
    #[export]
    weight_partner: f64,
    /// Weight of the opponents' threat.
    #[export]
    weight_threat: f64,
    /// Cost of one extra turn needed to empty the hand.
    #[export]
    weight_turn_cost: f64,
    /// Value of keeping a bomb.
    #[export]
    weight_bomb_value: f64,
    /// Hints are offered with this profile (used by `MoveAdvisor`).
    #[export]
    #[export_group(name = "")]
    hint_enabled: bool,
    /// Keep the AI's reasoning (candidates, scores, reason) for the debug overlay
    /// (`MoveAdvisor.ai_trace`).
    #[export]
    debug: bool,
}

#[godot_api]
impl IResource for AiProfileRes {
    fn init(base: Base<Resource>) -> Self {
        let mut p = AiProfileRes {
            base,
            level: 2,
            iterations: 0,
            budget_ms: 0,
            threads: 1,
            weight_hand: 0.0,
            weight_partner: 0.0,
            weight_threat: 0.0,
            weight_turn_cost: 0.0,
            weight_bomb_value: 0.0,
            hint_enabled: true,
            debug: false,
        };
        p.set_profile(&guandan_ai::AiProfile::default());
        p
    }
}

#[godot_api]
impl AiProfileRes {
    /// A new profile with the defaults of a level (1–4); null and a warning otherwise.
    #[func]
    pub fn for_level(level: i64) -> Option<Gd<AiProfileRes>> {
        let Some(profile) = level_defaults(level) else {
            godot_warn!("AiProfile.for_level: level {level} is not 1, 2, 3 or 4");
            return None;
        };
        let mut gd = AiProfileRes::new_gd();
        gd.bind_mut().set_profile(&profile);
        // The desktop level is L3's search; the resource keeps the level it was made for.
        gd.bind_mut().level = level;
        Some(gd)
    }

    /// `""` when the profile is valid, else a message naming the bad value.
    #[func]
    pub fn validate(&self) -> GString {
        match self.profile() {
            Ok(_) => GString::new(),
            Err(e) => GString::from(e.message.as_str()),
        }
    }
}

impl AiProfileRes {
    pub fn profile(&self) -> Result<guandan_ai::AiProfile, Fail> {
        profile_from_parts(
            self.level,
            self.iterations,
            self.budget_ms,
            self.threads,
            [self.weight_hand, self.weight_partner, self.weight_threat, self.weight_turn_cost, self.weight_bomb_value],
            self.debug,
        )
        .map_err(|e| Fail::bad_argument(format!("AiProfile: {e}")))
    }

    pub fn hint_enabled(&self) -> bool {
        self.hint_enabled
    }

    pub fn set_profile(&mut self, p: &guandan_ai::AiProfile) {
        self.level = match p.level {
            AiLevel::L1 => 1,
            AiLevel::L2 => 2,
            AiLevel::L3 => 3,
        };
        self.iterations = p.iterations.into();
        self.budget_ms = p.budget_ms.into();
        self.threads = p.threads.into();
        self.weight_hand = p.weights.hand.into();
        self.weight_partner = p.weights.partner.into();
        self.weight_threat = p.weights.threat.into();
        self.weight_turn_cost = p.weights.turn_cost.into();
        self.weight_bomb_value = p.weights.bomb_value.into();
        self.debug = p.trace;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn profiles_are_validated() {
        let w = [1.0; 5];
        assert_eq!(profile_from_parts(2, 160, 0, 1, w, false).unwrap().level, AiLevel::L2);
        assert!(profile_from_parts(0, 160, 0, 1, w, false).unwrap_err().contains("level"));
        assert!(profile_from_parts(1, -1, 0, 1, w, false).unwrap_err().contains("iterations"));
        assert!(profile_from_parts(1, 1, 0, 0, w, false).unwrap_err().contains("threads"));
        assert!(profile_from_parts(1, 1, 0, 1, [f64::NAN; 5], false).is_err());
        assert!(profile_from_parts(5, 160, 0, 1, w, false).unwrap_err().contains("level"));
    }

    /// Level 4 is the desktop level: L3's search with its larger work cap; the inspector's
    /// playouts and threads still rule.
    #[test]
    fn level_4_is_the_desktop_level() {
        let l4 = guandan_ai::AiProfile::desktop();
        let w = Weights::default();
        let inspector = [w.hand, w.partner, w.threat, w.turn_cost, w.bomb_value].map(f64::from);
        let p = profile_from_parts(4, l4.iterations.into(), 0, l4.threads.into(), inspector, false).unwrap();
        assert_eq!(p, l4);
        assert_eq!(p.level, AiLevel::L3);
        let fewer = profile_from_parts(4, 100, 0, 1, inspector, false).unwrap();
        assert_eq!((fewer.iterations, fewer.threads, fewer.search), (100, 1, l4.search));
        assert_ne!(level_defaults(3).unwrap().search, l4.search);
    }
}
