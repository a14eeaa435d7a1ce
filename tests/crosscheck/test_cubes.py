"""Cubes (kamicp.prover.cubes, models/cubes.md): the enumeration against the rules engine, and the proof rule
"horizon h is refuted iff nothing shorter than D moves solves the board and every cube's child needs more
than h - D moves" against the exhaustive oracle, on many random small boards."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from kamicp.board.level import Level
from kamicp.board.regions import regions_of
from kamicp.board.rules import Board, apply_move, replay
from kamicp.errors import UsageError
from kamicp.prover.cubes import cell_colours, check_depth, child_bound, cube_moves, enumerate_cubes
from tests.helpers.boards import grid_levels, levels
from tests.helpers.oracle import bfs_optimum, blobby_levels, region_moves

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def rules_children(level: Level, depth: int) -> tuple[set[tuple[str, ...]], int]:
    """Every board `depth` legal moves make, by the rules engine alone (cells, not regions), and how many
    move sequences lead to them."""
    boards = [Board.start(level)]
    sequences = 1
    for _ in range(depth):
        nxt = []
        for board in boards:
            nxt.extend(apply_move(board, move) for _, move in region_moves(board))
        boards, sequences = nxt, len(nxt)
    return {b.colours for b in boards}, sequences


def refuted_by_cubes(level: Level, depth: int, h: int) -> bool:
    """The cube rule, each child decided by the exhaustive oracle."""
    regions = regions_of(level)
    cubes = enumerate_cubes(regions, depth)
    if Board.start(level).solved or cubes.shorter is not None:
        return False
    children = (level.position(cell_colours(regions, c), level.name) for c in cubes.cubes)
    return all(bfs_optimum(child, limit=h - depth) is None for child in children)


@FAST
@given(levels(max_rows=3, max_cols=4))
def test_cubes_are_the_boards_the_rules_reach(level: Level) -> None:
    regions = regions_of(level)
    for depth in (1, 2):
        cubes = enumerate_cubes(regions, depth, order=False)  # (the canonical subset: test_cube_order.py)
        boards, sequences = rules_children(level, depth)
        assert {cell_colours(regions, c) for c in cubes.cubes} == boards
        assert cubes.sequences == sequences
        assert len({c.key for c in cubes.cubes}) == len(cubes.cubes)
        for cube in cubes.cubes[:20]:  # each cube's moves replay (rules engine) to its child
            assert replay(level, cube_moves(regions, cube))[-1].colours == cell_colours(regions, cube)


@FAST
@given(levels(max_rows=3, max_cols=4))
def test_shorter_solution_is_reported(level: Level) -> None:
    found = bfs_optimum(level, limit=3)
    cubes = enumerate_cubes(regions_of(level), 2)
    assert (cubes.shorter is not None) == (found is not None and found[0] == 1)


@FAST
@given(levels(max_rows=3, max_cols=4, max_colours=3))
def test_cube_rule_agrees_with_the_oracle(level: Level) -> None:
    found = bfs_optimum(level, limit=8)
    assert found is not None
    optimum = found[0]
    for depth in (1, 2):
        for h in (optimum - 1, optimum):
            if h >= depth:
                assert refuted_by_cubes(level, depth, h) == (h < optimum), (depth, h, optimum)


def test_cube_rule_on_blobby_boards_with_longer_optima() -> None:
    """Boards like real levels (regions of several cells), optima 3 to 6: the cases where depth 2 matters."""
    seen = set()
    for i, (level, optimum) in enumerate(blobby_levels(17, 16)):
        seen.add(optimum)
        for depth in (1, 2):
            for h in (optimum - 1, optimum):
                if h >= depth:
                    assert refuted_by_cubes(level, depth, h) == (h < optimum), (i, depth, h, optimum)
    assert max(seen) >= 4  # (the boards are not all trivial)


@FAST
@given(grid_levels(max_rows=3, max_cols=4))
def test_child_bound_is_sound(level: Level) -> None:
    regions = regions_of(level)
    for cube in enumerate_cubes(regions, 1).cubes:
        found = bfs_optimum(level.position(cell_colours(regions, cube), level.name), limit=10)
        assert found is not None and child_bound(regions, cube) <= found[0]
        assert child_bound(regions, cube, pivot=True) <= found[0]  # (the pivot relation, models/pivot-free.md)


def test_child_keeps_vanished_colours_legal() -> None:
    level = Level.from_rows(["AB", "CA"], "square")  # painting B blue-to-A removes B from the board
    regions = regions_of(level)
    cube = next(c for c in enumerate_cubes(regions, 1).cubes if "B" not in cell_colours(regions, c))
    assert set(level.position(cell_colours(regions, cube), level.name).colour_keys) == {"A", "B", "C"}


@pytest.mark.parametrize("depth", [0, 3, -1])
def test_unsupported_depth_is_refused(depth: int) -> None:
    with pytest.raises(UsageError, match="cube depth"):
        check_depth(depth)
