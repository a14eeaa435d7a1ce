"""Cubes: a horizon split by its first moves into independent sub-problems (models/cubes.md).

A cube of depth D is a sequence of D legal moves from the start position (a move taps a region of the
current board and gives it a colour of the level other than its own). Its child is the board those
moves leave. "No solution of at most h moves" holds iff no solution of fewer than D moves exists and
no cube's child is solvable in at most h - D moves. Children equal as boards are one cube (the answer
depends on the board only). The child boards are computed here on the region graph (kamicp.board.regions),
never with the rules engine, which stays the independent judge of every solution.

With `order` (the default), only canonical cubes are enumerated and each child is searched "canonical
after the cube's last move" (kamicp/prover/prior.py): the commuting-move order of models/strengthening.md §2
across the cube boundary (models/cubes.md, reduction 4).
"""

from __future__ import annotations

from dataclasses import dataclass

from kamicp.board.level import Move
from kamicp.board.regions import Quotient, Regions, quotient, recolour
from kamicp.errors import UsageError
from kamicp.prover.bounds import bound_report, lower_bound
from kamicp.prover.outcome import Plan, to_moves
from kamicp.prover.pivot_bound import pivot_term
from kamicp.prover.prior import After, after_move

DEPTHS = (1, 2)  # cube depths supported (the number of children grows as (regions x colours)^D)


@dataclass(frozen=True)
class Cube:
    """One cube: its moves (initial region index, colour index per move) and the child board they leave
    (a colour index per initial region). `key` names it stably: the taps and colour keys of its moves.
    `prior`: the child is to be searched canonical after this move (always the plan's last move), or
    None (every solution of the child)."""

    plan: tuple[tuple[int, int], ...]
    state: tuple[int, ...]
    key: str
    prior: After | None = None

    @property
    def depth(self) -> int:
        return len(self.plan)


@dataclass(frozen=True)
class CubeSet:
    """The distinct cubes of one depth, how many move sequences they stand for (`sequences`), and a
    solution shorter than the depth met on the way (`shorter`, a plan), if any: then the cubes alone
    do not cover every solution and the caller must use it."""

    depth: int
    cubes: tuple[Cube, ...]
    sequences: int
    shorter: tuple[tuple[int, int], ...] | None


def check_depth(depth: int) -> None:
    if depth not in DEPTHS:
        raise UsageError(f"cube depth must be one of {', '.join(map(str, DEPTHS))}, got {depth!r}")


@dataclass(frozen=True)
class Step:
    """A move on a board: the tapped region's initial regions (`clicked`, smallest first is `rep`), its
    old colour and the new one."""

    clicked: tuple[int, ...]
    old: int
    colour: int

    @property
    def rep(self) -> int:
        return self.clicked[0]


def _children(q: Quotient, state: tuple[int, ...], num_colours: int) -> list[tuple[Step, tuple[int, ...]]]:
    """Every legal move on the board `state` (whose contraction is `q`) with the board it leaves."""
    return [(Step(tuple(sorted(q.members[k])), q.colours[k], c), recolour(state, q.members[k], c))
            for k in range(q.size) for c in range(num_colours) if c != q.colours[k]]


def independent(regions: Regions, first: Step, second: Step) -> bool:
    """Consecutive moves that commute by the lemmas of models/strengthening.md §2: disjoint clicked sets,
    the second not adjacent to the first or not painting the first's old colour."""
    s1, s2 = set(first.clicked), set(second.clicked)
    if s1 & s2:
        return False
    near = s1.union(*(regions.adj[k] for k in first.clicked))
    return not (s2 & near) or second.colour != first.old


def _solved(state: tuple[int, ...]) -> bool:
    return len(set(state)) <= 1


def cube_key(regions: Regions, plan: Plan | tuple[tuple[int, int], ...]) -> str:
    """A cube's stable name: 'cell=colour' per move, cells as indices of the level, joined by '/'."""
    return "/".join(f"{m.cell}={m.colour}" for m in to_moves(regions, list(plan)))


def enumerate_cubes(regions: Regions, depth: int, order: bool = True) -> CubeSet:
    """The distinct children of every legal sequence of `depth` moves from the start, in a fixed order
    (the first sequence reaching a board names its cube). With `order`: only canonical sequences (no
    independent consecutive pair with the second's smallest region first), each cube with its last move
    as the prior, or none when canonical sequences with different last moves reach its board."""
    check_depth(depth)
    num_colours = len(regions.palette)
    layer: list[tuple[tuple[Step, ...], tuple[int, ...], bool]] = [((), regions.colours, False)]
    shorter = None
    sequences = 1
    for d in range(1, depth + 1):
        nxt: dict[tuple[int, ...], tuple[tuple[Step, ...], bool]] = {}
        sequences = 0
        for steps, state, _ in layer:
            for step, child in _children(quotient(regions.adj, state), state, num_colours):
                if order and steps and step.rep < steps[-1].rep and independent(regions, steps[-1], step):
                    continue  # not canonical (§2): the swapped sequence is enumerated instead
                sequences += 1
                seen = nxt.get(child)
                if seen is None:
                    nxt[child] = ((*steps, step), order)
                elif seen[1] and (seen[0][-1].clicked, seen[0][-1].old) != (step.clicked, step.old):
                    nxt[child] = (seen[0], False)  # two last moves: no prior (the unrestricted child)
                if d < depth and shorter is None and _solved(child):
                    shorter = tuple((s.rep, s.colour) for s in (*steps, step))
        layer = [(steps, state, prior) for state, (steps, prior) in nxt.items()]
    cubes = tuple(_cube(regions, steps, state, prior) for steps, state, prior in layer)
    return CubeSet(depth, cubes, sequences, shorter)


def _cube(regions: Regions, steps: tuple[Step, ...], state: tuple[int, ...], prior: bool) -> Cube:
    plan = tuple((s.rep, s.colour) for s in steps)
    last = steps[-1]
    return Cube(plan, state, cube_key(regions, plan), after_move(regions, last.clicked, last.old) if prior else None)


CHILD_PIVOT_REGIONS = 4  # far regions per island of a child for the pivot relation (the root tries more)


def child_bound(regions: Regions, cube: Cube, pivot: bool = False, moves_left: int | None = None) -> int:
    """A sound lower bound (models/bounds.md) on the moves the cube's child needs. With `pivot`, the pivot
    relation (models/pivot-free.md, the compiled pivot A* from a few far regions) joins it where it can
    matter: when the bound without it does not already exceed `moves_left` (None: always)."""
    q = quotient(regions.adj, cube.state)
    k = len(regions.palette)
    plain = lower_bound(q.adj, q.colours, k)
    if not pivot or (moves_left is not None and plain > moves_left):
        return plain
    # (farthest-point picks, not every region's eccentricity: a child costs a few searches, not one per region)
    return bound_report(q.adj, q.colours, k, pivot=pivot_term(q.adj, q.colours, k, CHILD_PIVOT_REGIONS,
                                                             exact=False)).value


def cell_colours(regions: Regions, cube: Cube) -> tuple[str, ...]:
    """The colour key of every cell of the level after the cube's moves."""
    colours = [""] * sum(len(cells) for cells in regions.cells)
    for k, cells in enumerate(regions.cells):
        for cell in cells:
            colours[cell] = regions.palette[cube.state[k]]
    return tuple(colours)


def cube_moves(regions: Regions, cube: Cube) -> tuple[Move, ...]:
    """The cube's moves on the level's cells and colour keys (to prefix a child's solution with)."""
    return to_moves(regions, list(cube.plan))
