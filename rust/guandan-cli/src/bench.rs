//! `guandan bench`: decision times of each AI level and the advisor on seeded random positions.
//! Criterion benches (`cargo bench`) measure the rules core; this measures what players wait for.

use guandan_ai::agent::Budget;
use guandan_ai::{AiLevel, AiProfile, advisor, make_agent};
use guandan_core::game::{Match, Phase};
use guandan_core::rules::RuleConfig;
use guandan_core::sim::random_action;
use guandan_core::view::PlayerView;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;
use std::time::Instant;

/// Play-phase views from random matches, at every stage of a deal.
fn positions(n: usize, seed: u64) -> Vec<PlayerView> {
    let mut out = Vec::with_capacity(n);
    let mut g = 0u64;
    while out.len() < n {
        let (mut m, _) = Match::new(seed.wrapping_add(g), RuleConfig::competition()).expect("valid rules");
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ g);
        g += 1;
        for step in 0.. {
            if m.is_over() || m.deal_no() > 2 || out.len() >= n {
                break;
            }
            if m.phase() == Phase::Play && step % 7 == 0 {
                out.push(m.view(Some(m.turn())));
            }
            let Some(a) = random_action(&m, &mut rng) else { break };
            if m.apply(&a).is_err() {
                break;
            }
        }
    }
    out
}

fn report(name: &str, mut us: Vec<f64>) {
    if us.is_empty() {
        return;
    }
    us.sort_by(f64::total_cmp);
    let at = |p: f64| us[((us.len() as f64 - 1.0) * p).round() as usize];
    println!(
        "{name:<28} n={:<6} p50 {:>9.3} ms  p99 {:>9.3} ms  max {:>9.3} ms",
        us.len(),
        at(0.5) / 1000.0,
        at(0.99) / 1000.0,
        at(1.0) / 1000.0
    );
}

fn time<T>(f: impl FnOnce() -> T) -> f64 {
    let t = Instant::now();
    std::hint::black_box(f());
    t.elapsed().as_secs_f64() * 1e6
}

pub fn run(n: usize, seed: u64, l3_n: usize) {
    let views = positions(n.max(1), seed);
    println!("{} positions (seed {seed}); times per decision on this machine", views.len());
    for level in [AiLevel::L1, AiLevel::L2] {
        let mut agent = make_agent(&AiProfile::level(level));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let us = views.iter().map(|v| time(|| agent.decide(v, &mut rng, &Budget::unlimited()))).collect();
        report(&format!("{level:?} decision"), us);
    }
    let profile = AiProfile::default();
    report("advisor hint", views.iter().map(|v| time(|| advisor::advise(v, &profile, 5))).collect());
    let full: Vec<&PlayerView> = views.iter().filter(|v| v.table.is_none() && v.hand.len() >= 20).collect();
    report("advisor hint, lead, 20+ cards", full.iter().map(|v| time(|| advisor::advise(v, &profile, 5))).collect());
    report(
        "advisor selection (3 cards)",
        views
            .iter()
            .map(|v| {
                let sel = guandan_core::card::CardSet::from_ids(&v.hand.ids()[..3.min(v.hand.len())]);
                time(|| advisor::selection(v, sel))
            })
            .collect(),
    );
    report("advisor heat map", views.iter().map(|v| time(|| advisor::heat_map(v))).collect());
    let mut l3 = make_agent(&AiProfile::level(AiLevel::L3));
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let us = views.iter().take(l3_n).map(|v| time(|| l3.decide(v, &mut rng, &Budget::unlimited()))).collect();
    report("L3 decision (160 playouts)", us);
    // A 300 ms time budget (machine-dependent depth): how close to the budget decisions stay.
    let timed = AiProfile { budget_ms: 300, iterations: u32::MAX, ..AiProfile::level(AiLevel::L3) };
    let mut l3t = make_agent(&timed);
    let us = views
        .iter()
        .take(l3_n)
        .map(|v| time(|| l3t.decide(v, &mut rng, &guandan_ai::agent::Budget::with_soft_ms(300))))
        .collect();
    report("L3 decision (300 ms budget)", us);
}
