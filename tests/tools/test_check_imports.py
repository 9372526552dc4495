"""tools/check-imports on small fixture crates: a circle fails and is named, parent/child and
comments do not count, the allow-list and --crate work. Run by tools/test:
    python3 -m unittest discover -s tests/tools -p 'test_check_imports.py'
"""

import subprocess
import sys
import tempfile
import textwrap
import unittest
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "check-imports"


def write_tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")


# Two files refer to each other through `use crate::...` and a path in code.
CIRCLE = {
    "rust/circle/src/lib.rs": "pub mod game;\npub mod setup;\n",
    "rust/circle/src/game.rs": """
        use crate::setup::Setup;
        pub struct Match;
        pub fn restore(s: &Setup) -> Match { Match }
    """,
    "rust/circle/src/setup.rs": """
        pub struct Setup;
        pub fn of(m: &crate::game::Match) -> Setup { Setup }
    """,
}

# Three files round: a -> b -> c -> a, written with super::, self:: and a use group.
THREE = {
    "rust/three/src/main.rs": "mod net;\nfn main() {}\n",
    "rust/three/src/net/mod.rs": "mod conn;\nmod http;\nmod listener;\n",
    "rust/three/src/net/conn.rs": "use super::{listener::{self, Listener}};\n",
    "rust/three/src/net/listener.rs": "pub struct Listener;\nfn f() { super::http::route(); }\n",
    "rust/three/src/net/http.rs": "pub fn route() { crate::net::conn::run(); }\n",
}

# No circle: a mod.rs and its children referring back with `use super::*` (parent/child), a
# child of lib.rs using a crate-root item, and references only in comments, doc links, strings
# and char literals, and a test module using its own file.
CLEAN = {
    "rust/clean/src/lib.rs": """
        //! The crate; see [`crate::room::Room`] and [crate::card].
        pub mod card;
        pub mod room;
        pub use room::Room;
        pub const SEATS: usize = 4;
    """,
    "rust/clean/src/card.rs": """
        /// Rooms deal cards ([`crate::room::Room::deal`]).
        pub struct Card;
        /* a block comment: crate::room::Room /* nested: crate::room */ still a comment */
        pub const NAME: &str = "crate::room::Room";
        pub const RAW: &str = r#"crate::room "quoted" "#;
        pub const QUOTE: char = '"';
        pub fn first<'a>(cards: &'a [Card]) -> &'a Card { &cards[crate::SEATS - 4] }
        #[cfg(test)]
        mod tests {
            use super::*;
            use crate::card::Card as C;
        }
    """,
    "rust/clean/src/room/mod.rs": """
        mod lobby;
        mod play;
        pub use lobby::Lobby;
        use crate::card::Card;
        pub struct Room { pub cards: Vec<Card> }
        impl Room { pub fn deal(&self) { play::deal(self) } }
    """,
    "rust/clean/src/room/lobby.rs": "use super::*;\npub struct Lobby(pub Room);\n",
    "rust/clean/src/room/play.rs": "use crate::room::Room;\npub fn deal(_r: &Room) {}\n",
}


class CheckImports(unittest.TestCase):
    def run_check(self, files: dict[str, str], *args: str, allow: str = ""):
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            write_tree(root, files)
            allow_file = root / "allow"
            allow_file.write_text(allow, encoding="utf-8")
            cmd = [sys.executable, str(SCRIPT), "--root", tmp, "--allow", str(allow_file), *args]
            return subprocess.run(cmd, capture_output=True, text=True, check=False)

    def test_two_files_in_a_circle_fail_and_are_named(self):
        r = self.run_check(CIRCLE)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("circle: circle: game.rs -> setup.rs -> game.rs", r.stderr)

    def test_three_files_round_through_super_and_use_groups(self):
        r = self.run_check(THREE)
        self.assertEqual(r.returncode, 1, r.stderr)
        self.assertIn("net/conn.rs -> net/listener.rs -> net/http.rs -> net/conn.rs", r.stderr)

    def test_parent_child_comments_and_literals_are_no_circle(self):
        r = self.run_check(CLEAN, "--edges")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
        # what is counted: mod.rs down to its child, and a sibling's crate:: path
        self.assertIn("clean: room/mod.rs -> room/play.rs", r.stdout)
        self.assertIn("clean: room/mod.rs -> card.rs", r.stdout)
        # what is not: children up to their parent, the file's own test module, comments
        self.assertNotIn("room/lobby.rs -> room/mod.rs", r.stdout)
        self.assertNotIn("room/play.rs -> room/mod.rs", r.stdout)
        self.assertNotIn("card.rs ->", r.stdout)

    def test_the_allow_list_lets_a_listed_circle_pass_and_reports_stale_lines(self):
        allow = "# fixed later\ncircle: setup.rs game.rs\nclean: card.rs room/mod.rs\n"
        r = self.run_check({**CIRCLE, **CLEAN}, allow=allow)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("allowed circle: game.rs -> setup.rs -> game.rs", r.stdout)
        self.assertIn("allow:3 (clean: card.rs room/mod.rs) is no longer a circle", r.stderr)

    def test_a_listed_circle_that_grew_fails(self):
        r = self.run_check(THREE, allow="three: net/conn.rs net/listener.rs\n")
        self.assertEqual(r.returncode, 1, r.stderr)

    def test_crate_option_checks_only_that_crate(self):
        r = self.run_check({**CIRCLE, **CLEAN}, "--crate", "clean")
        self.assertEqual(r.returncode, 0, r.stderr)
        r = self.run_check({**CIRCLE, **CLEAN}, "--crate", "nope")
        self.assertEqual(r.returncode, 2)


if __name__ == "__main__":
    unittest.main()
