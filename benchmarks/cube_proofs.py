"""A distributed proof (solve --dask) on LocalClusters of 1, 2 and 4 workers, beside the single-machine
`auto` solve, in one run.

    .venv/bin/python benchmarks/cube_proofs.py LEVEL [LEVEL ...] [--workers 1,2,4] [--depth 1]
        [--engine auto] [--time-limit 600] [--no NAME ...] [--out benchmarks/results/distributed]

For each level: the single-machine `solve(engine="auto")` (wall time), then for each worker count a fresh
LocalCluster of that many one-thread worker processes (started before the clock, shut down after) and
`kamicp.prover.distributed.solve_distributed` without a store: wall time, the workers' total CPU seconds (each
cube task's own, children included), cubes (tasks sent / all cubes of the horizons tried), and wall time
as a ratio to the single-machine solve; "prepare" is the parent's part before the first cube (the lower
bound and the greedy, beam and rollout solutions, as one machine computes them). `--no cube-order` (the
techniques of `solve --no`): the distributed rows without that technique. `--no-single`: no single-machine
row (the ratio column is then empty). Writes OUT.md and OUT.json with the command.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import RESULTS, command_line, options, write  # noqa: E402
from kamicp import load_level  # noqa: E402
from kamicp.prover.config import options_without  # noqa: E402
from kamicp.prover.distributed import CubeSource, DistributedResult, solve_distributed  # noqa: E402
from kamicp.prover.solver import solve  # noqa: E402
from kamicp.runtime.cluster import connect  # noqa: E402


def single(path: str, time_limit: float) -> dict:
    level = load_level(path)
    t0 = time.monotonic()
    res = solve(level, engine="auto", time_limit=time_limit)
    return {"mode": "single auto", "workers": 0, "status": str(res.status), "optimum": res.optimum,
            "lower": res.lower_bound, "upper": res.upper_bound, "wall": time.monotonic() - t0,
            "prepare": None, "cpu": None, "tasks": None, "cubes": None}


def distributed(path: str, workers: int, depth: int, engine: str, time_limit: float, no: list[str]) -> dict:
    level = load_level(path)
    client, cluster = connect("local", workers)
    try:
        client.wait_for_workers(workers)
        t0 = time.monotonic()
        run: DistributedResult = solve_distributed(level, client, depth=depth, engine=engine, time_limit=time_limit,
                                                   options=options_without(no))
        wall = time.monotonic() - t0
    finally:
        client.close()
        cluster.close()
    answers = [a for h in run.horizons for a in h.answers if a.source == CubeSource.TASK and a.worker != "parent"]
    res = run.result
    mode = f"dask {workers} worker{'s' if workers > 1 else ''}" + "".join(f", no {n}" for n in no)
    return {"mode": mode, "workers": workers,
            "status": str(res.status), "optimum": res.optimum, "lower": res.lower_bound, "upper": res.upper_bound,
            "wall": wall, "prepare": run.prepare_seconds, "cpu": sum(a.cpu_seconds for a in answers),
            "tasks": len(answers),
            "cubes": sum(h.cubes for h in run.horizons), "horizons": [h.to_dict() | {"answers": None}
                                                                      for h in run.horizons]}


def table(records: list[dict]) -> str:
    lines = ["| level | mode | status | optimum (bounds) | wall s | vs single | of which prepare s | worker CPU s "
             "| tasks / cubes |", "|---|---|---|---|---|---|---|---|---|"]
    base = {r["level"]: r["wall"] for r in records if r["workers"] == 0}
    for r in records:
        bounds = str(r["optimum"]) if r["optimum"] is not None else f"{r['lower']}..{r['upper']}"
        ratio = "-" if r["level"] not in base else f"{r['wall'] / base[r['level']]:.2f}x" if r["workers"] else "1.00x"
        cpu = "-" if r["cpu"] is None else f"{r['cpu']:.1f}"
        prep = "-" if r["prepare"] is None else f"{r['prepare']:.1f}"
        tasks = "-" if r["tasks"] is None else f"{r['tasks']} / {r['cubes']}"
        lines.append(f"| {r['level']} | {r['mode']} | {r['status']} | {bounds} | {r['wall']:.1f} | {ratio} | {prep} "
                     f"| {cpu} | {tasks} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__, out=RESULTS / "distributed")
    ap.add_argument("levels", nargs="+")
    ap.add_argument("--workers", default="1,2,4")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--engine", default="auto")
    ap.add_argument("--time-limit", type=float, default=600.0)
    ap.add_argument("--no", action="append", default=[], help="a technique off in the distributed rows")
    ap.add_argument("--no-single", action="store_true", help="no single-machine row")
    args = ap.parse_args(argv)
    records = []
    for path in args.levels:
        name = Path(path).stem
        if not args.no_single:
            records.append({"level": name, **single(path, args.time_limit)})
            print(table(records).splitlines()[-1], flush=True)
        for n in (int(w) for w in args.workers.split(",")):
            records.append({"level": name, **distributed(path, n, args.depth, args.engine, args.time_limit,
                                                                args.no)})
            print(table(records).splitlines()[-1], flush=True)
    write(args.out, command_line(__file__, argv), table(records), {"records": records})


if __name__ == "__main__":
    main()
