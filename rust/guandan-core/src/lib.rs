//! Guandan (掼蛋) rules engine: cards, combinations, legal moves, the match state machine,
//! the action log and replay. No Godot dependency, so everything runs under `cargo test`.

pub mod card;
pub mod card_ids;
pub mod deal;

pub use card::{Card, CardId, CardSet, ParseError, Rank, Suit};
pub mod combo;
pub mod counter;
pub mod error;
pub mod event;
pub mod fuzz;
pub mod game;
pub mod log;
pub mod movegen;
pub mod notice;
mod position;
mod progress;
pub mod rule_error;
pub mod rules;
pub mod seat;
pub mod setup;
pub mod sim;
pub mod stats;
pub mod view;

pub use combo::{Pattern, Play, PlayKind, beats, classify};
pub use rules::RuleConfig;
