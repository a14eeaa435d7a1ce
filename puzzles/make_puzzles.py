"""Make kamicp's own example levels: blob boards grown from random seeds, par set by kamicp itself.

    .venv/bin/python puzzles/make_puzzles.py

Each level is a Voronoi-like partition of a Kami-sized board (29 x 10 triangles or 10 x 16 squares)
into blobs, coloured so that touching blobs differ. Its par is the optimum kamicp proves (the file is
written only when the proof completes). Deterministic: fixed seeds.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

from kamicp import Level, solve
from kamicp.prover.solver import OPTIMAL

HERE = Path(__file__).resolve().parent
PALETTE = {"A": "#e9d8a6", "B": "#005f73", "C": "#ae2012", "D": "#ee9b00", "E": "#0a9396"}

# (name, geometry, rows, cols, blobs, colours, seed)
DESIGNS = [
    ("tri-dawn", "triangle", 29, 10, 10, 3, 11),
    ("tri-harbour", "triangle", 29, 10, 16, 4, 12),
    ("tri-ember", "triangle", 29, 10, 22, 4, 13),
    ("squ-tiles", "square", 10, 16, 9, 3, 21),
    ("squ-quilt", "square", 10, 16, 16, 4, 22),
    ("squ-mosaic", "square", 10, 16, 22, 5, 23),
]


def blob_rows(geometry: str, rows: int, cols: int, blobs: int, colours: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    aspect = 0.5 if geometry == "triangle" else 1.0  # triangle rows are half as tall
    seeds = [(rng.uniform(0, rows), rng.uniform(0, cols)) for _ in range(blobs)]
    owner = [[min(range(blobs), key=lambda b: ((r - seeds[b][0]) * aspect) ** 2 + (c - seeds[b][1]) ** 2
                  + rng.uniform(0, 0.8)) for c in range(cols)] for r in range(rows)]
    level = Level.from_rows(["A" * cols] * rows, geometry)
    touching: dict[int, set[int]] = {b: set() for b in range(blobs)}
    for i, j in level.edges:
        (r1, c1), (r2, c2) = level.labels[i], level.labels[j]
        a, b = owner[r1][c1], owner[r2][c2]
        if a != b:
            touching[a].add(b)
            touching[b].add(a)
    keys = list(PALETTE)[:colours]
    colour: dict[int, str] = {}
    for b in sorted(range(blobs), key=lambda b: -len(touching[b])):
        free = [k for k in keys if all(colour.get(n) != k for n in touching[b])]
        colour[b] = rng.choice(free or keys)
    return ["".join(colour[owner[r][c]] for c in range(cols)) for r in range(rows)]


def main() -> None:
    for name, geometry, rows, cols, blobs, colours, seed in DESIGNS:
        grid = blob_rows(geometry, rows, cols, blobs, colours, seed)
        level = Level.from_rows(grid, geometry, name=name)
        result = solve(level, time_limit=120)
        if result.status != OPTIMAL:
            print(f"{name}: not proven within the limit, skipped")
            continue
        par = len(result.moves)
        data = {"name": name, "geometry": geometry, "rows": grid,
                "palette": {k: PALETTE[k] for k in sorted(set("".join(grid)))}, "par": par}
        (HERE / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
        print(f"{name}: {result.regions} regions, {result.colors} colours, par {par} "
              f"(proven in {result.seconds:.1f} s)")


if __name__ == "__main__":
    main()
