//! How well L3's beliefs match the true hands: L2 plays whole matches at all four seats; at every
//! play decision, worlds are sampled from the deciding seat's beliefs with each inference on or
//! off, and the sampled frequency of "seat s holds rank r" (and "seat s holds a bomb") is
//! compared with the truth (Brier score: the mean squared gap between predicted probability
//! and what happened, 0 is perfect).

use crate::agent::{Weights, duty};
use crate::belief::{Inferences, holds_bomb, infer, sample_world};
use crate::l2::l2_decision;
use guandan_core::card::{Card, CardSet};
use guandan_core::combo::wild_set;
use guandan_core::game::{Match, Phase};
use guandan_core::rules::RuleConfig;
use guandan_core::seat::Seat;
use guandan_core::view::PlayerView;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use serde::Serialize;

/// The inferences measured one at a time, and all together.
pub fn variants() -> Vec<(&'static str, Inferences)> {
    let none = Inferences::NONE;
    vec![
        ("passes (v2)", Inferences { passes: true, ..none }),
        ("passes", Inferences { passes: true, passes_calibrated: true, ..none }),
        ("tribute", Inferences { tribute: true, ..none }),
        ("kept_groups", Inferences { kept_groups: true, ..none }),
        ("no_bomb", Inferences { no_bomb: true, ..none }),
        ("grouped", Inferences { grouped: true, ..none }),
        ("all", Inferences::ALL),
    ]
}

/// One inference's effect on the cells it changed.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Effect {
    pub name: String,
    /// (seat, rank) cells whose belief the inference moved away from "no evidence".
    pub cells: u64,
    /// Brier score on those cells without any inference, and with this one.
    pub brier_without: f64,
    pub brier_with: f64,
    /// Mean predicted probability and observed frequency on those cells.
    pub predicted: f64,
    pub observed: f64,
    /// The same for "holds a bomb", on seats the no-bomb inference marked.
    pub bomb_cells: u64,
    pub bomb_brier_without: f64,
    pub bomb_brier_with: f64,
    /// "Holds a bomb" on every hidden hand of the decisions this variant was measured at:
    /// Brier without and with, mean predicted and observed.
    pub any_bomb_cells: u64,
    pub any_bomb_brier_without: f64,
    pub any_bomb_brier_with: f64,
    pub any_bomb_predicted_without: f64,
    pub any_bomb_predicted: f64,
    pub any_bomb_observed: f64,
}

/// Predicted vs observed frequency in ten bins of predicted probability (all inferences on).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Bin {
    pub from: f64,
    pub cells: u64,
    pub predicted: f64,
    pub observed: f64,
}

#[derive(Clone, Debug, Default, Serialize)]
pub struct Calibration {
    pub deals: u32,
    pub decisions: u64,
    pub worlds: u32,
    pub seed: u64,
    pub effects: Vec<Effect>,
    pub reliability: Vec<Bin>,
}

/// Per (seat, rank): the fraction of worlds that give the seat that rank; per seat, a bomb.
fn frequencies(view: &PlayerView, on: Inferences, worlds: u32, seed: u64) -> ([[f64; 17]; 4], [f64; 4]) {
    let b = infer(view, on);
    let wilds = wild_set(view.level, &view.rules);
    let mut has = [[0.0f64; 17]; 4];
    let mut bomb = [0.0f64; 4];
    for w in 0..worlds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ (w as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let hands = sample_world(view, &b, &mut rng);
        for (s, h) in hands.iter().enumerate() {
            for r in ranks(*h) {
                has[s][r] += 1.0;
            }
            bomb[s] += f64::from(u8::from(holds_bomb(*h, wilds)));
        }
    }
    let n = f64::from(worlds.max(1));
    (has.map(|row| row.map(|x| x / n)), bomb.map(|x| x / n))
}

fn ranks(hand: CardSet) -> impl Iterator<Item = usize> {
    let mut seen = [false; 17];
    for id in hand.iter() {
        seen[Card::from_id(id).rank().0 as usize] = true;
    }
    (2..17).filter(move |&r| seen[r])
}

/// Plays `deals` deals (whole matches, so tributes happen) and measures every variant.
pub fn run(deals: u32, worlds: u32, seed: u64, rules: &RuleConfig) -> Calibration {
    let variants = variants();
    let mut effects: Vec<Effect> =
        variants.iter().map(|(name, _)| Effect { name: name.to_string(), ..Effect::default() }).collect();
    let mut bins: Vec<Bin> = (0..10).map(|i| Bin { from: i as f64 / 10.0, ..Bin::default() }).collect();
    let weights = Weights::default();
    let mut out = Calibration { worlds, seed, ..Calibration::default() };
    let mut game = 0u64;
    while out.deals < deals {
        let Ok((mut m, _)) = Match::new(seed.wrapping_add(game), rules.clone()) else { break };
        game += 1;
        let mut deal = m.deal_no();
        while out.deals < deals && m.outcome().is_none() && m.seq() < 20_000 {
            let Some(&seat) = m.to_act().first() else { break };
            let view = m.view(Some(seat));
            if duty(&view) == Some(Phase::Play) {
                out.decisions += 1;
                measure(&m, &view, &variants, worlds, seed ^ m.seq() ^ (game << 32), &mut effects, &mut bins);
            }
            let d = l2_decision(&view, &weights, false);
            let a = m.action(seat, d.action);
            if m.apply(&a).is_err() {
                break;
            }
            if m.deal_no() != deal {
                deal = m.deal_no();
                out.deals += 1;
            }
        }
    }
    for e in &mut effects {
        let n = e.cells.max(1) as f64;
        e.brier_without /= n;
        e.brier_with /= n;
        e.predicted /= n;
        e.observed /= n;
        let nb = e.bomb_cells.max(1) as f64;
        e.bomb_brier_without /= nb;
        e.bomb_brier_with /= nb;
        let na = e.any_bomb_cells.max(1) as f64;
        e.any_bomb_brier_without /= na;
        e.any_bomb_brier_with /= na;
        e.any_bomb_predicted /= na;
        e.any_bomb_predicted_without /= na;
        e.any_bomb_observed /= na;
    }
    for b in &mut bins {
        let n = b.cells.max(1) as f64;
        b.predicted /= n;
        b.observed /= n;
    }
    out.effects = effects;
    out.reliability = bins;
    out
}

fn measure(
    m: &Match,
    view: &PlayerView,
    variants: &[(&str, Inferences)],
    worlds: u32,
    seed: u64,
    effects: &mut [Effect],
    bins: &mut [Bin],
) {
    let me = view.seat.unwrap_or(Seat::ZERO).index();
    let wilds = wild_set(view.level, &view.rules);
    let unseen = CardSet::FULL.minus(view.hand).minus(view.played);
    let open: Vec<usize> = ranks(unseen).collect();
    let (base, base_bomb) = frequencies(view, Inferences::NONE, worlds, seed);
    let truth: Vec<[bool; 17]> = m
        .hands()
        .iter()
        .map(|h| {
            let mut t = [false; 17];
            for r in ranks(*h) {
                t[r] = true;
            }
            t
        })
        .collect();
    for ((_, on), e) in variants.iter().zip(effects.iter_mut()) {
        let b = infer(view, *on);
        let touched = b.grouped > 0.0 || (0..4).any(|s| s != me && (b.rank[s] != [1.0; 17] || b.no_bomb[s] > 0.0));
        let all = *on == Inferences::ALL;
        if !touched && !all {
            continue;
        }
        let (freq, bomb) = frequencies(view, *on, worlds, seed);
        for s in (0..4).filter(|&s| s != me && view.card_counts[s] > 0) {
            for &r in &open {
                let y = f64::from(u8::from(truth[s][r]));
                if all {
                    let i = ((freq[s][r] * 10.0) as usize).min(9);
                    bins[i].cells += 1;
                    bins[i].predicted += freq[s][r];
                    bins[i].observed += y;
                }
                if b.rank[s][r] == 1.0 && b.grouped == 0.0 {
                    continue;
                }
                e.cells += 1;
                e.brier_without += (base[s][r] - y).powi(2);
                e.brier_with += (freq[s][r] - y).powi(2);
                e.predicted += freq[s][r];
                e.observed += y;
            }
            let y = f64::from(u8::from(holds_bomb(m.hands()[s], wilds)));
            e.any_bomb_cells += 1;
            e.any_bomb_brier_without += (base_bomb[s] - y).powi(2);
            e.any_bomb_brier_with += (bomb[s] - y).powi(2);
            e.any_bomb_predicted += bomb[s];
            e.any_bomb_predicted_without += base_bomb[s];
            e.any_bomb_observed += y;
            if b.no_bomb[s] > 0.0 {
                e.bomb_cells += 1;
                e.bomb_brier_without += (base_bomb[s] - y).powi(2);
                e.bomb_brier_with += (bomb[s] - y).powi(2);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pass inference is measured on cells it touched, and it predicts them better than no
    /// inference (it is evidence, not noise); the reliability bins hold every open cell.
    #[test]
    fn the_pass_inference_is_informative() {
        let c = run(6, 24, 3, &RuleConfig::competition());
        assert_eq!(c.deals, 6);
        let passes = &c.effects[1];
        assert_eq!(passes.name, "passes");
        assert!(passes.cells > 100, "{passes:?}");
        assert!(passes.brier_with < passes.brier_without, "{passes:?}");
        assert!(c.reliability.iter().map(|b| b.cells).sum::<u64>() > passes.cells);
    }
}
