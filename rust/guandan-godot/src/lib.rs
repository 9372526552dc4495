//! GDExtension exposing the Guandan rules (`guandan-core`) and AI (`guandan-ai`) to Godot.
//!
//! Registered classes: [`GuandanEngine`](engine::GuandanEngine) (Node: the one match class —
//! a local match, or online the match a `GuandanClient` copies — signalling every change),
//! [`GuandanClient`](client::GuandanClient) (Node: the online session — account, connection,
//! rooms — over protocol v1), [`MoveAdvisor`](advisor::MoveAdvisor) (RefCounted: hints and
//! selection help), [`ReplayRecorder`](replay::ReplayRecorder) (RefCounted: records, files,
//! playback), and the resources [`GuandanRules`](resources::GuandanRules) and `AiProfile`
//! ([`AiProfileRes`](resources::AiProfileRes)). The engine reads either match through one
//! trait, [`source::MatchSource`]. The GDScript API is documented in docs/godot-api.md and,
//! through `register-docs`, in the editor's help.
//!
//! Every `#[func]` is a boundary with untrusted GDScript input: it validates its arguments and
//! never panics. Actions return an error code ([`codes`]); queries return a neutral value
//! (empty array/dictionary, -1) and log a warning. Warnings never contain hand contents.
//! `GuandanEngine` is a thin node over guandan-runtime's `Runtime`; the parts that need no
//! engine ([`args`]; [`forward`], the runtime's notices filtered for the node's viewer;
//! [`store`], the files on disk, a leaf module the recorder, the statistics and the crash
//! reports build on; [`stats_store`]; the resource conversions) are plain Rust covered by
//! `cargo test`.

use godot::init::{ExtensionLibrary, gdextension};

pub mod advisor;
pub mod args;
pub mod client;
pub mod codes;
pub mod convert;
pub mod counter;
pub mod engine;
pub mod forward;
pub mod packing;
pub mod replay;
pub mod resources;
pub mod review;
pub(crate) mod source;
pub mod stats_store;
pub mod store;
pub mod user_dirs;
pub mod values;

struct GuandanExtension;

// SAFETY: we use only safe gdext APIs, keep the default safeguard levels and the
// `experimental-threads` feature off, so all Godot objects are touched from the main thread
// (AI worker threads see plain Rust snapshots only). The entry symbol is gdext's default,
// `gdext_rust_init`, as named in guandan.gdextension.
#[gdextension]
unsafe impl ExtensionLibrary for GuandanExtension {}
