"""Node positions for drawing a graph level, in [0, 1] x [0, 1], the same for every picture of the level.

Small graphs (below LARGE nodes) get stress majorization (all-pairs distances), island by island (one
layout's forces heap islands together), the islands packed in rows. From LARGE nodes on all-pairs work,
the planar drawing and networkx's forces (which would need SciPy there, which kamicp does not depend
on) grow too slow; there the layout is Pivot MDS (Brandes & Pich, "Eigensolver
methods for progressive multidimensional scaling of large data", 2006: breadth-first distances to a few
pivot nodes, the two main axes of their double-centred matrix), which unfolds board-like graphs in a few
breadth-first searches, then a few force-directed steps whose repulsion is sampled. Its cost is bounded
by a fixed amount of work (PIVOTS searches, FORCE_WORK node-pair forces), not by a clock, so the drawing
is the same on every machine. numpy is imported where it is used: importing the CLI must not load it.

A drawing must not show an adjacency that does not exist: an edge drawn through (or touching) a node
that is not one of its ends reads as that node's adjacency. So below LARGE nodes a repair pass pushes
every node off the edges it is too close to, and nodes off each other (`clearance` and `spacing`, in the unit
square's units, from the caller who knows the node's drawn size), in a bounded number of rounds; where
the rounds do not clear them all, `crowding` says how much bigger the picture must be drawn for the same
positions to clear them (a fixed amount of work, where more rounds would not be).
"""

from __future__ import annotations

from collections.abc import Sequence
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
STRESS_STEPS = 100  # rounds of stress majorization of a small graph's island
REPAIR_ROUNDS = 300  # rounds of the clearance repair
STARTS = (0, 1, 2, 3)  # the layouts tried, while the repair leaves nodes too close (see _small_layout)
ACCEPT = 1.5  # a layout whose picture must grow more than this to clear its nodes is tried again
RECOUNT = 10  # the repair counts all pairs near the limits every RECOUNT rounds
MARGIN = 1.05  # a repair pushes a little past the limit, so that a pair does not stay right at it


@lru_cache(maxsize=32)
def graph_layout(level: Level, clearance: float = 0.0, spacing: float = 0.0) -> tuple[Point, ...]:
    """Node positions of a graph level in [0, 1] x [0, 1]; each axis is stretched to fill the square.
    Below LARGE nodes, nodes are pushed (for a bounded number of rounds) until none is nearer than
    `clearance` to an edge it is not an end of, nor nearer than `spacing` to another node;
    `crowding` says by how much a picture must grow where that was not reached. A layout the rounds
    cannot clear (the picture would grow more than ACCEPT times) is tried again from other starts, and
    the one that needs the least growth is kept."""
    import numpy as np
    if level.size == 1:
        return ((0.5, 0.5),)
    if level.size >= LARGE:
        return _points(_unit(_large_layout(level)))
    edges = np.asarray(level.edges, dtype=np.int64).reshape(-1, 2)
    best, least = None, np.inf
    for start in STARTS:
        pos = _points(_unit(_repaired(_small_layout(level, start), edges, clearance, spacing)))
        need = crowding(level, pos, clearance, spacing)
        if need < least:
            best, least = pos, need
        if need <= ACCEPT:
            break
    return best


def crowding(level: Level, pos: Sequence[Point], clearance: float, spacing: float) -> float:
    """How many times bigger a drawing of `pos` must be for every node to be at least `clearance` from
    every edge it is not an end of and `spacing` from every other node (1.0: as it is). Only below
    LARGE nodes (above, the check itself would cost more than the layout): there it says 1.0."""
    import numpy as np
    if level.size >= LARGE or level.size == 1:
        return 1.0
    p = np.asarray(pos, dtype=float)
    edges = np.asarray(level.edges, dtype=np.int64).reshape(-1, 2)
    need = 1.0
    if len(edges):
        gx, gy = _gaps(p, edges)
        d = np.sqrt(gx * gx + gy * gy)
        d[np.arange(len(p))[:, None] == edges[None, :, 0]] = np.inf
        d[np.arange(len(p))[:, None] == edges[None, :, 1]] = np.inf
        need = max(need, clearance / max(float(d.min()), 1e-12))
    dx, dy = p[:, None, 0] - p[None, :, 0], p[:, None, 1] - p[None, :, 1]
    d = np.sqrt(dx * dx + dy * dy)
    np.fill_diagonal(d, np.inf)
    return max(need, spacing / max(float(d.min()), 1e-12))


def _points(pos: np.ndarray) -> tuple[Point, ...]:
    return tuple((float(x), float(y)) for x, y in pos)


def _unit(pos: np.ndarray) -> np.ndarray:
    """`pos` stretched, axis by axis, to fill [0, 1] x [0, 1] (which never brings two points nearer)."""
    import numpy as np
    lo, span = pos.min(axis=0), np.ptp(pos, axis=0)
    span[span == 0] = 1.0
    return (pos - lo) / span


def _small_layout(level: Level, start: int) -> np.ndarray:
    """Each island laid out on its own (the forces of one layout would heap islands together), the
    islands packed in rows, biggest first, each in a box whose side grows as its node count's root;
    in the unit square. Start 0 starts each island from a planar drawing where there is one; other
    starts are seeds of random ones."""
    import numpy as np
    g = nx.Graph()
    g.add_nodes_from(range(level.size))
    g.add_edges_from(level.edges)
    parts = sorted(nx.connected_components(g), key=lambda c: (-len(c), min(c)))
    pos = np.zeros((level.size, 2))
    width = max(1.0, float(np.sqrt(level.size)))
    x = y = row = 0.0
    for part in parts:
        nodes = sorted(part)
        side = max(0.6, float(np.sqrt(len(nodes))))
        if x > 0 and x + side > width + 1e-9:
            x, y, row = 0.0, y + row, 0.0
        island = nx.Graph(g.subgraph(nodes))  # (a copy: searches on a subgraph view are slow)
        pos[nodes] = _island(island, start) * (side * 0.8) + (x + side * 0.1, y + side * 0.1)
        x, row = x + side, max(row, side)
    return _unit(pos)


def _island(g: nx.Graph, start: int) -> np.ndarray:
    """One connected island in [0, 1] x [0, 1], in the order of its sorted nodes: stress majorization
    (SMACOF: graph distances become drawn distances, which spreads board-like graphs evenly), started
    from a planar drawing (region graphs of boards are planar) or a random one (see _small_layout)."""
    import numpy as np
    nodes = sorted(g.nodes)
    n = len(nodes)
    if n == 1:
        return np.array([[0.5, 0.5]])
    index = {v: i for i, v in enumerate(nodes)}
    dist = np.zeros((n, n))
    for v, row in nx.all_pairs_shortest_path_length(g):
        for u, d in row.items():
            dist[index[v], index[u]] = d
    weight = 1.0 / np.where(dist > 0, dist, np.inf) ** 2
    rng = np.random.default_rng(SEED + start)
    planar = nx.planar_layout(g) if start == 0 and nx.check_planarity(g)[0] else None
    pos = np.array([planar[v] for v in nodes]) if planar else rng.random((n, 2))
    pos = pos + rng.normal(scale=1e-3, size=pos.shape)  # (no two nodes on one point)
    pos *= dist.max() / max(float(np.ptp(pos)), 1e-9)
    total = weight.sum(axis=1)[:, None]
    for _ in range(STRESS_STEPS):
        dx, dy = pos[:, None, 0] - pos[None, :, 0], pos[:, None, 1] - pos[None, :, 1]
        pull = weight * dist / np.maximum(np.sqrt(dx * dx + dy * dy), 1e-9)
        pos = (weight @ pos + np.column_stack([(pull * dx).sum(axis=1), (pull * dy).sum(axis=1)])) / total
    return _unit(pos)


def _too_close(pos: np.ndarray, edges: np.ndarray, clearance: float, spacing: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """The (node, edge) pairs whose node is nearer than `clearance` to the edge and not one of its ends,
    and the (node, node) pairs nearer than `spacing`: index arrays of shape (k, 2)."""
    import numpy as np
    near = np.zeros((0, 2), dtype=np.int64)
    if clearance > 0 and len(edges):
        gx, gy = _gaps(pos, edges)
        near = np.argwhere(gx * gx + gy * gy < clearance * clearance)
        near = near[(near[:, 0] != edges[near[:, 1], 0]) & (near[:, 0] != edges[near[:, 1], 1])]
    crowd = np.zeros((0, 2), dtype=np.int64)
    if spacing > 0:
        dx, dy = pos[:, None, 0] - pos[None, :, 0], pos[:, None, 1] - pos[None, :, 1]
        crowd = np.argwhere(np.triu(dx * dx + dy * dy < spacing * spacing, k=1))
    return near, crowd


def _gaps(pos: np.ndarray, edges: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For every node and edge, the vector from the edge's nearest point to the node, as its x and y
    parts, each of shape (nodes, edges) (two flat arrays: numpy is much faster on them than on one
    array of pairs)."""
    import numpy as np
    x, y = pos[:, 0][:, None], pos[:, 1][:, None]
    ax, ay = pos[edges[:, 0], 0][None], pos[edges[:, 0], 1][None]
    abx, aby = pos[edges[:, 1], 0][None] - ax, pos[edges[:, 1], 1][None] - ay
    t = np.clip(((x - ax) * abx + (y - ay) * aby) / np.maximum(abx * abx + aby * aby, 1e-12), 0.0, 1.0)
    return x - (ax + t * abx), y - (ay + t * aby)


def _repaired(pos: np.ndarray, edges: np.ndarray, clearance: float, spacing: float) -> np.ndarray:
    """`pos` (in the unit square) with nodes pushed off the edges they crowd and off each other, the
    edge's ends pushed the other way, in at most REPAIR_ROUNDS rounds; it stays in the unit square.
    Each round looks only at the pairs that were within a few times the limits when last counted
    (every RECOUNT rounds): counting them all is the costly part, and a round moves nodes little."""
    import numpy as np
    pos = pos.copy()
    for rnd in range(REPAIR_ROUNDS):
        if rnd % RECOUNT == 0:
            near_pairs, crowd_pairs = _too_close(pos, edges, 3 * clearance, 3 * spacing)
        near = near_pairs[_pair_gaps(pos, edges, near_pairs)[2] < clearance]
        crowd = crowd_pairs[np.linalg.norm(pos[crowd_pairs[:, 0]] - pos[crowd_pairs[:, 1]], axis=1) < spacing]
        if not len(near) and not len(crowd):
            if rnd % RECOUNT == 0:
                break
            continue
        push = np.zeros_like(pos)
        if len(near):
            k, e = near[:, 0], near[:, 1]
            ab, t, dist = _pair_gaps(pos, edges, near)
            gap = pos[k] - (pos[edges[e, 0]] + t[:, None] * ab)
            normal = np.column_stack([-ab[:, 1], ab[:, 0]])  # (a node right on the edge: either side)
            depth = (MARGIN * clearance - dist)[:, None] * _direction(gap, normal)
            np.add.at(push, k, 0.6 * depth)
            np.add.at(push, edges[e, 0], -0.4 * depth * (1 - t)[:, None])
            np.add.at(push, edges[e, 1], -0.4 * depth * t[:, None])
        if len(crowd):
            i, j = crowd[:, 0], crowd[:, 1]
            delta = pos[i] - pos[j]
            turn = np.column_stack([np.cos(i + j), np.sin(i + j)])  # (two nodes on one point: any way)
            depth = 0.5 * (MARGIN * spacing - np.linalg.norm(delta, axis=1))[:, None] * _direction(delta, turn)
            np.add.at(push, i, depth)
            np.add.at(push, j, -depth)
        pos = np.clip(pos + push, 0.0, 1.0)
    return pos


def _pair_gaps(pos: np.ndarray, edges: np.ndarray, pairs: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For (node, edge) `pairs`: each edge's vector, where the node projects on it (0..1), and the
    node's distance from it."""
    import numpy as np
    k, e = pairs[:, 0], pairs[:, 1]
    a = pos[edges[e, 0]]
    ab = pos[edges[e, 1]] - a
    t = np.clip(((pos[k] - a) * ab).sum(axis=1) / np.maximum((ab**2).sum(axis=1), 1e-12), 0.0, 1.0)
    return ab, t, np.linalg.norm(pos[k] - (a + t[:, None] * ab), axis=1)


def _direction(v: np.ndarray, fallback: np.ndarray) -> np.ndarray:
    """Unit vectors along the rows of `v`, or of `fallback` where a row of `v` is (nearly) zero."""
    import numpy as np
    length = np.linalg.norm(v, axis=1)[:, None]
    other = fallback / np.maximum(np.linalg.norm(fallback, axis=1)[:, None], 1e-12)
    return np.where(length > 1e-9, v / np.maximum(length, 1e-12), other)


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
