"""Make the levels and game files the tests read, with each optimum proven by an independent source.

    .venv/bin/python tests/data/make_data.py

Writes tests/data/levels/*.json (blob boards grown by puzzles/make_puzzles.py's generator from fixed
seeds), tests/data/games/*.puz and *.xml (some of those boards written in the Kami 2 / Kami 1 game
formats by our own writers below, with the proven optimum as par and an optimal official solution), and
tests/data/KNOWN.json: for every level its regions, colours and optimum, and how the optimum was proven:

- `oracle`: the exhaustive breadth-first oracle (tests/helpers/oracle.py, built on the rules engine only), for
  boards of at most ORACLE_REGIONS regions;
- `cpsat+search`: larger boards, proven optimal twice, once by `solve(engine="cpsat")` and once by
  `solve(engine="search")` (the reference IDA*), which must agree; both solutions replay in the rules engine.

Deterministic levels and optima (fixed seeds; only the optimum, never a timing, is recorded); the
official solution written into a game file is an optimal one, not necessarily the same on every run.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's packages: kamicp, tests.helpers, puzzles.make_puzzles

from kamicp import Level, solve  # noqa: E402
from kamicp.board.level import Move  # noqa: E402
from kamicp.board.rules import verify  # noqa: E402
from kamicp.prover.solver import OPTIMAL  # noqa: E402
from puzzles.make_puzzles import PALETTE, blob_rows  # noqa: E402
from tests.helpers.oracle import bfs_optimum  # noqa: E402

ORACLE_REGIONS = 16
COMMAND = ".venv/bin/python tests/data/make_data.py"
# (geometry, blobs, colours, seed); named <tri|squ>-<blobs>b<colours>c-s<seed> like the benchmark levels
DESIGNS = [
    ("triangle", 8, 3, 100), ("triangle", 12, 3, 101), ("triangle", 16, 3, 102), ("triangle", 20, 4, 103),
    ("triangle", 24, 4, 104), ("triangle", 28, 4, 105), ("triangle", 32, 5, 106), ("triangle", 36, 4, 107),
    ("triangle", 40, 5, 108), ("triangle", 44, 4, 109), ("triangle", 48, 5, 110), ("triangle", 10, 3, 111),
    ("triangle", 14, 4, 112), ("triangle", 18, 4, 113),
    ("square", 8, 3, 300), ("square", 14, 4, 301), ("square", 20, 4, 302), ("square", 26, 5, 303),
    ("square", 32, 5, 304), ("square", 38, 4, 305), ("square", 11, 3, 306), ("square", 17, 4, 307),
]
PUZ = ["tri-12b3c-s101", "tri-24b4c-s104", "tri-28b4c-s105"]  # also written as Kami 2 .puz
XML = ["squ-14b4c-s301", "squ-20b4c-s302"]  # also written as Kami 1 PuzzleData XML


def name_of(geometry: str, blobs: int, colours: int, seed: int) -> str:
    return f"{geometry[:3]}-{blobs}b{colours}c-s{seed}"


def prove(level: Level) -> tuple[int, list[Move], str]:
    """The optimum, an optimal solution and the source that proved it."""
    first = solve(level, engine="search", time_limit=600)
    if first.regions <= ORACLE_REGIONS:
        found = bfs_optimum(level, limit=12)
        if found is None:
            raise SystemExit(f"{level.name}: the oracle found no solution within 12 moves")
        optimum, moves = found
        verify(level, moves, max_moves=optimum)
        return optimum, moves, "oracle"
    second = solve(level, engine="cpsat", time_limit=600)
    if first.status != OPTIMAL or second.status != OPTIMAL or len(first.moves) != len(second.moves):
        raise SystemExit(f"{level.name}: the engines disagree or did not finish ({first.status}, {second.status})")
    for result in (first, second):
        verify(level, result.moves, max_moves=len(result.moves))
    return len(second.moves), list(second.moves), "cpsat+search"


# --- the Kami 2 .puz writer (formats: tile k = 2c + s of row r is on the game's screen at column
# C = 9 - r, row R = 20 - 2 lowX - (k + r); kamicp/formats/puz.py) ----------------------------------

LOW_X = -9  # every tile of a 29 x 10 board gets k = 38 - R - r >= 1, so rows of 2W = 40 tiles hold it
WIDTH = 20


def tile_of(label: tuple[int, int]) -> tuple[int, int, int]:
    """The puz (r, c, s) shown at cell `label` (R, C) of the game's 29 x 10 screen."""
    big_r, big_c = label
    r = 9 - big_c
    k = 20 - 2 * LOW_X - big_r - r
    return r, k // 2, k % 2


def rle(tiles: str) -> str:
    """The puz run-length code: `<ch>X<two digits>` for runs of 3-99 (a plain copy of shorter ones)."""
    out, i = [], 0
    while i < len(tiles):
        j = i
        while j < len(tiles) and tiles[j] == tiles[i] and j - i < 99:
            j += 1
        out.append(f"{tiles[i]}X{j - i:02d}" if j - i >= 3 else tiles[i] * (j - i))
        i = j
    return "".join(out)


def puz_text(level: Level, moves: list[Move]) -> str:
    number = {k: str(n) for n, k in enumerate(level.colour_keys, start=1)}
    places = {cell: tile_of(lab) for cell, lab in enumerate(level.labels)}
    width, rows = WIDTH, 10
    tiles = ["0"] * (2 * width * rows)
    index = {cell: r * 2 * width + 2 * c + s for cell, (r, c, s) in places.items()}
    for cell, t in index.items():
        tiles[t] = number[level.colours[cell]]
    solution = "".join(f"{index[m.cell]}{chr(ord('A') + int(number[m.colour]))}" for m in moves)
    return f"01|Default|{LOW_X}|-5|{width}|{len(tiles)}|{rle(''.join(tiles))}|{len(moves)}||0|{solution}"


def xml_text(level: Level, moves: list[Move]) -> str:
    number = {k: str(n) for n, k in enumerate(level.colour_keys, start=1)}
    height, width = level.shape
    grid = [["0"] * width for _ in range(height)]
    for cell, (r, c) in enumerate(level.labels):
        grid[r][c] = number[level.colours[cell]]
    par = len(moves)
    turns = "".join(f'\n    <Turn x="{level.labels[m.cell][1]}" y="{level.labels[m.cell][0]}" '
                    f'colour="{number[m.colour]}"/>' for m in moves)
    return (f'<PuzzleData name="{level.name}" width="{width}" height="{height}" numColours="{len(number)}" '
            f'colours="{"".join("".join(row) for row in grid)}" gold="{par}" silver="{par + 1}" '
            f'bronze="{par + 2}">\n  <Solution length="{par}">{turns}\n  </Solution>\n</PuzzleData>\n')


def main() -> None:
    (HERE / "levels").mkdir(exist_ok=True)
    (HERE / "games").mkdir(exist_ok=True)
    known = {}
    for geometry, blobs, colours, seed in DESIGNS:
        name = name_of(geometry, blobs, colours, seed)
        rows, cols = (29, 10) if geometry == "triangle" else (10, 16)
        grid = blob_rows(geometry, rows, cols, blobs, colours, seed)
        level = Level.from_rows(grid, geometry, name=name)
        optimum, moves, source = prove(level)
        regions = solve(level, engine="search", max_steps=optimum).regions
        used = sorted(set("".join(grid)))
        data = {"name": name, "geometry": geometry, "rows": grid, "palette": {k: PALETTE[k] for k in used},
                "par": optimum}
        (HERE / "levels" / f"{name}.json").write_text(json.dumps(data, indent=1) + "\n")
        known[name] = {"regions": regions, "colours": len(used), "optimum": optimum, "proven_by": source}
        if name in PUZ:
            (HERE / "games" / f"{name}.puz").write_text(puz_text(level, moves) + "\n")
        if name in XML:
            (HERE / "games" / f"{name}.xml").write_text(xml_text(level, moves))
        print(f"{name}: {regions} regions, optimum {optimum} ({source})", flush=True)
    out = {"command": COMMAND, "levels": known}
    (HERE / "KNOWN.json").write_text(json.dumps(out, indent=1) + "\n")


if __name__ == "__main__":
    main()
