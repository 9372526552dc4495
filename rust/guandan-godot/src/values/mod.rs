//! The game's values as typed Godot objects (`RefCounted`, read-only properties), made once here
//! from the Rust data: what crosses to GDScript in a signal or a `#[func]` result is one of these,
//! never a Dictionary of game data, so a misspelled field is a GDScript parse error where the
//! holder is typed. Listed in docs/godot-api-values.md.

mod account;
mod advice;
mod level_change;
mod match_state;
mod play;
mod ranking;
mod record;
mod room;
mod stats;
mod training;
mod turn;

pub use account::AccountAnswer;
pub use advice::{Completion, Hint, Reading, Selection, WildSnap};
pub use level_change::LevelChange;
pub use match_state::MatchState;
pub use play::Play;
pub use ranking::{LeaderboardEntry, LeaderboardPage, PlayerProfile, Rating, RatingPoint};
pub use record::{RecordedAction, RecordedSignal};
pub use room::{OnlineRoom, RoomSeat};
pub use stats::{DamagedRecord, PlayerFigures, PlayerStatistics, RecordSummary, StatsRecord};
pub use training::{AiCandidate, AiTrace, CardCounter, CardHeat};
pub use turn::{SurrenderProposal, Tribute, Turn};
