"""Two conjectures about Kami's free rules, checked exhaustively on every small connected graph (issue 35):

- **useful colours**: some shortest solution paints, at every move, a colour that a neighbour of the tapped
  region has (a move that merges nothing is never needed);
- **one move costs at most one**: no move leaves a board that needs more than one move more than before;
- **one node changes it by at most one**: recolouring a single node (any colouring, proper or not) changes the
  optimum by at most one (the second follows from it; the first follows from the second, models/strengthening.md).

    .venv/bin/python benchmarks/useful_colours.py --max-nodes 7 --max-colours 7 --single-node 7:3 \
        --single-node 6:4 --out benchmarks/results/useful-colours

Boards: every connected graph of networkx's atlas (all graphs of up to 7 nodes) with every proper colouring
(neighbours differ, as on a region graph) up to renaming the colours, with at most `--max-colours` colours; the
colours that may be painted are the board's own, plus `--spare` colours no region has. Each board is solved
exactly by breadth-first search (`useful_colours.cpp`, compiled here with g++): its optimum, its optimum with
useful colours only, and for every move the optimum after it. `--single-node N:K`: every colouring with K colours
of every connected graph of up to N nodes, solved the same way. Evidence, not proof: see models/strengthening.md,
"Useful colours only".
"""

from __future__ import annotations

import atexit
import functools
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import networkx as nx
from networkx.generators.atlas import graph_atlas_g

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import command_line, options, write  # noqa: E402

SOURCE = ROOT / "benchmarks" / "useful_colours.cpp"


def colourings(graph: nx.Graph, most: int) -> Iterator[list[int]]:
    """Every proper colouring of `graph` (nodes 0..n-1) with at most `most` colours, once up to renaming:
    node i takes a colour already used or the next new one (canonical first occurrences)."""
    n, colours = graph.number_of_nodes(), []

    def extend(used: int) -> Iterator[list[int]]:
        i = len(colours)
        if i == n:
            yield list(colours)
            return
        for c in range(min(used + 1, most)):
            if all(colours[j] != c for j in graph[i] if j < i):
                colours.append(c)
                yield from extend(max(used, c + 1))
                colours.pop()

    yield from extend(0)


def boards(max_nodes: int, max_colours: int, spare: int) -> Iterator[tuple[int, str]]:
    """(nodes, the solver's input line) for every board of at least two colours."""
    for graph in graphs(max_nodes):
        n = graph.number_of_nodes()
        for colours in colourings(graph, max_colours):
            used = max(colours) + 1
            if used >= 2:
                yield n, f"{n} {used + spare} {' '.join(map(str, colours))} {edge_list(graph)}"


def single_node(max_nodes: int, colours: int) -> list[dict]:
    """Per graph size: how many colourings, and the most one node's colour changes an optimum."""
    sized = [(g.number_of_nodes(), f"sv {g.number_of_nodes()} {colours} {edge_list(g)}") for g in graphs(max_nodes)]
    answers = solve_all([line for _, line in sized])
    return [{"nodes": n, "colours": colours,
             "colourings": sum(a[0] for (size, _), a in zip(sized, answers, strict=True) if size == n),
             "change_max": max(a[1] for (size, _), a in zip(sized, answers, strict=True) if size == n)}
            for n in sorted({size for size, _ in sized})]


def graphs(max_nodes: int) -> Iterator[nx.Graph]:
    """Every connected graph of the atlas with 2..max_nodes nodes (up to 7)."""
    for graph in graph_atlas_g():
        if 2 <= graph.number_of_nodes() <= max_nodes and nx.is_connected(graph):
            yield graph


def edge_list(graph: nx.Graph) -> str:
    return f"{graph.number_of_edges()} " + " ".join(f"{u} {v}" for u, v in graph.edges)


@functools.cache
def compiled() -> Path:
    """useful_colours.cpp built once per process (g++ -O2), in a folder removed at exit."""
    folder = Path(tempfile.mkdtemp(prefix="useful-colours-"))
    atexit.register(shutil.rmtree, folder, ignore_errors=True)
    subprocess.run(["g++", "-O2", "-std=c++17", "-o", str(folder / "solve"), str(SOURCE)], check=True)
    return folder / "solve"


def solve_all(lines: list[str]) -> list[tuple[int, ...]]:
    """Per line, the solver's answer: (optimum, optimum with useful colours only, the most one move raises the
    optimum) for a board; (colourings, the most one node's colour changes the optimum) for an `sv` line."""
    out = subprocess.run([str(compiled())], input="\n".join(lines) + "\n", capture_output=True, text=True,
                         check=True).stdout
    return [tuple(map(int, line.split())) for line in out.splitlines()]


def summary(sizes: list[int], answers: list[tuple[int, int, int]]) -> list[dict]:
    rows = []
    for n in sorted(set(sizes)):
        mine = [a for size, a in zip(sizes, answers, strict=True) if size == n]
        raises = Counter(r for _, _, r in mine)
        rows.append({"nodes": n, "boards": len(mine), "useful_differs": sum(u != o for o, u, _ in mine),
                     "raise_max": max(raises), "raise_by_one": raises.get(1, 0),
                     "optimum_max": max(o for o, _, _ in mine)})
    return rows


def table(rows: list[dict], max_colours: int, spare: int) -> str:
    out = [f"At most {max_colours} colours on the board, {spare} spare colour(s) that may be painted.", "",
           "| nodes | boards | largest optimum | useful colours only changes the optimum | the most one move "
           "raises the optimum | boards where some move raises it by 1 |",
           "|---|---|---|---|---|---|"]
    out += [f"| {r['nodes']} | {r['boards']:,} | {r['optimum_max']} | {r['useful_differs']} | {r['raise_max']} "
            f"| {r['raise_by_one']:,} |" for r in rows]
    total = sum(r["boards"] for r in rows)
    out += ["", f"{total:,} boards: useful colours only changes {sum(r['useful_differs'] for r in rows)} optima; "
            f"the most one move raises an optimum is {max(r['raise_max'] for r in rows)}."]
    return "\n".join(out) + "\n"


def single_node_table(rows: list[dict]) -> str:
    out = ["", "Every colouring (proper or not), one node recoloured:", "",
           "| nodes | colours | colourings | the most one node's colour changes the optimum |", "|---|---|---|---|"]
    out += [f"| {r['nodes']} | {r['colours']} | {r['colourings']:,} | {r['change_max']} |" for r in rows]
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("--max-nodes", type=int, default=6, help="the largest graphs checked (the atlas has up to 7)")
    ap.add_argument("--max-colours", type=int, default=5, help="the most colours on a board")
    ap.add_argument("--spare", type=int, default=0, help="colours no region has that may be painted")
    ap.add_argument("--single-node", action="append", default=[], metavar="N:K",
                    help="also every K-colouring of every graph of up to N nodes, one node recoloured (repeatable)")
    args = ap.parse_args(argv)
    sizes, lines = zip(*boards(min(args.max_nodes, 7), args.max_colours, args.spare), strict=True)
    rows = summary(list(sizes), solve_all(list(lines)))
    single = [row for spec in args.single_node for row in single_node(*map(int, spec.split(":")))]
    write(args.out, command_line(__file__, argv),
          table(rows, args.max_colours, args.spare) + (single_node_table(single) if single else ""),
          {"max_nodes": args.max_nodes, "max_colours": args.max_colours, "spare": args.spare, "rows": rows,
           "single_node": single})


if __name__ == "__main__":
    main()
