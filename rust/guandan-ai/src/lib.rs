//! Guandan AI: agents that see only their seat's view (L1 easy, L2 planning, L3 search), move
//! advice for humans, a worker service for hosts, and the arena.

pub mod agent;
pub mod l1;

pub use agent::{Agent, AiLevel, AiProfile, Budget, Decision, Trace};
pub use guandan_core;
pub mod advisor;
pub mod arena;
pub mod belief;
pub mod calibrate;
pub mod endgame;
pub mod l2;
pub mod l3;
pub mod percentile;
pub mod plan;
pub mod ranker;
pub mod reasons;
pub mod review;
pub mod service;
pub mod tune;

/// The agent a profile asks for.
pub fn make_agent(profile: &AiProfile) -> Box<dyn Agent> {
    match profile.level {
        AiLevel::L1 => Box::new(l1::L1),
        AiLevel::L2 if profile.ranker => {
            Box::new(ranker::agent::RankedL2::new(profile.weights, profile.trace, profile.ranker_generation))
        }
        AiLevel::L2 => Box::new(l2::L2::new(profile.weights, profile.trace)),
        AiLevel::L3 => Box::new(l3::L3::new(profile)),
    }
}
