"""What the Flood-It benchmarks share (benchmarks/floodit.py, benchmarks/floodit_count.py): their random
n x n boards and the --sizes / --colours / --time-limit / --out options; they write their results with
benchmarks/report.py."""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import options  # noqa: E402
from kamicp.board.level import Level  # noqa: E402


def board(n: int, k: int) -> Level:
    """Square n x n, each cell a uniform random colour of k, seed 100 n + k (the tests' boards)."""
    rng = random.Random(100 * n + k)
    rows = ["".join(rng.choice("ABCDEF"[:k]) for _ in range(n)) for _ in range(n)]
    return Level.from_rows(rows, "square", name=f"flood-{n}x{n}-{k}c")


def board_options(description: str, *, sizes: str, out: str, time_limit_help: str) -> argparse.ArgumentParser:
    """The options of a board benchmark (its own defaults for the sizes and the output path)."""
    ap = options(description, out=out)
    ap.add_argument("--sizes", default=sizes)
    ap.add_argument("--colours", default="3,4,5,6")
    ap.add_argument("--time-limit", type=float, default=60.0, help=time_limit_help)
    return ap


def boards(args: argparse.Namespace) -> Iterator[tuple[int, int]]:
    """(n, k) for every size and number of colours asked, sizes first."""
    for n in (int(x) for x in args.sizes.split(",")):
        for k in (int(x) for x in args.colours.split(",")):
            yield n, k
