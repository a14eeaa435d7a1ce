"""Katamino: CP-SAT vs Algorithm X (DLX) on every piece set for 5 x N, and on the rectangle counts.

    .venv/bin/python benchmarks/katamino.py --min-n 3 --max-n 8 --time-limit 30 \\
        --counts 3x20,4x15,5x12,6x10 --out benchmarks/results/katamino

Part 1: for N = min-n..max-n, every set of N distinct pentominoes on the 5 x N board: one solution or a
proof that none exists, by each engine (per set at most --time-limit s). The engines must agree. Part 2:
all 12 pentominoes on the named rectangles, every solution counted (and up to symmetry) by each engine.
Writes OUT.md (tables, the command) and OUT.json (every record), and prints the tables.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import combinations
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kamicp.katamino import LETTERS, Puzzle, Status, impossibility, shorthand, solve_katamino  # noqa: E402

ENGINES = ("cpsat", "dlx")


def piece_sets(min_n: int, max_n: int, limit: int | None) -> list[dict]:
    records = []
    for n in range(min_n, max_n + 1):
        for combo in list(combinations(LETTERS, n))[:limit]:
            puzzle = Puzzle(5, n, "".join(combo))
            rec = {"n": n, "pieces": puzzle.pieces, "quick": impossibility(puzzle)}
            for engine in ENGINES:
                start = time.perf_counter()
                result = solve_katamino(puzzle, engine=engine, time_limit=ARGS.time_limit)
                rec[engine] = {"status": result.status.value, "seconds": round(time.perf_counter() - start, 4)}
            known = {rec[e]["status"] for e in ENGINES} - {Status.UNKNOWN.value}
            if len(known) > 1:
                raise SystemExit(f"engines disagree on 5x{n} {puzzle.pieces}: {rec}")
            records.append(rec)
        print(f"5x{n}: {sum(r['n'] == n for r in records)} sets", file=sys.stderr)
    return records


def counts(boards: list[str]) -> list[dict]:
    records = []
    for board in boards:
        rec: dict = {"board": board}
        for engine in ENGINES:
            start = time.perf_counter()
            result = solve_katamino(shorthand(board, LETTERS), engine=engine, count=True,
                                    time_limit=ARGS.count_time_limit)
            rec[engine] = {"count": result.count, "distinct": result.distinct, "complete": result.complete,
                           "seconds": time.perf_counter() - start}
        records.append(rec)
        print(f"{board}: counted", file=sys.stderr)
    return records


def _ratio(a: float, b: float) -> str:
    return f"{a / b:.2f}x" if b > 0 else "-"


def sets_table(records: list[dict]) -> list[str]:
    lines = ["| board | sets | solvable | impossible (quick reason) | impossible (searched) | unknown | "
             "cpsat s | dlx s | dlx / cpsat |", "|---|---|---|---|---|---|---|---|---|"]
    for n in sorted({r["n"] for r in records}):
        rows = [r for r in records if r["n"] == n]
        status = [next((r[e]["status"] for e in ENGINES if r[e]["status"] != "unknown"), "unknown") for r in rows]
        quick = sum(r["quick"] is not None for r in rows)
        t = {e: sum(r[e]["seconds"] for r in rows) for e in ENGINES}
        lines.append(f"| 5x{n} | {len(rows)} | {status.count('solved')} | {quick} | "
                     f"{status.count('impossible') - quick} | {status.count('unknown')} | {t['cpsat']:.2f} | "
                     f"{t['dlx']:.2f} | {_ratio(t['dlx'], t['cpsat'])} |")
    return lines


def counts_table(records: list[dict]) -> list[str]:
    lines = ["| board | solutions | up to symmetry | cpsat s | dlx s | dlx / cpsat |", "|---|---|---|---|---|---|"]
    for r in records:
        done = [r[e] for e in ENGINES if r[e]["complete"]]
        cnt = f"{done[0]['count']}" if done else f">= {max(r[e]['count'] or 0 for e in ENGINES)}"
        dis = f"{done[0]['distinct']}" if done else "?"
        cell = {e: f"{r[e]['seconds']:.1f}" + ("" if r[e]["complete"] else " (t/o)") for e in ENGINES}
        lines.append(f"| {r['board']} | {cnt} | {dis} | {cell['cpsat']} | {cell['dlx']} | "
                     f"{_ratio(r['dlx']['seconds'], r['cpsat']['seconds'])} |")
    return lines


def main(argv: list[str] | None = None) -> None:
    global ARGS
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--min-n", type=int, default=3)
    ap.add_argument("--max-n", type=int, default=8)
    ap.add_argument("--limit", type=int, default=None, help="at most this many piece sets per N (smoke runs)")
    ap.add_argument("--time-limit", type=float, default=30.0, help="seconds per piece set and engine")
    ap.add_argument("--counts", default="3x20,4x15,5x12,6x10", help="rectangles to count (comma-separated)")
    ap.add_argument("--count-time-limit", type=float, default=600.0, help="seconds per count and engine")
    ap.add_argument("--out", default="benchmarks/results/katamino", help="output path without extension")
    ARGS = ap.parse_args(argv)
    sets = piece_sets(ARGS.min_n, ARGS.max_n, ARGS.limit)
    rects = counts([b for b in ARGS.counts.split(",") if b])
    command = "python benchmarks/katamino.py " + " ".join(argv if argv is not None else sys.argv[1:])
    md = [f"`{command}`", "", *sets_table(sets), "", *counts_table(rects)]
    out = Path(ARGS.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".md").write_text("\n".join(md) + "\n")
    data = {"command": command, "sets": sets, "counts": rects}
    out.with_suffix(".json").write_text(json.dumps(data, separators=(",", ":")))
    print("\n".join(md))


ARGS = argparse.Namespace()

if __name__ == "__main__":
    main()
