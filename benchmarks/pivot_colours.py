"""The pivot relation per final colour (models/pivot-free.md, "What the bound uses"), three forms in one run:
what each gives at the root.

    .venv/bin/python benchmarks/pivot_colours.py --out benchmarks/results/pivot-colours \\
        benchmarks/levels/*.json /work/shared/bench/*.json /work/shared/flood99/12_12_*

The island's term for a final colour d, from the same far regions v (`BoundOptions().pivot` of them) and the
pivot A*'s optimum L_v from each (any final colour) or pivot(v, d) (the A* with final colour d):
- *half*: max_v ceil(L_v / 2), the same for every d (the product before the recoloured region counted);
- *product*: max_v ceil((L_v + [colour(v) != d]) / 2), the root bound of `solve` now (a plan ending in d
  recolours every region of another colour, which the relation counts one move cheaper); the bound is
  computed by `bound_report` and recomputed here from its parts (they must agree);
- *per colour*: max_v ceil((pivot(v, d) + [colour(v) != d]) / 2), k A* runs more per region.
Each joins the ring radius and the colour bound (gathering and cluster costs) for d; the root bound is the
minimum over d. Levels with islands are skipped (the terms would be summed per island; not written here).
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
from kamicp.prover.pivot_bound import far_regions, pivot_lower, pivot_term  # noqa: E402
from kamicp.runtime.clock import Deadline  # noqa: E402

CLUSTERS = BoundOptions().clusters
PIVOT = BoundOptions().pivot
CAP = 2_000_000  # stored sets per A* run (beyond: its proven lower bound, still sound)


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
    anyf = {v: pivot_lower(adj, colours, k, v, Deadline.slice(seconds), CAP) for v in far}
    t1 = time.monotonic()
    per = {(v, d): pivot_lower(adj, colours, k, v, Deadline.slice(seconds), CAP, final=d)
           for v in far for d in range(k)}
    t2 = time.monotonic()

    def bound(term) -> int:
        return min(max(ring, present.get(d, absent), max(term(v, d) for v in far)) for d in range(k))

    top = max(anyf.values())
    return {**record, "bound": product, "half": bound(lambda v, d: (anyf[v] + 1) // 2),
            "recomputed": bound(lambda v, d: (anyf[v] + 1 + (colours[v] != d)) // 2),
            "per_colour": bound(lambda v, d: (per[v, d] + 1 + (colours[v] != d)) // 2),
            "pivot_top": top, "top_colours": len({colours[v] for v in far if anyf[v] == top}),
            "seconds_any": t1 - t0, "seconds_per_colour": t2 - t1}


def table(records: list[dict]) -> str:
    lines = ["| level | regions | colours | half the pivot game | product (+ a recoloured region) | per final colour "
             "| longest pivot game (colours of its regions) | A* s: any final, per colour |",
             "|---|---|---|---|---|---|---|---|"]
    for r in records:
        if "skipped" in r:
            lines.append(f"| {r['level']} | {r['regions']} | {r['colours']} | skipped ({r['skipped']}) | | | | |")
            continue
        rise = "**" if r["bound"] > r["half"] else ""
        lines.append(f"| {r['level']} | {r['regions']} | {r['colours']} | {r['half']} | {rise}{r['bound']}{rise} | "
                     f"{r['per_colour']} | {r['pivot_top']} ({r['top_colours']}) | {r['seconds_any']:.1f}, "
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
