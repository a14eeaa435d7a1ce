"""Solving Katamino: quick impossibility proofs, then one solution or every solution, by the compiled
bitboard search ('fast'), CP-SAT or Algorithm X, every solution checked by the rules check
(kamicp.katamino.board.check_solution).

Counting up to the board's symmetry group G: one piece is restricted to one placement per G-orbit of its
placements. Every solution orbit still holds a restricted solution (a symmetry maps the piece's placement
onto its orbit's representative and the solution along with it), so the distinct canonical forms of the
restricted solutions are exactly the solution orbits, and the total count is the sum of their orbit sizes
(models/katamino.md, "Counting"). The fast engine counts without listing when the set holds an asymmetric
piece (models/katamino.md, "Counting fast").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from kamicp.errors import UsageError
from kamicp.katamino.bitboard import BitSearch, available
from kamicp.katamino.board import Grid, Perm, canonical, check_solution, grid_of, impossibility, orbit, symmetries
from kamicp.katamino.dlx import AlgorithmX, SearchTimeout
from kamicp.katamino.puzzle import Placement, Puzzle
from kamicp.runtime.clock import Deadline
from kamicp.runtime.interrupt import attach

KATAMINO_ENGINES = ("fast", "cpsat", "dlx")
AUTO = "auto"  # the fast engine when the compiled core is built, else CP-SAT
ASYMMETRIC = "LYNPF"  # the pieces with no symmetry of their own, in the order tried for symmetry breaking


class KataminoStatus(StrEnum):
    """How a Katamino solve ended (a packing has no optimum: not the flood puzzles' `outcome.Status`)."""

    SOLVED = "solved"  # a solution is shown (and, when counting, every solution was counted)
    IMPOSSIBLE = "impossible"  # proven: no solution
    UNKNOWN = "unknown"  # the time limit ran out first


@dataclass(frozen=True)
class KataminoResult:
    """What a solve established. `count` (all solutions) and `distinct` (up to the board's symmetries) are
    exact when `complete`, else lower bounds (None when not counting)."""

    puzzle: Puzzle
    status: KataminoStatus
    solutions: tuple[Grid, ...]
    reason: str
    engine: str
    seconds: float
    symmetries: int
    count: int | None = None
    distinct: int | None = None
    complete: bool = False

    def to_dict(self) -> dict:
        p = self.puzzle
        return {"puzzle": {"name": p.name, "rows": p.rows, "cols": p.cols, "pieces": p.pieces,
                           "blocked": sorted([r, c] for r, c in p.blocked), "rule": p.rule.value},
                "status": self.status.value, "reason": self.reason, "engine": self.engine,
                "seconds": round(self.seconds, 4), "symmetries": self.symmetries, "count": self.count,
                "distinct": self.distinct, "complete": self.complete, "solutions": [list(g) for g in self.solutions]}


def _orbit_reps(puzzle: Puzzle, group: tuple[Perm, ...], piece: str) -> set[tuple[int, ...]]:
    """The piece's placements that are the smallest (sorted cell tuple) of their orbit under the group."""
    reps = set()
    for p in puzzle.placements:
        if p.letter == piece and p.cells == min(tuple(sorted(g[c] for c in p.cells)) for g in group):
            reps.add(p.cells)
    return reps


def _keep_reps(puzzle: Puzzle, piece: str, reps: set[tuple[int, ...]]) -> tuple[Placement, ...]:
    return tuple(p for p in puzzle.placements if p.letter != piece or p.cells in reps)


def _restricted(puzzle: Puzzle, group: tuple[Perm, ...]) -> tuple[Placement, ...]:
    """The placements with one piece kept to one placement per orbit (the piece whose orbits cut most)."""
    if len(group) == 1:
        return puzzle.placements
    reps = {letter: _orbit_reps(puzzle, group, letter) for letter in puzzle.pieces}
    total = {letter: sum(p.letter == letter for p in puzzle.placements) for letter in puzzle.pieces}
    piece = max(puzzle.pieces, key=lambda x: (total[x] - len(reps[x]), x))
    return _keep_reps(puzzle, piece, reps[piece])


def usable_engines() -> tuple[str, ...]:
    """The engines this installation runs: 'fast' only when the compiled core is built."""
    return tuple(e for e in KATAMINO_ENGINES if e != "fast" or available())


def asymmetric_piece(puzzle: Puzzle) -> str | None:
    """A piece of the puzzle with no symmetry of its own (F, L, N, P, Y), or None."""
    return next((letter for letter in ASYMMETRIC if letter in puzzle.pieces), None)


def _bit_search(puzzle: Puzzle, placements: tuple[Placement, ...]) -> BitSearch:
    """The compiled search, stopped by Ctrl-C like the others (kamicp.runtime.interrupt.stop_everything)."""
    search = BitSearch(puzzle, placements)
    attach(search)
    return search


def _run(engine: str, puzzle: Puzzle, placements: tuple[Placement, ...], enumerate_all: bool,
         clock: Deadline) -> tuple[list[tuple[int, ...]], bool]:
    """The solutions found (placement indices) and whether the search was complete."""
    if engine == "cpsat":
        from kamicp.katamino.model import KataminoModel  # OR-Tools: only when this engine is asked for

        out = KataminoModel(puzzle.free, puzzle.pieces, placements).solve(
            enumerate_all=enumerate_all, time_limit=clock.limit(0.001))
        return list(out.solutions), out.complete or (not enumerate_all and out.status == "feasible")
    if engine == "fast":
        out = _bit_search(puzzle, placements).run(limit=None if enumerate_all else 1,
                                                  keep=None if enumerate_all else 1, seconds=clock.limit(0.001))
        return list(out.solutions), out.end != "timeout"
    columns = [*puzzle.free, *puzzle.pieces]
    rows = [(*p.cells, p.letter) for p in placements]
    search = AlgorithmX(columns, rows, deadline=clock)
    found: list[tuple[int, ...]] = []
    try:
        for sol in search.solutions():
            found.append(tuple(sorted(sol)))
            if not enumerate_all:
                return found, True
    except SearchTimeout:
        return found, False
    return found, True


def solve_katamino(puzzle: Puzzle, *, engine: str = AUTO, count: bool = False, all_solutions: bool = False,
                   time_limit: float | None = None, deadline: Deadline | None = None) -> KataminoResult:
    """One solution (or with `count`/`all_solutions` every one, counted also up to symmetry), or a proof
    that none exists, by the `deadline` (None: one made now from `time_limit`). Every solution returned
    passes check_solution."""
    if engine == AUTO:
        engine = "fast" if available() else "cpsat"
    if engine not in KATAMINO_ENGINES:
        raise UsageError(f"unknown engine {engine!r} (expected one of {', '.join(KATAMINO_ENGINES)})")
    clock = Deadline.after(time_limit) if deadline is None else deadline
    group = symmetries(puzzle)
    enumerate_all = count or all_solutions

    def result(status: KataminoStatus, sols: tuple[Grid, ...], reason: str, **kw) -> KataminoResult:
        return KataminoResult(puzzle, status, sols, reason, engine, clock.elapsed(), len(group), **kw)

    reason = impossibility(puzzle)
    if reason is not None:
        zero = {"count": 0, "distinct": 0, "complete": True} if enumerate_all else {}
        return result(KataminoStatus.IMPOSSIBLE, (), reason, **zero)
    by = {"dlx": "exhaustive search (Algorithm X)", "cpsat": "CP-SAT", "fast": "exhaustive bitboard search"}[engine]
    if engine == "fast" and count and not all_solutions and asymmetric_piece(puzzle) is not None:
        return _count_fast(puzzle, group, clock, result, by)
    placements = _restricted(puzzle, group) if enumerate_all else puzzle.placements
    # listing: the search gets a share of the time, checking what it found the next (each solution costs the
    # checks several times what the search spent on it), and with --all printing them the rest (the caller)
    search, checks = (clock.share(0.3), clock.share(0.6 if all_solutions else 1.0)) if enumerate_all else (clock,) * 2
    found, complete = _run(engine, puzzle, placements, enumerate_all, search)
    grids = []
    for sol in found:
        if enumerate_all and checks.expired():  # (checking and classing thousands of solutions took 4x the search)
            complete = False  # (the counts stay lower bounds: of the solutions checked)
            break
        grids.append(grid_of(puzzle, (placements[i] for i in sol)))
        check_solution(puzzle, grids[-1])
    if not enumerate_all:
        if grids:
            return result(KataminoStatus.SOLVED, (grids[0],), f"found by {by}")
        if complete:
            return result(KataminoStatus.IMPOSSIBLE, (), f"no exact cover exists (proven by {by})")
        return result(KataminoStatus.UNKNOWN, (), "time limit reached")
    classes = {canonical(g, group, puzzle.cols) for g in grids}
    total = sum(len(orbit(c, group, puzzle.cols)) for c in classes)
    listed = tuple(sorted({img for c in classes for img in orbit(c, group, puzzle.cols)})) if all_solutions \
        else tuple(sorted(classes))[:1]
    return _counted(result, listed, total, len(classes), complete, by)


MakeResult = Callable[..., "KataminoResult"]


def _counted(result: MakeResult, listed: tuple[Grid, ...], total: int, distinct: int, complete: bool,
             by: str) -> KataminoResult:
    counts = {"count": total, "distinct": distinct, "complete": complete}
    if not complete:
        return result(KataminoStatus.UNKNOWN, listed, f"time limit reached after {total} solutions", **counts)
    if not distinct:
        return result(KataminoStatus.IMPOSSIBLE, (), f"no exact cover exists (proven by {by})", **counts)
    return result(KataminoStatus.SOLVED, listed, f"all solutions enumerated by {by}", **counts)


def _count_fast(puzzle: Puzzle, group: tuple[Perm, ...], clock: Deadline, result: MakeResult, by: str
                ) -> KataminoResult:
    """Count with an asymmetric piece kept to one placement per orbit: every solution orbit then holds
    exactly one restricted solution and has |G| members (models/katamino.md, "Counting fast"), so the
    search only counts; the first solution found is shown."""
    piece = asymmetric_piece(puzzle)
    assert piece is not None
    placements = _keep_reps(puzzle, piece, _orbit_reps(puzzle, group, piece))
    out = _bit_search(puzzle, placements).run(keep=1, seconds=clock.limit(0.001))
    grids = tuple(grid_of(puzzle, (placements[i] for i in sol)) for sol in out.solutions)
    for g in grids:
        check_solution(puzzle, g)
    return _counted(result, grids, len(group) * out.count, out.count, out.end == "complete", by)
