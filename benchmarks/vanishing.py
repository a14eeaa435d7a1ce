"""Counting colours that must vanish, under free rules: do the two sound refinements of the colour bound
(models/bounds.md, "The vanishing order" and "Joint clusters") raise the bound where the search spends its time?

    nice -n 10 .venv/bin/python benchmarks/vanishing.py --positions 30 \\
        --search /work/shared/bench/tri-44b5c-mirror-s204.json --out benchmarks/results/vanishing LEVEL.json ...

Part 1, per level: the root and `--positions` boards reached by random moves (seeded), one island each; the
bound as the solver computes it (clusters of 8) against the same with the vanishing order, and against the
joint-cluster bound for the first two colours to vanish (samples of `--joint-sample` regions per colour):
on how many positions each raises it, and by how much at most.
Part 2, per `--search` level: the pure-Python IDA* (the reference search; clusters of 8) with and without the
vanishing order, horizons from the root bound to the optimum, in the same run: nodes and seconds.
"""

from __future__ import annotations

import itertools
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, write  # noqa: E402
from kamicp.board.regions import Quotient, islands, quotient, regions_of  # noqa: E402
from kamicp.formats import load_level  # noqa: E402
from kamicp.prover.bounds import bound_report, cluster_cost, distances, spread_sample  # noqa: E402
from kamicp.prover.search import IDAStar, SearchTimeout  # noqa: E402

CLUSTERS = 8


def joint_colour_bound(q: Quotient, sample: int) -> int:
    """min over the final colour d of e + (min over pairs {a, b} of the other colours of the cluster cost of
    their samples together) - 1: the moves before the second disappearance are at least that cost, one of
    them is the first disappearance, and e - 2 more follow (models/bounds.md, "Joint clusters")."""
    nodes = range(q.size)
    dist = {v: distances(v, q.adj) for v in nodes}
    by: dict[int, list[int]] = {}
    for v in nodes:
        by.setdefault(q.colors[v], []).append(v)
    picks = {c: spread_sample(regions, dist, sample) for c, regions in by.items()}
    pair = {frozenset(p): cluster_cost(picks[p[0]] + picks[p[1]], dist) for p in itertools.combinations(by, 2)}
    best = None
    for d in by:
        others = [c for c in by if c != d]
        if len(others) < 2:
            return 0  # (the other bounds cover one colour or two)
        value = len(others) - 1 + min(pair[frozenset(p)] for p in itertools.combinations(others, 2))
        best = value if best is None else min(best, value)
    return best or 0


def _positions(level_path: str, count: int, seed: int) -> tuple[str, list[Quotient], int]:
    level = load_level(level_path)
    regions = regions_of(level)
    k = len(regions.palette)
    rng = random.Random(seed)
    out = [quotient(regions.adj, regions.colors)]
    while len(out) < count + 1:
        state = list(regions.colors)
        for _ in range(rng.randrange(1, 7)):
            q = quotient(regions.adj, state)
            a = rng.randrange(q.size)
            colour = rng.choice([c for c in range(k) if c != q.colors[a]])
            for v in q.members[a]:
                state[v] = colour
        q = quotient(regions.adj, state)
        if len(islands(q.size, q.adj)) == 1 and len(set(q.colors)) > 1:
            out.append(q)
    return level.name, out, k


def positions_table(levels: list[str], count: int, sample: int) -> tuple[list[str], list[dict]]:
    lines = ["| level | positions | bound (root) | vanishing order raises | joint clusters raise | "
             "largest gain (order / joint) | seconds |", "|---|---|---|---|---|---|---|"]
    rows = []
    for i, path in enumerate(levels):
        t0 = time.monotonic()
        name, qs, k = _positions(path, count, seed=i)
        raised_order = raised_joint = gain_order = gain_joint = 0
        root = None
        for q in qs:
            base = bound_report(q.adj, q.colors, k, clusters=CLUSTERS).value
            root = base if root is None else root
            order = bound_report(q.adj, q.colors, k, clusters=CLUSTERS, vanishing_order=True).value
            joint = max(base, joint_colour_bound(q, sample))
            raised_order += order > base
            raised_joint += joint > base
            gain_order = max(gain_order, order - base)
            gain_joint = max(gain_joint, joint - base)
        dt = time.monotonic() - t0
        rows.append({"level": name, "positions": len(qs), "root_bound": root, "order_raises": raised_order,
                     "joint_raises": raised_joint, "order_gain": gain_order, "joint_gain": gain_joint,
                     "seconds": dt})
        lines.append(f"| {name} | {len(qs)} | {root} | {raised_order} | {raised_joint} | "
                     f"{gain_order} / {gain_joint} | {dt:.1f} |")
        print(lines[-1], flush=True)
    return lines, rows


def search_table(levels: list[str], seconds: float) -> tuple[list[str], list[dict]]:
    lines = ["| level | horizon | plain: nodes / s | vanishing order: nodes / s | ratio (nodes, s) |",
             "|---|---|---|---|---|"]
    rows = []
    for path in levels:
        level = load_level(path)
        regions = regions_of(level)
        k = len(regions.palette)
        variants = {flag: IDAStar(regions.adj, regions.colors, k, clusters=CLUSTERS, vanishing_order=flag)
                    for flag in (False, True)}
        steps = bound_report(regions.adj, regions.colors, k, clusters=CLUSTERS).value
        while True:
            cells = {}
            for flag, search in variants.items():
                before, t0 = search.nodes, time.monotonic()
                try:
                    plan = search.within(steps, time.monotonic() + seconds)
                    outcome = "infeasible" if plan is None else "feasible"
                except SearchTimeout:
                    outcome = "timeout"
                cells[flag] = (outcome, search.nodes - before, time.monotonic() - t0)
            (out0, n0, s0), (out1, n1, s1) = cells[False], cells[True]
            assert "timeout" in (out0, out1) or out0 == out1, f"{level.name}: the variants disagree at {steps}"
            outcome = out0 if out0 == out1 else f"{out0} / {out1}"
            rows.append({"level": level.name, "horizon": steps, "outcome": outcome, "plain_nodes": n0,
                         "plain_seconds": s0, "order_nodes": n1, "order_seconds": s1})
            lines.append(f"| {level.name} | {steps} ({outcome}) | {n0:,} / {s0:.2f} | {n1:,} / {s1:.2f} | "
                         f"{n1 / max(n0, 1):.3f}, {s1 / max(s0, 1e-6):.2f} |")
            print(lines[-1], flush=True)
            if outcome != "infeasible":
                break
            steps += 1
    return lines, rows


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__, raw=True)
    ap.add_argument("levels", nargs="*", help="levels for part 1 (positions)")
    ap.add_argument("--positions", type=int, default=30, help="random positions per level besides the root")
    ap.add_argument("--joint-sample", type=int, default=5, help="regions sampled per colour for joint clusters")
    ap.add_argument("--search", nargs="*", default=[], help="levels for part 2 (the Python search, both variants)")
    ap.add_argument("--time-limit", type=float, default=600.0, help="seconds per horizon and variant (part 2)")
    args = ap.parse_args(argv)
    lines, data = [], {}
    if args.levels:
        more, data["positions"] = positions_table(args.levels, args.positions, args.joint_sample)
        lines += more + [""]
    if args.search:
        more, data["search"] = search_table(args.search, args.time_limit)
        lines += more
    if args.out:
        write(args.out, command_line(__file__, argv), "\n".join(lines), data, echo=False)


if __name__ == "__main__":
    main()
