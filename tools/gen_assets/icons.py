"""Draws the main menu's button icons as small SVGs (the game's own art, no third-party files).

Called by tools/gen-assets (the `icons` target): python3 icons.py OUT_DIR. Each icon is a 48x48
line drawing in the table's cream ink (the buttons' text colour), so Godot imports it as a crisp
texture at any size. Deterministic: re-running writes identical files.
"""

import math
import pathlib
import sys

INK = "#F3E3BF"
GOLD = "#E8B64C"


def st(w: float = 3.2, c: str = INK, f: str = "none") -> str:
    """The line style: width, stroke colour, fill."""
    return f'fill="{f}" stroke="{c}" stroke-width="{w}" stroke-linecap="round" stroke-linejoin="round"'


STROKE = st()


def card(x: float, y: float, angle: float) -> str:
    """A card outline 14x20 around (x, y), turned by angle degrees."""
    return (f'<rect x="{x - 7}" y="{y - 10}" width="14" height="20" rx="2.5" '
            f'transform="rotate({angle} {x} {y + 12})" {st(f="#2A1410")}/>')


def gear() -> str:
    teeth = []
    for k in range(8):
        a = math.radians(k * 45)
        x1, y1 = 24 + 13 * math.cos(a), 24 + 13 * math.sin(a)
        x2, y2 = 24 + 19 * math.cos(a), 24 + 19 * math.sin(a)
        teeth.append(f'<line x1="{x1:.2f}" y1="{y1:.2f}" x2="{x2:.2f}" y2="{y2:.2f}" {st(5)}/>')
    return "".join(teeth) + f'<circle cx="24" cy="24" r="12" {STROKE}/><circle cx="24" cy="24" r="4.5" {STROKE}/>'


def star(cx: float, cy: float, r: float) -> str:
    pts = []
    for k in range(10):
        a = math.radians(-90 + k * 36)
        rr = r if k % 2 == 0 else r * 0.45
        pts.append(f"{cx + rr * math.cos(a):.2f},{cy + rr * math.sin(a):.2f}")
    return f'<polygon points="{" ".join(pts)}" {st(2, f=GOLD)}/>'


GLOBE = (f'<circle cx="24" cy="24" r="17" {STROKE}/><ellipse cx="24" cy="24" rx="7.5" ry="17" {STROKE}/>'
         f'<path d="M8 18h32M8 30h32" {STROKE}/>')

ICONS = {
    # Training: a target, rings and a bull's-eye.
    "training": f'<circle cx="24" cy="24" r="18" {STROKE}/><circle cx="24" cy="24" r="10.5" {STROKE}/>'
                f'<circle cx="24" cy="24" r="3.5" fill="{GOLD}"/>',
    # A full match: a fan of three cards.
    "play": card(24, 20, -24) + card(24, 20, 0) + card(24, 20, 24) + f'<circle cx="24" cy="22" r="2.6" fill="{GOLD}"/>',
    "online": GLOBE,
    # Back to the online seat: the globe with an arrow into it.
    "return_online": f'<circle cx="28" cy="24" r="14" {STROKE}/><ellipse cx="28" cy="24" rx="6" ry="14" {STROKE}/>'
                     f'<path d="M4 24h15M13 17l7 7-7 7" {st(c=GOLD)}/>',
    # Continue: a play mark in a ring.
    "continue": f'<circle cx="24" cy="24" r="18" {STROKE}/><path d="M19 15l13 9-13 9z" {st(2, f=GOLD)}/>',
    # The guided first deal: a compass rose.
    "guided": f'<circle cx="24" cy="24" r="18" {STROKE}/><path d="M24 9l5 15-5 15-5-15z" {st(2, f=GOLD)}/>'
              f'<circle cx="24" cy="24" r="2.5" fill="#2A1410"/>',
    # Replays: a turning arrow around a play mark.
    "replays": f'<path d="M38 24a14 14 0 1 1-4.1-9.9" {STROKE}/><path d="M35 7v8h-8" {STROKE}/>'
               f'<path d="M20 17l10 7-10 7z" {st(2, f=GOLD)}/>',
    # Statistics: three bars on a base line.
    "stats": f'<path d="M7 40h34" {STROKE}/><rect x="10" y="24" width="7" height="13" {st(2, f=GOLD)}/>'
             f'<rect x="21" y="12" width="7" height="25" {st(2)}/>'
             f'<rect x="32" y="19" width="7" height="18" {st(2)}/>',
    # Rules: an open book.
    "rules": f'<path d="M24 13c-5-4-12-4-18-2v26c6-2 13-2 18 2 5-4 12-4 18-2V11c-6-2-13-2-18 2z" {STROKE}/>'
             f'<path d="M24 13v26" {STROKE}/><path d="M10 18h9M10 24h9M29 18h9M29 24h9" {st(2)}/>',
    "settings": gear(),
    # Credits: a star over a ribbon.
    "credits": star(24, 20, 14) + f'<path d="M16 33l-4 10 7-3 5 5 1-10M32 33l4 10-7-3-5 5" {st(2.4)}/>',
    # Quit: a door with an arrow out.
    "quit": f'<path d="M22 8H10v32h12" {STROKE}/><path d="M18 24h22M33 17l7 7-7 7" {STROKE}/>',
}


def main() -> None:
    if len(sys.argv) != 2:
        print("usage: icons.py OUT_DIR", file=sys.stderr)
        sys.exit(2)
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, body in ICONS.items():
        svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48">\n'
               f"<!-- {name}: drawn by tools/gen_assets/icons.py -->\n{body}\n</svg>\n")
        (out / f"{name}.svg").write_text(svg, encoding="utf-8")


if __name__ == "__main__":
    main()
