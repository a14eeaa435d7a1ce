"""Three statements about Kami's free rules, checked on every colouring of small connected graphs (issue 35):

- **useful colours**: some shortest solution paints, at every move, a colour that a neighbour of the tapped
  region has (a move that merges nothing is never needed);
- **one move costs at most one**: no move leaves a board that needs more than one move more than before;
- **one node changes it by at most one**: recolouring a single node changes the optimum by at most one.

All three are proven (models/useful-colours.md: theorem 1 gives the third and the second, which gives the
first, theorem 2); this checks them exactly, as the cross-check beside the proofs.

    .venv/bin/python benchmarks/useful_colours.py --exhaustive 7:3 --exhaustive 7:4 --exhaustive 6:5 \\
        --random 300:8-9:4 --random 300:10-12:3 --random 100:7-8:5 --out benchmarks/results/useful-colours

`--exhaustive N:K`: every connected graph of networkx's atlas with 2..N nodes (N <= 7); `--random C:A-B:K`: C
random connected graphs of A..B nodes (a random tree plus up to n + 1 random edges, `--seed`). Each graph with
K colours is solved for **all** its K^n colourings at once (proper or not, so regions of several nodes and
palette colours absent from the board are covered), exactly, by `useful_colours.cpp` (compiled here with g++).
"""

from __future__ import annotations

import atexit
import functools
import random
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
from networkx.generators.atlas import graph_atlas_g

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, write  # noqa: E402

SOURCE = ROOT / "benchmarks" / "useful_colours.cpp"
FIELDS = ("colourings", "differs", "one_node", "one_move", "largest")


def atlas(max_nodes: int) -> Iterator[nx.Graph]:
    """Every connected graph of the atlas with 2..max_nodes nodes (the atlas has all graphs up to 7)."""
    for graph in graph_atlas_g():
        if 2 <= graph.number_of_nodes() <= max_nodes and nx.is_connected(graph):
            yield graph


def random_graphs(count: int, low: int, high: int, seed: int) -> Iterator[nx.Graph]:
    """`count` connected graphs of low..high nodes: a random tree plus up to n + 1 random edges."""
    rng = random.Random(seed)
    for _ in range(count):
        n = rng.randint(low, high)
        graph = nx.Graph([(rng.randrange(i), i) for i in range(1, n)])
        graph.add_edges_from((u, v) for u, v in (rng.sample(range(n), 2) for _ in range(rng.randint(0, n + 1))))
        yield graph


@functools.cache
def compiled() -> Path:
    """useful_colours.cpp built once per process (g++ -O2), in a folder removed at exit."""
    folder = Path(tempfile.mkdtemp(prefix="useful-colours-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    subprocess.run(["g++", "-O2", "-std=c++17", "-o", str(folder / "solve"), str(SOURCE)], check=True)
    return folder / "solve"


def solve_all(graphs: list[nx.Graph], colours: int) -> list[dict]:
    """Per graph (nodes 0..n-1), the solver's answer over its colours^n colourings (FIELDS)."""
    lines = [f"{g.number_of_nodes()} {colours} {g.number_of_edges()} " + " ".join(f"{u} {v}" for u, v in g.edges)
             for g in graphs]
    out = subprocess.run([str(compiled())], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout
    return [dict(zip(FIELDS, map(int, line.split()), strict=True)) for line in out.splitlines()]


def rows_of(source: str, graphs: list[nx.Graph], colours: int) -> list[dict]:
    """One row per graph size: graphs, colourings and the worst case of each statement over them."""
    answers = solve_all(graphs, colours)
    rows = []
    for n in sorted({g.number_of_nodes() for g in graphs}):
        mine = [a for g, a in zip(graphs, answers, strict=True) if g.number_of_nodes() == n]
        rows.append({"graphs": source, "nodes": n, "colours": colours, "count": len(mine),
                     "colourings": sum(a["colourings"] for a in mine), "differs": sum(a["differs"] for a in mine),
                     "one_node": max(a["one_node"] for a in mine), "one_move": max(a["one_move"] for a in mine),
                     "largest": max(a["largest"] for a in mine)})
    return rows


def table(rows: list[dict]) -> str:
    out = ["| graphs | nodes | colours | graphs checked | colourings | largest optimum | useful colours only "
           "changes the optimum | the most one node's colour changes it | the most one move raises it |",
           "|---|---|---|---|---|---|---|---|---|"]
    out += [f"| {r['graphs']} | {r['nodes']} | {r['colours']} | {r['count']:,} | {r['colourings']:,} | {r['largest']} "
            f"| {r['differs']} | {r['one_node']} | {r['one_move']} |" for r in rows]
    out += ["", f"{sum(r['colourings'] for r in rows):,} colourings of {sum(r['count'] for r in rows):,} graphs: "
            f"useful colours only changes {sum(r['differs'] for r in rows)} optima; one node's colour changes an "
            f"optimum by at most {max(r['one_node'] for r in rows)}; one move raises it by at most "
            f"{max(r['one_move'] for r in rows)}."]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("--exhaustive", action="append", default=[], metavar="N:K",
                    help="every connected atlas graph of up to N nodes (N <= 7), K colours (repeatable)")
    ap.add_argument("--random", action="append", default=[], metavar="C:A-B:K",
                    help="C random connected graphs of A..B nodes, K colours (repeatable)")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args(argv)
    rows = []
    for spec in args.exhaustive:
        nodes, colours = map(int, spec.split(":"))
        rows += rows_of("all", list(atlas(min(nodes, 7))), colours)
    for k, spec in enumerate(args.random):
        count, span, colours = spec.split(":")
        low, high = map(int, span.split("-"))
        rows += rows_of("random", list(random_graphs(int(count), low, high, args.seed + k)), int(colours))
    write(args.out, command_line(__file__, argv), table(rows),
          {"exhaustive": args.exhaustive, "random": args.random, "seed": args.seed, "rows": rows})


if __name__ == "__main__":
    main()
