//! GDExtension exposing the Guandan rules (`guandan-core`) and AI (`guandan-ai`) to Godot.
//!
//! Registered classes (see each module): [`GuandanEngine`](engine::GuandanEngine) (Node),
//! [`MoveAdvisor`](advisor::MoveAdvisor) (RefCounted), [`ReplayRecorder`](replay::ReplayRecorder)
//! (RefCounted).
//!
//! Every `#[func]` is a boundary with untrusted GDScript input: it validates its arguments and
//! never panics. Bad input yields a neutral result (empty string/array, `false`) and a Godot
//! warning (`push_warning`), so scripts keep running and the test suite sees the message.
//! The argument checks themselves live in [`args`] as plain Rust, covered by `cargo test`.

use godot::init::{ExtensionLibrary, gdextension};

pub mod advisor;
pub mod args;
pub mod engine;
pub mod replay;

struct GuandanExtension;

// SAFETY: we use only safe gdext APIs, keep the default safeguard levels and the
// `experimental-threads` feature off, so all Godot objects are touched from the main thread.
// The entry symbol is gdext's default, `gdext_rust_init`, as named in guandan.gdextension.
#[gdextension]
unsafe impl ExtensionLibrary for GuandanExtension {}
