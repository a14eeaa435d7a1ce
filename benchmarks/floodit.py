"""Flood-It with a fixed pivot: the pivot IDA*, the pivot CP-SAT model and auto on random n x n boards.

    .venv/bin/python benchmarks/floodit.py --sizes 6,8,10,12,14 --colours 3,4,5,6 --time-limit 60 \\
        --out benchmarks/results/floodit

Boards: benchmarks/flood_boards.py (square n x n, uniform random colours, seed 100 n + k). Each
engine solves each board from scratch (pivot = top-left cell). The engines must agree on every optimum
they prove. Writes OUT.md (table, command) and OUT.json (records) and prints the table.
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.flood_boards import board, board_options, boards  # noqa: E402
from benchmarks.report import command_line, write  # noqa: E402
from kamicp.floodit import pivot_bound, pivot_game, solve_pivot  # noqa: E402

ENGINES = ("search", "cpsat", "auto")


def main(argv: list[str] | None = None) -> None:
    ap = board_options(__doc__.splitlines()[0], sizes="6,8,10,12,14", out="benchmarks/results/floodit",
                       time_limit_help="seconds per board and engine")
    args = ap.parse_args(argv)
    records = []
    for n, k in boards(args):
        level = board(n, k)
        game = pivot_game(level)
        rec = {"board": level.name, "regions": game.n,
               "bound": pivot_bound(game, 1 << game.start, game.regions.colours[game.start])}
        for engine in ENGINES:
            r = solve_pivot(level, engine=engine, time_limit=args.time_limit)
            rec[engine] = {"status": r.status, "optimum": r.optimum, "lower": r.lower_bound,
                           "upper": r.upper_bound, "seconds": r.seconds}
        optima = {rec[e]["optimum"] for e in ENGINES} - {None}
        if len(optima) > 1:
            raise SystemExit(f"engines disagree on {level.name}: {rec}")
        records.append(rec)
        print(f"{level.name} done", file=sys.stderr)
    command = command_line("floodit.py", argv)
    lines = ["| board | regions | root bound | optimum | search s | cpsat s | auto s | "
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
    write(args.out, command, "\n".join(lines), {"records": records})


if __name__ == "__main__":
    main()
