"""The random board sets of the strengthening and race tests: (seed, level, regions, optimum) tuples.

BOARDS are small boards (at most 12 regions, with and without islands) whose optimum comes from the
exhaustive oracle; MEDIUM (10-16 regions) and SYMMETRIC (mirror-symmetric grids) take theirs from the
pure-Python reference search. Built once per process, at import."""

from __future__ import annotations

import random

from kamicp.board.level import Level
from kamicp.board.regions import islands, regions_of
from kamicp.board.symmetry import involution
from kamicp.formats import load_level
from kamicp.prover.search import IDAStar
from tests.helpers import HARD
from tests.helpers.boards import random_graph, random_grid
from tests.helpers.oracle import bfs_optimum


def small_board(seed: int):
    rng = random.Random(1000 + seed)
    kind = seed % 4
    if kind == 0:
        return random_grid(rng, "triangle", rng.randint(2, 4), rng.randint(3, 4), rng.randint(3, 4))
    if kind == 1:
        return random_grid(rng, "square", rng.randint(2, 4), rng.randint(2, 4), rng.randint(3, 4), hole_rate=0.25)
    if kind == 2:  # sparse: usually several islands
        return random_graph(rng, rng.randint(4, 8), rng.randint(2, 4), 0.2)
    return random_graph(rng, rng.randint(4, 8), rng.randint(2, 4), 0.45)


def small_boards(count: int, max_regions: int = 9):
    out = []
    seed = 0
    while len(out) < count:
        level = small_board(seed)
        seed += 1
        regions = regions_of(level)
        if regions.size > max_regions or len(set(regions.colours)) < 2:
            continue
        truth = bfs_optimum(level, limit=8)
        if truth is not None:
            out.append((seed, level, regions, truth[0]))
    return out


BOARDS = small_boards(90, max_regions=12)


def search_optimum(search, lb: int = 0) -> tuple[int, list]:
    t = lb
    while True:
        plan = search.within(t)
        if plan is not None:
            return t, plan
        t += 1


def medium_boards(count: int):
    """Larger boards (10-16 regions, some with islands); the optimum comes from the pure-Python
    reference search (itself checked against the oracle in tests/crosscheck/test_crosscheck.py)."""
    rng = random.Random(99)
    out = []
    while len(out) < count:
        if len(out) % 3 == 2:
            level = random_graph(rng, rng.randint(10, 13), 4, 0.22)
        else:
            level = random_grid(rng, rng.choice(["triangle", "square"]), 4, 5, 4, hole_rate=0.1)
        regions = regions_of(level)
        if not 10 <= regions.size <= 16:
            continue
        opt = search_optimum(IDAStar(regions.adj, regions.colours, len(regions.palette)))[0]
        out.append((len(out), level, regions, opt))
    return out


MEDIUM = medium_boards(12)


def symmetric_boards(count: int):
    """Mirror-symmetric square grids (each row followed by its reverse), where an involution exists."""
    rng = random.Random(5)
    out = []
    while len(out) < count:
        rows, half, k = rng.randint(2, 3), rng.randint(2, 3), rng.randint(3, 4)
        grid = []
        for _ in range(rows):
            left = "".join(rng.choice("ABCD"[:k]) for _ in range(half))
            grid.append(left + left[::-1])
        level = Level.from_rows(grid, "square", name="mirror")
        regions = regions_of(level)
        if regions.size > 12 or len(set(regions.colours)) < 2 or involution(regions.adj, regions.colours) is None:
            continue
        opt = search_optimum(IDAStar(regions.adj, regions.colours, len(regions.palette)))[0]
        out.append((len(out), level, regions, opt))
    return out


SYMMETRIC = symmetric_boards(10)


def connected(entries: list) -> list:
    """The entries whose board is one island (horizons are monotone there)."""
    return [e for e in entries if len(islands(e[2].size, e[2].adj)) == 1]


def bench_level(name: str) -> Level:
    """A larger generated level of benchmarks/levels (benchmarks/generate.py)."""
    return load_level(HARD / f"{name}.json")
