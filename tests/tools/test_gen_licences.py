"""tools/gen-licences on fixture crates: SPDX expressions read as terms of alternatives, texts told
apart by their words, the preferred text of a choice kept with the crate's notices, every file
kept for a combination, a standard text where a crate ships none. Run by tools/test:
    python3 -m unittest discover -s tests/tools -p 'test_gen_licences.py'
"""

import tempfile
import unittest
from importlib.machinery import SourceFileLoader
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "tools" / "gen-licences"
gen = SourceFileLoader("gen_licences", str(SCRIPT)).load_module()

MIT = "Copyright (c) 2020 Someone\n\nPermission is hereby granted, free of charge, to any person...\n"
APACHE = "                Apache License\n          Version 2.0, January 2004\n\nTERMS AND CONDITIONS FOR USE, ...\n"
UNICODE = "UNICODE LICENSE V3\n\nPermission is hereby granted, free of charge, to any person obtaining a copy...\n"
NOTICE = "Licensed under the Apache License, Version 2.0 or the MIT license, at your option.\n"


def crate(folder: Path, name: str, licence: str | None, files: dict[str, str]) -> dict:
    root = folder / name
    root.mkdir()
    (root / "Cargo.toml").write_text("[package]\n", encoding="utf-8")
    for file, text in files.items():
        (root / file).write_text(text, encoding="utf-8")
    return {"name": name, "version": "1.0.0", "license": licence, "manifest_path": str(root / "Cargo.toml")}


class Expressions(unittest.TestCase):
    def test_terms_of_alternatives(self):
        self.assertEqual(gen.terms("MIT OR Apache-2.0"), [["MIT", "Apache-2.0"]])
        self.assertEqual(gen.terms("MIT/Apache-2.0"), [["MIT", "Apache-2.0"]])
        self.assertEqual(gen.terms("(MIT OR Apache-2.0) AND Unicode-3.0"), [["MIT", "Apache-2.0"], ["Unicode-3.0"]])
        self.assertEqual(
            gen.terms("Apache-2.0 WITH LLVM-exception OR Apache-2.0 OR MIT"),
            [["Apache-2.0 WITH LLVM-exception", "Apache-2.0", "MIT"]],
        )
        self.assertEqual(gen.terms("Apache-2.0 AND ISC"), [["Apache-2.0"], ["ISC"]])

    def test_texts_are_told_apart_by_their_words(self):
        self.assertEqual(gen.kind_of(MIT), "MIT")
        self.assertEqual(gen.kind_of(APACHE), "Apache-2.0")
        self.assertEqual(gen.kind_of(UNICODE), "Unicode-3.0", "Unicode grants in MIT's words")
        self.assertIsNone(gen.kind_of(NOTICE), "a short notice naming Apache is not its text")


class Choices(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.dir = Path(self.tmp.name)

    def tearDown(self):
        self.tmp.cleanup()

    def test_a_choice_keeps_the_preferred_text_and_the_notices(self):
        c = crate(self.dir, "dual", "Apache-2.0 OR MIT",
                  {"LICENSE-APACHE": APACHE, "LICENSE-MIT": MIT, "COPYRIGHT": NOTICE})
        kept, used = gen.chosen_texts(c)
        self.assertEqual(used, "MIT")
        self.assertEqual([name for name, _ in kept], ["COPYRIGHT", "LICENSE-MIT"])

    def test_a_choice_takes_the_text_the_crate_ships(self):
        c = crate(self.dir, "apache_only_file", "MIT OR Apache-2.0", {"LICENSE": APACHE})
        kept, used = gen.chosen_texts(c)
        self.assertEqual((used, [n for n, _ in kept]), ("Apache-2.0", ["LICENSE"]))

    def test_a_combination_keeps_a_text_of_each_term(self):
        c = crate(self.dir, "uni", "(MIT OR Apache-2.0) AND Unicode-3.0",
                  {"LICENSE-APACHE": APACHE, "LICENSE-MIT": MIT, "LICENSE-UNICODE": UNICODE})
        kept, used = gen.chosen_texts(c)
        self.assertEqual(used, "MIT AND Unicode-3.0")
        self.assertEqual([n for n, _ in kept], ["LICENSE-MIT", "LICENSE-UNICODE"])

    def test_no_file_takes_the_standard_text(self):
        if not (gen.COMMON / "MPL-2.0").is_file():
            self.skipTest("Debian's common licences are not on this machine")
        c = crate(self.dir, "bare", "MPL-2.0", {})
        kept, used = gen.chosen_texts(c)
        self.assertEqual(used, "MPL-2.0")
        self.assertEqual(kept[0][0], "MPL-2.0 (standard text)")
        self.assertIn("Mozilla Public License", kept[0][1])

    def test_identical_texts_are_printed_once_for_every_crate(self):
        a = crate(self.dir, "a", "MIT", {"LICENSE": MIT})
        b = crate(self.dir, "b", "MIT", {"LICENSE-MIT": MIT + "\n\n"})
        text = gen.render([a, b])
        self.assertEqual(text.count("Permission is hereby granted"), 1)
        self.assertIn("[1] LICENSE, LICENSE-MIT, for: a 1.0.0, b 1.0.0", text)
        self.assertIn("a 1.0.0: MIT; text [1]", text)


if __name__ == "__main__":
    unittest.main()
