"""Counting optimal Flood-It solutions: what the count (kamicp.floodit.count_pivot) adds to proving the
optimum, on the random n x n boards of benchmarks/flood_boards.py (those of benchmarks/floodit.py).

    .venv/bin/python benchmarks/floodit_count.py --sizes 6,8,10 --colours 3,4,5,6 --time-limit 60 \\
        --out benchmarks/results/floodit_count

Each board: `solve_pivot` alone (the pivot IDA*), then `count_pivot` (the same solve, then the memoised
count pruned by the pivot bound), both from scratch, pivot = top-left cell. Writes OUT.md (table,
command) and OUT.json (records) and prints the table; the ratio is count / solve in the same run.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.flood_boards import board, board_options, boards  # noqa: E402
from benchmarks.report import command_line, write  # noqa: E402
from kamicp.floodit import count_pivot, solve_pivot  # noqa: E402


def measure(n: int, k: int, time_limit: float) -> dict:
    level = board(n, k)
    t0 = time.monotonic()
    solved = solve_pivot(level, engine="search", time_limit=time_limit)
    t1 = time.monotonic()
    counted = count_pivot(level, engine="search", time_limit=time_limit)
    t2 = time.monotonic()
    if solved.optimum is not None and counted.optimum is not None:
        assert solved.optimum == counted.optimum, level.name
    return {"board": level.name, "optimum": counted.optimum, "solutions": counted.solutions,
            "complete": counted.complete, "solve_s": round(t1 - t0, 4), "count_s": round(t2 - t1, 4)}


def main(argv: list[str] | None = None) -> None:
    ap = board_options(__doc__.splitlines()[0], sizes="6,8,10", out="benchmarks/results/floodit_count",
                       time_limit_help="seconds per board, for each of the two")
    args = ap.parse_args(argv)
    records = [measure(n, k, args.time_limit) for n, k in boards(args)]
    command = command_line("floodit_count.py", argv)
    lines = ["| board | optimum | solutions (= classes) | solve s | count s | count / solve |",
             "|---|---|---|---|---|---|"]
    for r in records:
        solutions = str(r["solutions"]) if r["complete"] else f"≥ {r['solutions']} (time limit)"
        ratio = r["count_s"] / r["solve_s"] if r["solve_s"] > 0 else float("nan")
        lines.append(f"| {r['board']} | {r['optimum'] if r['optimum'] is not None else '?'} | {solutions} | "
                     f"{r['solve_s']:.3f} | {r['count_s']:.3f} | {ratio:.2f}x |")
    write(args.out, command, "\n".join(lines), {"records": records})


if __name__ == "__main__":
    main()
