"""The solving API: `solve`, `validate` and `prove_under`, over the horizon loop and the `auto` race.

Layers, top to bottom (docs/architecture.md): this module checks the parameters and picks the engine;
`race` races the engines in processes; `horizons` runs one engine's horizon loop; `engines` answer
one horizon (`model` for CP-SAT, `search` for IDA*); `bounds` and `upper` give the lower and upper
bounds. Nothing below imports anything above it.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from kamicp.board.level import Level
from kamicp.errors import UsageError
from kamicp.prover.config import TECHNIQUES, ModelOptions, SolveOptions, as_solve_options, options_without
from kamicp.prover.horizons import run_horizons
from kamicp.prover.outcome import (
    KAMI_ENGINES,
    EngineName,
    Horizon,
    Outcome,
    Result,
    Status,
    Validation,
    Verdict,
    move_dict,
)
from kamicp.prover.prior import After
from kamicp.prover.race import solve_auto
from kamicp.prover.request import SEED_RANGE, Budget, Progress, Request, Rules, check_budget
from kamicp.runtime.interrupt import stop_everything

OPTIMAL, NO_SOLUTION, UNKNOWN = Status.OPTIMAL, Status.NO_SOLUTION, Status.UNKNOWN

__all__ = [
    "KAMI_ENGINES", "NO_SOLUTION", "OPTIMAL", "SEED_RANGE", "TECHNIQUES", "UNKNOWN", "EngineName", "Horizon",
    "ModelOptions", "Outcome", "Request", "Result", "SolveOptions", "Status", "Validation", "Verdict", "move_dict",
    "options_without", "interrupt_solves", "prove_under", "solve", "validate",
]


def solve(
    level: Level,
    *,
    max_steps: int | None = None,
    time_limit: float | None = None,
    workers: int | None = None,
    engine: str = "cpsat",
    seed: int = 0,
    options: SolveOptions | ModelOptions | None = None,
    progress: Progress | None = None,
    rules: Rules | None = None,
    budget: Budget | None = None,
) -> Result:
    """Find a shortest solution of `level` with at most `max_steps` moves, and prove it shortest.
    `options`: the whole configuration, or only the model's constraints. `budget`: max_steps, time_limit,
    workers, seed, engine and progress in one (it replaces those keywords). `rules`: Kami's (`Free`, the
    default) or another puzzle's, which brings its own engines (Flood-It: `kamicp.floodit.Pivot(cell)`).
    The library's keyword face: it builds the `Request` once (its clock starts here) and asks its rules."""
    if budget is None:
        budget = Budget.start(time_limit, max_steps=max_steps, workers=workers, seed=seed, engine=engine,
                              progress=progress)
    return request_of(level, rules, options, budget).solve()


def request_of(level: Level, rules: Rules | None, options: SolveOptions | ModelOptions | None,
               budget: Budget) -> Request:
    """The request of the keyword faces: `rules` (None: Kami's, with `options`)."""
    if rules is None or (options is not None and isinstance(rules, Free)):
        rules = Free(options)
    return Request(level, rules, budget)


def solve_after(request: Request, after: After) -> Result:
    """Internal to cubes (kamicp.prover.distributed): the Kami `request` solved with the compiled search's root
    taken to follow the move `after` (kamicp/prover/prior.py). Its NO_SOLUTION means only "no solution
    canonical after that move within max_steps", never that the level has none: it must not be reported as
    the level's answer."""
    opts = as_solve_options(getattr(request.rules, "options", None))
    return _solve(request, replace(opts, search=replace(opts.search, after=after)))


def _solve(request: Request, options: SolveOptions | ModelOptions | None) -> Result:
    request = request.but(engine=request.budget.engine_or(EngineName.CPSAT))
    check_budget(request.budget, KAMI_ENGINES)
    if request.budget.engine == EngineName.AUTO:
        return solve_auto(request, options)
    return run_horizons(request, options=options)


def interrupt_solves(on: bool = True) -> None:
    """Stop every running CP-SAT solve and compiled search of this process (thread-safe: a signal's helper
    thread calls it, so that the main thread gets to raise the interrupt), or, with on=False, allow them
    again."""
    stop_everything(on)


def validate(level: Level, par: int | None = None, *, slack: int = 2, rules: Rules | None = None,
             budget: Budget | None = None, options: SolveOptions | ModelOptions | None = None,
             **kwargs) -> Validation:
    """Check a designed par: solve up to par + slack moves and compare the proven bounds with it.
    `budget` (or its fields as keywords: time_limit, workers, engine, seed, progress) and `rules` as `solve`'s."""
    budget = Budget.start(**kwargs) if budget is None else budget
    return request_of(level, rules, options, budget).validate(par, slack=slack)


def validated(request: Request, par: int | None, *, slack: int = 2) -> Validation:
    """Any rules' validation: the request solved up to par + slack moves (its rules' engines), judged."""
    par = check_par(request.level, par)
    res = request.but(max_steps=par + slack).solve()
    return Validation(request.level.name, par, judge(res, par), res)


def check_par(level: Level, par: int | None) -> int:
    """The par to validate: given, or the level's (a UsageError when neither is a non-negative integer)."""
    par = level.par if par is None else par
    if par is None:
        raise UsageError(f"{level.name or 'level'}: no par given (in the file or with --par)")
    if not isinstance(par, int) or par < 0:
        raise UsageError(f"par must be a non-negative integer, got {par!r}")
    return par


def judge(res: Result, par: int) -> Verdict:
    """The verdict on `par` from a solve up to par + slack moves (any rules)."""
    if res.status == NO_SOLUTION or res.lower_bound > par:  # (Flood-It: islands of several colours: none)
        return Verdict.UNACHIEVABLE
    if res.upper_bound is not None and res.upper_bound < par:
        return Verdict.NOT_MINIMAL
    if res.lower_bound == par and res.upper_bound == par:
        return Verdict.CORRECT
    return Verdict.UNKNOWN


def prove_under(level: Level, under: int, **kwargs) -> Result:
    """Try to prove that no solution with fewer than `under` moves exists (status 'no-solution'),
    or find one (status 'optimal', with moves)."""
    if not isinstance(under, int) or under < 1:
        raise UsageError(f"--under must be a positive integer, got {under!r}")
    return solve(level, max_steps=under - 1, **kwargs)


@dataclass(frozen=True)
class Free:
    """Kami's rules: a move repaints any region. `options`: the prover's configuration (or the model's)."""

    options: SolveOptions | ModelOptions | None = None
    name: ClassVar[str] = "free"
    chooses_region: ClassVar[bool] = True

    def solve(self, request: Request) -> Result:
        if isinstance(self.options, SolveOptions) and self.options.search.after is not None:
            raise UsageError("a prior move is internal to cubes (its 'no solution' is not the level's answer)")
        return _solve(request, self.options)

    def validate(self, request: Request, par: int | None, *, slack: int = 2) -> Validation:
        return validated(request, par, slack=slack)

    def data(self, level: Level) -> dict:
        """What a JSON output adds for these rules: nothing (Kami's outputs predate the rules)."""
        return {}

    def describe(self, level: Level) -> str:
        """What a human-readable output says of these rules."""
        return "Kami rules"
