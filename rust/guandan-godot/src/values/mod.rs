//! The game's values as typed Godot objects (`RefCounted`, read-only properties), made once here
//! from the Rust data: what crosses to GDScript in a signal or a `#[func]` result is one of these,
//! never a Dictionary of game data, so a misspelled field is a GDScript parse error where the
//! holder is typed. Listed in docs/godot-api-values.md.

mod account;
mod level_change;
mod play;
mod ranking;
mod room;

pub use account::AccountAnswer;
pub use level_change::LevelChange;
pub use play::Play;
pub use ranking::{LeaderboardEntry, LeaderboardPage, PlayerProfile, Rating, RatingPoint};
pub use room::{OnlineRoom, RoomSeat};
