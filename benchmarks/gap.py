"""Where a proof's time goes on hard levels: the root bound against the best plan known, the bound along
that plan, and the compiled search's nodes per horizon with the growth from one horizon to the next.

    .venv/bin/python benchmarks/gap.py --horizon-seconds 60 --out benchmarks/results/gap \\
        benchmarks/levels/*.json

Per level: the sound root bound (`bounds.bound_report`: radius with the ring rule, colours with the
gathering cost) and the best plan of the beam and the rollouts (an upper bound `U`, replayed by the rules
engine). "Bound along the plan" is the bound of the board before each move of that plan, minus the moves
the plan still needs (`--trace`: with the bound's parts): 0 where the bound is exact, negative where it is
slack, so it shows how deep the search must go below a node before the bound prunes it. Then the compiled
search (as in `solve`, one search object for every horizon) from the root bound up, each horizon at most
`--horizon-seconds`; the growth is nodes(h) / nodes(h - 1), and the next horizon's cost is estimated from
it (marked "~", an extrapolation, never a result). Node counts are machine-independent; seconds are not.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, write  # noqa: E402
from kamicp.board.level import Move  # noqa: E402
from kamicp.board.regions import quotient, recolour, regions_of  # noqa: E402
from kamicp.board.rules import verify  # noqa: E402
from kamicp.formats import load_level  # noqa: E402
from kamicp.prover.bounds import bound_report  # noqa: E402
from kamicp.prover.search import CompiledIDAStar, SearchTimeout, beam_plan, rollout_plan  # noqa: E402
from kamicp.runtime.clock import Deadline  # noqa: E402


def best_plan(regions, k: int, seconds: float) -> list[tuple[int, int]] | None:
    """The shorter of the beam's and the rollouts' plans (each an upper bound only)."""
    plan = beam_plan(regions.adj, regions.colours, k, seconds=seconds / 2)
    limit = (len(plan) - 1) if plan else 40
    other = rollout_plan(regions.adj, regions.colours, k, limit, seconds=seconds / 2)
    return other if other is not None and (plan is None or len(other) < len(plan)) else plan


def trace_along(regions, k: int, plan: list[tuple[int, int]], clusters: int = 0) -> list[dict]:
    """The board before each move of the plan: regions, colours, the bound and its parts, moves left (the
    bound with the cluster gathering cost when `clusters` > 0)."""
    state, out = tuple(regions.colours), []
    for i, (rep, colour) in enumerate(plan):
        q = quotient(regions.adj, state)
        report = bound_report(q.adj, q.colours, k, clusters=clusters)
        out.append({"move": i + 1, "regions": q.size, "colours": report.colours, "bound": report.value,
                    "radius": report.radius, "ring": report.ring, "colour_part": report.colour_part,
                    "left": len(plan) - i})
        region = next(m for m in q.members if rep in m)
        state = recolour(state, region, colour)
    return out


def trace_table(record: dict) -> str:
    lines = [f"{record['level']}: the board before each move of a {record['upper']}-move plan", "",
             "| move | regions | colours | radius (+ ring) | colour part | bound | moves left |",
             "|---|---|---|---|---|---|---|"]
    for t in record["trace"]:
        lines.append(f"| {t['move']} | {t['regions']} | {t['colours']} | {t['radius']} (+{t['ring']}) | "
                     f"{t['colour_part']} | {t['bound']} | {t['left']} |")
    return "\n".join(lines) + "\n"


def horizons(regions, k: int, start: int, stop: int, seconds: float) -> list[dict]:
    """The compiled search from horizon `start` to `stop`, each within `seconds`, until one is not refuted."""
    search = CompiledIDAStar(regions.adj, regions.colours, k)
    rows, before = [], 0
    for steps in range(start, stop + 1):
        t0 = time.monotonic()
        try:
            outcome = "infeasible" if search.within(steps, Deadline.slice(seconds)) is None else "feasible"
        except SearchTimeout:
            outcome = "timeout"
        rows.append({"horizon": steps, "outcome": outcome, "seconds": round(time.monotonic() - t0, 2),
                     "nodes": search.nodes - before})
        before = search.nodes
        if outcome != "infeasible":
            break
    return rows


def profile(path: str, seconds: float, upper_seconds: float, clusters: int = 0) -> dict:
    level = load_level(path)
    regions = regions_of(level)
    k = len(regions.palette)
    report = bound_report(regions.adj, regions.colours, k, clusters=clusters)
    plan = best_plan(regions, k, upper_seconds)
    if plan is not None:
        verify(level, [Move(regions.cells[rep][0], regions.palette[c]) for rep, c in plan])
    upper = len(plan) if plan else None
    rows = horizons(regions, k, report.value, (upper - 1) if upper else 40, seconds)
    done = [r for r in rows if r["outcome"] == "infeasible"]
    growth = done[-1]["nodes"] / max(done[-2]["nodes"], 1) if len(done) >= 2 else None
    rate = sum(r["nodes"] for r in rows) / max(sum(r["seconds"] for r in rows), 1e-6)
    record = {
        "level": level.name, "regions": regions.size, "colours": k, "root_bound": report.value,
        "radius": report.radius, "ring": report.ring, "colour_part": report.colour_part, "upper": upper,
        "trace": trace_along(regions, k, plan, clusters) if plan else [], "horizons": rows,
        "refuted_to": done[-1]["horizon"] if done else report.value - 1, "growth": growth,
        "nodes_per_second": round(rate),
    }
    record["slack"] = [t["bound"] - t["left"] for t in record["trace"]]
    return record


def _estimate(r: dict) -> str:
    """The extrapolated cost of the first horizon the search did not refute and of U - 1, the last one a
    proof needs (nodes x growth per horizon; hours at the rate measured in this run)."""
    if not r["growth"] or r["upper"] is None or r["refuted_to"] >= r["upper"] - 1:
        return ""
    done = [h for h in r["horizons"] if h["outcome"] == "infeasible"]
    rate = max(r["nodes_per_second"], 1)
    parts = []
    for horizon in sorted({r["refuted_to"] + 1, r["upper"] - 1}):
        nodes = done[-1]["nodes"] * r["growth"] ** (horizon - r["refuted_to"])
        parts.append(f"{horizon}: ~{nodes:.0e} nodes, ~{nodes / rate / 3600:.2g} h")
    return "; ".join(parts)


def _unless_refuted(h: dict) -> str:
    return "" if h["outcome"] == "infeasible" else ", " + h["outcome"]


def table(records: list[dict]) -> str:
    lines = [
        "| level | regions | root bound (radius, ring +, colours) | U | bound - moves left along the plan "
        "| search: nodes per horizon (s) | growth | refuted up to | next and last horizon (estimate) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in records:
        per = ", ".join(f"{h['horizon']}: {h['nodes']:,} ({h['seconds']:.1f} s{_unless_refuted(h)})"
                        for h in r["horizons"])
        growth = f"{r['growth']:.0f}x" if r["growth"] else ""
        lines.append(f"| {r['level']} | {r['regions']} | {r['root_bound']} ({r['radius']}, {r['ring']}, "
                     f"{r['colour_part']}) | {r['upper']} | {' '.join(map(str, r['slack']))} | {per} | {growth} "
                     f"| {r['refuted_to']} | {_estimate(r)} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("levels", nargs="+")
    ap.add_argument("--horizon-seconds", type=float, default=60.0, help="seconds per horizon of the search")
    ap.add_argument("--upper-seconds", type=float, default=6.0, help="seconds for the beam and the rollouts")
    ap.add_argument("--clusters", type=int, default=0, help="the bound with the cluster gathering cost of up to N "
                    "regions per colour (the root bound of `solve`; the search does not use it)")
    ap.add_argument("--trace", action="store_true", help="also print the bound's parts before each move of the plan")
    args = ap.parse_args(argv)
    records = []
    for path in args.levels:
        records.append(profile(path, args.horizon_seconds, args.upper_seconds, args.clusters))
        print(table(records[-1:]).splitlines()[-1], flush=True)
    text = table(records)
    if args.trace:
        text += "".join("\n" + trace_table(r) for r in records)
    write(args.out, command_line(__file__, argv), text, {"records": records})


if __name__ == "__main__":
    main()
