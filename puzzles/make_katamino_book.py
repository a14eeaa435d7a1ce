"""Make kamicp's own Katamino book (puzzles/katamino/book.json): challenge lines found by kamicp itself.

    .venv/bin/python puzzles/make_katamino_book.py

A *designed* line is grown piece by piece at random (fixed seeds) so that every width from its start to
its end is solvable under the game's rule (the I lies lengthwise), backtracking when no piece extends
it; a *random* line is random pieces in a random order, whatever its widths turn out to be (some are
impossible, which `kamicp katamino` proves). Deterministic: fixed seeds. The game's own books are its
publisher's; these lines are not taken from them.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from kamicp.katamino import LETTERS, KataminoStatus, Puzzle, solve_katamino  # noqa: E402

# (name, pieces in the line, start width, seed); designed lines first, then random ones
DESIGNED = [(f"D{k:02d}", n, start, 100 + k) for k, (n, start) in enumerate(
    [(3, 3), (4, 3), (5, 3), (5, 4), (6, 3), (6, 4), (7, 3), (7, 5), (8, 3), (8, 4), (9, 3), (9, 5),
     (10, 3), (10, 4), (11, 3), (11, 5), (12, 3), (12, 4)], start=1)]
RANDOM = [(f"R{k:02d}", n, start, 200 + k) for k, (n, start) in enumerate(
    [(5, 3), (7, 3), (8, 5), (10, 3), (12, 3), (12, 6)], start=1)]


def solvable(pieces: str) -> bool:
    return solve_katamino(Puzzle(5, len(pieces), pieces)).status is KataminoStatus.SOLVED


def grow(line: str, n: int, start: int, rng: random.Random) -> str | None:
    """Extend `line` to n pieces so that every prefix of length >= start is solvable (depth first)."""
    if len(line) == n:
        return line
    for letter in rng.sample([x for x in LETTERS if x not in line], 12 - len(line)):
        longer = line + letter
        if len(longer) < start or solvable(longer):
            found = grow(longer, n, start, rng)
            if found:
                return found
    return None


def main() -> None:
    challenges = []
    for name, n, start, seed in DESIGNED:
        line = grow("", n, start, random.Random(seed))
        assert line is not None, name
        challenges.append({"name": name, "pieces": line, "start": start})
    for name, n, start, seed in RANDOM:
        challenges.append({"name": name, "pieces": "".join(random.Random(seed).sample(LETTERS, n)), "start": start})
    body = ",\n".join(f"    {json.dumps(c)}" for c in challenges)
    text = ('{\n  "name": "kamicp sampler",\n  "rule": "katamino",\n'
            f'  "challenges": [\n{body}\n  ]\n}}\n')
    out = HERE / "katamino" / "book.json"
    out.parent.mkdir(exist_ok=True)
    out.write_text(text)
    print(f"wrote {out} ({len(challenges)} challenges)")


if __name__ == "__main__":
    main()
