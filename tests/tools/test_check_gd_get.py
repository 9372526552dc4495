"""tools/check-gd-get on fixture projects: a `.get("` look-up outside the allow-list fails with
file:line, an allowed one passes, a stale allow-list entry fails, comment lines are not code."""

import pathlib
import subprocess
import tempfile
import unittest

TOOL = pathlib.Path(__file__).resolve().parents[2] / "tools" / "check-gd-get"


def run(files, allow):
    with tempfile.TemporaryDirectory() as d:
        root = pathlib.Path(d) / "proj"
        for name, text in files.items():
            (root / name).parent.mkdir(parents=True, exist_ok=True)
            (root / name).write_text(text)
        allow_file = pathlib.Path(d) / "allow"
        allow_file.write_text(allow)
        p = subprocess.run([str(TOOL), "--root", str(root), "--allow", str(allow_file)], capture_output=True, text=True)
        return p.returncode, p.stderr


class CheckGdGet(unittest.TestCase):
    def test_a_key_look_up_fails_with_its_place(self):
        code, err = run({"table/a.gd": 'func f(play):\n\treturn play.get("bomb", false)\n'}, "")
        self.assertEqual(code, 1)
        self.assertIn("table/a.gd:2:", err)

    def test_an_allowed_look_up_passes_and_a_comment_is_not_code(self):
        files = {"a.gd": '## d.get("x") in a doc comment\nvar v = cfg.get("x")\n'}
        code, err = run(files, "a.gd | cfg.get(\"x\") | a ConfigFile-like dictionary\n")
        self.assertEqual(code, 0, err)

    def test_a_stale_entry_fails(self):
        code, err = run({"a.gd": "var v = 1\n"}, "a.gd | cfg.get( | gone\n")
        self.assertEqual(code, 1)
        self.assertIn("matches nothing", err)

    def test_a_malformed_allow_list_is_refused(self):
        code, _ = run({"a.gd": "var v = 1\n"}, "a.gd | no reason\n")
        self.assertEqual(code, 2)


if __name__ == "__main__":
    unittest.main()
