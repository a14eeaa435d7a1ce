"""The region graph: every maximal same-coloured connected set of cells becomes one node.

All solving happens on region graphs. A region is identified by its smallest cell index (its top-left
cell), so moves, proofs and pictures agree on names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import networkx as nx

from kamicp.board.level import Level


def components(n: int, adj: Sequence[Sequence[int]], colours: Sequence[object]) -> list[int]:
    """For each node, the smallest node of its same-coloured connected component."""
    comp = [-1] * n
    for start in range(n):
        if comp[start] != -1:
            continue
        comp[start] = start
        stack = [start]
        col = colours[start]
        while stack:
            v = stack.pop()
            for w in adj[v]:
                if comp[w] == -1 and colours[w] == col:
                    comp[w] = start
                    stack.append(w)
    return comp


@dataclass(frozen=True)
class Regions:
    """A compact region graph: regions 0..m-1 with colour indices, adjacency and member cells.

    `ids[k]` is the smallest cell of region k (regions are numbered in that order); `palette[c]` is the
    colour key of colour index c.
    """

    ids: tuple[int, ...]
    colours: tuple[int, ...]
    adj: tuple[tuple[int, ...], ...]
    cells: tuple[tuple[int, ...], ...]
    palette: tuple[str, ...]

    @property
    def size(self) -> int:
        return len(self.ids)

    @property
    def colours_present(self) -> int:
        """How many colours the regions have (not the palette's size, the searches' `num_colors`)."""
        return len(set(self.colours))

    def to_networkx(self) -> nx.Graph:
        g = nx.Graph()
        for k, rid in enumerate(self.ids):
            g.add_node(rid, color=self.palette[self.colours[k]], cells=self.cells[k])
        for k, nbrs in enumerate(self.adj):
            for j in nbrs:
                if k < j:
                    g.add_edge(self.ids[k], self.ids[j])
        return g


def regions_of(level: Level, cell_colours: Sequence[str] | None = None) -> Regions:
    """Contract same-coloured neighbouring cells of `level` (optionally recoloured) into regions."""
    colours = level.colours if cell_colours is None else cell_colours
    palette = level.colour_keys
    known = set(palette)  # (a set: a tuple scanned per cell is quadratic on a level of many colours)
    for key in colours:
        if key not in known:
            known.add(key)
            palette = (*palette, key)
    cindex = {key: c for c, key in enumerate(palette)}
    q = quotient(level.adjacency(), [cindex[key] for key in colours])
    return Regions(
        ids=q.rep,
        colours=q.colours,
        adj=tuple(tuple(sorted(nb)) for nb in q.adj),
        cells=q.members,
        palette=palette,
    )


def region_graph(level: Level) -> nx.Graph:
    """The level's region graph as networkx: node = region id, attributes `color` and `cells`."""
    return regions_of(level).to_networkx()


def islands(n: int, adj: Sequence[Sequence[int]]) -> list[list[int]]:
    """Connected components (ignoring colour), each a sorted list of nodes."""
    seen = [False] * n
    out: list[list[int]] = []
    for s in range(n):
        if seen[s]:
            continue
        seen[s] = True
        comp = [s]
        stack = [s]
        while stack:
            v = stack.pop()
            for w in adj[v]:
                if not seen[w]:
                    seen[w] = True
                    comp.append(w)
                    stack.append(w)
        out.append(sorted(comp))
    return out


@dataclass(frozen=True)
class Quotient:
    """The current region graph of a recoloured board, over the initial regions.

    `rep[k]` is the smallest initial region of current region k, `members[k]` its initial regions,
    `colors[k]` its colour and `adj[k]` its neighbouring current regions.
    """

    rep: tuple[int, ...]
    members: tuple[tuple[int, ...], ...]
    colours: tuple[int, ...]
    adj: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        return len(self.rep)


def quotient(adj0: Sequence[Sequence[int]], state: Sequence[int]) -> Quotient:
    """Contract the initial region graph `adj0` coloured by `state` (a colour per initial region)."""
    n = len(state)
    comp = components(n, adj0, state)
    order: dict[int, int] = {}
    members: list[list[int]] = []
    for v in range(n):
        k = order.get(comp[v])
        if k is None:
            k = order[comp[v]] = len(members)
            members.append([])
        members[k].append(v)
    nbrs: list[set[int]] = [set() for _ in members]
    for v in range(n):
        a = order[comp[v]]
        for w in adj0[v]:
            b = order[comp[w]]
            if a != b:
                nbrs[a].add(b)
    return Quotient(
        rep=tuple(m[0] for m in members),
        members=tuple(tuple(m) for m in members),
        colours=tuple(state[m[0]] for m in members),
        adj=tuple(tuple(s) for s in nbrs),
    )


def recolour(state: Sequence[int], members: Sequence[int], colour: int) -> tuple[int, ...]:
    """`state` with the initial regions in `members` painted `color`."""
    new = list(state)
    for v in members:
        new[v] = colour
    return tuple(new)
