"""The pivot test at the search's nodes (models/pivot-free.md, "At the search's nodes"): node counts and seconds
per horizon of the compiled search without it, with its A* form, and with both forms, in one run.

    .venv/bin/python benchmarks/pivot_search.py --horizon-seconds 60 --out benchmarks/results/pivot-search-levels \\
        benchmarks/levels/*.json
    .venv/bin/python benchmarks/pivot_search.py --horizon-seconds 30 --out benchmarks/results/pivot-search-bench \\
        /work/shared/bench/*.json

Per level, three compiled searches as `solve` builds them (clusters of 8, the commuting order): without the test
(`--no search-pivot`), with its A* only (`SearchOptions().pivot` far regions, where the plain bound leaves
`SearchOptions().pivot_slack` moves of slack), and with the layered bound of the pivot games first at every node
(`solve`'s default), each one object for all horizons (its table carries over), interleaved horizon by horizon from
the root bound without the pivot relation (so the horizons the root's pivot term skips are measured too) until all
have found a plan or one ran out of its seconds (`--variants` chooses which run, `--from`/`--to` the horizons). Node
counts do not depend on the machine's load; seconds do (same-run ratios only). All must find plans of the same
length where they finish.
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

OPTS = SearchOptions()


def one_horizon(search: CompiledIDAStar, steps: int, seconds: float) -> dict:
    before, stats, t0 = search.nodes, search.pivot_stats(), time.monotonic()
    try:
        outcome = "infeasible" if search.within(steps, Deadline.slice(seconds)) is None else "feasible"
    except SearchTimeout:
        outcome = "timeout"
    after = search.pivot_stats()
    return {"outcome": outcome, "seconds": time.monotonic() - t0, "nodes": search.nodes - before,
            **{key: getattr(after, key) - getattr(stats, key) for key in after._fields}}


# name -> (far regions, the layered bound first): off, the A* only (where the plain bound leaves slack), both
VARIANTS = {"off": (0, False), "astar": (OPTS.pivot, False), "on": (OPTS.pivot, OPTS.pivot_layered)}


def profile(path: str, seconds: float, variants: list[str], first: int | None, last: int | None) -> dict:
    regions = regions_of(load_level(path))
    k = len(regions.palette)
    searches = {name: CompiledIDAStar(regions.adj, regions.colours, k, clusters=OPTS.clusters,
                                      pivot=VARIANTS[name][0], pivot_slack=OPTS.pivot_slack,
                                      pivot_layered=VARIANTS[name][1]) for name in variants}
    bound = bound_report(regions.adj, regions.colours, k, clusters=OPTS.clusters).value
    record: dict = {"level": Path(path).name, "regions": regions.size, "bound": bound, "horizons": []}
    start = bound if first is None else first
    for steps in range(start, (start + 29 if last is None else last) + 1):
        row = {"horizon": steps, **{name: one_horizon(s, steps, seconds) for name, s in searches.items()}}
        record["horizons"].append(row)
        print(line(record, row), flush=True)
        outcomes = {row[name]["outcome"] for name in searches}
        if outcomes != {"infeasible"}:
            assert outcomes != {"feasible", "infeasible"}, (path, steps)  # (a plan one search refutes: a bug)
            break
    return record


def cell(run: dict) -> str:
    if run["outcome"] == "not run":
        return "not run"
    mark = {"infeasible": "", "feasible": " plan", "timeout": " t/o"}[run["outcome"]]
    return f"{run['nodes']:,} ({run['seconds']:.1f} s){mark}"


NOT_RUN = {"outcome": "not run"}


def ratios(run: dict, off: dict) -> str:
    """nodes and seconds against the variant without the test, where both finished the horizon"""
    if run["outcome"] in ("timeout", "not run") or off["outcome"] in ("timeout", "not run") or not off["nodes"]:
        return ""
    secs = f", {run['seconds'] / off['seconds']:.2f}x s" if off["seconds"] > 0.05 else ""
    return f"{run['nodes'] / off['nodes']:.2f}x{secs}"


def pruned(run: dict) -> str:
    if run["outcome"] == "not run":
        return ""
    return (f"{run['by_layered']:,} + {run['by_astar']:,} of {run['asked']:,} ({run['astar_asked']:,} A*, "
            f"{run['runs']:,} runs)")


def line(record: dict, row: dict) -> str:
    off, astar, on = (row.get(name, NOT_RUN) for name in VARIANTS)
    return (f"| {record['level']} | {record['regions']} | {row['horizon']} | {cell(off)} | {cell(astar)} | "
            f"{ratios(astar, off)} | {cell(on)} | {ratios(on, off)} | {pruned(on)} |")


def table(records: list[dict]) -> str:
    lines = ["| level | regions | horizon | without: nodes (s) | the A* only: nodes (s) | vs without | "
             "layered bound and A*: nodes (s) | vs without | pruned by the layered bound + the A*, of asked |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        lines += [line(r, row) for row in r["horizons"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("levels", nargs="+")
    ap.add_argument("--horizon-seconds", type=float, default=60.0, help="seconds per horizon and variant")
    ap.add_argument("--variants", default="off,astar,on", help="off (without the test), astar (the A* only), on "
                    "(the layered bound, then the A*), comma-separated")
    ap.add_argument("--from", dest="first", type=int, default=None, help="first horizon (default: the root bound "
                    "without the pivot relation)")
    ap.add_argument("--to", dest="last", type=int, default=None, help="last horizon")
    args = ap.parse_args(argv)
    variants = args.variants.split(",")
    if not variants or set(variants) - set(VARIANTS):
        ap.error("--variants: off, astar, on, comma-separated")
    records = []
    for path in args.levels:
        records.append(profile(path, args.horizon_seconds, variants, args.first, args.last))
        write(args.out, command_line(__file__, argv), table(records), {"records": records}, echo=False)
    write(args.out, command_line(__file__, argv), table(records), {"records": records})


if __name__ == "__main__":
    main()
