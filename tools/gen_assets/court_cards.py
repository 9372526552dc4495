"""Cuts the twelve full-face court pictures out of Chris Aguilar's Vectorized Playing Cards.

Called by tools/gen-assets (the `cards` target); not meant to be run by hand. Input: the cards/
folder of the npm package @younestouati/playing-cards-standard-deck (LGPL-3.0; the court cards are
Chris Aguilar's "Vectorized Playing Cards", 11c.svg ... 13s.svg, 225 x 314 units each). Output:
--per-card DIR/<id>.svg (jack_heart ... king_spade), each the card's framed picture alone: the
view box is cut to the blue frame, so the deck's own corner indices are left out (the game draws
its own index and wild mark beside the picture, hand/card_view.gd). --source FILE.svgz gets all
twelve in one gzipped file, the source shipped next to the PNGs as the LGPL asks.
"""

import argparse
import gzip
import pathlib
import re
import sys
import xml.etree.ElementTree as ET

RANKS = {"jack": 11, "queen": 12, "king": 13}
SUITS = {"heart": "h", "diamond": "d", "club": "c", "spade": "s"}
# The deck's card box, and the frame around every court picture in it (the frame path, fill
# #131F67, lies within x 29.5-196, y 23-290 on all twelve; a little margin keeps its line whole).
CARD_BOX = "0 0 225 314"
FRAME = (28.0, 22.0, 170.0, 270.0)
FRAME_FILL = 'fill="#131F67"'


def die(msg: str) -> None:
    print(f"court_cards.py: {msg}", file=sys.stderr)
    sys.exit(1)


def cut(text: str, name: str) -> str:
    """The card's SVG with its view box cut down to the frame."""
    if f'viewBox="{CARD_BOX}"' not in text or FRAME_FILL not in text:
        die(f"{name}: not the deck's layout (view box {CARD_BOX} and a {FRAME_FILL} frame expected)")
    x, y, w, h = FRAME
    out, n = re.subn(
        r'viewBox="0 0 225 314" width="225" height="314"',
        f'viewBox="{x} {y} {w} {h}" width="{w}" height="{h}"',
        text,
        count=1,
    )
    if n != 1:
        die(f"{name}: the root element's size attributes changed")
    try:
        ET.fromstring(out.encode("utf-8"))
    except ET.ParseError as e:
        die(f"{name}: not well-formed after the cut: {e}")
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cards", type=pathlib.Path, required=True, help="the package's cards/ folder")
    ap.add_argument("--per-card", type=pathlib.Path, required=True)
    ap.add_argument("--source", type=pathlib.Path, required=True)
    args = ap.parse_args()
    args.per_card.mkdir(parents=True, exist_ok=True)
    bundle = [
        "<!--\nCourt pictures of Chris Aguilar's Vectorized Playing Cards (LGPL-3.0), as packed in\n"
        "the npm package @younestouati/playing-cards-standard-deck 3.0.0, each cut to its frame by\n"
        "tools/gen-assets cards. One <svg> per card below, in the order jack, queen, king x\n"
        "heart, diamond, club, spade. Licence: LICENSE-LGPL-3.txt and LICENSE-GPL-3.txt here.\n-->\n"
        "<courts>\n"
    ]
    for rank, r in RANKS.items():
        for suit, s in SUITS.items():
            src = args.cards / f"{r}{s}.svg"
            if not src.is_file():
                die(f"{src} missing")
            one = cut(src.read_text(encoding="utf-8"), src.name)
            (args.per_card / f"{rank}_{suit}.svg").write_text(one, encoding="utf-8")
            bundle.append(f'<!-- {rank}_{suit} -->\n{one.strip()}\n')
    bundle.append("</courts>\n")
    # mtime=0: the same input gives the same bytes, so re-running changes nothing in git.
    args.source.write_bytes(gzip.compress("".join(bundle).encode("utf-8"), mtime=0))


if __name__ == "__main__":
    main()
