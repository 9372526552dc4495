//! The desktop level (`L4`, `AiProfile::desktop`, issue 56): L3's search on worker threads with
//! a larger budget. A decision must not depend on the threads or their timing: the same view and
//! seed give the same action and the same searched values on 1, 2 or 3 threads, run after run.

use guandan_ai::agent::{Budget, DESKTOP_THREADS};
use guandan_ai::l3::L3;
use guandan_ai::{Agent, AiLevel, AiProfile, arena, l2};
use guandan_core::game::{ActionKind, Match, Phase};
use guandan_core::rules::RuleConfig;
use guandan_core::view::PlayerView;
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

/// Play decisions with a choice from L2 self-play on arena deals, every `every`-th one, from
/// full hands to the endgame.
fn positions(n: usize, every: usize) -> Vec<PlayerView> {
    let rules = RuleConfig::competition();
    let weights = guandan_ai::agent::Weights::default();
    let (mut out, mut k) = (Vec::new(), 0usize);
    for deal in 0u32.. {
        let Ok((mut m, _)) = Match::from_deal(&arena::deal_setup(56, deal, &rules)) else { continue };
        while m.deal_no() == 0 && !m.is_over() && out.len() < n {
            let Some(&seat) = m.to_act().first() else { break };
            let view = m.view(Some(seat));
            if m.phase() == Phase::Play && l2::ranked_candidates(&view, &weights).len() >= 2 {
                k += 1;
                if k.is_multiple_of(every) {
                    out.push(view.clone());
                }
            }
            let a = m.action(seat, l2::l2_decision(&view, &weights, false).action);
            m.apply(&a).expect("L2 plays legally");
        }
        if out.len() >= n {
            return out;
        }
    }
    unreachable!()
}

/// What a decision is made of: the action, the worlds played and every candidate's searched
/// value and score, bit for bit.
type Searched = (ActionKind, u32, Vec<(Option<u32>, u32)>);

fn decide(profile: &AiProfile, view: &PlayerView, seed: u64) -> Searched {
    let mut agent = L3::new(&AiProfile { trace: true, ..profile.clone() });
    let d = agent.decide(view, &mut ChaCha8Rng::seed_from_u64(seed), &Budget::untimed());
    let t = d.trace.expect("a trace was asked for");
    let values = t.candidates.iter().map(|c| (c.search.map(f32::to_bits), c.score.to_bits())).collect();
    (d.action, t.playouts, values)
}

#[test]
fn the_desktop_level_decides_the_same_whatever_its_threads() {
    let l4 = AiProfile::desktop();
    assert!(l4.threads >= 2 && l4.threads == DESKTOP_THREADS);
    let l3 = AiProfile::level(AiLevel::L3);
    let mut more_worlds = 0;
    for (i, view) in positions(6, 7).iter().enumerate() {
        let seed = 100 + i as u64;
        let on_its_threads = decide(&l4, view, seed);
        // Searched positions only: a forced move or going out plays no world.
        assert!(on_its_threads.1 > 0, "position {i} was not searched");
        for threads in [1, 3] {
            assert_eq!(decide(&AiProfile { threads, ..l4.clone() }, view, seed), on_its_threads, "{threads} threads");
        }
        // Again on its own threads: another run, other timings.
        assert_eq!(decide(&l4, view, seed), on_its_threads);
        more_worlds += usize::from(on_its_threads.1 > decide(&l3, view, seed).1);
    }
    assert!(more_worlds >= 5, "the desktop budget played more worlds than L3's in {more_worlds} of 6 positions");
}
