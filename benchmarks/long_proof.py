"""Plain `solve`'s long proof (kamicp.prover.long_proof: the race first, then cubes on a local pool) beside the
single search on one core and the single-machine race, in one run.

    .venv/bin/python benchmarks/long_proof.py LEVEL [LEVEL ...] [--workers 1,2] [--engines search,auto]
        [--whole on,off] [--first SECONDS] [--time-limit 600] [--no-race] [--no-single]
        [--out benchmarks/results/long_proof]

For each level: `solve(engine="search")` (the compiled search alone, one core), `solve(engine="auto")` (the
race, two processes), then for each worker count and cube engine `solve_long` (the race for `--first`
seconds, then cubes on that many local worker processes, each cube answered by the engine; with `--whole on,off`
both with and without CP-SAT answering each top-down horizon whole beside the cubes). Wall seconds,
CPU seconds (this process and its reaped children: the race's second process, the pool's workers), and the
ratios of wall time to the single search's. Writes OUT.md and OUT.json with the command.
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import RESULTS, command_line, options, write  # noqa: E402
from kamicp import load_level  # noqa: E402
from kamicp.prover.long_proof import solve_long  # noqa: E402
from kamicp.prover.request import Budget, Request  # noqa: E402
from kamicp.prover.solver import Free  # noqa: E402


def _cpu() -> float:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def _request(path: str, engine: str, time_limit: float) -> Request:
    return Request(load_level(path), Free(), Budget.start(time_limit, engine=engine))


def measure(mode: str, path: str, engine: str, time_limit: float, workers: int = 0, first: float | None = None,
            cube_engine: str = "search", whole: bool = True) -> dict:
    t0, c0 = time.monotonic(), _cpu()
    request = _request(path, engine, time_limit)
    cubes = by_whole = 0
    if workers:
        run = solve_long(request, workers=workers, first=first, engine=cube_engine, whole=whole)
        res, cubes = run.result, sum(h.cubes for h in run.horizons)
        by_whole = sum(h.whole is not None and h.whole.outcome != "unknown" for h in run.horizons)
    else:
        res = request.solve()
    return {"mode": mode, "workers": workers, "status": str(res.status), "optimum": res.optimum,
            "lower": res.lower_bound, "upper": res.upper_bound, "wall": time.monotonic() - t0,
            "cpu": _cpu() - c0, "cubes": cubes, "by_whole": by_whole}


def table(records: list[dict]) -> str:
    lines = ["| level | mode | status | optimum (bounds) | wall s | CPU s | wall vs single search | wall vs the first "
             "row | cubes | horizons answered whole |", "|---|---|---|---|---|---|---|---|---|---|"]
    base = {r["level"]: r["wall"] for r in records if r["mode"] == "single search (1 core)"}
    first = {}
    for r in records:
        first.setdefault(r["level"], r["wall"])
    for r in records:
        bounds = str(r["optimum"]) if r["optimum"] is not None else f"{r['lower']}..{r['upper']}"
        ratio = f"{r['wall'] / base[r['level']]:.2f}x" if r["level"] in base else "-"
        lines.append(f"| {r['level']} | {r['mode']} | {r['status']} | {bounds} | {r['wall']:.1f} | {r['cpu']:.1f} "
                     f"| {ratio} | {r['wall'] / first[r['level']]:.2f}x | {r['cubes'] or '-'} "
                     f"| {r.get('by_whole', 0) or '-'} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__, out=RESULTS / "long_proof")
    ap.add_argument("levels", nargs="+")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--engines", default="search", help="the cube engines to measure (search, auto)")
    ap.add_argument("--first", type=float, default=None, help="the race's seconds (default: the library's)")
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("--no-race", action="store_true", help="no single-machine race row")
    ap.add_argument("--no-single", action="store_true", help="no single-search row")
    ap.add_argument("--whole", default="on", help="CP-SAT on each top-down horizon beside the cubes: on, off or both "
                    "(on,off)")
    args = ap.parse_args(argv)
    records: list[dict] = []

    def add(record: dict) -> None:
        records.append(record)
        print(table(records).splitlines()[-1], flush=True)

    for path in args.levels:
        name = Path(path).stem
        if not args.no_single:
            add({"level": name, **measure("single search (1 core)", path, "search", args.time_limit)})
        if not args.no_race:
            add({"level": name, **measure("race (single machine)", path, "auto", args.time_limit)})
        for engine in args.engines.split(","):
            for n in (int(w) for w in args.workers.split(",")):
                for whole in args.whole.split(","):
                    race = "the default race" if args.first is None else f"race {args.first:g} s"
                    beside = ", CP-SAT whole beside" if whole == "on" and n > 1 else ""
                    mode = f"long proof, {n} worker{'s' if n > 1 else ''}, cubes by {engine}{beside}, {race} first"
                    add({"level": name, **measure(mode, path, "auto", args.time_limit, n, args.first, engine,
                                                  whole == "on")})
    write(args.out, command_line(__file__, argv), table(records), {"records": records})


if __name__ == "__main__":
    main()
