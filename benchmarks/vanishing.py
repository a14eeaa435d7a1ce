"""Counting colours that must vanish, under free rules: do the two sound refinements of the colour bound
(models/bounds.md, "The vanishing order" and "Joint clusters") raise the bound where the search spends its time?

    nice -n 10 .venv/bin/python benchmarks/vanishing.py --positions 30 \\
        --search /work/shared/bench/tri-44b5c-mirror-s204.json --out benchmarks/results/vanishing LEVEL.json ...

Part 1, per level: the root and `--positions` boards reached by random moves (seeded), one island each, and
the boards before each move of the beam's plan (down to the endgame); the bound as the solver computes it
(clusters of 8) against the same with the vanishing order, and against the joint-cluster bound for the first
two colours to vanish (samples of `--joint-sample` regions per colour): on how many positions each raises it
(random / along the plan), and by how much at most.
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
from kamicp.board.regions import Quotient, islands, quotient, recolour, regions_of  # noqa: E402
from kamicp.formats import load_level  # noqa: E402
from kamicp.prover.bounds import bound_report, cluster_cost, distances, spread_sample  # noqa: E402
from kamicp.prover.search import IDAStar, SearchTimeout, beam_plan  # noqa: E402
from kamicp.runtime.clock import Deadline  # noqa: E402

CLUSTERS = 8


def joint_colour_bound(q: Quotient, sample: int) -> int:
    """min over the final colour d of e + (min over pairs {a, b} of the other colours of the cluster cost of
    their samples together) - 1: the moves before the second disappearance are at least that cost, one of
    them is the first disappearance, and e - 2 more follow (models/bounds.md, "Joint clusters")."""
    nodes = range(q.size)
    dist = {v: distances(v, q.adj) for v in nodes}
    by: dict[int, list[int]] = {}
    for v in nodes:
        by.setdefault(q.colours[v], []).append(v)
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


def _positions(level_path: str, count: int, seed: int) -> tuple[str, list[Quotient], list[Quotient], int]:
    """The level's name, the root and `count` boards reached by 1-6 random moves, the boards before each
    move of the beam's plan (down to the endgame, where colours are nearly gone), and the colour count."""
    level = load_level(level_path)
    regions = regions_of(level)
    k = len(regions.palette)
    rng = random.Random(seed)
    walks = [quotient(regions.adj, regions.colours)]
    while len(walks) < count + 1:
        state = list(regions.colours)
        for _ in range(rng.randrange(1, 7)):
            q = quotient(regions.adj, state)
            a = rng.randrange(q.size)
            colour = rng.choice([c for c in range(k) if c != q.colours[a]])
            for v in q.members[a]:
                state[v] = colour
        q = quotient(regions.adj, state)
        if len(islands(q.size, q.adj)) == 1 and len(set(q.colours)) > 1:
            walks.append(q)
    plan_boards, state = [], tuple(regions.colours)
    for rep, colour in beam_plan(regions.adj, regions.colours, k, seconds=2.0) or []:
        q = quotient(regions.adj, state)
        if len(set(q.colours)) > 1:
            plan_boards.append(q)
        state = recolour(state, next(m for m in q.members if rep in m), colour)
    return level.name, walks, plan_boards, k


def positions_table(levels: list[str], count: int, sample: int) -> tuple[list[str], list[dict]]:
    lines = ["| level | bound (root) | positions (random / along the plan) | vanishing order raises | "
             "joint clusters raise | largest gain (order / joint) | seconds |", "|---|---|---|---|---|---|---|"]
    rows = []
    for i, path in enumerate(levels):
        t0 = time.monotonic()
        name, walks, plan_boards, k = _positions(path, count, seed=i)
        raised = {"order": [0, 0], "joint": [0, 0]}  # per kind: random boards, plan boards
        gain = {"order": 0, "joint": 0}
        root = bound_report(walks[0].adj, walks[0].colours, k, clusters=CLUSTERS).value
        for where, boards in enumerate((walks, plan_boards)):
            for q in boards:
                base = bound_report(q.adj, q.colours, k, clusters=CLUSTERS).value
                one = len(islands(q.size, q.adj)) == 1
                order = bound_report(q.adj, q.colours, k, clusters=CLUSTERS, vanishing_order=True).value
                joint = max(base, joint_colour_bound(q, sample)) if one else base
                for kind, value in (("order", order), ("joint", joint)):
                    raised[kind][where] += value > base
                    gain[kind] = max(gain[kind], value - base)
        dt = time.monotonic() - t0
        rows.append({"level": name, "root_bound": root, "random_positions": len(walks),
                     "plan_positions": len(plan_boards), "order_raises": raised["order"],
                     "joint_raises": raised["joint"], "order_gain": gain["order"], "joint_gain": gain["joint"],
                     "seconds": dt})
        lines.append(f"| {name} | {root} | {len(walks)} / {len(plan_boards)} | "
                     f"{raised['order'][0]} / {raised['order'][1]} | {raised['joint'][0]} / {raised['joint'][1]} | "
                     f"{gain['order']} / {gain['joint']} | {dt:.1f} |")
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
        variants = {flag: IDAStar(regions.adj, regions.colours, k, clusters=CLUSTERS, vanishing_order=flag)
                    for flag in (False, True)}
        steps = bound_report(regions.adj, regions.colours, k, clusters=CLUSTERS).value
        while True:
            cells = {}
            for flag, search in variants.items():
                before, t0 = search.nodes, time.monotonic()
                try:
                    plan = search.within(steps, Deadline.slice(seconds))
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
