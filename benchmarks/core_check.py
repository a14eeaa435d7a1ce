"""The compiled core against another build of it, in one run: identical node counts and plans, node rates.

Checks a change of the C++ core that must not change behaviour (e.g. splitting it into units): for each
level, IDA* runs horizon after horizon from the lower bound (in one search object, as `solve` does) under
several settings, and the beam and the rollout give their plans; every count and plan must be identical
between the two builds, and the node rates are compared as ratios (the best of the repetitions).

Build the other tree (here b9caa56, the last commit with the single-file core) into a temporary folder,
then compare:

    rm -rf /tmp/core-old && mkdir -p /tmp/core-old && git archive b9caa56 | tar -x -C /tmp/core-old
    (cd /tmp/core-old && $OLDPWD/.venv/bin/python setup.py -q build_ext --inplace)
    .venv/bin/python benchmarks/core_check.py --old /tmp/core-old --out benchmarks/results/core-units \\
        puzzles/*.json /work/shared/bench/*.json

Each build runs in its own process (`--record`, with the tree first on the import path), alternating
old and new `--repeat` times, so both see the same machine load; a rate is nodes per CPU second of the
search thread, the best of the repetitions. A horizon that reaches the per-level time
limit ends that level's series; its counts are not compared (only horizons both builds finished are).
Exits 1 when a count or a plan differs. Writes OUT.md and OUT.json.
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

# IDA* settings compared (keyword arguments of make_search): the default and the ablations' flags
SETTINGS: dict[str, dict] = {
    "default": {},
    "por1-sym": {"por": 1, "symmetry": True},
    "plain": {"por": False, "gather": False, "ring": False},
    "no-adjacent": {"por_adjacent": False},
    "clusters": {"clusters": 8},
    "clusters-plain": {"clusters": 8, "por": False, "gather": False, "ring": False},
}


BEAM_PASSES = ((8, 40, False), (32, 60, True), (8, 40, True))  # (width, fan, ring): the default schedule's


def record(files: list[str], seconds: float) -> dict:
    """Run in the process of one build: counts, plans and times per level (the build is kamicp on sys.path)."""
    import kamicp.prover.search as search
    from kamicp.board.regions import regions_of
    from kamicp.formats import load_level
    from kamicp.prover.bounds import lower_bound

    out: dict = {"core": str(Path(search.__file__).resolve().parent), "levels": {}}
    for path in files:
        regions = regions_of(load_level(path))
        # (a tree before the one spelling names them `colors`)
        adj, colours, k = regions.adj, getattr(regions, "colours", None) or regions.colors, len(regions.palette)
        if k > 15:
            continue
        row: dict = {"regions": regions.size, "ida": {}}
        for name, kw in SETTINGS.items():
            row["ida"][name] = horizons(search.make_search(adj, colours, k, compiled=True, **kw),
                                        lower_bound(adj, colours, k), seconds)
        row["beam"] = [search.beam_plan(adj, colours, k, seconds=60, schedule=(entry,), closeness=close)
                       for entry in BEAM_PASSES for close in (True, False)]
        best = min((len(p) for p in row["beam"] if p is not None), default=2 * regions.size)
        t0 = time.perf_counter()
        row["rollout"] = search.rollout_plan(adj, colours, k, best, seconds=seconds)
        row["rollout_done"] = time.perf_counter() - t0 < 0.9 * seconds  # else the plan depends on the clock
        out["levels"][Path(path).stem] = row
        print(Path(path).stem, file=sys.stderr, flush=True)
    return out


def horizons(ida, first: int, seconds: float) -> list[dict]:
    """Horizons from `first` until one is feasible or the level's time is spent (that one marked timeout)."""
    from kamicp.prover.search import SearchTimeout

    try:
        from kamicp.runtime.clock import Deadline
        end = Deadline.slice(seconds)
    except ImportError:  # a tree before the one clock: a deadline was a time.monotonic() value
        end = time.monotonic() + seconds
    rows, before = [], 0
    for steps in range(first, first + 40):
        t0 = time.thread_time()  # the search runs on this thread: CPU time, less exposed to the machine's load
        try:
            plan = ida.within(steps, end)
            outcome = "infeasible" if plan is None else "feasible"
        except SearchTimeout:
            plan, outcome = None, "timeout"
        rows.append({"h": steps, "outcome": outcome, "nodes": ida.nodes - before,
                     "seconds": time.thread_time() - t0, "plan": plan})
        before = ida.nodes
        if outcome != "infeasible":
            break
    return rows


def run_build(tree: Path, files: list[str], seconds: float) -> dict:
    env = dict(os.environ, PYTHONPATH=str(tree))
    cmd = [sys.executable, str(Path(__file__).resolve()), "--record", "--seconds", str(seconds), *files]
    done = subprocess.run(cmd, env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def compare(old: list[dict], new: list[dict]) -> tuple[list[dict], list[str]]:
    """Per level: nodes compared, differences, and the best node rates of both builds (the least disturbed
    run of each)."""
    rows, diffs = [], []
    for level, base in old[0]["levels"].items():
        other = new[0]["levels"][level]
        row = {"level": level, "regions": base["regions"], "nodes": 0, "old": [], "new": []}
        for name in SETTINGS:
            for a, b in zip(base["ida"][name], other["ida"][name], strict=False):
                if "timeout" in (a["outcome"], b["outcome"]):
                    break
                if (a["outcome"], a["nodes"], a["plan"]) != (b["outcome"], b["nodes"], b["plan"]):
                    diffs.append(f"{level} {name} h={a['h']}: {a['outcome']} {a['nodes']} "
                                 f"vs {b['outcome']} {b['nodes']}")
                row["nodes"] += a["nodes"]
        if base["beam"] != other["beam"]:
            diffs.append(f"{level}: beam plans differ")
        row["rollout"] = base["rollout_done"] and other["rollout_done"]  # compared (else clock-dependent)
        if row["rollout"] and base["rollout"] != other["rollout"]:
            diffs.append(f"{level}: rollout plans differ")
        for key, runs in (("old", old), ("new", new)):
            row[key] = max(rate(r["levels"][level]) for r in runs)
        rows.append(row)
    return rows, diffs


def rate(row: dict) -> float:
    """Nodes per CPU second of the default setting over its finished horizons."""
    done = [h for h in row["ida"]["default"] if h["outcome"] != "timeout"]
    return sum(h["nodes"] for h in done) / max(sum(h["seconds"] for h in done), 1e-9)


def table(rows: list[dict]) -> str:
    out = ["| level | regions | nodes compared | old nodes/s | new nodes/s | new/old |", "|---|---|---|---|---|---|"]
    ratios = []
    for r in rows:
        ratio = r["new"] / r["old"] if r["old"] else float("nan")
        if r["old"] and r["nodes"] >= 20_000:  # tiny searches: rates are timer noise
            ratios.append(ratio)
        out.append(f"| {r['level']} | {r['regions']} | {r['nodes']:,} | {r['old']:,.0f} | {r['new']:,.0f} "
                   f"| {ratio:.2f} |")
    if ratios:
        out.append(f"\nGeometric mean new/old over the {len(ratios)} levels with at least 20,000 nodes: "
                   f"{statistics.geometric_mean(ratios):.3f}")
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("--record", action="store_true", help=argparse.SUPPRESS)  # the child process's mode
    ap.add_argument("levels", nargs="+")
    ap.add_argument("--old", help="the other tree, its core built in place (required unless record)")
    ap.add_argument("--seconds", type=float, default=5.0, help="time per level and setting")
    ap.add_argument("--repeat", type=int, default=2, help="runs of each build, alternating")
    args = ap.parse_args(argv)
    if args.record:
        print(json.dumps(record(args.levels, args.seconds)))
        return
    if not args.old:
        ap.error("--old TREE is required")
    files = [str(Path(f).resolve()) for f in args.levels]
    old, new = [], []
    for _ in range(args.repeat):
        old.append(run_build(Path(args.old).resolve(), files, args.seconds))
        new.append(run_build(ROOT, files, args.seconds))
    for name, runs in (("old", old), ("new", new)):
        print(f"{name} core: {runs[0]['core']}", file=sys.stderr)
    rows, diffs = compare(old, new)
    text = table(rows) + "".join(f"\nDIFFERS: {d}" for d in diffs)
    text += (f"\nBeam plans compared on {len(rows)} levels ({2 * len(BEAM_PASSES)} passes each), rollout plans "
             f"on {sum(r['rollout'] for r in rows)} (those finished within the time in both builds).")
    text += f"\n{'No' if not diffs else len(diffs)} differences in node counts and plans.\n"
    write(args.out, command_line(__file__, argv), text, {"rows": rows, "diffs": diffs})
    sys.exit(1 if diffs else 0)


if __name__ == "__main__":
    main()
