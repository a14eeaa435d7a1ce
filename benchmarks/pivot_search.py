"""The pivot test at the search's nodes (models/pivot-free.md, "At the search's nodes"): node counts and seconds
per horizon of the compiled search without it and with its forms and settings, in one run.

    .venv/bin/python benchmarks/pivot_search.py --horizon-seconds 60 --out benchmarks/results/pivot-search-levels \\
        benchmarks/levels/*.json
    .venv/bin/python benchmarks/pivot_search.py --horizon-seconds 30 --out benchmarks/results/pivot-search-bench \\
        /work/shared/bench/*.json

Per level, compiled searches as `solve` builds them (clusters of 8, the commuting order), one per variant: without
the test (`off`, `--no search-pivot`), with its A* only (`astar`: `SearchOptions().pivot` far regions, where the
plain bound leaves `SearchOptions().pivot_slack` moves of slack), with the layered bound of the pivot games first
(`on`, `solve`'s default), `on` with the A* only where the plain bound leaves a move of slack (`slack1`, the
default before harder-set.md measured slack 0), and `on` trying every colour (`every-colour`: without useful
colours only, models/useful-colours.md; the others use it as `solve` does), each one object for all horizons (its
table carries over),
interleaved horizon by horizon from the root bound without the pivot relation (so the horizons the root's pivot term
skips are measured too) until all have found a plan or one ran out of its seconds (`--variants` chooses which run,
ratios are against the first; `--from`/`--to` the horizons, `--range` a level's own). Node counts do not depend on
the machine's load; seconds do (same-run ratios only). All must find plans of the same length where they finish.
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


# name -> (far regions, slack the plain bound must leave for the A*, the layered bound first, useful colours only):
# without the test, the A* only (where `solve` asks it), both forms as `solve` runs them, both with the A* only where
# the plain bound leaves a move of slack (the default before the slack-0 measurement, harder-set.md), and `solve`'s
# search trying every colour (as before models/useful-colours.md)
VARIANTS = {"off": (0, OPTS.pivot_slack, False, OPTS.useful),
            "astar": (OPTS.pivot, OPTS.pivot_slack, False, OPTS.useful),
            "on": (OPTS.pivot, OPTS.pivot_slack, OPTS.pivot_layered, OPTS.useful),
            "slack1": (OPTS.pivot, 1, OPTS.pivot_layered, OPTS.useful),
            "every-colour": (OPTS.pivot, OPTS.pivot_slack, OPTS.pivot_layered, False)}
TITLES = {"off": "without", "astar": "the A* only", "on": "both forms (`solve`)", "slack1": "both, A* at slack 1",
          "every-colour": "every colour"}


def profile(path: str, seconds: float, variants: list[str], first: int | None, last: int | None) -> dict:
    regions = regions_of(load_level(path))
    k = len(regions.palette)
    searches = {name: CompiledIDAStar(regions.adj, regions.colours, k, clusters=OPTS.clusters,
                                      pivot=VARIANTS[name][0], pivot_slack=VARIANTS[name][1],
                                      pivot_layered=VARIANTS[name][2], useful=VARIANTS[name][3]) for name in variants}
    bound = bound_report(regions.adj, regions.colours, k, clusters=OPTS.clusters).value
    record: dict = {"level": Path(path).name, "regions": regions.size, "bound": bound, "variants": variants,
                    "horizons": []}
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
    mark = {"infeasible": "", "feasible": " plan", "timeout": " t/o"}[run["outcome"]]
    return f"{run['nodes']:,} ({run['seconds']:.1f} s){mark}"


def ratios(run: dict, base: dict) -> str:
    """nodes and seconds against the first variant, where both finished the horizon"""
    if "timeout" in (run["outcome"], base["outcome"]) or not base["nodes"]:
        return ""
    secs = f", {run['seconds'] / base['seconds']:.2f}x s" if base["seconds"] > 0.05 else ""
    return f"{run['nodes'] / base['nodes']:.2f}x{secs}"


def pruned(run: dict) -> str:
    return (f"{run['by_layered']:,} + {run['by_astar']:,} of {run['asked']:,} ({run['astar_asked']:,} A*, "
            f"{run['runs']:,} runs)")


def line(record: dict, row: dict) -> str:
    first, *rest = record["variants"]
    cells = [cell(row[first])] + [f"{cell(row[name])} | {ratios(row[name], row[first])}" for name in rest]
    return (f"| {record['level']} | {record['regions']} | {row['horizon']} | {' | '.join(cells)} | "
            f"{pruned(row[record['variants'][-1]])} |")


def table(records: list[dict]) -> str:
    first, *rest = records[0]["variants"]
    heads = [f"{TITLES[first]}: nodes (s)"] + [f"{TITLES[name]}: nodes (s) | vs {TITLES[first]}" for name in rest]
    lines = [f"| level | regions | horizon | {' | '.join(heads)} | pruned by the layered bound + the A*, of asked "
             f"({TITLES[records[0]['variants'][-1]]}) |",
             "|---" * (4 + 2 * len(rest) + 1) + "|"]
    for r in records:
        lines += [line(r, row) for row in r["horizons"]]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("levels", nargs="+")
    ap.add_argument("--horizon-seconds", type=float, default=60.0, help="seconds per horizon and variant")
    ap.add_argument("--variants", default="off,astar,on", help="off (without the test), astar (the A* only), on "
                    "(the layered bound, then the A*: solve's), slack1 (both, the A* only where the plain bound "
                    "leaves a move of slack), every-colour (on without useful colours only), comma-separated; "
                    "ratios are against the first")
    ap.add_argument("--from", dest="first", type=int, default=None, help="first horizon (default: the root bound "
                    "without the pivot relation)")
    ap.add_argument("--to", dest="last", type=int, default=None, help="last horizon")
    ap.add_argument("--range", action="append", default=[], metavar="LEVEL=FROM:TO",
                    help="that level's horizons (its file name without .json), in place of --from/--to")
    args = ap.parse_args(argv)
    variants = args.variants.split(",")
    if not variants or set(variants) - set(VARIANTS):
        ap.error("--variants: off, astar, on, slack1, every-colour, comma-separated")
    ranges = {}
    for spec in args.range:
        name, _, span = spec.partition("=")
        low, _, high = span.partition(":")
        if not (low.isdigit() and high.isdigit()):
            ap.error(f"--range {spec}: LEVEL=FROM:TO")
        ranges[name] = int(low), int(high)
    records = []
    for path in args.levels:
        first, last = ranges.get(Path(path).stem, (args.first, args.last))
        records.append(profile(path, args.horizon_seconds, variants, first, last))
        write(args.out, command_line(__file__, argv), table(records), {"records": records}, echo=False)
    write(args.out, command_line(__file__, argv), table(records), {"records": records})


if __name__ == "__main__":
    main()
