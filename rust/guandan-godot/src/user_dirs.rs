//! Where Godot's `user://` is on disk: the one Godot call behind the [`store`](crate::store)'s
//! folders, kept out of the store so that it stays plain Rust.

use godot::classes::Os;
use godot::obj::Singleton;

use crate::store::UserDirs;

/// The game's folders under Godot's user data folder.
pub fn user_dirs() -> UserDirs {
    UserDirs::new(Os::singleton().get_user_data_dir().to_string())
}
