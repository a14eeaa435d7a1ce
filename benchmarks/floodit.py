"""Flood-It with a fixed pivot: the pivot IDA*, the pivot CP-SAT model and auto on random n x n boards.

    .venv/bin/python benchmarks/floodit.py --sizes 6,8,10,12,14 --colours 3,4,5,6 --time-limit 60 \\
        --out benchmarks/results/floodit

Boards: square n x n, each cell a uniform random colour of k, seed 100 n + k (the tests' boards). Each
engine solves each board from scratch (pivot = top-left cell). The engines must agree on every optimum
they prove. Writes OUT.md (table, command) and OUT.json (records) and prints the table.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from kamicp.floodit import pivot_bound, pivot_game, solve_pivot  # noqa: E402
from kamicp.level import Level  # noqa: E402

ENGINES = ("search", "cpsat", "auto")


def board(n: int, k: int) -> Level:
    rng = random.Random(100 * n + k)
    rows = ["".join(rng.choice("ABCDEF"[:k]) for _ in range(n)) for _ in range(n)]
    return Level.from_rows(rows, "square", name=f"flood-{n}x{n}-{k}c")


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="6,8,10,12,14")
    ap.add_argument("--colours", default="3,4,5,6")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per board and engine")
    ap.add_argument("--out", default="benchmarks/results/floodit", help="output path without extension")
    args = ap.parse_args(argv)
    records = []
    for n in (int(x) for x in args.sizes.split(",")):
        for k in (int(x) for x in args.colours.split(",")):
            level = board(n, k)
            game = pivot_game(level)
            rec = {"board": level.name, "regions": game.n,
                   "bound": pivot_bound(game, 1 << game.start, game.regions.colors[game.start])}
            for engine in ENGINES:
                r = solve_pivot(level, engine=engine, time_limit=args.time_limit)
                rec[engine] = {"status": r.status, "optimum": r.optimum, "lower": r.lower_bound,
                               "upper": r.upper_bound, "seconds": r.seconds}
            optima = {rec[e]["optimum"] for e in ENGINES} - {None}
            if len(optima) > 1:
                raise SystemExit(f"engines disagree on {level.name}: {rec}")
            records.append(rec)
            print(f"{level.name} done", file=sys.stderr)
    command = "python benchmarks/floodit.py " + " ".join(argv if argv is not None else sys.argv[1:])
    lines = [f"`{command}`", "", "| board | regions | root bound | optimum | search s | cpsat s | auto s | "
             "cpsat / search | auto / search |", "|---|---|---|---|---|---|---|---|---|"]

    def cell(r: dict) -> str:
        return f"{r['seconds']:.2f}" if r["status"] == "optimal" else f"t/o {r['lower']}..{r['upper']}"

    def ratio(a: dict, b: dict) -> str:
        ok = a["status"] == b["status"] == "optimal" and b["seconds"] > 0
        return f"{a['seconds'] / b['seconds']:.2f}x" if ok else "-"

    for rec in records:
        opt = next((rec[e]["optimum"] for e in ENGINES if rec[e]["optimum"] is not None), "?")
        lines.append(f"| {rec['board']} | {rec['regions']} | {rec['bound']} | {opt} | {cell(rec['search'])} | "
                     f"{cell(rec['cpsat'])} | {cell(rec['auto'])} | {ratio(rec['cpsat'], rec['search'])} | "
                     f"{ratio(rec['auto'], rec['search'])} |")
    proven = {e: sum(r[e]["status"] == "optimal" for r in records) for e in ENGINES}
    total = {e: sum(r[e]["seconds"] for r in records) for e in ENGINES}
    lines.append(f"| **proven** | | | | {proven['search']}/{len(records)} | {proven['cpsat']}/{len(records)} | "
                 f"{proven['auto']}/{len(records)} | | |")
    lines.append(f"| **total s** | | | | {total['search']:.1f} | {total['cpsat']:.1f} | {total['auto']:.1f} | | |")
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".md").write_text("\n".join(lines) + "\n")
    out.with_suffix(".json").write_text(json.dumps({"command": command, "records": records}, indent=1))
    print("\n".join(lines))


if __name__ == "__main__":
    main()
