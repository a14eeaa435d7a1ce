"""The pivot test at the search's nodes (models/pivot-free.md, "At the search's nodes"): node counts and seconds
per horizon of the compiled search without and with it, in one run.

    .venv/bin/python benchmarks/pivot_search.py --horizon-seconds 60 --out benchmarks/results/pivot-search-levels \\
        benchmarks/levels/*.json
    .venv/bin/python benchmarks/pivot_search.py --horizon-seconds 30 --out benchmarks/results/pivot-search-bench \\
        /work/shared/bench/*.json

Per level, two compiled searches as `solve` builds them (clusters of 8, the commuting order), one with
`SearchOptions().pivot` far regions and slack `SearchOptions().pivot_slack`, one without (`--no search-pivot`), each
one object for all horizons (its table carries over), the two interleaved horizon by horizon from the root bound
without the pivot relation (so the horizons the root's pivot term skips are measured too) until both have found a
plan or one ran out of its seconds (`--variants on` runs one, `--from`/`--to` choose the horizons). Node counts do
not depend on the machine's load; seconds do (same-run ratios only). Both must find plans of the same length where
both finish.
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
            "tests": after.tests - stats.tests, "prunes": after.prunes - stats.prunes, "runs": after.runs - stats.runs}


VARIANTS = {"off": 0, "on": OPTS.pivot}


def profile(path: str, seconds: float, variants: list[str], first: int | None, last: int | None) -> dict:
    regions = regions_of(load_level(path))
    k = len(regions.palette)
    searches = {name: CompiledIDAStar(regions.adj, regions.colours, k, clusters=OPTS.clusters, pivot=VARIANTS[name],
                                      pivot_slack=OPTS.pivot_slack) for name in variants}
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


NOT_RUN = {"outcome": "not run", "seconds": 0.0, "nodes": 0, "tests": 0, "prunes": 0, "runs": 0}


def line(record: dict, row: dict) -> str:
    off, on = row.get("off", NOT_RUN), row.get("on", NOT_RUN)
    done = off["nodes"] and not {"timeout", "not run"} & {off["outcome"], on["outcome"]}
    ratio = f"{on['nodes'] / off['nodes']:.2f}x" if done else ""
    secs = f"{on['seconds'] / off['seconds']:.2f}x" if off["seconds"] > 0.05 and ratio else ""
    return (f"| {record['level']} | {record['regions']} | {row['horizon']} | {cell(off)} | {cell(on)} | {ratio} | "
            f"{secs} | {on['prunes']:,} of {on['tests']:,} ({on['runs']:,}) |")


def table(records: list[dict]) -> str:
    lines = ["| level | regions | horizon | without: nodes (s) | with the pivot test: nodes (s) | nodes with/without | "
             "seconds with/without | pruned by the test of tested (A* runs) |", "|---|---|---|---|---|---|---|---|"]
    for r in records:
        lines += [line(r, row) for row in r["horizons"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("levels", nargs="+")
    ap.add_argument("--horizon-seconds", type=float, default=60.0, help="seconds per horizon and variant")
    ap.add_argument("--variants", default="off,on", help="off (without the test), on (with it), or both")
    ap.add_argument("--from", dest="first", type=int, default=None, help="first horizon (default: the root bound "
                    "without the pivot relation)")
    ap.add_argument("--to", dest="last", type=int, default=None, help="last horizon")
    args = ap.parse_args(argv)
    variants = args.variants.split(",")
    if not variants or set(variants) - set(VARIANTS):
        ap.error("--variants: off, on or off,on")
    records = []
    for path in args.levels:
        records.append(profile(path, args.horizon_seconds, variants, args.first, args.last))
        write(args.out, command_line(__file__, argv), table(records), {"records": records}, echo=False)
    write(args.out, command_line(__file__, argv), table(records), {"records": records})


if __name__ == "__main__":
    main()
