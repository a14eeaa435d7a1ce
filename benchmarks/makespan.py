"""Planning a cluster: the simulated makespan of measured cube costs (kamicp.prover.plan) against real
distributed proofs on LocalClusters of 1 and 2 workers, and on 4 to 1000 simulated workers.

    .venv/bin/python benchmarks/makespan.py LEVEL [LEVEL ...] [--workers 1,2] [--engine search]
        [--depth 1] [--time-limit 300] [--out benchmarks/results/makespan]

For each level and each measured worker count: a fresh LocalCluster of that many one-thread worker
processes (started before the clock) and `solve_distributed` without a store; the cube phase is the wall
time less the parent's `prepare`; the costs are the cube tasks' own `seconds` (wall, measured in the task),
in the order answered (Dask runs a client's tasks in the order sent). The per-task overhead is fitted from
the one-worker runs: (cube phase - sum of costs) / tasks, over all levels together. Then each run's own
costs are simulated on its own worker count (simulated / measured: the check of the dispatch model), the
one-worker run's costs on the same count (what a plan would predict from them), and the one-worker run's
costs on 1, 2, 4, 16, 100 and 1000 workers. Writes OUT.md and OUT.json with the command.
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import RESULTS, command_line, options, write  # noqa: E402
from kamicp import load_level  # noqa: E402
from kamicp.prover.distributed import CubeSource, DistributedResult, solve_distributed  # noqa: E402
from kamicp.prover.plan import run_window, simulate_makespan  # noqa: E402
from kamicp.runtime.cluster import connect  # noqa: E402

SIMULATED = (1, 2, 4, 16, 100, 1000)


def measure(path: str, workers: int, depth: int, engine: str, time_limit: float) -> dict:
    """One distributed proof on a fresh LocalCluster: its wall time, cube phase and the tasks' costs."""
    level = load_level(path)
    client, cluster = connect("local", workers)
    try:
        client.wait_for_workers(workers)
        load = os.getloadavg()[0]
        t0 = time.monotonic()
        run: DistributedResult = solve_distributed(level, client, depth=depth, engine=engine, time_limit=time_limit)
        wall = time.monotonic() - t0
    finally:
        client.close()
        cluster.close()
    tasks = [a for h in run.horizons for a in h.answers if a.source == CubeSource.TASK and a.worker != "parent"]
    return {"level": Path(path).stem, "workers": workers, "status": str(run.result.status),
            "optimum": run.result.optimum, "wall": wall, "prepare": run.prepare_seconds,
            "phase": wall - run.prepare_seconds, "load": load, "costs": [a.seconds for a in tasks],
            "cpu": sum(a.cpu_seconds for a in tasks)}


def fit_overhead(runs: list[dict]) -> float:
    """Seconds per task beyond its own cost, from the one-worker runs (all levels together)."""
    ones = [r for r in runs if r["workers"] == 1 and r["costs"]]
    extra = sum(r["phase"] - sum(r["costs"]) for r in ones)
    return max(0.0, extra / sum(len(r["costs"]) for r in ones)) if ones else 0.0


def simulate(runs: list[dict], overhead: float) -> None:
    """Each run's simulated makespan on its own workers from its own costs and from the level's one-worker
    costs (a plan's prediction), and the one-worker costs on SIMULATED sizes."""
    ones = {r["level"]: r["costs"] for r in runs if r["workers"] == 1}
    for r in runs:
        window = run_window(r["workers"])
        r["simulated"] = simulate_makespan(r["costs"], r["workers"], window=window, overhead=overhead)
        if r["level"] in ones:
            r["predicted"] = simulate_makespan(ones[r["level"]], r["workers"], window=window, overhead=overhead)
        if r["workers"] == 1:
            r["plan"] = {n: simulate_makespan(r["costs"], n, window=run_window(n), overhead=overhead)
                         for n in SIMULATED}


def tables(runs: list[dict], overhead: float) -> str:
    check = ["| level | workers | load | status | wall s | prepare s | cube phase s | tasks | sum of costs s "
             "| longest s | worker CPU s | simulated s | simulated / measured | from the 1-worker costs s "
             "| / measured |", "|---" * 15 + "|"]
    for r in runs:
        costs, predicted = r["costs"], r.get("predicted")
        guess = "- | -" if predicted is None else f"{predicted:.1f} | {predicted / r['phase']:.2f}"
        check.append(f"| {r['level']} | {r['workers']} | {r['load']:.1f} | {r['status']} | {r['wall']:.1f} "
                     f"| {r['prepare']:.1f} | {r['phase']:.1f} | {len(costs)} | {sum(costs):.1f} "
                     f"| {max(costs, default=0):.2f} | {r['cpu']:.1f} | {r['simulated']:.1f} "
                     f"| {r['simulated'] / max(r['phase'], 1e-9):.2f} | {guess} |")
    plan = ["| level | " + " | ".join(f"{n} worker{'s' * (n > 1)} s" for n in SIMULATED) + " | sum / 1000 s |",
            "|---" * (len(SIMULATED) + 2) + "|"]
    for r in runs:
        if "plan" in r:
            plan.append(f"| {r['level']} | " + " | ".join(f"{r['plan'][n]:.2f}" for n in SIMULATED)
                        + f" | {sum(r['costs']) / 1000:.3f} |")
    return (f"Per-task overhead fitted from the one-worker runs: {overhead:.4f} s.\n\n" + "\n".join(check)
            + "\n\nThe one-worker run's costs, simulated:\n\n" + "\n".join(plan) + "\n")


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__, out=RESULTS / "makespan")
    ap.add_argument("levels", nargs="+")
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--depth", type=int, default=1)
    ap.add_argument("--engine", default="search")
    ap.add_argument("--time-limit", type=float, default=300.0)
    args = ap.parse_args(argv)
    runs = []
    for path in args.levels:
        for n in (int(w) for w in args.workers.split(",")):
            runs.append(measure(path, n, args.depth, args.engine, args.time_limit))
            r = runs[-1]
            print(f"{r['level']} {n} worker(s): {r['status']}, wall {r['wall']:.1f} s, cube phase {r['phase']:.1f} s, "
                  f"{len(r['costs'])} tasks, {sum(r['costs']):.1f} s of costs, load {r['load']:.1f}", flush=True)
    overhead = fit_overhead(runs)
    simulate(runs, overhead)
    write(args.out, command_line(__file__, argv), tables(runs, overhead), {"overhead": overhead, "runs": runs})


if __name__ == "__main__":
    main()
