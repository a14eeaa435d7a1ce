"""The commuting-move order across the cube boundary (models/cubes.md, reduction 4; kamicp/prover/prior.py):
only canonical cubes, each child searched "canonical after the cube's last move" by the compiled search.
Checked against the exhaustive oracle on random triangle, square and graph boards: the parent has a
solution within h iff some cube's restricted child search finds one within h - D, for D = 1 and 2 at
h = optimum - 1 and optimum; every solution found replays (rules engine); a prior that forbids nothing
changes nothing, node for node."""

from __future__ import annotations

import random

import pytest

from kamicp.board.level import Level, Move
from kamicp.board.regions import Regions, regions_of
from kamicp.board.rules import Board, apply_move, replay, verify
from kamicp.errors import UsageError
from kamicp.prover.config import SearchOptions, SolveOptions
from kamicp.prover.cubes import Cube, Step, cell_colours, cube_moves, enumerate_cubes, independent
from kamicp.prover.outcome import to_moves
from kamicp.prover.prior import After, RootPrior, root_prior
from kamicp.prover.search import HAVE_COMPILED, CompiledIDAStar
from kamicp.prover.solver import solve
from tests.helpers.boards import random_grid, random_mixed
from tests.helpers.oracle import bfs_optimum, blobby_levels

pytestmark = pytest.mark.skipif(not HAVE_COMPILED, reason="the compiled search is not built")


def board(seed: int) -> Level:
    return random_mixed(seed, triangle=(3, 4), square=(3, 4), nodes=(4, 9), edge_rates=(0.2, 0.35, 0.5))


def child_search(level: Level, regions: Regions, cube: Cube, prior: bool = True
                 ) -> tuple[Level, Regions, CompiledIDAStar]:
    child = level.position(cell_colours(regions, cube), level.name)  # as distributed.run_cube builds it
    cr = regions_of(child)
    use = root_prior(cube.prior, cr) if prior and cube.prior is not None else None
    return child, cr, CompiledIDAStar(cr.adj, cr.colours, len(cr.palette), prior=use)


def cubes_find(level: Level, depth: int, h: int) -> bool:
    """Some canonical cube's restricted child has a solution within h - depth (each one replayed)."""
    regions = regions_of(level)
    cubes = enumerate_cubes(regions, depth)
    if Board.start(level).solved or cubes.shorter is not None:
        return True
    for cube in cubes.cubes:
        child, cr, search = child_search(level, regions, cube)
        plan = search.within(h - depth)
        if plan is not None:  # the cube's moves, then the child's: a solution of the level within h
            verify(level, (*cube_moves(regions, cube), *to_moves(cr, plan)), max_moves=h)
            return True
    return False


@pytest.mark.parametrize("seed", range(45))
def test_restricted_cubes_cover_a_solution(seed: int) -> None:
    level = board(seed)
    found = bfs_optimum(level, limit=5)
    optimum = 6 if found is None else found[0]  # (none within 5: horizon 5 is checked to be refuted)
    for depth in (1, 2):
        for h in (optimum - 1, optimum) if found is not None else (5,):
            if h >= depth:
                assert cubes_find(level, depth, h) == (h >= optimum), (depth, h, optimum)


def test_restricted_cubes_on_blobby_boards_with_longer_optima() -> None:
    seen = set()
    for i, (level, optimum) in enumerate(blobby_levels(23, 10)):
        seen.add(optimum)
        for depth in (1, 2):
            for h in (optimum - 1, optimum):
                if h >= depth:
                    assert cubes_find(level, depth, h) == (h >= optimum), (i, depth, h, optimum)
    assert max(seen) >= 4


def moves_of(board: Board) -> list[tuple[frozenset[int], str, str]]:
    """Every legal move on `board` (rules engine, cells): the clicked cells, old and new colour."""
    out, done = [], set()
    for cell in range(board.level.size):
        if cell not in done:
            region = frozenset(board.region_at(cell))
            done |= region
            out += [(region, board.colours[cell], c) for c in board.level.colour_keys if c != board.colours[cell]]
    return out


def canonical_within(board: Board, prev: tuple[int, frozenset[int], frozenset[int], str] | None, budget: int,
                     failed: dict) -> bool:
    """The reference of "a solution within `budget` canonical after `prev`", on cells (models/cubes.md):
    prev = (the smallest cell a move must beat, the clicked cells, the cells of N[clicked], the old colour);
    a move on S painting c is skipped when min S < that cell and S is independent of the clicked set
    (disjoint from it, and not meeting N or not painting the old colour)."""
    if board.solved:
        return True
    key = (board.colours, prev)
    if budget <= 0 or failed.get(key, -1) >= budget:
        return False
    adj = board.level.adjacency()
    for clicked, old, colour in moves_of(board):
        if prev is not None and min(clicked) < prev[0] and not clicked & prev[1] and (
                not clicked & prev[2] or colour != prev[3]):
            continue
        after = apply_move(board, Move(min(clicked), colour))
        near = clicked.union(*(adj[v] for v in clicked))
        if canonical_within(after, (min(clicked), clicked, frozenset(near), old), budget - 1, failed):
            return True
    failed[key] = budget
    return False


@pytest.mark.parametrize("seed", range(40))
def test_restricted_child_search_is_the_rule_on_cells(seed: int) -> None:
    """Each canonical cube's child (depth 1 and 2): the compiled search with the prior answers every budget
    up to 4 as the cell-level reference of the rule does, the root compared with the smallest cell of the
    region holding P (the merged region, as root_prior gives it)."""
    level = board(seed + 300)
    regions = regions_of(level)
    adj = level.adjacency()
    for depth in (1, 2):
        for cube in enumerate_cubes(regions, depth).cubes[:25]:
            child, cr, search = child_search(level, regions, cube)
            start = Board.start(child)
            prev = None
            if cube.prior is not None:
                p = cube.prior
                merged = min(start.region_at(min(p.clicked)))
                near = p.clicked.union(*(adj[v] for v in p.clicked))
                prev = (merged, p.clicked, frozenset(near), p.colour)
            failed: dict = {}
            for budget in range(5):
                plan = search.within(budget)
                assert (plan is not None) == canonical_within(start, prev, budget, failed), (depth, cube.key, budget)
                if plan is not None:
                    verify(child, to_moves(cr, plan), max_moves=budget)
                    break


@pytest.mark.parametrize("seed", range(12))
def test_the_order_prunes_and_a_prior_forbidding_nothing_changes_nothing(seed: int) -> None:
    """Depth 1 at h = optimum - 1 (every child refuted): the restricted children cost no more nodes than
    the unrestricted ones (and less on some boards, below); a prior whose region is 0 skips nothing and
    gives the unrestricted search's node counts exactly."""
    level = board(seed + 100)
    found = bfs_optimum(level, limit=5)
    regions = regions_of(level)
    for cube in enumerate_cubes(regions, 1).cubes:
        _, cr, plain = child_search(level, regions, cube, prior=False)
        nothing = RootPrior(0, (0,), 0)
        free = CompiledIDAStar(cr.adj, cr.colours, len(cr.palette), prior=nothing)
        for h in range(6 if found is None else found[0]):
            assert (plain.within(h) is None) == (free.within(h) is None)
            assert plain.nodes == free.nodes


def test_the_order_saves_nodes_somewhere() -> None:
    saved = 0
    for seed in range(8):
        level = random_grid(random.Random(seed), "triangle", 5, 6, 4, hole_rate=0.0)
        regions = regions_of(level)
        whole = CompiledIDAStar(regions.adj, regions.colours, len(regions.palette))
        optimum = next(h for h in range(20) if whole.within(h) is not None)
        for cube in enumerate_cubes(regions, 1).cubes:
            _, _, plain = child_search(level, regions, cube, prior=False)
            _, _, ordered = child_search(level, regions, cube)
            plain.within(optimum - 2)
            ordered.within(optimum - 2)
            assert ordered.nodes <= plain.nodes
            saved += plain.nodes - ordered.nodes
    assert saved > 0


@pytest.mark.parametrize("seed", range(30))
def test_enumerated_pairs_are_canonical_and_priors_are_last_moves(seed: int) -> None:
    """Depth 2 with the order: a subset of the unordered cubes' boards; each kept sequence canonical; each
    prior the clicked cells and old colour of the cube's last move, by the rules engine."""
    level = board(seed + 200)
    regions = regions_of(level)
    ordered, free = enumerate_cubes(regions, 2), enumerate_cubes(regions, 2, order=False)
    assert {c.state for c in ordered.cubes} <= {c.state for c in free.cubes}
    assert ordered.sequences <= free.sequences
    for cube in ordered.cubes:
        if cube.prior is None:
            continue
        moves = cube_moves(regions, cube)
        before = replay(level, moves[:-1])[-1]
        assert cube.prior.clicked == frozenset(before.region_at(moves[-1].cell))
        assert cube.prior.colour == before.colours[moves[-1].cell]
        assert apply_move(before, moves[-1]).colours == replay(level, moves)[-1].colours


def test_independent_follows_the_lemmas() -> None:
    level = Level.from_rows(["AAB", "CCB", "DDB"], "square")
    regions = regions_of(level)  # regions: 0 A, 1 B, 2 C, 3 D
    a_to_c, d_to_b = Step((0,), 0, 2), Step((3,), 3, 1)
    assert independent(regions, a_to_c, d_to_b)  # not adjacent
    assert independent(regions, Step((2,), 2, 1), Step((3,), 3, 1))  # adjacent, not painting C
    assert not independent(regions, Step((2,), 2, 1), Step((3,), 3, 2))  # adjacent, painting C: merges


def test_prior_must_be_a_move_of_the_board() -> None:
    level = Level.from_rows(["AB", "CA"], "square")
    regions = regions_of(level)
    with pytest.raises(UsageError, match="not in one region"):
        root_prior(After(frozenset({0, 1}), frozenset({0, 1, 2}), "A"), regions)
    with pytest.raises(UsageError, match="colour"):
        root_prior(After(frozenset({0}), frozenset({0, 1, 2}), "Z"), regions)


def test_solve_refuses_a_prior() -> None:
    level = Level.from_rows(["AB", "CA"], "square")
    opts = SolveOptions(search=SearchOptions(after=After(frozenset({0}), frozenset({0, 1, 2}), "A")))
    with pytest.raises(UsageError, match="internal to cubes"):
        solve(level, options=opts)


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"prior_min": 5, "prior_near": [0], "prior_color": 0}, "prior_min"),
    ({"prior_min": 0, "prior_near": [0], "prior_color": 3}, "prior_color"),
    ({"prior_min": 0, "prior_near": [0, 9], "prior_color": 0}, "prior_near"),
    ({"prior_min": 1, "prior_near": [0], "prior_color": 0}, "must hold prior_min"),
    ({"prior_min": 0, "prior_color": 0}, "required"),
])
def test_the_binding_checks_the_prior(kwargs: dict, message: str) -> None:
    from kamicp.prover.search import compiled_core

    with pytest.raises(ValueError, match=message):
        compiled_core.create([[1], [0, 2], [1]], [0, 1, 0], 2, **kwargs)
