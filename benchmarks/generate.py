"""Generate a harder benchmark set of `-proper` levels (every blob its own region).

A 29 x 10 triangle board is cut into `blobs` connected blobs (random multi-source growth), and the
blobs are coloured with 5 colours so that touching blobs always differ ("proper"): every blob is its
own region. `mirror` levels are left-right symmetric (each half grown, the right half mirrored).
Fixed seeds make the set reproducible; the committed files in benchmarks/levels/ came from

    .venv/bin/python benchmarks/generate.py --out benchmarks/levels

Files are named gen-tri-<blobs>b5c[-mirror]-proper-s<seed>.json (bench naming, prefixed gen-).
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kamicp.board.level import Level  # noqa: E402
from kamicp.board.regions import regions_of  # noqa: E402

ROWS, COLS = 29, 10
KEYS = "ABCDE"
PALETTE = {"A": "#e9d8a6", "B": "#005f73", "C": "#ae2012", "D": "#0a9396", "E": "#ee9b00"}
# (blobs, mirror, seed): 60-150 blobs, 5 colours
SET = [
    (60, False, 700), (70, True, 701), (80, False, 702), (90, True, 703),
    (100, False, 704), (110, True, 705), (120, False, 706), (135, False, 707), (150, True, 708),
]


def grow(adj: list[list[int]], cells: list[int], blobs: int, rng: random.Random) -> dict[int, int]:
    """Random multi-source growth of `blobs` connected blobs covering `cells`."""
    allowed = set(cells)
    seeds = rng.sample(cells, blobs)
    owner = {c: b for b, c in enumerate(seeds)}
    frontier = [(c, w) for c in seeds for w in adj[c] if w in allowed]
    while frontier:
        k = rng.randrange(len(frontier))
        frontier[k], frontier[-1] = frontier[-1], frontier[k]
        src, cell = frontier.pop()
        if cell in owner:
            continue
        owner[cell] = owner[src]
        frontier.extend((cell, w) for w in adj[cell] if w in allowed and w not in owner)
    return owner


def colour(adj: list[list[int]], owner: dict[int, int], blobs: int, rng: random.Random) -> list[str] | None:
    """A proper 5-colouring of the blob graph (random greedy, smallest-last order), or None."""
    nbrs: list[set[int]] = [set() for _ in range(blobs)]
    for c, b in owner.items():
        for w in adj[c]:
            if w in owner and owner[w] != b:
                nbrs[b].add(owner[w])
    order = sorted(range(blobs), key=lambda b: (len(nbrs[b]), rng.random()), reverse=True)
    col: dict[int, str] = {}
    for b in order:
        free = [k for k in KEYS if all(col.get(n) != k for n in nbrs[b])]
        if not free:
            return None
        col[b] = rng.choice(free)
    return [col[b] for b in range(blobs)]


def make(blobs: int, mirror: bool, seed: int) -> Level:
    rng = random.Random(seed)
    base = Level.from_rows(["A" * COLS] * ROWS, "triangle")
    adj = base.adjacency()
    for _attempt in range(1000):
        if mirror:
            half = [r * COLS + c for r in range(ROWS) for c in range(COLS // 2)]
            owner_half = grow(adj, half, blobs // 2, rng)
            cols = colour(adj, owner_half, blobs // 2, rng)
            if cols is None:
                continue
            grid = [["."] * COLS for _ in range(ROWS)]
            for cell, b in owner_half.items():
                r, c = divmod(cell, COLS)
                grid[r][c] = grid[r][COLS - 1 - c] = cols[b]
        else:
            owner = grow(adj, list(range(ROWS * COLS)), blobs, rng)
            cols = colour(adj, owner, blobs, rng)
            if cols is None:
                continue
            grid = [["."] * COLS for _ in range(ROWS)]
            for cell, b in owner.items():
                r, c = divmod(cell, COLS)
                grid[r][c] = cols[b]
        rows = ["".join(row) for row in grid]
        name = f"gen-tri-{blobs}b5c{'-mirror' if mirror else ''}-proper-s{seed}"
        level = Level.from_rows(rows, "triangle", name=name, palette=PALETTE)
        if len(set(level.colours)) == len(KEYS):
            return level
    raise RuntimeError(f"no proper colouring found for {blobs} blobs, seed {seed}")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="benchmarks/levels", help="directory for the level files")
    args = ap.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for blobs, mirror, seed in SET:
        level = make(blobs, mirror, seed)
        rows = [level_row(level, r) for r in range(ROWS)]
        data = {"name": level.name, "geometry": "triangle", "rows": rows, "palette": PALETTE}
        path = out / f"{level.name}.json"
        path.write_text(json.dumps(data, indent=1) + "\n")
        print(f"{path}: {regions_of(level).size} regions")


def level_row(level: Level, r: int) -> str:
    return "".join(level.colours[level.index((r, c))] for c in range(COLS))


if __name__ == "__main__":
    main()
