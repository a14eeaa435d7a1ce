"""Two conjectures about Kami's free rules, checked exhaustively on every small connected graph (issue 35):

- **useful colours**: some shortest solution paints, at every move, a colour that a neighbour of the tapped
  region has (a move that merges nothing is never needed);
- **one move costs at most one**: no move leaves a board that needs more than one move more than before.

    .venv/bin/python benchmarks/useful_colours.py --max-nodes 7 --out benchmarks/results/useful-colours

Boards: every connected graph of networkx's atlas (all graphs of up to 7 nodes) with every proper colouring
(neighbours differ, as on a region graph) up to renaming the colours, with at most `--max-colours` colours; the
colours that may be painted are the board's own, plus `--spare` colours no region has. Each board is solved
exactly by breadth-first search (`useful_colours.cpp`, compiled here with g++): its optimum, its optimum with
useful colours only, and for every move the optimum after it. Evidence, not proof: see models/strengthening.md,
"Useful colours only".
"""

from __future__ import annotations

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
    for graph in graph_atlas_g():
        n = graph.number_of_nodes()
        if not 2 <= n <= max_nodes or not nx.is_connected(graph):
            continue
        edges = " ".join(f"{u} {v}" for u, v in graph.edges)
        for colours in colourings(graph, max_colours):
            used = max(colours) + 1
            if used >= 2:
                yield n, f"{n} {used + spare} {' '.join(map(str, colours))} {graph.number_of_edges()} {edges}"


def solve_all(lines: list[str]) -> list[tuple[int, int, int]]:
    """(optimum, optimum with useful colours only, the most one move raises the optimum) per line."""
    with tempfile.TemporaryDirectory() as tmp:
        binary = Path(tmp) / "useful_colours"
        subprocess.run(["g++", "-O2", "-std=c++17", "-o", str(binary), str(SOURCE)], check=True)
        out = subprocess.run([str(binary)], input="\n".join(lines) + "\n", capture_output=True, text=True,
                             check=True).stdout
    return [tuple(map(int, line.split())) for line in out.splitlines()]  # type: ignore[misc]


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


def main(argv: list[str] | None = None) -> None:
    ap = options(__doc__)
    ap.add_argument("--max-nodes", type=int, default=6, help="the largest graphs checked (the atlas has up to 7)")
    ap.add_argument("--max-colours", type=int, default=5, help="the most colours on a board")
    ap.add_argument("--spare", type=int, default=0, help="colours no region has that may be painted")
    args = ap.parse_args(argv)
    sizes, lines = zip(*boards(min(args.max_nodes, 7), args.max_colours, args.spare), strict=True)
    rows = summary(list(sizes), solve_all(list(lines)))
    write(args.out, command_line(__file__, argv), table(rows, args.max_colours, args.spare),
          {"max_nodes": args.max_nodes, "max_colours": args.max_colours, "spare": args.spare, "rows": rows})


if __name__ == "__main__":
    main()
