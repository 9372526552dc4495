//! Helpers shared by the runtime's integration tests.
#![allow(dead_code)] // each test file uses some of them

use guandan_ai::{AiLevel, AiProfile};
use guandan_core::game::Team;
use guandan_core::rules::RuleConfig;
use guandan_core::seat::Seat;
use guandan_core::sim::random_action;
use guandan_runtime::{Controller, Notice, Out, Runtime, RuntimeConfig, Viewer, for_viewer};
use rand_chacha::ChaCha8Rng;
use rand_core::SeedableRng;

pub fn ai(level: AiLevel) -> Controller {
    Controller::Ai(AiProfile::level(level))
}

pub fn config(seed: u64, seats: [Controller; 4]) -> RuntimeConfig {
    RuntimeConfig { seed, rules: RuleConfig::competition(), seats, clocks: false }
}

/// Every notice a viewer receives holds only what that viewer may see.
pub fn check_private(notices: &[Notice]) {
    let viewers = [
        Viewer::Seat(Seat::ZERO),
        Viewer::Seat(Seat::ONE),
        Viewer::Seat(Seat::TWO),
        Viewer::Seat(Seat::THREE),
        Viewer::Spectator,
        Viewer::Team(Team::ZERO),
        Viewer::Team(Team::ONE),
    ];
    for viewer in viewers {
        for out in for_viewer(notices, viewer) {
            match (out, viewer) {
                (Out::HandChanged { seat, .. }, Viewer::Seat(v)) => assert_eq!(seat, v, "a hand reached another seat"),
                (Out::HandChanged { .. }, Viewer::Spectator) => panic!("a spectator received a hand"),
                (Out::HandChanged { seat, .. }, Viewer::Team(t)) => {
                    assert!(t.has(seat), "seat {seat}'s hand reached {t}")
                }
                (Out::TributeGiven { from, to, card: Some(_) } | Out::ReturnGiven { from, to, card: Some(_) }, v) => {
                    let involved = match v {
                        Viewer::Seat(s) => s == from || s == to,
                        Viewer::Team(t) => t.has(from) || t.has(to),
                        Viewer::Spectator | Viewer::Omniscient => false,
                    };
                    assert!(involved, "a tribute card reached {v:?}")
                }
                _ => {}
            }
        }
    }
}

/// Plays a runtime to the end: AI seats through `decide_now`, human seats with random legal
/// actions; returns every notice.
pub fn play_out(rt: &mut Runtime, seed: u64) -> Vec<Notice> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut all = Vec::new();
    for _ in 0..40_000 {
        if rt.state().is_over() {
            return all;
        }
        if let Some(n) = rt.decide_now() {
            all.extend(n);
            continue;
        }
        let a = random_action(rt.state(), &mut rng).expect("someone must act");
        all.extend(rt.act(a.seat, a.kind).expect("random legal actions are accepted"));
    }
    panic!("the match did not end");
}
