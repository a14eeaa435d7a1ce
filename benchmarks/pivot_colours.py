"""The pivot relation per final colour (models/pivot-free.md, "What the bound uses"): does the per-colour form
raise the root bound where the product's "any final colour" form stops?

    .venv/bin/python benchmarks/pivot_colours.py --out benchmarks/results/pivot-colours \\
        benchmarks/levels/*.json

The product's island term is max(ring radius, colour bound for d, max_v ceil(pivot(v) / 2)), pivot(v) the
pivot A*'s optimum from a far region v with any final colour, the same for every final colour d. The
theorem gives more: free(d) >= ceil(pivot(v, d) / 2) for each d with its own best v, and pivot(v, d) is
pivot(v) or pivot(v) + 1 (one more move repaints a flooded board). Per connected level: the product's root
bound, the same bound with pivot(v, d) from the same far regions for every colour d (the A* with a final
colour, `flood_create(final=d)`), how many colours' terms rose, and the A* seconds of each form. Levels
with islands are skipped (the per-colour form would be summed per island; not written here).
"""

from __future__ import annotations

import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, write  # noqa: E402
from kamicp.board.regions import islands, regions_of  # noqa: E402
from kamicp.formats import load_level  # noqa: E402
from kamicp.prover.bounds import (  # noqa: E402
    bound_report,
    cluster_costs,
    gather_costs,
    island_colour_bounds,
    ring_radius,
)
from kamicp.prover.config import BoundOptions  # noqa: E402
from kamicp.prover.pivot_bound import far_regions, pivot_term  # noqa: E402
from kamicp.prover.search import compiled_core  # noqa: E402

CLUSTERS = BoundOptions().clusters
PIVOT = BoundOptions().pivot
CAP = 2_000_000  # stored sets per A* run (beyond: its proven lower bound, still sound)


def pivot_optimum(adj, colours, k: int, start: int, final: int, seconds: float) -> int:
    """The pivot A*'s optimum from `start` ending in `final` (-1: any), or its proven lower bound when stopped."""
    handle = compiled_core.flood_create([list(a) for a in adj], list(colours), k, start, final=final, cap=CAP)
    info = compiled_core.flood_run(handle, seconds=seconds)
    if info["status"] == "optimal" and info["plan"] is not None:
        return len(info["plan"])
    return int(info["lower"])


def profile(path: str, seconds: float) -> dict:
    name = Path(path).name
    regions = regions_of(load_level(path))
    adj, colours, k = regions.adj, regions.colours, len(regions.palette)
    nodes = list(range(len(colours)))
    record: dict = {"level": name, "regions": len(nodes), "colours": k}
    if len(islands(len(nodes), adj)) != 1:
        return {**record, "skipped": "islands"}
    product = bound_report(adj, colours, k, clusters=CLUSTERS, pivot=pivot_term(adj, colours, k, PIVOT)).value
    ring = ring_radius(nodes, adj, colours)[1]
    gather = gather_costs(nodes, adj, colours)
    for c, cost in cluster_costs(nodes, adj, colours, CLUSTERS).items():
        gather[c] = max(gather[c], cost)
    absent, present = island_colour_bounds(Counter(colours), gather)
    far = far_regions(nodes, adj, PIVOT)
    t0 = time.monotonic()
    anyf = {v: pivot_optimum(adj, colours, k, v, -1, seconds) for v in far}
    t1 = time.monotonic()
    per = {d: max(pivot_optimum(adj, colours, k, v, d, seconds) for v in far) for d in range(k)}
    t2 = time.monotonic()
    half_any = max((p + 1) // 2 for p in anyf.values())
    terms_any = [max(ring, present.get(d, absent), half_any) for d in range(k)]
    terms_per = [max(ring, present.get(d, absent), (per[d] + 1) // 2) for d in range(k)]
    return {**record, "bound": product, "any_final": min(terms_any), "per_colour": min(terms_per),
            "pivot_any": sorted(anyf.values(), reverse=True), "pivot_per_colour": [per[d] for d in range(k)],
            "colours_raised": sum(b > a for a, b in zip(terms_any, terms_per, strict=True)),
            "seconds_any": t1 - t0, "seconds_per_colour": t2 - t1}


def table(records: list[dict]) -> str:
    lines = ["| level | regions | colours | root bound (product) | any final colour (recomputed) | per final colour | "
             "colours whose term rose | best pivot(v), any final | best pivot(v, d) per d | A* s: any, per colour |",
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in records:
        if "skipped" in r:
            lines.append(f"| {r['level']} | {r['regions']} | {r['colours']} | skipped ({r['skipped']}) | | | | | | |")
            continue
        lines.append(f"| {r['level']} | {r['regions']} | {r['colours']} | {r['bound']} | {r['any_final']} | "
                     f"{r['per_colour']} | {r['colours_raised']}/{r['colours']} | {r['pivot_any'][0]} | "
                     f"{', '.join(map(str, r['pivot_per_colour']))} | {r['seconds_any']:.1f}, "
                     f"{r['seconds_per_colour']:.1f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("levels", nargs="+", help="level files, or Flood-It boards (rows_cols_colours_index)")
    ap.add_argument("--seconds", type=float, default=10.0, help="seconds per A* run (then its proven lower bound)")
    args = ap.parse_args(argv)
    records = []
    for path in args.levels:
        records.append(profile(path, args.seconds))
        print(table(records[-1:]).splitlines()[-1], flush=True)
    write(args.out, command_line(__file__, argv), table(records), {"records": records})


if __name__ == "__main__":
    main()
