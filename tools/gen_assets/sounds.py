"""Synthesizes the game's sound effects as 16-bit mono WAV files (standard library only).

Called by tools/gen-assets. Deterministic: fixed noise seeds, so re-running rewrites identical
files. Each effect is a short sum of enveloped oscillators and filtered noise; levels are kept
below full scale (peak -3 dBFS) so several can overlap without clipping.
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
    total = n(0.07)
    x = highpass(noise(total, 1, 6000), 1200)
    return [3.0 * v * env(i, total, 0.002, 60) for i, v in enumerate(x)]


def play() -> list[float]:
    total = n(0.16)
    slap = highpass(noise(total, 2, 5000), 400)
    return [2.6 * slap[i] * env(i, total, 0.001, 40) + 0.5 * env(i, total, 0.002, 30) * tone(110, i)
            for i in range(total)]


def pass_() -> list[float]:
    return mix(note(392, 0.12, 30, "tri", 0.5), delay(note(330, 0.16, 25, "tri", 0.5), 0.09))


def bomb() -> list[float]:
    total = n(0.9)
    rumble = noise(total, 3, 300)
    out = []
    phase = 0.0
    for i in range(total):
        t = i / RATE
        f = 40 + 110 * math.exp(-6 * t)
        phase += 2 * math.pi * f / RATE
        out.append(env(i, total, 0.003, 4.5) * (0.9 * math.sin(phase) + 2.2 * rumble[i]))
    crack = highpass(noise(n(0.12), 4, 8000), 1500)
    return mix(out, [1.5 * v * env(i, len(crack), 0.001, 35) for i, v in enumerate(crack)])


def four_jokers() -> list[float]:
    boom = bomb()
    chord = mix(*[delay(note(f, 1.1, 3.2, "bell", 0.22), 0.15 + 0.07 * k)
                  for k, f in enumerate((523.25, 659.25, 783.99, 1046.5))])
    return mix(boom, delay(bomb(), 0.25), chord)


def table_cleared() -> list[float]:
    total = n(0.45)
    x = noise(total, 5, 3000)
    x = highpass(x, 500)
    out = []
    for i in range(total):
        t = i / total
        out.append(1.8 * x[i] * math.sin(math.pi * t) ** 2)
    return out


def tribute() -> list[float]:
    return mix(note(659.25, 0.6, 5, "bell", 0.45), delay(note(880.0, 0.6, 5, "bell", 0.45), 0.14))


def win() -> list[float]:
    notes = (523.25, 659.25, 783.99, 1046.5)
    parts = [delay(note(f, 0.5 if k < 3 else 1.0, 4 if k < 3 else 2.5, "bell", 0.4), 0.12 * k)
             for k, f in enumerate(notes)]
    return mix(*parts)


def your_turn() -> list[float]:
    return note(987.77, 0.25, 14, "bell", 0.35)


def tick() -> list[float]:
    return note(1760, 0.05, 80, "sine", 0.3)


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
