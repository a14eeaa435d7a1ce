"""Colour-preserving symmetries of a region graph (for symmetry breaking, models/strengthening.md §4).

Only involutions are used: an automorphism sigma with sigma(sigma(v)) = v that keeps every region's
colour. Mirror-symmetric levels have one. For any solution, its image under sigma is a solution too.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

import networkx as nx
from networkx.algorithms.isomorphism import GraphMatcher

from kamicp.runtime.clock import Deadline


def involution(adj: Sequence[Sequence[int]], colours: Sequence[int], *, seconds: float = 1.0,
               limit: int = 200) -> tuple[int, ...] | None:
    """The colour-preserving automorphism that is its own inverse and moves the most regions, among the
    first `limit` automorphisms found within `seconds`; None if only the identity was found."""
    return _involution(tuple(tuple(a) for a in adj), tuple(colours), seconds, limit)


@lru_cache(maxsize=32)
def _involution(adj: tuple[tuple[int, ...], ...], colours: tuple[int, ...], seconds: float, limit: int
                ) -> tuple[int, ...] | None:
    n = len(colours)
    g = nx.Graph()
    for v in range(n):
        g.add_node(v, c=colours[v])
    for v, nb in enumerate(adj):
        for w in nb:
            if v < w:
                g.add_edge(v, w)
    matcher = GraphMatcher(g, g, node_match=lambda a, b: a["c"] == b["c"])
    end = Deadline.slice(seconds)
    best, moved = None, 0
    for k, mapping in enumerate(matcher.isomorphisms_iter()):
        if k >= limit or end.expired():
            break
        sigma = tuple(mapping[v] for v in range(n))
        count = sum(sigma[v] != v for v in range(n))
        if count > moved and all(sigma[sigma[v]] == v for v in range(n)):
            best, moved = sigma, count
    return best
