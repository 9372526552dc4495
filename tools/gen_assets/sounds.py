"""Synthesizes the game's sound effects as 16-bit mono WAV files (standard library only).

Called by tools/gen-assets. Deterministic: fixed noise seeds, so re-running rewrites identical
files. Levels are kept below full scale (peak -3 dBFS) so several can overlap without clipping.

The card sounds are modelled on what makes them, not on tones: a card landing is a burst of noise
through the resonances of stiff paper (a few kHz, gone in ~20 ms) over the dull thump of the felt
under it; a deal is a run of such snaps at irregular gaps (a riffle); a slide is noise swept
through a moving band-pass; a pass is two knuckle knocks on the table (how players say "pass"
without a word). Only the interface cues (your turn, the clock, the win, an error) stay tonal.
"""

import array
import math
import pathlib
import random
import sys
import wave

RATE = 22050


def n(seconds: float) -> int:
    return int(RATE * seconds)


def env(i: int, total: int, attack: float = 0.005, decay: float = 8.0) -> float:
    t = i / RATE
    a = min(1.0, t / attack) if attack > 0 else 1.0
    return a * math.exp(-decay * t) * (1.0 - i / total) ** 0.5


def noise(total: int, seed: int, cutoff: float) -> list[float]:
    """White noise through a one-pole low-pass (cutoff in Hz)."""
    rng = random.Random(seed)
    k = 1.0 - math.exp(-2 * math.pi * cutoff / RATE)
    y, out = 0.0, []
    for _ in range(total):
        y += k * (rng.uniform(-1, 1) - y)
        out.append(y)
    return out


def highpass(x: list[float], cutoff: float) -> list[float]:
    k = math.exp(-2 * math.pi * cutoff / RATE)
    out, prev_x, prev_y = [], 0.0, 0.0
    for v in x:
        prev_y = k * (prev_y + v - prev_x)
        prev_x = v
        out.append(prev_y)
    return out


def resonator(x: list[float], freq: float, q: float) -> list[float]:
    """A two-pole band-pass (a damped resonance at `freq` Hz, quality `q`) driven by `x`."""
    w = 2 * math.pi * freq / RATE
    alpha = math.sin(w) / (2 * q)
    b0, a0, a1, a2 = alpha, 1 + alpha, -2 * math.cos(w), 1 - alpha
    out, x1, x2, y1, y2 = [], 0.0, 0.0, 0.0, 0.0
    for v in x:
        y = (b0 * v - b0 * x2 - a1 * y1 - a2 * y2) / a0
        x2, x1, y2, y1 = x1, v, y1, y
        out.append(y)
    return out


def burst(seconds: float, seed: int, decay: float) -> list[float]:
    """White noise under a sharp attack and an exponential decay (the excitation of a hit)."""
    rng = random.Random(seed)
    total = n(seconds)
    return [rng.uniform(-1, 1) * env(i, total, 0.0008, decay) for i in range(total)]


def snap(seed: int, gain: float = 1.0, bright: float = 1.0) -> list[float]:
    """One card landing: paper resonances over the felt's thump."""
    hit = burst(0.09, seed, 70)
    paper = mix(resonator(hit, 1900 * bright, 2.5), resonator(hit, 3400 * bright, 3.0), [0.35 * v for v in highpass(hit, 2500)])
    knock = burst(0.12, seed + 100, 35)
    felt = resonator(knock, 140, 1.2)
    return [gain * (1.4 * p + 6.0 * f) for p, f in zip(paper, felt + [0.0] * (len(paper) - len(felt)))]


def slide(seconds: float, seed: int, start_hz: float, end_hz: float) -> list[float]:
    """A card drawn across the cloth: noise through a band-pass moving from start to end."""
    rng = random.Random(seed)
    total = n(seconds)
    out, x1, x2, y1, y2 = [], 0.0, 0.0, 0.0, 0.0
    for i in range(total):
        t = i / total
        freq = start_hz + (end_hz - start_hz) * t
        w = 2 * math.pi * freq / RATE
        alpha = math.sin(w) / 3.0
        b0, a0, a1, a2 = alpha, 1 + alpha, -2 * math.cos(w), 1 - alpha
        v = rng.uniform(-1, 1)
        y = (b0 * v - b0 * x2 - a1 * y1 - a2 * y2) / a0
        x2, x1, y2, y1 = x1, v, y1, y
        out.append(y * math.sin(math.pi * t) ** 1.5)
    return out


def tone(freq: float, i: int, kind: str = "sine") -> float:
    ph = 2 * math.pi * freq * i / RATE
    if kind == "sine":
        return math.sin(ph)
    if kind == "tri":
        return 2 / math.pi * math.asin(math.sin(ph))
    return math.sin(ph) + 0.3 * math.sin(2 * ph) + 0.15 * math.sin(3 * ph)


def mix(*tracks: list[float]) -> list[float]:
    total = max(len(t) for t in tracks)
    return [sum(t[i] for t in tracks if i < len(t)) for i in range(total)]


def delay(x: list[float], seconds: float) -> list[float]:
    return [0.0] * n(seconds) + x


def note(freq: float, seconds: float, decay: float, kind: str = "bell", gain: float = 1.0) -> list[float]:
    total = n(seconds)
    return [gain * env(i, total, 0.004, decay) * tone(freq, i, kind) for i in range(total)]


def deal() -> list[float]:
    # A short riffle: five snaps at irregular gaps, the last one settling.
    rng = random.Random(11)
    parts, at = [], 0.0
    for k in range(5):
        parts.append(delay(snap(20 + k, 0.55 + 0.1 * k, 0.9 + 0.25 * rng.random()), at))
        at += 0.018 + 0.014 * rng.random()
    return mix(*parts)


def play() -> list[float]:
    # Cards put down together: a main snap and the fan of cards under it a few ms later.
    return mix(snap(2, 1.0), delay(snap(3, 0.5, 1.15), 0.007), delay(snap(4, 0.3, 0.85), 0.016))


def pass_() -> list[float]:
    # Two knuckle knocks on the table: a wooden resonance, the second softer.
    def knock(seed: int, gain: float) -> list[float]:
        hit = burst(0.16, seed, 55)
        wood = mix(resonator(hit, 210, 8.0), [0.5 * v for v in resonator(hit, 520, 6.0)])
        return [gain * v for v in wood]
    return mix(knock(31, 1.0), delay(knock(32, 0.7), 0.11))


def bomb() -> list[float]:
    # The cards slammed down, then the table's boom: a falling sine in a low rumble.
    total = n(0.9)
    rumble = noise(total, 3, 300)
    out = []
    phase = 0.0
    for i in range(total):
        t = i / RATE
        f = 40 + 110 * math.exp(-6 * t)
        phase += 2 * math.pi * f / RATE
        out.append(env(i, total, 0.003, 4.5) * (0.9 * math.sin(phase) + 2.2 * rumble[i]))
    slam = mix(snap(41, 1.6, 0.8), delay(snap(42, 1.0), 0.006), delay(snap(43, 0.8, 1.2), 0.012))
    return mix([0.6 * v for v in out], slam)


def four_jokers() -> list[float]:
    boom = bomb()
    chord = mix(*[delay(note(f, 1.1, 3.2, "bell", 0.22), 0.15 + 0.07 * k)
                  for k, f in enumerate((523.25, 659.25, 783.99, 1046.5))])
    return mix(boom, delay(bomb(), 0.25), chord)


def table_cleared() -> list[float]:
    # The trick swept together: two slides across the cloth and the pile squared with a tap.
    return mix(slide(0.32, 5, 900, 2600), delay(slide(0.28, 6, 1200, 3000), 0.09), delay(snap(7, 0.5, 0.8), 0.36))


def tribute() -> list[float]:
    # A card handed over: slid across the table and put down.
    return mix(slide(0.42, 8, 700, 3200), delay(snap(9, 0.9), 0.4))


def win() -> list[float]:
    notes = (523.25, 659.25, 783.99, 1046.5)
    parts = [delay(note(f, 0.5 if k < 3 else 1.0, 4 if k < 3 else 2.5, "bell", 0.4), 0.12 * k)
             for k, f in enumerate(notes)]
    return mix(*parts)


def your_turn() -> list[float]:
    return note(987.77, 0.25, 14, "bell", 0.35)


def tick() -> list[float]:
    # A wood-block tick (a clock on the table), not a beep.
    hit = burst(0.06, 51, 90)
    return mix(resonator(hit, 1250, 12.0), [0.4 * v for v in resonator(hit, 2900, 10.0)])


def error() -> list[float]:
    return mix(note(196, 0.18, 12, "tri", 0.45), note(207.65, 0.18, 12, "tri", 0.45))


SOUNDS = {
    "deal": deal,
    "play": play,
    "pass": pass_,
    "bomb": bomb,
    "four_jokers": four_jokers,
    "table_cleared": table_cleared,
    "tribute": tribute,
    "win": win,
    "your_turn": your_turn,
    "tick": tick,
    "error": error,
}


def write(path: pathlib.Path, samples: list[float]) -> None:
    peak = max(1e-9, max(abs(v) for v in samples))
    scale = 0.7 / peak * 32767  # -3 dBFS peak
    fade = n(0.005)
    data = array.array("h")
    for i, v in enumerate(samples):
        if i >= len(samples) - fade:
            v *= (len(samples) - i) / fade
        data.append(max(-32767, min(32767, int(round(v * scale)))))
    if sys.byteorder == "big":
        data.byteswap()
    with wave.open(str(path), "wb") as w:
        w.setnchannels(1)
        w.setsampwidth(2)
        w.setframerate(RATE)
        w.writeframes(data.tobytes())


def main() -> int:
    out = pathlib.Path(sys.argv[1])
    out.mkdir(parents=True, exist_ok=True)
    for name, make in SOUNDS.items():
        path = out / f"{name}.wav"
        write(path, make())
        print(f"sounds: {path} ({path.stat().st_size // 1024} KiB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
