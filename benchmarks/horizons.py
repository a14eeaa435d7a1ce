"""Horizon by horizon: the search's outcome, time, nodes and nodes per second on one level.

For measuring the search core itself (node counts are machine-independent; rates are not):

    .venv/bin/python benchmarks/horizons.py benchmarks/levels/gen-tri-90b5c-mirror-proper-s703.json --from 6 --to 8 \\
        --time-limit 60 [--no-gather] [--no-ring] [--no-por] [--no-por-adjacent] [--python] [--table-limit N] \\
        [--clusters N]

To compare another build of the compiled core (node counts and rates, in one run), use
`benchmarks/core_check.py`.

Each horizon runs in the same search object (as in `solve`), so its table carries over; the loop stops
at the first horizon that is feasible or times out. Prints a Markdown table, row by row; `--out` also writes
OUT.md and OUT.json (benchmarks/report.py).
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, write  # noqa: E402
from kamicp.board.regions import regions_of  # noqa: E402
from kamicp.formats import load_level  # noqa: E402
from kamicp.prover.bounds import lower_bound  # noqa: E402
from kamicp.prover.search import CompiledIDAStar, IDAStar, SearchTimeout  # noqa: E402
from kamicp.runtime.clock import Deadline  # noqa: E402


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("level")
    ap.add_argument("--from", dest="start", type=int, default=None, help="first horizon (default: lower bound)")
    ap.add_argument("--to", type=int, default=30)
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per horizon")
    ap.add_argument("--no-gather", action="store_true", help="prune without the gathering refinement")
    ap.add_argument("--no-ring", action="store_true", help="prune without the ring rule of the radius bound")
    ap.add_argument("--no-por", action="store_true", help="without the commuting-move order")
    ap.add_argument("--no-por-adjacent", action="store_true", help="the commuting-move order between "
                    "non-adjacent moves only")
    ap.add_argument("--python", action="store_true", help="the pure-Python reference search")
    ap.add_argument("--clusters", type=int, default=0, help="prune one-island nodes also by the cluster gathering "
                    "cost of up to N regions per colour (models/bounds.md)")
    ap.add_argument("--table-limit", type=int, default=3_000_000, help="transposition table entries before it "
                    "is cleared (compiled search)")
    args = ap.parse_args(argv)
    level = load_level(args.level)
    regions = regions_of(level)
    k = len(regions.palette)
    if args.python:
        search = IDAStar(regions.adj, regions.colours, k, clusters=args.clusters)
    else:
        search = CompiledIDAStar(regions.adj, regions.colours, k, por=not args.no_por, gather=not args.no_gather,
                                 ring=not args.no_ring, por_adjacent=not args.no_por_adjacent,
                                 table_limit=args.table_limit, clusters=args.clusters)
    bound = lower_bound(regions.adj, regions.colours, k)
    start = bound if args.start is None else args.start
    lines = [f"{level.name}: {regions.size} regions, {k} colours, lower bound {bound}",
             "| horizon | outcome | seconds | nodes | nodes/s |", "|---|---|---|---|---|"]
    print("\n".join(lines))
    rows, before = [], 0
    for steps in range(start, args.to + 1):
        t0 = time.monotonic()
        try:
            plan = search.within(steps, Deadline.slice(args.time_limit))
            outcome = "infeasible" if plan is None else "feasible"
        except SearchTimeout:
            outcome = "timeout"
        dt = time.monotonic() - t0
        nodes = search.nodes - before  # both searches count nodes cumulatively
        before = search.nodes
        rows.append({"horizon": steps, "outcome": outcome, "seconds": dt, "nodes": nodes})
        lines.append(f"| {steps} | {outcome} | {dt:.2f} | {nodes:,} | {nodes / max(dt, 1e-6):,.0f} |")
        print(lines[-1], flush=True)
        if outcome != "infeasible":
            break
    if args.out:
        write(args.out, command_line(__file__, argv), "\n".join(lines), {"level": level.name, "rows": rows},
              echo=False)


if __name__ == "__main__":
    main()
