//! One match runtime for every front end: the Godot node, the online server and the CLI drive a
//! match through [`Runtime`] and get back [`Notice`]s that say who may receive them.
//!
//! Sans-I/O: the host feeds human actions ([`Runtime::act`]), AI results
//! ([`Runtime::ai_result`], for requests taken with [`Runtime::ai_request`]) and elapsed time
//! ([`Runtime::tick`]). No threads, no clock reads, no Godot, no async: the same runtime runs
//! inside a Godot node's `process()`, a tokio room task, or a test.

pub mod notice;
pub mod runtime;

pub use notice::{Audience, Notice, Out, Viewer, for_viewer};
pub use runtime::{AiVote, Controller, Runtime, RuntimeConfig, RuntimeError, SurrenderPolicy, decision_seed};
