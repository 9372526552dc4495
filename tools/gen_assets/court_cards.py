"""Extracts the twelve court figures of the Tigullio International deck into one small SVG.

Called by tools/gen-assets (the `cards` target); not meant to be run by hand. Input: the deck's
tigullio-international.svgz from Debian's kdegames-card-data-kf5 (LGPL-2+, (C) Luciano Montanaro).
Output: an SVG with only the figure drawings (no card outlines, indices, KDE marks, backs or Konqi
jokers) and one group per court card, named by the deck's ids (jack_heart ... king_spade). Each
group holds one figure, in the deck's card box (58 x 88 units). With --per-card DIR it also writes
DIR/<id>.svg, one card each with exactly that box as its view box, which rsvg-convert renders to
PNGs of one size and aspect (`rsvg-convert -i <id>` would crop each to its own ink instead).
"""

import argparse
import gzip
import pathlib
import re
import sys
import xml.etree.ElementTree as ET

RANKS = ("jack", "queen", "king")
SUITS = ("heart", "diamond", "club", "spade")
START = "<!-- Court cards figures -->"
END = "<!-- Groups of indices"
# The deck's card (units of its SVG): the figures are drawn inside it.
CARD = (0.0, 0.0, 58.0, 88.0)


def die(msg: str) -> None:
    print(f"court_cards.py: {msg}", file=sys.stderr)
    sys.exit(1)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--svgz", type=pathlib.Path, required=True)
    ap.add_argument("--out", type=pathlib.Path, required=True)
    ap.add_argument("--per-card", type=pathlib.Path)
    args = ap.parse_args()
    text = gzip.decompress(args.svgz.read_bytes()).decode("utf-8")
    header = re.search(r"<!--\s*(Copyright.*?)-->", text, re.S)
    if header is None or "Luciano Montanaro" not in header.group(1) or "Lesser" not in header.group(1):
        die("the deck's copyright header changed: check the licence before regenerating")
    i, j = text.find(START), text.find(END)
    if i < 0 or j < i:
        die("the court figure section was not found: the deck's layout changed")
    figures = text[i + len(START):j].strip()
    cells = []
    for r, rank in enumerate(RANKS):
        for s, suit in enumerate(SUITS):
            fig = f"{rank}-of-{suit}s"
            if f'<g id="{fig}"' not in figures:
                die(f"figure {fig} not found")
            x, y = s * 60, r * 90
            cells.append(
                f'<g id="{rank}_{suit}" transform="translate({x},{y})">\n'
                f'<use xlink:href="#{fig}" />\n</g>'
            )
    out = (
        "<?xml version='1.0' encoding='UTF-8' standalone='no'?>\n"
        "<!--\nCourt figures of the Tigullio International card deck, extracted unchanged from\n"
        "tigullio-international.svgz (Debian package kdegames-card-data-kf5) by tools/gen-assets.\n\n"
        f"{header.group(1).strip()}\n\n"
        "Used in this game under the GNU Lesser General Public License version 2.1 (see\n"
        "LICENSE-LGPL-2.1.txt next to this file).\n-->\n"
        '<svg width="240" height="270" viewBox="0 0 240 270" xmlns="http://www.w3.org/2000/svg" '
        'xmlns:xlink="http://www.w3.org/1999/xlink">\n<defs>\n'
        f"{figures}\n</defs>\n" + "\n".join(cells) + "\n</svg>\n"
    )
    try:
        ET.fromstring(out.encode("utf-8"))
    except ET.ParseError as e:
        die(f"the extracted SVG is not well-formed: {e}")
    args.out.write_text(out, encoding="utf-8")
    if args.per_card is not None:
        args.per_card.mkdir(parents=True, exist_ok=True)
        for rank in RANKS:
            for suit in SUITS:
                one = (
                    "<?xml version='1.0' encoding='UTF-8' standalone='no'?>\n"
                    f'<svg width="{CARD[2]}" height="{CARD[3]}" viewBox="{" ".join(map(str, CARD))}" '
                    'xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">\n'
                    f'<defs>\n{figures}\n</defs>\n<use xlink:href="#{rank}-of-{suit}s" />\n</svg>\n'
                )
                (args.per_card / f"{rank}_{suit}.svg").write_text(one, encoding="utf-8")


if __name__ == "__main__":
    main()
