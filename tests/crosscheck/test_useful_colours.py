"""Useful colours only (models/useful-colours.md; issue 35) against the exhaustive oracle, which is built on the
rules engine alone and shares no code with the solvers. On random small boards (triangle and square grids,
graphs; some with islands):
- theorem 1: recolouring a connected set of cells to one colour raises the optimum by at most one;
- theorem 2: on a connected board, the fewest moves with useful colours only (each move paints a colour some
  neighbour of the tapped region has) equal the optimum;
- theorem 3: ... also when the moves must besides follow the search's commuting order with adjacent pairs of
  the same new colour left unordered;
- the compiled search that uses both (`useful=True`) finds the oracle's optimum, with islands too.
A few hundred boards here, 10,000 in the slow test.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from kamicp.board.level import Level
from kamicp.board.regions import islands, regions_of
from kamicp.board.rules import Board, apply_move, verify
from kamicp.prover.outcome import to_moves
from kamicp.prover.search import HAVE_COMPILED, CompiledIDAStar
from tests.helpers.boards import mixed_small_board
from tests.helpers.oracle import bfs_optimum, region_moves


def near_colours(board: Board, region: list[int]) -> set[str]:
    adj = board.level.adjacency()
    return {board.colours[v] for u in region for v in adj[u]} - {board.colours[region[0]]}


@dataclass(frozen=True)
class Last:
    """The move that led to a board, as the commuting order needs it: the smallest clicked cell, the clicked
    cells with their neighbours, the old and the new colour."""
    first: int
    near: frozenset[int]
    old: str
    new: str


def allowed(region: list[int], colour: str, last: Last | None) -> bool:
    """The commuting order of strengthening.md §2 (at cell level, adjacent pairs included), with adjacent pairs
    of the same new colour left unordered (theorem 3): a move is skipped when it is independent of the last one
    and its smallest cell is smaller."""
    if last is None or min(region) > last.first:
        return True
    cells = set(region)
    if not cells & last.near:
        return False  # not adjacent: independent, inverted
    if last.first in cells:
        return True  # the merged region itself
    return colour == last.old or colour == last.new  # adjacent: dependent, or exempt when the colours are equal


def fewest(level: Level, limit: int, useful: bool = False, ordered: bool = False) -> int | None:
    """Breadth-first over (board, last move): the fewest moves to one colour with the given restrictions."""
    start = Board.start(level)
    if start.solved:
        return 0
    adj = level.adjacency()
    seen = {(start.colours, None)}
    frontier: list[tuple[Board, Last | None]] = [(start, None)]
    for depth in range(1, limit + 1):
        nxt = []
        for board, last in frontier:
            for region, move in region_moves(board):
                if useful and move.colour not in near_colours(board, region):
                    continue
                if ordered and not allowed(region, move.colour, last):
                    continue
                child = apply_move(board, move)
                if child.solved:
                    return depth
                step = Last(min(region), frozenset(region) | {v for u in region for v in adj[u]},
                            board.colours[region[0]], move.colour) if ordered else None
                if (child.colours, step) not in seen:
                    seen.add((child.colours, step))
                    nxt.append((child, step))
        frontier = nxt
    return None


def connected_set(rng: random.Random, level: Level) -> list[int]:
    """A random connected set of cells: a random walk of growth from a random cell."""
    adj = level.adjacency()
    chosen = [rng.randrange(level.size)]
    for _ in range(rng.randrange(level.size)):
        frontier = sorted({v for u in chosen for v in adj[u]} - set(chosen))
        if not frontier:
            break
        chosen.append(rng.choice(frontier))
    return chosen


@dataclass
class Tally:
    boards: int = 0
    recoloured: int = 0  # theorem 1: (board, set, colour) triples
    raised: int = 0  # ... where the optimum rose by one (the bound is tight)
    connected: int = 0  # theorem 2 and 3 boards
    islands: int = 0


def compiled_optimum(level: Level) -> int:
    """The compiled search with useful colours only (and its default order, clusters and pivot test): the first
    horizon it does not refute, its plan replayed by the rules engine."""
    regions = regions_of(level)
    search = CompiledIDAStar(regions.adj, regions.colours, len(regions.palette), clusters=8, pivot=2, useful=True)
    for horizon in range(0, 13):
        plan = search.within(horizon)
        if plan is not None:
            verify(level, to_moves(regions, plan), max_moves=horizon)
            return horizon
    raise AssertionError(level)


def check(level: Level, rng: random.Random, tally: Tally, ordered: bool) -> None:
    if level.size < 2:
        return
    found = bfs_optimum(level, limit=12)
    assert found is not None, level
    opt = found[0]
    tally.boards += 1
    if HAVE_COMPILED:  # the search that uses it (islands: it switches itself off)
        assert compiled_optimum(level) == opt, level
    for _ in range(3):
        cells, colour = connected_set(rng, level), rng.choice(level.colour_keys)
        recoloured = level.position(tuple(colour if i in cells else c for i, c in enumerate(level.colours)))
        after = bfs_optimum(recoloured, limit=opt + 1)
        assert after is not None and after[0] <= opt + 1, (level, cells, colour)
        tally.recoloured += 1
        tally.raised += after[0] == opt + 1
    if len(islands(level.size, level.adjacency())) > 1:
        tally.islands += 1
        return
    tally.connected += 1
    assert fewest(level, opt, useful=True) == opt, level
    if ordered:
        assert fewest(level, opt, useful=True, ordered=True) == opt, level


def boards(seed: int, count: int) -> Iterator[tuple[Level, random.Random]]:
    rng = random.Random(seed)
    for i in range(count):
        yield mixed_small_board(rng, i), rng


def run(seed: int, count: int, ordered: bool = True) -> Tally:
    tally = Tally()
    for level, rng in boards(seed, count):
        check(level, rng, tally, ordered)
    return tally


def test_useful_colours_against_the_oracle():
    tally = run(36, 300)
    assert tally.connected >= 150 and tally.islands >= 30 and tally.raised > 0


def test_the_restrictions_really_restrict():
    """Two islands of colours A and B: one move (paint one the other's colour), and it merges nothing, so
    useful colours only finds none (theorem 2 needs a connected board). The order: after a move clicking cell 5
    (B to A; cells 4 and 5 and their neighbours near it), a region of smaller cells far from it is skipped; one
    next to it is skipped unless it paints B (dependent) or A (the same new colour, left unordered)."""
    apart = Level.from_graph({"1": "A", "2": "B"}, [], name="apart")
    assert fewest(apart, 3) == 1 and fewest(apart, 3, useful=True) is None
    last = Last(5, frozenset({4, 5, 6}), "B", "A")
    assert not allowed([0, 1], "C", last) and allowed([7], "C", last)
    assert [allowed([4], c, last) for c in "ABC"] == [True, True, False]
    assert allowed([3, 5], "C", last)  # the merged region itself


@pytest.mark.slow
def test_useful_colours_on_ten_thousand_boards():
    tally = run(3636, 10_000)
    assert tally.connected >= 5_000 and tally.islands >= 1_000
    print(tally)  # (-s shows the counts: models/useful-colours.md quotes them)
