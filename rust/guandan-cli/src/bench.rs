//! `guandan bench`: decision times of each AI level and the advisor on seeded random positions.
//! Criterion benches (`cargo bench`) measure the rules core; this measures what players wait for.

use guandan_ai::agent::Budget;
use guandan_ai::percentile::nearest_rank;
use guandan_ai::{AiLevel, AiProfile, advisor, endgame, l3, make_agent};
use guandan_core::game::{Match, Phase};
use guandan_core::rules::RuleConfig;
use guandan_core::seat::Seat;
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

/// Play decisions from L2 self-play deals (the arena's deals): the positions L3 meets at a table,
/// every third decision with a real choice (two candidates or more).
fn searched_positions(n: usize, seed: u64) -> Vec<PlayerView> {
    let weights = guandan_ai::agent::Weights::default();
    let rules = RuleConfig::competition();
    let mut out = Vec::with_capacity(n);
    let mut k = 0u64;
    for deal in 0u32.. {
        if out.len() >= n {
            break;
        }
        let setup = guandan_ai::arena::deal_setup(seed, deal, &rules);
        let Ok((mut m, _)) = Match::from_deal(&setup) else { continue };
        while m.deal_no() == 0 && !m.is_over() && out.len() < n {
            let Some(&seat) = m.to_act().first() else { break };
            let view = m.view(Some(seat));
            if m.phase() == Phase::Play && guandan_ai::l2::ranked_candidates(&view, &weights).len() >= 2 {
                k += 1;
                if k.is_multiple_of(3) {
                    out.push(view.clone());
                }
            }
            let d = guandan_ai::l2::l2_decision(&view, &weights, false);
            let a = m.action(seat, d.action);
            if m.apply(&a).is_err() {
                break;
            }
        }
    }
    out
}

/// One timed decision: wall-clock and, where the OS tells, the CPU time (µs). The CPU
/// time is what a decision costs on one free core; the wall time includes waiting for a core the
/// machine's other processes hold.
struct Sample {
    wall: f64,
    cpu: Option<f64>,
}

/// The process's CPU time so far, all threads (µs); the bench runs one decision at a time.
#[cfg(unix)]
fn process_cpu_us() -> Option<f64> {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `ts` is a valid, writable timespec; the call only writes into it.
    let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
    (rc == 0).then(|| ts.tv_sec as f64 * 1e6 + ts.tv_nsec as f64 / 1000.0)
}

#[cfg(not(unix))]
fn process_cpu_us() -> Option<f64> {
    None
}

fn report(name: &str, samples: Vec<Sample>) {
    if samples.is_empty() {
        return;
    }
    let line = |mut us: Vec<f64>| {
        us.sort_by(f64::total_cmp);
        let at = |p: f64| nearest_rank(&us, p).unwrap_or(0.0) / 1000.0;
        format!("p50 {:>9.3} ms  p99 {:>9.3} ms  max {:>9.3} ms", at(0.5), at(0.99), at(1.0))
    };
    let n = samples.len();
    let cpu: Option<Vec<f64>> = samples.iter().map(|s| s.cpu).collect();
    println!("{name:<30} n={n:<6} wall {}", line(samples.iter().map(|s| s.wall).collect()));
    if let Some(cpu) = cpu {
        println!("{:<39} cpu  {}", "", line(cpu));
    }
}

fn time<T>(f: impl FnOnce() -> T) -> Sample {
    let c = process_cpu_us();
    let t = Instant::now();
    std::hint::black_box(f());
    let wall = t.elapsed().as_secs_f64() * 1e6;
    Sample { wall, cpu: c.zip(process_cpu_us()).map(|(a, b)| (b - a).max(0.0)) }
}

/// `profiles` given (`--l3 NAME`, the arena's names): only those are timed, on the L3 positions
/// (a budget curve); else every agent and the advisor.
pub fn run(n: usize, seed: u64, l3_n: usize, profiles: &[(String, AiProfile)]) {
    if !profiles.is_empty() {
        let searched = searched_positions(l3_n, seed);
        println!("{} L3 positions: every third L2 self-play decision with a choice (seed {seed})", searched.len());
        for (name, profile) in profiles {
            time_l3(name, profile.clone(), &searched, seed);
        }
        return;
    }
    let views = positions(n.max(1), seed);
    println!("{} positions (seed {seed}); times per decision on this machine", views.len());
    for (name, profile) in [
        ("L1", AiProfile::level(AiLevel::L1)),
        ("L2", AiProfile::level(AiLevel::L2)),
        ("L2v1", AiProfile::v1(AiLevel::L2)),
        ("L2+", AiProfile { ranker: true, ..AiProfile::level(AiLevel::L2) }),
    ] {
        let mut agent = make_agent(&profile);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let us = views.iter().map(|v| time(|| agent.decide(v, &mut rng, &Budget::unlimited()))).collect();
        report(&format!("{name} decision"), us);
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
    let searched = searched_positions(l3_n, seed);
    println!("{} L3 positions: every third L2 self-play decision with a choice (seed {seed})", searched.len());
    let l3 = AiProfile::level(AiLevel::L3);
    // The switches are timed on L3v3's search, as the ablation measures them.
    let v3 = AiProfile::v2(AiLevel::L3);
    let endgame = guandan_ai::agent::SearchConfig { endgame_cards: 10, endgame_nodes: 20_000, ..v3.search };
    let ranked = guandan_ai::agent::SearchConfig { rollout_ranker: true, ..v3.search };
    let first4 = guandan_ai::agent::SearchConfig { rollout_ranker_plies: 4, ..ranked };
    let prior = guandan_ai::agent::SearchConfig { prior_ranker: true, ..v3.search };
    for (name, profile) in [
        ("L3 decision (default)", l3.clone()),
        ("L4 decision (desktop, 2 threads)", AiProfile::desktop()),
        ("L3v3 decision (= L3v2)", v3.clone()),
        ("L3v3, exact endgames <= 10 cards", AiProfile { search: endgame, ..v3.clone() }),
        ("L3v3, L2+ playouts", AiProfile { search: ranked, ..v3.clone() }),
        ("L3v3, L2+ first 4 plies", AiProfile { search: first4, ..v3.clone() }),
        ("L3v3, ranker prior (8 searched)", AiProfile { search: prior, ..v3.clone() }),
    ] {
        time_l3(name, profile, &searched, seed);
    }
    // A 300 ms time budget (machine-dependent depth): how close to the budget decisions stay.
    let timed = AiProfile { budget_ms: 300, iterations: u32::MAX, ..AiProfile::level(AiLevel::L3) };
    let mut l3t = make_agent(&timed);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let us = searched
        .iter()
        .map(|v| time(|| l3t.decide(v, &mut rng, &guandan_ai::agent::Budget::with_soft_ms(300))))
        .collect();
    report("L3 decision (300 ms budget)", us);
    endgames(&views, seed);
}

/// One L3 profile's decisions on the searched positions: wall and CPU (all its threads) per
/// decision, worlds per CPU second, and the share the exact endgames decided. Untimed: each
/// decision does its whole work even on a loaded machine (the 3 s limit would cut a slow wall
/// clock short and hide CPU), so the CPU column is the cost of the work asked for.
fn time_l3(name: &str, profile: AiProfile, searched: &[PlayerView], seed: u64) {
    let mut l3 = l3::L3::new(&AiProfile { trace: true, ..profile });
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut playouts, mut evaluations, mut solved) = (0u64, 0u64, 0u64);
    let us: Vec<Sample> = searched
        .iter()
        .map(|v| {
            time(|| {
                let d = guandan_ai::Agent::decide(&mut l3, v, &mut rng, &Budget::untimed());
                if let Some(t) = d.trace {
                    playouts += u64::from(t.playouts);
                    evaluations += u64::from(t.evaluations);
                    solved += u64::from(t.solved);
                }
            })
        })
        .collect();
    let cpu_s: f64 = us.iter().map(|s| s.cpu.unwrap_or(s.wall)).sum::<f64>() / 1e6;
    report(name, us);
    println!(
        "{:<39} {:.0} worlds/s, {:.0} candidate evaluations/s (CPU); exact endgame decided {solved} of {evaluations} ({:.1}%)",
        "",
        playouts as f64 / cpu_s.max(1e-9),
        evaluations as f64 / cpu_s.max(1e-9),
        100.0 * solved as f64 / evaluations.max(1) as f64
    );
}

/// The exact endgame solver on one sampled world of each late position: time, and how often it
/// finishes within its node budget, by cards left in play (issue 25 picks the threshold from this).
fn endgames(views: &[PlayerView], seed: u64) {
    const NODE_LIMIT: u64 = 200_000;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for most in [8usize, 12, 16, 20] {
        let mut samples = Vec::new();
        let (mut solved, mut nodes) = (0usize, 0u64);
        for v in views {
            let left: usize = v.card_counts.iter().map(|&c| c as usize).sum();
            if left > most || left + 4 <= most || v.hand.is_empty() {
                continue;
            }
            let hands =
                guandan_ai::belief::sample_world(v, &guandan_ai::belief::infer(v, Default::default()), &mut rng);
            let Some(world) = l3::world(v, hands) else { continue };
            let me = v.seat.unwrap_or(Seat::ZERO);
            let mut out = None;
            samples.push(time(|| out = endgame::solve(&world, me, NODE_LIMIT)));
            if let Some(s) = out {
                solved += 1;
                nodes += s.nodes;
            }
        }
        let n = samples.len();
        report(&format!("endgame solve, {}-{most} cards left", most - 3), samples);
        if n > 0 {
            println!(
                "{:<39} solved within {NODE_LIMIT} nodes: {solved} of {n}; mean nodes when solved {:.0}",
                "",
                nodes as f64 / solved.max(1) as f64
            );
        }
    }
}
