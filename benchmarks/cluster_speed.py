"""The compiled search with the cluster gathering cost: this tree's core against another build, one horizon
per level, in one run: nodes (must be identical), CPU seconds and nodes per CPU second.

    rm -rf /tmp/core-old && mkdir -p /tmp/core-old && git archive COMMIT | tar -x -C /tmp/core-old
    (cd /tmp/core-old && $OLDPWD/.venv/bin/python setup.py -q build_ext --inplace)
    .venv/bin/python benchmarks/cluster_speed.py --old /tmp/core-old --out benchmarks/results/cluster-speed \\
        benchmarks/levels/gen-tri-80b5c-proper-s702.json:9 ...

Each LEVEL:H runs horizon H alone (a fresh search, clusters=8, the default settings otherwise) in a process
of each build (the tree first on the import path), alternating old and new `--repeat` times so both see
the same machine load; seconds are the search thread's CPU time, the best of the repetitions. A horizon that
reaches `--time-limit` in either build is compared by its rate only. Exits 1 when a finished horizon's
nodes or plan differ. Writes OUT.md and OUT.json.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.append(str(ROOT))  # last: in a child process the build under test (PYTHONPATH) provides kamicp

from benchmarks.report import command_line, options, write  # noqa: E402


def _deadline(seconds: float):
    """`seconds` from now as the build under test takes a deadline (before the one clock: a monotonic value)."""
    try:
        from kamicp.runtime.clock import Deadline
    except ImportError:
        return time.monotonic() + seconds
    return Deadline.slice(seconds)


def record(specs: list[str], seconds: float, clusters: int) -> dict:
    """In the process of one build: outcome, nodes, plan and CPU seconds per LEVEL:H."""
    import kamicp.prover.search as search
    from kamicp.board.regions import regions_of
    from kamicp.formats import load_level

    out: dict = {"core": str(Path(search.__file__).resolve().parent), "runs": {}}
    for spec in specs:
        path, h = spec.rsplit(":", 1)
        regions = regions_of(load_level(path))
        colours = getattr(regions, "colours", None) or regions.colors  # (a tree before the one spelling: colors)
        ida = search.CompiledIDAStar(regions.adj, colours, len(regions.palette), clusters=clusters)
        t0 = time.thread_time()  # the search runs on this thread
        try:
            plan = ida.within(int(h), _deadline(seconds))
            outcome = "infeasible" if plan is None else "feasible"
        except search.SearchTimeout:
            plan, outcome = None, "timeout"
        out["runs"][spec] = {"outcome": outcome, "nodes": ida.nodes, "plan": plan,
                             "seconds": time.thread_time() - t0, "regions": regions.size}
        print(spec, outcome, ida.nodes, file=sys.stderr, flush=True)
    return out


def run_build(tree: Path, specs: list[str], seconds: float, clusters: int) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--record", "--seconds", str(seconds),
           "--clusters", str(clusters), *specs]
    done = subprocess.run(cmd, env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def table(old: list[dict], new: list[dict], specs: list[str]) -> tuple[str, list[dict], list[str]]:
    lines = ["| level | regions | horizon | outcome | nodes | old CPU s | new CPU s | old nodes/s | new nodes/s "
             "| new/old rate |", "|---|---|---|---|---|---|---|---|---|---|"]
    rows, diffs, ratios = [], [], []
    for spec in specs:
        a, b = old[0]["runs"][spec], new[0]["runs"][spec]
        finished = "timeout" not in (a["outcome"], b["outcome"])
        if finished and (a["outcome"], a["nodes"], a["plan"]) != (b["outcome"], b["nodes"], b["plan"]):
            diffs.append(f"{spec}: {a['outcome']} {a['nodes']} vs {b['outcome']} {b['nodes']}")
        best = {}
        for key, runs in (("old", old), ("new", new)):
            rs = [r["runs"][spec] for r in runs]
            best[key] = max((r["nodes"] / max(r["seconds"], 1e-9), r["seconds"], r["nodes"], r["outcome"]) for r in rs)
        ratio = best["new"][0] / best["old"][0]
        ratios.append(ratio)
        path, h = spec.rsplit(":", 1)
        outcome = a["outcome"] if finished else (f"old {best['old'][3]} at {best['old'][2]:,} nodes, new "
                                                 f"{best['new'][3]} at {best['new'][2]:,}")
        nodes = f"{a['nodes']:,}" if finished else ""
        lines.append(f"| {Path(path).stem} | {a['regions']} | {h} | {outcome} | {nodes} | {best['old'][1]:.2f} "
                     f"| {best['new'][1]:.2f} | {best['old'][0]:,.0f} | {best['new'][0]:,.0f} | {ratio:.2f}x |")
        rows.append({"spec": spec, "finished": finished, "old": best["old"], "new": best["new"], "ratio": ratio})
    if ratios:
        lines.append(f"\nGeometric mean new/old rate: {statistics.geometric_mean(ratios):.2f}x")
    return "\n".join(lines) + "\n", rows, diffs


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("--record", action="store_true", help=argparse.SUPPRESS)  # the child process's mode
    ap.add_argument("specs", nargs="+", metavar="LEVEL:H")
    ap.add_argument("--old", help="the other tree, its core built in place (required unless record)")
    ap.add_argument("--seconds", type=float, default=60.0, help="time limit per horizon")
    ap.add_argument("--clusters", type=int, default=8, help="cluster sample size")
    ap.add_argument("--repeat", type=int, default=2, help="runs of each build, alternating")
    args = ap.parse_args(argv)
    if args.record:
        print(json.dumps(record(args.specs, args.seconds, args.clusters)))
        return
    if not args.old:
        ap.error("--old TREE is required")
    specs = [f"{Path(p).resolve()}:{h}" for p, h in (s.rsplit(":", 1) for s in args.specs)]
    old, new = [], []
    for _ in range(args.repeat):
        old.append(run_build(Path(args.old).resolve(), specs, args.seconds, args.clusters))
        new.append(run_build(ROOT, specs, args.seconds, args.clusters))
    print(f"old core: {old[0]['core']}\nnew core: {new[0]['core']}", file=sys.stderr)
    text, rows, diffs = table(old, new, specs)
    text += "".join(f"\nDIFFERS: {d}" for d in diffs)
    text += f"\n{'No' if not diffs else len(diffs)} differences in nodes and plans of the finished horizons.\n"
    write(args.out, command_line(__file__, argv), text, {"rows": rows, "diffs": diffs})
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
