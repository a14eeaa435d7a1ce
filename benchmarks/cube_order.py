"""The commuting-move order across the cube boundary: the compiled search's work for one horizon, as one
search and as the sum over its depth-1 cubes without and with the order, in one run.

    .venv/bin/python benchmarks/cube_order.py LEVEL:HORIZON [LEVEL:HORIZON ...] [--out benchmarks/results/cube-order]

For each level and horizon h: the single compiled search (the solver's settings, SearchOptions()) from the
root lower bound up to h (iterative deepening, one transposition table, as the `search` engine runs it),
then every depth-1 cube's child from its own lower bound up to h - 1, once unrestricted (every cube, as
before) and once canonical after the cube's move (kamicp/prover/prior.py), interleaved cube by cube so that the
load on the machine hits both alike. Cubes whose child bound exceeds h - 1 cost no search (refuted by the
bound) and count 0 nodes. Nodes do not depend on the load; CPU seconds (process time) do a little. Writes
OUT.md and OUT.json with the command.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

from kamicp import load_level
from kamicp.board.regions import Regions, regions_of
from kamicp.prover.bounds import lower_bound
from kamicp.prover.config import SearchOptions
from kamicp.prover.cubes import cell_colours, enumerate_cubes
from kamicp.prover.prior import root_prior
from kamicp.prover.search import make_search

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import RESULTS, command_line, options, write  # noqa: E402


def deepen(regions: Regions, top: int, prior=None) -> tuple[int, float, bool]:
    """Nodes, CPU seconds and whether a solution was found, horizons from the lower bound up to `top`."""
    o = SearchOptions()
    k = len(regions.palette)
    t0 = time.process_time()
    search = make_search(regions.adj, regions.colours, k, compiled=True, por=o.por, gather=o.gather, ring=o.ring,
                         por_adjacent=o.por_adjacent, clusters=o.clusters, prior=prior)
    found = False
    for h in range(lower_bound(regions.adj, regions.colours, k), top + 1):
        if search.within(h) is not None:
            found = True
            break
    return search.nodes, time.process_time() - t0, found


def measure(path: str, horizon: int) -> dict:
    level = load_level(path)
    regions = regions_of(level)
    nodes, cpu, found = deepen(regions, horizon)
    row = {"level": Path(path).stem, "horizon": horizon, "regions": regions.size, "single_nodes": nodes,
           "single_cpu": cpu, "single_found": found, "cubes": 0, "by_bound": 0, "free_nodes": 0, "free_cpu": 0.0,
           "order_nodes": 0, "order_cpu": 0.0, "free_found": 0, "order_found": 0}
    for cube in enumerate_cubes(regions, 1).cubes:
        row["cubes"] += 1
        child = regions_of(level.position(cell_colours(regions, cube), level.name))
        if lower_bound(child.adj, child.colours, len(child.palette)) > horizon - 1:
            row["by_bound"] += 1
            continue
        for name, prior in (("free", None), ("order", root_prior(cube.prior, child))):
            n, c, f = deepen(child, horizon - 1, prior)
            row[f"{name}_nodes"] += n
            row[f"{name}_cpu"] += c
            row[f"{name}_found"] += f
    return row


def table(rows: list[dict]) -> str:
    lines = ["| level | regions | h | single nodes | single CPU s | cubes (by bound) | cubes' nodes, unordered "
             "| ordered | ordered / unordered | unordered / single | ordered / single | CPU s unordered | ordered "
             "| solved cubes (unordered, ordered) |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        s = max(r["single_nodes"], 1)
        lines.append(
            f"| {r['level']} | {r['regions']} | {r['horizon']} | {r['single_nodes']:,} | {r['single_cpu']:.1f} "
            f"| {r['cubes']} ({r['by_bound']}) | {r['free_nodes']:,} | {r['order_nodes']:,} "
            f"| {r['order_nodes'] / max(r['free_nodes'], 1):.2f} | {r['free_nodes'] / s:.2f} "
            f"| {r['order_nodes'] / s:.2f} | {r['free_cpu']:.1f} | {r['order_cpu']:.1f} "
            f"| {r['free_found']}, {r['order_found']} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__, out=RESULTS / "cube-order")
    ap.add_argument("levels", nargs="+", help="LEVEL:HORIZON")
    args = ap.parse_args(argv)
    rows = []
    for spec in args.levels:
        path, _, h = spec.rpartition(":")
        rows.append(measure(path, int(h)))
        print(table(rows).splitlines()[-1], flush=True)
    write(args.out, command_line(__file__, argv), table(rows), {"rows": rows})


if __name__ == "__main__":
    main()
