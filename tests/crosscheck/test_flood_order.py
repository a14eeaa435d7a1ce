"""The fixed order of independent moves in the pivot A* (models/bounds.md, "Moves in a fixed order").

The rule is written out again here on region sets (Python ints as bit masks), from its definition in
models/bounds.md, and checked two ways against the exhaustive oracle (tests/helpers/oracle.py, rules engine
only): a breadth-first search over (flood, flood before the last move, last move) that plays only the moves
the rule keeps, each judged by the move before it on the same path, finds the oracle's optimum (the claim
the proof rests on: some optimal plan respects the rule at every step); and the compiled A*, with the order
and without it, proves the oracle's optimum."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kamicp.board.level import Level
from kamicp.board.rules import verify
from kamicp.floodit import pivot_game, solve_pivot
from kamicp.floodit.astar import PivotAStar
from kamicp.floodit.game import PivotGame
from kamicp.prover.search import HAVE_COMPILED
from kamicp.prover.solver import NO_SOLUTION, OPTIMAL
from tests.helpers.boards import flood_square, grid_levels
from tests.helpers.oracle import bfs_pivot_optimum

pytestmark = pytest.mark.skipif(not HAVE_COMPILED, reason="the compiled core is not built")
SETTINGS = dict(deadline=None, derandomize=True)


def _bits(mask: int) -> list[int]:
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


class OrderedSearch:
    """Breadth-first search over the moves the pivot A* tries with the order on, on one game's regions."""

    def __init__(self, game: PivotGame) -> None:
        self.game = game
        self.nbr = [sum(1 << j for j in game.regions.adj[i]) for i in range(game.n)]
        self.colour = list(game.regions.colours)
        self.mask = [sum(1 << i for i in _bits(game.island) if self.colour[i] == c)
                     for c in range(len(game.regions.palette))]
        self.pruned = 0  # moves the order removed (the test needs the rule to fire)

    def around(self, regions: int) -> int:
        out = 0
        for i in _bits(regions):
            out |= self.nbr[i]
        return out

    def tried(self, flood: int, before: int | None, last: int) -> list[tuple[int, int]]:
        """(colour, child) of every move tried from `flood`, reached by `last` from `before` (None: the start)."""
        front = self.around(flood) & ~flood
        out = []
        for c, m in enumerate(self.mask):
            grow = m & front
            if not grow:
                continue
            child = flood | grow
            cfront = self.around(child) & ~child
            if not cfront & ~front and m & ~child:
                continue  # a dead end
            if before is not None and child != self.game.island and self.comes_first(grow, cfront, c, before, last):
                self.pruned += 1
                continue
            out.append((c, child))
        return out

    def comes_first(self, grow: int, cfront: int, c: int, before: int, last: int) -> bool:
        """The rule: every region the move absorbs touches the flood before the last move, and the last
        move would absorb more after it (a region of its colour in the child's frontier) or c > last."""
        if not all(self.nbr[v] & before for v in _bits(grow)):
            return False
        return bool(cfront & self.mask[last]) or c > last

    def optimum(self, limit: int = 40) -> int | None:
        """The fewest moves of a plan whose every move the rule keeps (the last move to the final colour
        counted where another island fixes it), or None within `limit`."""
        game, final = self.game, self.game.final
        start = 1 << game.start
        if start == game.island:
            return 0 if final is None or self.colour[game.start] == final else 1
        layer, seen, best = {(start, None, -1)}, set(), None
        for depth in range(limit):
            if best is not None and best <= depth + 1:
                return best
            nxt = set()
            for flood, before, last in layer:
                for c, child in self.tried(flood, before, last):
                    if child == game.island:
                        cost = depth + 1 + (final is not None and c != final)
                        best = cost if best is None else min(best, cost)
                    elif (child, flood, c) not in seen:
                        seen.add((child, flood, c))
                        nxt.add((child, flood, c))
            layer = nxt
            if not layer:
                return best
        return best


def random_board(rng: random.Random) -> tuple[Level, int]:
    """A random small board (square or triangle, 2-6 colours, sometimes holes) and a random pivot cell."""
    geometry = rng.choice(["square", "triangle"])
    rows, cols = rng.randint(2, 5), rng.randint(2, 5)
    k = rng.randint(2, 6)
    alphabet = "ABCDEF"[:k] + ("." if rng.random() < 0.2 else "")
    cells = [rng.choice(alphabet) for _ in range(rows * cols)]
    cells[0] = rng.choice("ABCDEF"[:k])  # (a board of holes only is no board)
    level = Level.from_rows(["".join(cells[r * cols:(r + 1) * cols]) for r in range(rows)], geometry)
    return level, rng.randrange(level.size)


def check_boards(count: int, seed: int) -> tuple[int, int]:
    """`count` random boards: the ordered search's optimum is the oracle's. Returns (boards where the rule
    fired, moves it removed)."""
    rng = random.Random(seed)
    fired = removed = 0
    for _ in range(count):
        level, pivot = random_board(rng)
        oracle = bfs_pivot_optimum(level, pivot, limit=30)
        game = pivot_game(level, level.labels[pivot])
        if game.blocked:
            assert oracle is None
            continue
        search = OrderedSearch(game)
        ordered = search.optimum()
        assert ordered == (None if oracle is None else oracle[0]), (level.colours, pivot)
        fired += search.pruned > 0
        removed += search.pruned
    return fired, removed


def test_some_optimal_plan_keeps_the_order():
    """600 random boards: the moves the order keeps (each judged by the move before it) reach the optimum,
    and the rule fires on many of them (else the test could not fail)."""
    fired, removed = check_boards(600, seed=35)
    assert fired >= 100 and removed >= 1000


@pytest.mark.slow
def test_some_optimal_plan_keeps_the_order_on_ten_thousand_boards():
    fired, _ = check_boards(10_000, seed=38)
    assert fired >= 2000


def test_the_rule_removes_only_what_its_definition_says():
    """A hand-made case: from A's region the move to B absorbs the B region, which touches only the first C
    region absorbed by the move before: so B is kept after C (it is new), while D, next to the flood from the
    start, is played before C instead (C would absorb the second C region after it)."""
    level = Level.from_rows(["ACB", "DCA", "CAA"], "square")
    game = pivot_game(level)
    search = OrderedSearch(game)
    start = 1 << game.start
    (c_colour, after_c), = [(c, child) for c, child in search.tried(start, None, -1)
                            if game.regions.palette[c] == "C"]
    kept = {game.regions.palette[c] for c, _ in search.tried(after_c, start, c_colour)}
    assert "B" in kept and "D" not in kept


@settings(max_examples=300, **SETTINGS)
@given(grid_levels(max_rows=5, max_cols=5, max_colours=6), st.data())
def test_the_astar_with_and_without_the_order_agrees_with_the_oracle(level, data):
    """Random boards, any pivot, holes: one thread and three (batches), with the order and without it, prove
    the oracle's optimum; every plan replays."""
    pivot = data.draw(st.integers(0, level.size - 1))
    oracle = bfs_pivot_optimum(level, pivot, limit=30)
    game = pivot_game(level, level.labels[pivot])
    if game.blocked:
        assert oracle is None
        return
    for order in (True, False):
        for threads in (1, 3):
            out = PivotAStar(game, threads=threads, order=order).run()
            if oracle is None:
                assert out.status == "no-solution"
                continue
            assert out.status == "optimal" and len(out.plan) == oracle[0], (level.colours, order, threads)
    result = solve_pivot(level, level.labels[pivot], engine="astar")
    if oracle is not None:
        verify(level, result.moves, pivot=pivot)
    else:
        assert result.status == NO_SOLUTION


@pytest.mark.parametrize("seed", range(8))
def test_the_order_keeps_the_optimum_on_larger_boards(seed):
    """12 x 12 boards of 5-6 colours (thousands of sets): the same optimum with the order as without it, on
    one thread and on four (the run repeats node for node)."""
    game = pivot_game(flood_square(12, 5 + seed % 2, 100 + seed))
    plain = PivotAStar(game, threads=1, order=False).run()
    ordered = [PivotAStar(game, threads=t).run() for t in (1, 4, 4)]
    assert plain.status == "optimal" and all(r.status == "optimal" for r in ordered)
    assert {len(r.plan) for r in ordered} == {len(plain.plan)}
    assert ordered[1].expanded == ordered[2].expanded and ordered[1].stored == ordered[2].stored
    level = flood_square(12, 5 + seed % 2, 100 + seed)
    assert solve_pivot(level, engine="astar").status == OPTIMAL
