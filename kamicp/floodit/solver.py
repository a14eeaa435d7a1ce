"""Solving Flood-It with a fixed pivot, with proofs. Engine `astar` (and `auto` where the compiled core is
built): the compiled A* with the layered bound (kamicp.floodit.astar), which proves its answer in one run.
Engines `search` and `cpsat` (and `auto` without the compiled core): the pivot bound, a greedy upper bound,
then every horizon from the bound up to the greedy length minus one refuted (or solved) by the pivot
IDA* or the pivot CP-SAT model. Returns kamicp.solver.Result; every solution is replayed by the rules
engine with the pivot rule (kamicp.rules.verify(..., pivot=cell)) first.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from kamicp.errors import UsageError
from kamicp.floodit import astar
from kamicp.floodit.bound import pivot_bound
from kamicp.floodit.game import PivotGame, pivot_game
from kamicp.floodit.search import PivotSearch
from kamicp.level import Label, Level, Move
from kamicp.limits import time_budget
from kamicp.rules import verify
from kamicp.solver import NO_SOLUTION, OPTIMAL, UNKNOWN, Horizon, Result

PIVOT_ENGINES = ("search", "cpsat", "astar", "auto")
SEARCH_FIRST = 1.0  # auto: seconds the search gets per horizon before CP-SAT takes it over (measured)
MODEL_SIZE_MAX = 20_000  # regions x steps: larger horizons stay with the search (the model takes seconds to build)


def greedy_plan(game: PivotGame, deadline: float | None = None) -> list[int] | None:
    """Each move the colour that floods the most regions (ties: the smaller colour), then the final colour.
    None once the deadline has passed (on boards of tens of thousands of regions it takes minutes)."""
    flooded, color = 1 << game.start, game.regions.colors[game.start]
    plan: list[int] = []
    colours = sorted(set(game.regions.colors))
    while flooded != game.island:
        if deadline is not None and time.monotonic() >= deadline:
            return None
        best = max((c for c in colours if c != color), key=lambda c: (game.absorb(flooded, c).bit_count(), -c))
        flooded, color = game.absorb(flooded, best), best
        plan.append(best)
    if game.final is not None and color != game.final:
        plan.append(game.final)
    return plan


def _horizon(game: PivotGame, steps: int, engine: str, search: PivotSearch | None, deadline: float | None,
             workers: int | None, seed: int, proof: list[Horizon]) -> tuple[str, list[int] | None]:
    """One horizon by the search (auto: for SEARCH_FIRST s), then by CP-SAT; the answer's row goes in `proof`."""
    t0 = time.monotonic()
    outcome, plan = "unknown", None
    search_only = engine == "search" or (search is not None and game.n * steps > MODEL_SIZE_MAX)
    if search is not None:
        stop = deadline if search_only else min(deadline or float("inf"), t0 + SEARCH_FIRST)
        outcome, plan = search.horizon(steps, stop)
        by = "search"
    past = deadline is not None and time.monotonic() >= deadline
    if outcome == "unknown" and not search_only and not past:
        from kamicp.floodit.model import PivotModel  # OR-Tools: only once a horizon needs CP-SAT

        left = None if deadline is None else max(deadline - time.monotonic(), 0.01)
        outcome, plan = PivotModel(game, steps).solve(time_limit=left, workers=workers, seed=seed)
        by = "cpsat"
    proof.append(Horizon(steps, outcome, time.monotonic() - t0, by))
    return outcome, plan


def _by_astar(game: PivotGame, name: str, max_steps: int | None, deadline: float | None, memory_mb: int,
              progress: Callable[[str], None] | None,
              proof: list[Horizon]) -> tuple[str, list[int] | None, int]:
    """(status, plan, proven lower bound) by the compiled A*; its rows go in `proof`."""
    def report(info: dict) -> None:
        if progress:
            progress(f"{name}: A*, at least {info['lower']} moves, {info['stored']:,} flood sets stored")

    run = astar.PivotAStar(game, memory_mb=memory_mb, limit=max_steps).run(deadline, report)
    plan = None if run.plan is None else list(run.plan)
    root = run.root_bound
    if root > 0:
        proof.append(Horizon(root - 1, "bound", 0.0, "bound"))
    if run.status == "optimal" and plan is not None:
        if len(plan) - 1 >= root:
            proof.append(Horizon(len(plan) - 1, "infeasible", run.seconds, "astar"))
        proof.append(Horizon(len(plan), "feasible", run.seconds, "astar"))
        return OPTIMAL, plan, len(plan)
    if run.status == "no-solution":
        if run.lower - 1 >= root:
            proof.append(Horizon(run.lower - 1, "infeasible", run.seconds, "astar"))
        return NO_SOLUTION, None, run.lower
    lower = run.lower if plan is None else min(run.lower, len(plan))
    proof.append(Horizon(lower, "unknown", run.seconds, "astar"))
    return UNKNOWN, plan, lower


def solve_pivot(level: Level, pivot: Label | None = None, *, engine: str = "auto", max_steps: int | None = None,
                time_limit: float | None = None, workers: int | None = None, seed: int = 0,
                progress: Callable[[str], None] | None = None, memory_mb: int = astar.MEMORY_MB) -> Result:
    """A shortest Flood-It solution (every move taps the pivot's region; default pivot: the top-left
    cell), proven shortest; `no-solution` when none has at most `max_steps` moves (or none exists).
    `seed` is CP-SAT's random seed (the only random choice: the greedy and the search break ties by colour);
    it may change which optimal solution is found, never the optimum. `memory_mb`: the A*'s budget for its
    stored flood sets (beyond it: `unknown` with the bound it proved)."""
    if engine not in PIVOT_ENGINES:
        raise UsageError(f"unknown engine {engine!r} (expected one of {', '.join(PIVOT_ENGINES)})")
    if max_steps is not None and max_steps < 0:
        raise UsageError(f"max-steps must be a non-negative integer, got {max_steps!r}")
    time_limit = time_budget(time_limit)  # infinity: no limit; a limit too long for a timer: clamped
    start = time.monotonic()
    deadline = None if time_limit is None else start + time_limit
    game = pivot_game(level, pivot)
    name = engine
    proof: list[Horizon] = []

    def result(status: str, plan: list[int] | None, lower: int) -> Result:
        moves = tuple(Move(game.pivot_cell, game.regions.palette[c]) for c in plan or [])
        if plan is not None:
            verify(level, moves, pivot=game.pivot_cell)
        return Result(level=level.name, status=status, moves=moves, lower_bound=lower,
                      upper_bound=None if plan is None else len(plan), max_steps=max_steps, proof=tuple(proof),
                      engine=name, seconds=time.monotonic() - start, regions=game.n,
                      colors=game.regions.num_colors)

    if game.blocked:
        proof.append(Horizon(max_steps or 0, "bound", 0.0, "unreachable"))
        return result(NO_SOLUTION, None, 0)
    if engine == "astar" and not game.blocked and not astar.available(game):
        raise UsageError("engine astar needs the compiled core (pip install -e . builds it), at most "
                         f"{astar.MAX_COLOURS} colours and {astar.MAX_REGIONS:,} regions")
    if engine == "astar" or (engine == "auto" and astar.available(game)):
        name = "astar"
        status, plan, lower = _by_astar(game, level.name or "level", max_steps, deadline, memory_mb, progress, proof)
        if status == UNKNOWN and plan is None:
            plan = greedy_plan(game, deadline)  # a solution to show with the bounds, if time is left
        if status == OPTIMAL and plan is not None and max_steps is not None and len(plan) > max_steps:
            return result(NO_SOLUTION, plan, len(plan))  # (only the one move to the final colour)
        return result(status, plan, lower)
    lower = pivot_bound(game, 1 << game.start, game.regions.colors[game.start])
    best = greedy_plan(game, deadline)  # None only when the deadline passed
    if lower > 0:
        proof.append(Horizon(lower - 1, "bound", 0.0, "bound"))
    search = PivotSearch(game) if engine != "cpsat" else None
    top = len(best) - 1 if best is not None else game.n * game.regions.num_colors  # (a plan is never longer)
    top = top if max_steps is None else min(top, max_steps)
    for steps in range(lower, top + 1):
        if progress:
            progress(f"{level.name or 'level'}: {steps} moves")
        if deadline is not None and time.monotonic() >= deadline:
            return result(UNKNOWN, best, steps)
        outcome, plan = _horizon(game, steps, engine, search, deadline, workers, seed, proof)
        if outcome == "feasible":
            return result(OPTIMAL, plan, len(plan or []))
        if outcome == "unknown":
            return result(UNKNOWN, best, steps)
    if best is None or (max_steps is not None and len(best) > max_steps):
        return result(NO_SOLUTION, best, max(lower, (max_steps or 0) + 1))
    proof.append(Horizon(len(best), "feasible", 0.0, "greedy"))
    return result(OPTIMAL, best, len(best))


def prove_pivot_under(level: Level, under: int, pivot: Label | None = None, **kwargs) -> Result:
    """Prove no pivot solution has fewer than `under` moves (status no-solution), or show one that has."""
    if under < 1:
        raise UsageError(f"--under must be at least 1, got {under}")
    return solve_pivot(level, pivot, max_steps=under - 1, **kwargs)
