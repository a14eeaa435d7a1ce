"""The Flood-It A* (kamicp.floodit.astar, kamicp/_core/flood_astar.hpp) and its layered bound against the
exhaustive oracle (tests/helpers/oracle.py, rules engine only) and the pivot IDA*."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.board.level import Level, Move
from kamicp.board.rules import Board, apply_move, verify
from kamicp.floodit import pivot_bound, pivot_game, prove_pivot_under, solve_pivot
from kamicp.floodit.astar import PivotAStar, available, layered_bound
from kamicp.prover.search import HAVE_COMPILED
from kamicp.prover.solver import NO_SOLUTION, OPTIMAL, UNKNOWN
from kamicp.runtime.clock import Deadline
from tests.helpers.boards import flood_square, grid_levels
from tests.helpers.oracle import bfs_pivot_optimum

pytestmark = pytest.mark.skipif(not HAVE_COMPILED, reason="the compiled core is not built")
SETTINGS = dict(deadline=None, derandomize=True)


def positions(level: Level, rng: random.Random, moves: int) -> list[Level]:
    """The level and the positions of `moves` random pivot moves (pivot: cell 0), each as a level whose
    flood is the region of cell 0."""
    board, out = Board.start(level), [level]
    for _ in range(moves):
        choices = [c for c in level.colour_keys if c != board.colours[0]]
        if not choices or board.solved:
            break
        colour = rng.choice(choices)
        board = apply_move(board, Move(0, colour), pivot=0)
        out.append(level.position(board.colours))
    return out


@settings(max_examples=200, **SETTINGS)
@given(grid_levels(max_rows=4, max_cols=5, max_colours=5, holes=False), st.randoms(use_true_random=False))
def test_layered_bound_never_exceeds_the_oracle(level, rng):
    """Admissible in every position random play passes through, and at least the pivot bound there."""
    for position in positions(level, rng, 4):
        game = pivot_game(position)
        oracle = bfs_pivot_optimum(position, 0, limit=20)
        if oracle is None:
            assert game.blocked
            continue
        bound = layered_bound(game, 1 << game.start)
        colour = game.regions.colours[game.start]
        final_move = int(game.final is not None and colour != game.final and (1 << game.start) == game.island)
        assert bound + final_move <= oracle[0], position.colours
        if game.final is None:
            assert bound >= pivot_bound(game, 1 << game.start, colour), position.colours


def layered_reference(game, flooded: int) -> int:
    """The layered bound straight from its definition in models/bounds.md, on Python sets of regions."""
    adj, colours = game.regions.adj, game.regions.colours
    island = {i for i in range(game.n) if game.island >> i & 1}
    walked = {i for i in range(game.n) if flooded >> i & 1}
    bound = 0
    while frontier := {j for i in walked for j in adj[i]} - walked:
        beyond = island - walked - frontier
        done = {colours[i] for i in frontier} - {colours[i] for i in beyond}
        bound += len(done) or 1
        walked |= {i for i in frontier if colours[i] in done} if done else frontier
    return bound


@pytest.mark.parametrize(("size", "colours", "seed"), [(6, 4, 0), (9, 5, 1), (12, 6, 2), (17, 6, 3), (24, 6, 4),
                                                       (40, 6, 5)])
def test_the_compiled_bound_is_the_layered_bound(size, colours, seed):
    """Equal to the definition in every position of a random game, at every bitset width (one word to the
    general width beyond 512 regions)."""
    game = pivot_game(flood_square(size, colours, seed))
    rng = random.Random(seed)
    flooded, colour = 1 << game.start, game.regions.colours[game.start]
    while flooded != game.island:
        assert layered_bound(game, flooded) == layered_reference(game, flooded)
        colour = rng.choice([c for c in range(len(game.regions.palette)) if c != colour])
        flooded = game.absorb(flooded, colour)
    assert layered_bound(game, flooded) == layered_reference(game, flooded) == 0


def dead_end_colours(game) -> list[int]:
    """The moves the A* never tries, from their definition in models/bounds.md ("Moves into a dead end"):
    from the flood (the start region) colour c absorbs D, every neighbour of D is in the flood or touches
    it, and c has regions outside the flood and D."""
    adj, colours = game.regions.adj, game.regions.colours
    flood = {game.start}
    frontier = set(adj[game.start])
    out = []
    for c in sorted({colours[i] for i in frontier}):
        absorbed = {i for i in frontier if colours[i] == c}
        opens = {j for i in absorbed for j in adj[i]} - flood - frontier
        stays = {i for i in range(game.n) if game.island >> i & 1 and colours[i] == c} - flood - absorbed
        if not opens and stays:
            out.append(c)
    return out


def test_a_move_into_a_dead_end_is_on_no_optimal_plan():
    """Every position of random play on small random boards (a third with holes: another island fixes the
    final colour): after a dead-end move the oracle's optimum is not one less than before it, so no optimal
    plan starts with one. The rule fires on these boards (else the test could not fail)."""
    rng = random.Random(27)
    checked = 0
    for board in range(60):
        alphabet = "ABCD." if board % 3 == 0 else "ABCDE"
        rows = ["".join(rng.choice(alphabet) for _ in range(4)) for _ in range(4)]
        rows[0] = rng.choice("ABCD") + rows[0][1:]
        level = Level.from_rows(rows, "square")
        for position in positions(level, rng, 5):
            game = pivot_game(position)
            oracle = bfs_pivot_optimum(position, 0, limit=16)
            if oracle is None:
                continue
            for c in dead_end_colours(game):
                after = apply_move(Board.start(position), Move(0, game.regions.palette[c]), pivot=0)
                then = bfs_pivot_optimum(position.position(after.colours), 0, limit=16)
                assert then is not None and then[0] >= oracle[0], (position.colours, c)
                checked += 1
    assert checked >= 10


@settings(max_examples=200, **SETTINGS)
@given(grid_levels(max_rows=4, max_cols=5, max_colours=5), st.data())
def test_astar_agrees_with_the_oracle(level, data):
    """Random boards, any pivot, holes (islands, a required final colour): the same optimum, replayed."""
    pivot = data.draw(st.integers(0, level.size - 1))
    oracle = bfs_pivot_optimum(level, pivot, limit=20)
    result = solve_pivot(level, level.labels[pivot], engine="astar")
    if oracle is None:
        assert result.status == NO_SOLUTION
        return
    assert result.status == OPTIMAL and len(result.moves) == oracle[0], level.colours
    assert result.lower_bound == result.upper_bound == oracle[0]
    verify(level, result.moves, pivot=pivot)


@pytest.mark.parametrize("seed", range(6))
def test_astar_agrees_with_the_pivot_search_on_larger_boards(seed):
    level = flood_square(7, 4 + seed % 2, seed)
    astar = solve_pivot(level, engine="astar")
    ida = solve_pivot(level, engine="search")
    assert astar.status == ida.status == OPTIMAL
    assert len(astar.moves) == len(ida.moves)
    assert astar.engine == "astar"


@pytest.mark.parametrize("seed", range(4))
def test_auto_uses_the_astar_and_proves_under(seed):
    level = flood_square(8, 5, seed)
    best = solve_pivot(level)
    assert best.engine == "astar" and best.status == OPTIMAL
    n = len(best.moves)
    assert prove_pivot_under(level, n).status == NO_SOLUTION  # nothing shorter
    found = prove_pivot_under(level, n + 1)
    assert found.status == OPTIMAL and len(found.moves) == n


def test_a_limit_below_the_optimum_is_a_proof():
    level = flood_square(8, 5, 11)
    optimum = len(solve_pivot(level).moves)
    below = solve_pivot(level, max_steps=optimum - 1)
    assert below.status == NO_SOLUTION and below.lower_bound == optimum and not below.moves


def test_the_cap_gives_unknown_with_a_sound_lower_bound():
    level = flood_square(12, 6, 3)
    optimum = len(solve_pivot(level).moves)
    game = pivot_game(level)
    run = PivotAStar(game, memory_mb=0).run()  # a cap of one stored set
    assert run.status == "capped" and run.lower <= optimum and run.stored == 1


def test_a_time_limit_gives_unknown_with_honest_bounds():
    level = flood_square(26, 8, 1)  # far beyond a tenth of a second
    result = solve_pivot(level, time_limit=0.1)
    assert result.status == UNKNOWN and result.engine == "astar"
    assert result.lower_bound >= layered_bound(pivot_game(level), 1 << pivot_game(level).start)
    if result.moves:
        verify(level, result.moves, pivot=0)
        assert result.upper_bound == len(result.moves) >= result.lower_bound


def test_available_and_a_single_region():
    level = Level.from_rows(["AA", "AA"], "square")
    assert available(pivot_game(level))
    result = solve_pivot(level, engine="astar")
    assert result.status == OPTIMAL and result.moves == ()


def test_optima_beyond_the_byte_range_stop_honestly():
    """Moves, bounds and f live in bytes in the compiled A*: a strip of 300 alternating cells (optimum 299)
    gives `unknown` with a true lower bound, never a false proof."""
    level = Level.from_rows(["AB" * 150], "square")
    result = solve_pivot(level, engine="astar")
    assert result.status == UNKNOWN and result.lower_bound <= 299
    short = Level.from_rows(["ABC" * 20], "square")  # the same with optimum 59, below the range
    assert len(solve_pivot(short, engine="astar").moves) == len(solve_pivot(short, engine="search").moves)


@settings(max_examples=100, **SETTINGS)
@given(grid_levels(max_rows=4, max_cols=5, max_colours=5), st.data())
def test_threads_agree_with_one_thread_and_the_oracle(level, data):
    """Batches expanded by several threads (more than the machine's CPUs: the threads interleave) prove the
    same optimum as one thread and the oracle, on random boards with any pivot."""
    pivot = data.draw(st.integers(0, level.size - 1))
    oracle = bfs_pivot_optimum(level, pivot, limit=20)
    one = solve_pivot(level, level.labels[pivot], engine="astar", workers=1)
    many = solve_pivot(level, level.labels[pivot], engine="astar", workers=3)
    if oracle is None:
        assert one.status == many.status == NO_SOLUTION
        return
    assert one.status == many.status == OPTIMAL
    assert len(one.moves) == len(many.moves) == oracle[0], level.colours
    verify(level, many.moves, pivot=pivot)


@pytest.mark.parametrize("seed", range(3))
def test_threads_on_larger_boards_agree_and_repeat_exactly(seed):
    """On boards whose batches are full (hundreds of sets of one f), two and four threads prove the optimum
    one thread proves; the commit order is the batch's, so a run repeats node for node whatever the timing."""
    game = pivot_game(flood_square(12, 6, seed))
    one = PivotAStar(game, threads=1).run()
    runs = [PivotAStar(game, threads=t).run() for t in (2, 2, 4)]
    assert one.status == "optimal" and all(r.status == "optimal" for r in runs)
    assert {len(r.plan) for r in runs} == {len(one.plan)}
    assert runs[0].expanded == runs[1].expanded and runs[0].stored == runs[1].stored
    assert runs[0].expanded > 1000  # many batches, not one


def _threads_now() -> int:
    with open("/proc/self/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("Threads:"))


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="counts threads through /proc")
def test_no_thread_outlives_a_slice():
    """The A*'s threads end before each slice returns to Python (none is left to meet a fork or an exit),
    also when the search stops on its time limit."""
    before = _threads_now()
    game = pivot_game(flood_square(26, 8, 1))
    search = PivotAStar(game, threads=4)
    assert search.run(deadline=Deadline.slice(0.3)).status == "timeout"
    assert _threads_now() == before
    assert PivotAStar(pivot_game(flood_square(8, 5, 2)), threads=4).run().status == "optimal"
    assert _threads_now() == before


def test_threads_outside_the_cores_range_are_refused():
    game = pivot_game(flood_square(6, 4, 0))
    with pytest.raises(ValueError, match="lanes"):
        PivotAStar(game, threads=0)
