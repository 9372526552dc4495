//! Self-play tuning of the L2/L3 weights: a (1+λ) evolution strategy in the duplicate arena.
//!
//! Each generation draws fresh duplicate deals, plays the parent and λ mutants (log-normal steps
//! on a few weights each) against a fixed opponent on those same deals, and keeps the best mutant
//! only if it beat the parent there. Everything is seeded: the same config gives the same result.

use crate::AiProfile;
use crate::agent::Weights;
use crate::arena::{self, ArenaConfig};
use guandan_core::rules::RuleConfig;
use rand_chacha::ChaCha8Rng;
use rand_core::{Rng, SeedableRng};
use serde::Serialize;

#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The profile whose weights are tuned (its starting weights are the first parent).
    pub start: AiProfile,
    /// The fixed opponent.
    pub opponent: AiProfile,
    pub rules: RuleConfig,
    /// Duplicate deals per evaluation (fresh deals every generation).
    pub deals: u32,
    pub generations: u32,
    /// Mutants per generation.
    pub children: u32,
    /// Log-normal step size.
    pub sigma: f32,
    pub seed: u64,
    pub threads: usize,
}

/// One generation's figures.
#[derive(Clone, Debug, Serialize)]
pub struct Generation {
    pub generation: u32,
    /// Parent's deal win rate against the opponent on this generation's deals.
    pub parent: f64,
    /// Best mutant's deal win rate on the same deals.
    pub best_child: f64,
    pub accepted: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct TuneReport {
    pub weights: Weights,
    pub generations: Vec<Generation>,
}

/// A standard normal draw (Box–Muller).
fn normal(rng: &mut ChaCha8Rng) -> f32 {
    let u1 = (rng.next_u32() as f64 + 1.0) / (u32::MAX as f64 + 2.0);
    let u2 = rng.next_u32() as f64 / u32::MAX as f64;
    ((-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()) as f32
}

/// A mutant: each weight moves with probability 1/4 (at least one moves), by a factor e^(σ·N).
fn mutate(w: &Weights, sigma: f32, rng: &mut ChaCha8Rng) -> Weights {
    let mut v = w.to_vec();
    let forced = (rng.next_u32() as usize) % v.len();
    for (i, x) in v.iter_mut().enumerate() {
        if i == forced || rng.next_u32().is_multiple_of(4) {
            *x *= (sigma * normal(rng)).exp();
        }
    }
    Weights::from_slice(&v).unwrap_or(*w)
}

fn win_rate(cfg: &TuneConfig, w: &Weights, seed: u64) -> f64 {
    let a = AiProfile { weights: *w, ..cfg.start.clone() };
    let arena = ArenaConfig {
        untimed: false,
        a,
        b: cfg.opponent.clone(),
        deals: cfg.deals,
        seed,
        rules: cfg.rules.clone(),
        threads: cfg.threads,
        matches: 0,
        a_oracle: false,
    };
    arena::run(&arena, &|_| {}).a_deal_win_rate
}

/// Runs the evolution; `progress` gets each generation as it finishes.
pub fn tune(cfg: &TuneConfig, progress: &dyn Fn(&Generation)) -> TuneReport {
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut parent = cfg.start.weights;
    let mut generations = Vec::new();
    for g in 0..cfg.generations {
        let deal_seed = cfg.seed.wrapping_mul(1_000_003).wrapping_add(g as u64);
        let parent_rate = win_rate(cfg, &parent, deal_seed);
        let mut best: Option<(f64, Weights)> = None;
        for _ in 0..cfg.children {
            let child = mutate(&parent, cfg.sigma, &mut rng);
            let r = win_rate(cfg, &child, deal_seed);
            if best.is_none_or(|(b, _)| r > b) {
                best = Some((r, child));
            }
        }
        let (best_rate, child) = best.unwrap_or((0.0, parent));
        let accepted = best_rate > parent_rate;
        if accepted {
            parent = child;
        }
        let gen_ = Generation { generation: g, parent: parent_rate, best_child: best_rate, accepted };
        progress(&gen_);
        generations.push(gen_);
    }
    TuneReport { weights: parent, generations }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::AiLevel;

    #[test]
    fn mutants_stay_finite_and_differ() {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let w = Weights::V1;
        for _ in 0..50 {
            let m = mutate(&w, 0.3, &mut rng);
            assert!(m.to_vec().iter().all(|x| x.is_finite() && *x > 0.0));
            assert_ne!(m, w);
        }
    }

    #[test]
    fn tuning_is_reproducible() {
        let cfg = TuneConfig {
            start: AiProfile::v1(AiLevel::L2),
            opponent: AiProfile::v1(AiLevel::L2),
            rules: RuleConfig::competition(),
            deals: 4,
            generations: 2,
            children: 2,
            sigma: 0.3,
            seed: 3,
            threads: 2,
        };
        let (a, b) = (tune(&cfg, &|_| {}), tune(&cfg, &|_| {}));
        assert_eq!(a.weights, b.weights);
        assert_eq!(a.generations.len(), 2);
    }
}
