"""Solving Katamino: quick impossibility proofs, then one solution or every solution, by CP-SAT or by
Algorithm X, every solution checked by the rules check (kamicp.katamino.board.check_solution).

Counting up to the board's symmetry group G: one piece is restricted to one placement per G-orbit of its
placements. Every solution orbit still holds a restricted solution (a symmetry maps the piece's placement
onto its orbit's representative and the solution along with it), so the distinct canonical forms of the
restricted solutions are exactly the solution orbits, and the total count is the sum of their orbit sizes
(models/katamino.md, "Counting").
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from enum import StrEnum

from kamicp.errors import UsageError
from kamicp.katamino.board import Grid, Perm, canonical, check_solution, grid_of, impossibility, orbit, symmetries
from kamicp.katamino.dlx import AlgorithmX, SearchTimeout
from kamicp.katamino.puzzle import Placement, Puzzle
from kamicp.limits import time_budget

ENGINES = ("cpsat", "dlx")


class Status(StrEnum):
    SOLVED = "solved"  # a solution is shown (and, when counting, every solution was counted)
    IMPOSSIBLE = "impossible"  # proven: no solution
    UNKNOWN = "unknown"  # the time limit ran out first


@dataclass(frozen=True)
class KataminoResult:
    """What a solve established. `count` (all solutions) and `distinct` (up to the board's symmetries) are
    exact when `complete`, else lower bounds (None when not counting)."""

    puzzle: Puzzle
    status: Status
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
                           "blocked": sorted([r, c] for r, c in p.blocked)},
                "status": self.status.value, "reason": self.reason, "engine": self.engine,
                "seconds": round(self.seconds, 4), "symmetries": self.symmetries, "count": self.count,
                "distinct": self.distinct, "complete": self.complete, "solutions": [list(g) for g in self.solutions]}


def _restricted(puzzle: Puzzle, group: tuple[Perm, ...]) -> tuple[Placement, ...]:
    """The placements with one piece kept to one placement per orbit (the piece whose orbits cut most)."""
    if len(group) == 1:
        return puzzle.placements
    reps: dict[str, set[tuple[int, ...]]] = {}
    for p in puzzle.placements:
        images = [tuple(sorted(g[c] for c in p.cells)) for g in group]
        if p.cells == min(images):
            reps.setdefault(p.letter, set()).add(p.cells)
    total = {letter: sum(p.letter == letter for p in puzzle.placements) for letter in puzzle.pieces}
    piece = max(puzzle.pieces, key=lambda x: (total[x] - len(reps.get(x, ())), x))
    return tuple(p for p in puzzle.placements if p.letter != piece or p.cells in reps.get(piece, set()))


class _Clock:
    def __init__(self, time_limit: float | None) -> None:
        time_limit = time_budget(time_limit)  # infinity: no limit; a limit too long for a timer: clamped
        self.start = time.monotonic()
        self.deadline = None if time_limit is None else self.start + time_limit

    def left(self) -> float | None:
        return None if self.deadline is None else max(self.deadline - time.monotonic(), 0.001)

    def elapsed(self) -> float:
        return time.monotonic() - self.start


def _run(engine: str, puzzle: Puzzle, placements: tuple[Placement, ...], enumerate_all: bool,
         clock: _Clock) -> tuple[list[tuple[int, ...]], bool]:
    """The solutions found (placement indices) and whether the search was complete."""
    if engine == "cpsat":
        from kamicp.katamino.model import KataminoModel  # OR-Tools: only when this engine is asked for

        out = KataminoModel(puzzle.free, puzzle.pieces, placements).solve(
            enumerate_all=enumerate_all, time_limit=clock.left())
        return list(out.solutions), out.complete or (not enumerate_all and out.status == "feasible")
    columns = [*puzzle.free, *puzzle.pieces]
    rows = [(*p.cells, p.letter) for p in placements]
    search = AlgorithmX(columns, rows, deadline=clock.deadline)
    found: list[tuple[int, ...]] = []
    try:
        for sol in search.solutions():
            found.append(tuple(sorted(sol)))
            if not enumerate_all:
                return found, True
    except SearchTimeout:
        return found, False
    return found, True


def solve_katamino(puzzle: Puzzle, *, engine: str = "cpsat", count: bool = False, all_solutions: bool = False,
                   time_limit: float | None = None) -> KataminoResult:
    """One solution (or with `count`/`all_solutions` every one, counted also up to symmetry), or a proof
    that none exists. Every solution returned passes check_solution."""
    if engine not in ENGINES:
        raise UsageError(f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")
    clock = _Clock(time_limit)
    group = symmetries(puzzle)
    enumerate_all = count or all_solutions

    def result(status: Status, sols: tuple[Grid, ...], reason: str, **kw) -> KataminoResult:
        return KataminoResult(puzzle, status, sols, reason, engine, clock.elapsed(), len(group), **kw)

    reason = impossibility(puzzle)
    if reason is not None:
        zero = {"count": 0, "distinct": 0, "complete": True} if enumerate_all else {}
        return result(Status.IMPOSSIBLE, (), reason, **zero)
    placements = _restricted(puzzle, group) if enumerate_all else puzzle.placements
    found, complete = _run(engine, puzzle, placements, enumerate_all, clock)
    grids = [grid_of(puzzle, (placements[i] for i in sol)) for sol in found]
    for g in grids:
        check_solution(puzzle, g)
    by = "exhaustive search (Algorithm X)" if engine == "dlx" else "CP-SAT"
    if not enumerate_all:
        if grids:
            return result(Status.SOLVED, (grids[0],), f"found by {by}")
        if complete:
            return result(Status.IMPOSSIBLE, (), f"no exact cover exists (proven by {by})")
        return result(Status.UNKNOWN, (), "time limit reached")
    classes = {canonical(g, group, puzzle.cols) for g in grids}
    total = sum(len(orbit(c, group, puzzle.cols)) for c in classes)
    listed = tuple(sorted({img for c in classes for img in orbit(c, group, puzzle.cols)})) if all_solutions \
        else tuple(sorted(classes))[:1]
    counts = {"count": total, "distinct": len(classes), "complete": complete}
    if not complete:
        return result(Status.UNKNOWN, listed, f"time limit reached after {total} solutions", **counts)
    if not classes:
        return result(Status.IMPOSSIBLE, (), f"no exact cover exists (proven by {by})", **counts)
    return result(Status.SOLVED, listed, f"all solutions enumerated by {by}", **counts)
