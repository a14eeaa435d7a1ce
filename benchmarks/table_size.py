"""Duplicate detection in the free-rules search: the compiled IDA*'s transposition table at several sizes.

A* keeps a closed set of every position it expanded; the compiled IDA* keeps a table of positions with the
largest budget proven insufficient (kamicp/_core/fail_table.hpp), cleared when it reaches `table_limit`
entries. Does it already give what a closed set gives? Every variant runs the same horizons on the same level
in its own search object (as `solve` does: its table carries over from horizon to horizon), the variants
interleaved horizon by horizon, so their node counts and seconds compare within one run:

    nice -n 10 .venv/bin/python benchmarks/table_size.py --limits 3000000,30000000,100000,1 \\
        --to 10 --time-limit 120 --out benchmarks/results/table-size LEVEL.json ...

The first limit is the reference of the ratios; a limit of 1 is a search without a table (cleared at every
store). Node counts are machine-independent; seconds are not (compare ratios within the run). Each variant
stops at its first horizon that is feasible or times out.
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
from kamicp.prover.bounds import bound_report  # noqa: E402
from kamicp.prover.config import SearchOptions  # noqa: E402
from kamicp.prover.search import CompiledIDAStar, SearchTimeout  # noqa: E402
from kamicp.runtime.clock import Deadline  # noqa: E402


def _run_level(path: str, limits: list[int], last: int, seconds: float, clusters: int,
               por: bool) -> tuple[list[str], list[dict]]:
    level = load_level(path)
    regions = regions_of(level)
    k = len(regions.palette)
    searches = {n: CompiledIDAStar(regions.adj, regions.colours, k, table_limit=n, clusters=clusters, por=por)
                for n in limits}
    done = {n: 0 for n in limits}  # nodes before this horizon
    alive = set(limits)
    bound = bound_report(regions.adj, regions.colours, k, clusters=clusters).value
    lines, rows = [], []
    for steps in range(bound, last + 1):
        if not alive:
            break
        cells = {}
        for n in limits:
            if n not in alive:
                continue
            t0 = time.monotonic()
            try:
                plan = searches[n].within(steps, Deadline.slice(seconds))
                outcome = "infeasible" if plan is None else "feasible"
            except SearchTimeout:
                outcome = "timeout"
            dt = time.monotonic() - t0
            nodes = searches[n].nodes - done[n]
            done[n] = searches[n].nodes
            cells[n] = (outcome, dt, nodes)
            rows.append({"level": level.name, "horizon": steps, "table_limit": n, "outcome": outcome,
                         "seconds": dt, "nodes": nodes})
            if outcome != "infeasible":
                alive.discard(n)
        ref = cells.get(limits[0])
        parts = [level.name, str(regions.size), str(steps)]
        for n in limits:
            if n not in cells:
                parts.append("-")
                continue
            outcome, dt, nodes = cells[n]
            text = f"{nodes:,} / {dt:.2f} s" + ("" if outcome == "infeasible" else f" ({outcome})")
            if n != limits[0] and ref and ref[0] == outcome == "infeasible":
                text += f" ({nodes / max(ref[2], 1):.2f}x nodes, {dt / max(ref[1], 1e-6):.2f}x s)"
            parts.append(text)
        lines.append("| " + " | ".join(parts) + " |")
        print(lines[-1], flush=True)
    return lines, rows


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__, raw=True)
    ap.add_argument("levels", nargs="+")
    ap.add_argument("--limits", default="3000000,30000000,100000,1",
                    help="table limits (entries) to compare, the first one the reference")
    ap.add_argument("--to", type=int, default=30, help="last horizon")
    ap.add_argument("--time-limit", type=float, default=120.0, help="seconds per horizon and variant")
    ap.add_argument("--clusters", type=int, default=SearchOptions().clusters, help="cluster sample (0: off)")
    ap.add_argument("--no-por", action="store_true", help="without the commuting-move order (which already removes "
                    "most transpositions)")
    args = ap.parse_args(argv)
    limits = [int(x) for x in args.limits.split(",")]
    head = ["level", "regions", "horizon", *(f"limit {n:,}: nodes / time" for n in limits)]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    print("\n".join(lines), flush=True)
    rows: list[dict] = []
    for path in args.levels:
        more, data = _run_level(path, limits, args.to, args.time_limit, args.clusters, not args.no_por)
        lines += more
        rows += data
    if args.out:
        write(args.out, command_line(__file__, argv), "\n".join(lines), {"limits": limits, "rows": rows},
              echo=False)


if __name__ == "__main__":
    main()
