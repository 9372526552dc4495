"""Subsets Noto Sans CJK SC (Regular and Bold) to the characters the game shows.

Called by tools/gen-assets; not meant to be run by hand. Characters: everything in the msgstr/msgid
texts of the .po files, every non-ASCII character in the project's .gd/.tscn/.tres files, printable
ASCII, Latin-1 and a short list of symbols (suits, arrows, punctuation). The subset is renamed
"Guandan Sans" (a Modified Version under the SIL OFL 1.1 may not use the original's name as its
primary name) and the license is written next to it.
"""

import argparse
import pathlib
import re
import sys

from fontTools import subset
from fontTools.ttLib import TTFont

SC_INDEX = 2  # NotoSansCJK-*.ttc: 0 JP, 1 KR, 2 SC, 3 TC, 4 HK
FAMILY = "Guandan Sans"
EXTRA = (
    "♠♥♣♦♤♡♧♢·•—–…→←↑↓↔×÷✓★☆●○◆◇■□▲△▼▽▶◀「」『』【】《》〈〉、。，．：；！？（）［］｛｝"
    "～＋－＝％＃＆＊＠０１２３４５６７８９"
    "一二三四五六七八九十百千万零两大小王级进贡还抗头二三末游"
)


def po_texts(po_dir: pathlib.Path) -> str:
    out = []
    for po in sorted(po_dir.glob("*.po")):
        for line in po.read_text(encoding="utf-8").splitlines():
            m = re.match(r'^(?:msgid|msgstr|msgctxt)?\s*"(.*)"\s*$', line)
            if m:
                out.append(m.group(1))  # escapes (\n, \") only add ASCII, which is included anyway
    return "".join(out)


def project_texts(root: pathlib.Path) -> str:
    out = []
    for ext in ("*.gd", "*.tscn", "*.tres", "*.cfg"):
        for path in root.rglob(ext):
            if ".godot" in path.parts or "tests_godot" in path.parts:
                continue
            out.extend(ch for ch in path.read_text(encoding="utf-8", errors="ignore") if ord(ch) > 0x7E)
    return "".join(out)


def rename(font: TTFont, style: str) -> None:
    full = FAMILY if style == "Regular" else f"{FAMILY} {style}"
    ps = (FAMILY.replace(" ", "") + "-" + style)
    table = font["name"]
    for rec in list(table.names):
        if rec.nameID in (1, 3, 4, 6, 16, 17, 18):
            table.removeNames(nameID=rec.nameID)
    for pid, eid, lang in ((3, 1, 0x409), (1, 0, 0)):
        table.setName(FAMILY, 1, pid, eid, lang)
        table.setName(style, 2, pid, eid, lang)
        table.setName(f"{ps};subset of Noto Sans CJK SC", 3, pid, eid, lang)
        table.setName(full, 4, pid, eid, lang)
        table.setName(ps, 6, pid, eid, lang)
    if "CFF " in font:
        cff = font["CFF "].cff
        cff.fontNames = [ps]
        top = cff.topDictIndex[0]
        for key in ("FullName", "FamilyName"):
            if hasattr(top, key):
                setattr(top, key, full if key == "FullName" else FAMILY)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--po-dir", required=True, type=pathlib.Path)
    ap.add_argument("--copyright", required=True, type=pathlib.Path)
    ap.add_argument("--regular", required=True)
    ap.add_argument("--bold", required=True)
    ap.add_argument("--out-dir", required=True, type=pathlib.Path)
    args = ap.parse_args()

    chars = set(po_texts(args.po_dir))
    chars |= set(project_texts(args.po_dir.parent))
    chars |= {chr(c) for c in range(0x20, 0x7F)}
    chars |= {chr(c) for c in range(0xA0, 0x100)}
    chars |= set(EXTRA)
    chars = {c for c in chars if c.isprintable() or c == " "}

    for src, style, name in ((args.regular, "Regular", "guandan_sans.otf"),
                             (args.bold, "Bold", "guandan_sans_bold.otf")):
        font = TTFont(src, fontNumber=SC_INDEX, lazy=False, recalcTimestamp=False)  # reproducible output
        cmap = font.getBestCmap()
        missing = sorted(c for c in chars if ord(c) not in cmap)
        if missing:
            print(f"subset_font: not in the font (left out): {''.join(missing)!r}", file=sys.stderr)
        opts = subset.Options()
        opts.hinting = False
        opts.desubroutinize = True
        opts.name_IDs = ["*"]
        opts.name_languages = ["*"]
        opts.layout_features = ["kern", "liga", "locl", "palt", "vert", "ccmp", "mark", "mkmk"]
        sub = subset.Subsetter(opts)
        sub.populate(unicodes=[ord(c) for c in chars if ord(c) in cmap])
        sub.subset(font)
        rename(font, style)
        out = args.out_dir / name
        font.save(out)
        print(f"subset_font: {out} ({len(chars)} characters, {out.stat().st_size // 1024} KiB)", file=sys.stderr)

    text = args.copyright.read_text(encoding="utf-8")
    m = re.search(r"^License: SIL-1\.1\n((?: .*\n)+)", text, re.M)
    body = "\n".join(l[1:] if l != " ." else "" for l in m.group(1).splitlines()) if m else ""
    (args.out_dir / "LICENSE-OFL.txt").write_text(
        "guandan_sans.otf and guandan_sans_bold.otf are subsets of Noto Sans CJK SC (Regular, Bold),\n"
        "renamed \"Guandan Sans\", made by tools/gen-assets from Debian's fonts-noto-cjk package.\n\n"
        "Copyright 2014-2021 Adobe (http://www.adobe.com/), with Reserved Font Name 'Source'.\n"
        "Copyright 2010-2012, Google Corporation (Debian copyright file).\n\n" + body + "\n",
        encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
