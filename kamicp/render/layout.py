"""Node positions for drawing a graph level, in [0, 1] x [0, 1], the same for every picture of the level.

Small graphs (below LARGE nodes) get networkx's spring layout started from a planar drawing. From LARGE
nodes on networkx switches to a sparse solver that needs SciPy, which kamicp does not depend on, and the
planar drawing and dense forces grow too slow; there the layout is Pivot MDS (Brandes & Pich, "Eigensolver
methods for progressive multidimensional scaling of large data", 2006: breadth-first distances to a few
pivot nodes, the two main axes of their double-centred matrix), which unfolds board-like graphs in a few
breadth-first searches, then a few force-directed steps whose repulsion is sampled. Its cost is bounded
by a fixed amount of work (PIVOTS searches, FORCE_WORK node-pair forces), not by a clock, so the drawing
is the same on every machine. numpy is imported where it is used: importing the CLI must not load it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING

import networkx as nx

from kamicp.board.level import Level

if TYPE_CHECKING:
    import numpy as np

Point = tuple[float, float]

SEED = 7
LARGE = 500  # networkx's spring layout needs SciPy from 500 nodes on
PIVOTS = 12  # breadth-first searches of Pivot MDS
FORCE_WORK = 20_000_000  # node-pair force evaluations of the refinement, in all
SAMPLES = 24  # random nodes each node is pushed away from, per step
MAX_STEPS = 60


@lru_cache(maxsize=32)
def graph_layout(level: Level) -> tuple[Point, ...]:
    """Node positions of a graph level in [0, 1] x [0, 1]; each axis is stretched to fill the square."""
    import numpy as np
    if level.size == 1:
        return ((0.5, 0.5),)
    pos = _small_layout(level) if level.size < LARGE else _large_layout(level)
    lo, span = pos.min(axis=0), np.ptp(pos, axis=0)
    span[span == 0] = 1.0
    return tuple((float(x), float(y)) for x, y in (pos - lo) / span)


def _small_layout(level: Level) -> np.ndarray:
    import numpy as np
    # Region graphs of boards are planar: a spring layout started from a planar drawing keeps few or
    # no crossings and spreads the nodes out.
    g = nx.Graph()
    g.add_nodes_from(range(level.size))
    g.add_edges_from(level.edges)
    start = nx.planar_layout(g) if nx.check_planarity(g)[0] else None
    pos = nx.spring_layout(g, pos=start, seed=SEED, iterations=300)
    return np.array([pos[i] for i in range(level.size)], dtype=float)


def _neighbours(level: Level) -> tuple[np.ndarray, np.ndarray]:
    """The adjacency as CSR arrays (offsets, targets), both directions of every edge."""
    import numpy as np
    edges = np.asarray(level.edges, dtype=np.int64).reshape(-1, 2)
    src = np.concatenate([edges[:, 0], edges[:, 1]])
    dst = np.concatenate([edges[:, 1], edges[:, 0]])
    order = np.argsort(src, kind="stable")
    offsets = np.zeros(level.size + 1, dtype=np.int64)
    np.cumsum(np.bincount(src, minlength=level.size), out=offsets[1:])
    return offsets, dst[order]


def _distances(offsets: np.ndarray, targets: np.ndarray, source: int) -> np.ndarray:
    """Breadth-first distances from `source` (frontier by frontier, in numpy); unreachable nodes get one
    more than the farthest reachable one."""
    import numpy as np
    n = len(offsets) - 1
    dist = np.full(n, -1, dtype=np.int64)
    dist[source] = 0
    frontier = np.array([source])
    depth = 0
    while frontier.size:
        depth += 1
        starts, ends = offsets[frontier], offsets[frontier + 1]
        counts = ends - starts
        idx = np.repeat(ends - counts.cumsum(), counts) + np.arange(counts.sum())
        nxt = np.unique(targets[idx])
        nxt = nxt[dist[nxt] < 0]
        dist[nxt] = depth
        frontier = nxt
    dist[dist < 0] = dist.max() + 1
    return dist


def _pivot_mds(level: Level, offsets: np.ndarray, targets: np.ndarray) -> np.ndarray:
    """Pivot MDS: pivots chosen farthest-first, their squared distances double-centred, two main axes."""
    import numpy as np
    columns, pivot = [], 0
    nearest = np.full(level.size, np.iinfo(np.int64).max)
    for _ in range(min(PIVOTS, level.size)):
        d = _distances(offsets, targets, pivot)
        columns.append(d)
        nearest = np.minimum(nearest, d)
        pivot = int(np.argmax(nearest))
    sq = np.stack(columns, axis=1).astype(float) ** 2
    centred = sq - sq.mean(axis=0) - sq.mean(axis=1, keepdims=True) + sq.mean()
    u, s, _ = np.linalg.svd(-0.5 * centred, full_matrices=False)
    pos = u[:, :2] * s[:2]
    if pos.shape[1] < 2:  # (one pivot: a line)
        pos = np.column_stack([pos[:, 0], np.zeros(level.size)])
    return pos


def _large_layout(level: Level) -> np.ndarray:
    import numpy as np
    offsets, targets = _neighbours(level)
    rng = np.random.default_rng(SEED)
    pos = _pivot_mds(level, offsets, targets)
    pos += rng.normal(scale=1e-3 * (np.ptp(pos) or 1.0), size=pos.shape)  # (no two nodes on one point)
    pos /= np.ptp(pos) or 1.0
    n = level.size
    edges = np.asarray(level.edges, dtype=np.int64).reshape(-1, 2)
    k = 1.0 / np.sqrt(n)  # the ideal edge length in the unit square (Fruchterman-Reingold)
    steps = int(min(MAX_STEPS, FORCE_WORK // (n * SAMPLES + 2 * len(edges) + 1)))
    temperature = 0.1
    for _ in range(steps):
        force = np.zeros_like(pos)
        others = rng.integers(0, n, size=(n, SAMPLES))
        delta = pos[:, None, :] - pos[others]
        d2 = np.maximum((delta**2).sum(axis=2), 1e-9)
        force += (delta * (k * k / d2)[:, :, None]).sum(axis=1) * ((n - 1) / SAMPLES)
        spring = pos[edges[:, 0]] - pos[edges[:, 1]]
        pull = spring * (np.sqrt((spring**2).sum(axis=1)) / k)[:, None]
        np.add.at(force, edges[:, 0], -pull)
        np.add.at(force, edges[:, 1], pull)
        length = np.maximum(np.sqrt((force**2).sum(axis=1)), 1e-9)
        pos += force * (np.minimum(length, temperature) / length)[:, None]
        temperature *= 0.93
    return pos
