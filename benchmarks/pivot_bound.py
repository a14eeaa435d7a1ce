"""The pivot relation (models/pivot-free.md) before and after, in one run: root bounds, the bound along a plan,
the compiled search's nodes per horizon, and the children of the root that the bound refutes.

    .venv/bin/python benchmarks/pivot_bound.py --horizon-seconds 30 --out benchmarks/results/pivot-bound \\
        benchmarks/levels/*.json /work/shared/bench/*.json

Per level: the root bound of `solve` without the pivot term ("before": radius with the ring rule, colours with
the gathering and cluster costs) and with it ("after", `BoundOptions().pivot` far regions, its seconds); the
best plan of the beam and the rollouts (`U`, replayed by the rules engine) and the slack of both bounds along
it (bound minus moves left, before each move: 0 where exact); the compiled search from the old root bound up,
each horizon at most `--horizon-seconds` (the search itself does not use the pivot term, so its node counts per
horizon are the same before and after: what changes is where the loop starts, and the horizons below the new
bound are no longer searched); and the one-move children of the root (cubes of depth 1) for the horizon
`H` = the first one the search did not refute, or U - 1 (the last one a proof needs): how many the bound
refutes (a child needing more than H - 1 moves), without and with the pivot term.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.gap import best_plan, horizons  # noqa: E402
from benchmarks.report import command_line, options, write  # noqa: E402
from kamicp.board.level import Move  # noqa: E402
from kamicp.board.regions import quotient, recolour, regions_of  # noqa: E402
from kamicp.board.rules import verify  # noqa: E402
from kamicp.formats import load_level  # noqa: E402
from kamicp.prover.bounds import bound_report  # noqa: E402
from kamicp.prover.config import BoundOptions  # noqa: E402
from kamicp.prover.cubes import Cube, child_bound, enumerate_cubes  # noqa: E402
from kamicp.prover.pivot_bound import pivot_term  # noqa: E402

CLUSTERS = BoundOptions().clusters
PIVOT = BoundOptions().pivot


def bounds(adj, colours, k: int) -> tuple[int, int, float]:
    """(the bound without the pivot term, with it, the seconds of the pivot term)."""
    before = bound_report(adj, colours, k, clusters=CLUSTERS).value
    t0 = time.monotonic()
    after = bound_report(adj, colours, k, clusters=CLUSTERS, pivot=pivot_term(adj, colours, k, PIVOT)).value
    return before, after, time.monotonic() - t0


def slack_along(regions, k: int, plan: list[tuple[int, int]]) -> tuple[list[int], list[int]]:
    """Bound minus moves left before each move of the plan, without and with the pivot term."""
    state, old, new = tuple(regions.colours), [], []
    for i, (rep, colour) in enumerate(plan):
        q = quotient(regions.adj, state)
        before, after, _ = bounds(q.adj, q.colours, k)
        old.append(before - (len(plan) - i))
        new.append(after - (len(plan) - i))
        state = recolour(state, next(m for m in q.members if rep in m), colour)
    return old, new


def _moves(regions, state: tuple[int, ...], k: int) -> list[tuple[int, ...]]:
    """The board after each legal move of `state` (every region, every other colour)."""
    q = quotient(regions.adj, state)
    return [recolour(state, q.members[r], c) for r in range(q.size) for c in range(k) if c != q.colours[r]]


def children(regions, horizon: int, sample: int = 0) -> dict:
    """The root's one-move children for `horizon`: how many, and how many the bound refutes without and with
    the pivot term (a child is refuted when its bound exceeds horizon - 1). With `sample` > 0, also the
    children of up to that many depth-1 children the pivot term leaves (every `len / sample`-th), at depth 2
    (refuted when the bound exceeds horizon - 2)."""
    k = len(regions.palette)
    cubes = enumerate_cubes(regions, 1).cubes
    t0 = time.monotonic()
    plain = sum(child_bound(regions, c) > horizon - 1 for c in cubes)
    kept = [c for c in cubes if child_bound(regions, c, True, horizon - 1) <= horizon - 1]
    out = {"horizon": horizon, "children": len(cubes), "refuted_before": plain,
           "refuted_after": len(cubes) - len(kept)}
    if sample > 0 and kept:
        grand = [Cube((), state, "", None) for c in kept[:: max(1, len(kept) // sample)]
                 for state in _moves(regions, c.state, k)]
        out |= {"sampled": min(sample, len(kept)), "grandchildren": len(grand),
                "grand_refuted_before": sum(child_bound(regions, g) > horizon - 2 for g in grand),
                "grand_refuted_after": sum(child_bound(regions, g, True, horizon - 2) > horizon - 2 for g in grand)}
    return out | {"seconds": round(time.monotonic() - t0, 2)}


def profile(path: str, seconds: float, upper_seconds: float, at: dict[str, int], sample: int) -> dict:
    level = load_level(path)
    regions = regions_of(level)
    k = len(regions.palette)
    before, after, pivot_seconds = bounds(regions.adj, regions.colours, k)
    plan = best_plan(regions, k, upper_seconds)
    upper = None
    old = new = []
    if plan is not None:
        verify(level, [Move(regions.cells[rep][0], regions.palette[c]) for rep, c in plan])
        upper = len(plan)
        old, new = slack_along(regions, k, plan)
    rows = horizons(regions, k, before, (upper - 1) if upper else 40, seconds) if before < (upper or 41) else []
    open_h = next((r["horizon"] for r in rows if r["outcome"] != "infeasible"), upper - 1 if upper else None)
    open_h = at.get(level.name, open_h)
    return {"level": level.name, "regions": regions.size, "before": before, "after": after,
            "pivot_seconds": round(pivot_seconds, 2), "upper": upper, "slack_before": old, "slack_after": new,
            "horizons": rows, "children": children(regions, open_h, sample) if open_h is not None else None}


def _nodes(r: dict) -> str:
    return ", ".join(f"{h['horizon']}: {h['nodes']:,}" + ("" if h["outcome"] == "infeasible" else f" ({h['outcome']})")
                     + (" [skipped after]" if h["horizon"] < r["after"] else "") for h in r["horizons"])


def table(records: list[dict]) -> str:
    lines = ["| level | regions | root bound before -> after (pivot s) | U | slack along the plan, before | after "
             "| search nodes per horizon | one-move children of H refuted, before -> after |",
             "|---|---|---|---|---|---|---|---|"]
    for r in records:
        c = r["children"]
        kids = (f"H = {c['horizon']}: {c['refuted_before']} -> {c['refuted_after']} of {c['children']}"
                if c else "")
        if c and "grandchildren" in c:
            kids += (f"; depth 2 (children of {c['sampled']}): {c['grand_refuted_before']} -> "
                     f"{c['grand_refuted_after']} of {c['grandchildren']}")
        mark = f"**{r['after']}**" if r["after"] > r["before"] else str(r["after"])
        old, new = (" ".join(map(str, r[key])) for key in ("slack_before", "slack_after"))
        lines.append(f"| {r['level']} | {r['regions']} | {r['before']} -> {mark} ({r['pivot_seconds']:.2f}) "
                     f"| {r['upper']} | {old} | {new} | {_nodes(r)} | {kids} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("levels", nargs="+")
    ap.add_argument("--horizon-seconds", type=float, default=30.0, help="seconds per horizon of the search")
    ap.add_argument("--upper-seconds", type=float, default=4.0, help="seconds for the beam and the rollouts")
    ap.add_argument("--at", action="append", default=[], metavar="LEVEL=H",
                    help="the horizon of the children's count for that level (default: the first not refuted)")
    ap.add_argument("--sample", type=int, default=0, help="depth 2: the children of up to N depth-1 children")
    args = ap.parse_args(argv)
    at = {name: int(h) for name, h in (a.split("=") for a in args.at)}
    records = []
    for path in args.levels:
        records.append(profile(path, args.horizon_seconds, args.upper_seconds, at, args.sample))
        write(args.out, command_line(__file__, argv), table(records), {"records": records}, echo=False)
        print(table(records[-1:]).splitlines()[-1], flush=True)
    write(args.out, command_line(__file__, argv), table(records), {"records": records})


if __name__ == "__main__":
    main()
