"""The solving API: `solve`, `validate` and `prove_under`, over the horizon loop and the `auto` race.

Layers, top to bottom (docs/architecture.md): this module checks the parameters and picks the engine;
`portfolio` races the engines in processes; `horizons` runs one engine's horizon loop; `engines` answer
one horizon (`model` for CP-SAT, `search` for IDA*); `bounds` and `upper` give the lower and upper
bounds. Nothing below imports anything above it.
"""

from __future__ import annotations

from dataclasses import replace

from kamicp.config import TECHNIQUES, ModelOptions, SolveOptions, options_without
from kamicp.coordination import stop_everything
from kamicp.errors import UsageError
from kamicp.horizons import Progress, run_horizons
from kamicp.level import Level
from kamicp.limits import time_budget
from kamicp.outcome import ENGINES, EngineName, Horizon, Outcome, Result, Status, Validation, Verdict, move_dict
from kamicp.portfolio import solve_auto
from kamicp.prior import After

OPTIMAL, NO_SOLUTION, UNKNOWN = Status.OPTIMAL, Status.NO_SOLUTION, Status.UNKNOWN
SEED_RANGE = (-(2**31), 2**31 - 1 - 64)  # CP-SAT's seeds are 32-bit; the race adds up to 7 + cubes to it

__all__ = [
    "ENGINES", "NO_SOLUTION", "OPTIMAL", "TECHNIQUES", "UNKNOWN", "EngineName", "Horizon", "ModelOptions",
    "Outcome", "Result", "SolveOptions", "Status", "Validation", "Verdict", "move_dict", "options_without",
    "interrupt_solves", "prove_under", "solve", "validate",
]


def _check_params(max_steps: int | None, time_limit: float | None, workers: int | None, engine: str,
                  seed: int) -> None:
    if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 0):
        raise UsageError(f"max-steps must be a non-negative integer, got {max_steps!r}")
    if workers is not None and workers < 1:
        raise UsageError(f"workers must be at least 1, got {workers!r}")
    if engine not in ENGINES:
        raise UsageError(f"unknown engine {engine!r} (expected one of {', '.join(ENGINES)})")
    if not isinstance(seed, int) or not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise UsageError(f"seed must be an integer from {SEED_RANGE[0]} to {SEED_RANGE[1]}, got {seed!r}")


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
) -> Result:
    """Find a shortest solution of `level` with at most `max_steps` moves, and prove it shortest.
    `options`: the whole configuration, or only the model's constraints."""
    if isinstance(options, SolveOptions) and options.search.after is not None:
        raise UsageError("a prior move is internal to cubes (its 'no solution' is not the level's answer)")
    return _solve(level, max_steps=max_steps, time_limit=time_limit, workers=workers, engine=engine, seed=seed,
                  options=options, progress=progress)


def solve_after(level: Level, after: After, *, options: SolveOptions | None = None, **kwargs) -> Result:
    """Internal to cubes (kamicp.distributed): `solve` with the compiled search's root taken to follow the
    move `after` (kamicp/prior.py). Its NO_SOLUTION means only "no solution canonical after that move
    within max_steps", never that the level has none: it must not be reported as the level's answer."""
    opts = options or SolveOptions()
    return _solve(level, options=replace(opts, search=replace(opts.search, after=after)), **kwargs)


def _solve(level: Level, *, max_steps: int | None = None, time_limit: float | None = None,
           workers: int | None = None, engine: str = "cpsat", seed: int = 0,
           options: SolveOptions | ModelOptions | None = None, progress: Progress | None = None) -> Result:
    time_limit = time_budget(time_limit)  # infinity: no limit; a limit too long for a timer: clamped
    _check_params(max_steps, time_limit, workers, engine, seed)
    if engine == EngineName.AUTO:
        return solve_auto(level, max_steps=max_steps, time_limit=time_limit, workers=workers, seed=seed,
                          options=options, progress=progress)
    return run_horizons(level, engine, max_steps=max_steps, time_limit=time_limit, workers=workers, seed=seed,
                        options=options, progress=progress)


def interrupt_solves(on: bool = True) -> None:
    """Stop every running CP-SAT solve and compiled search of this process (thread-safe: a signal's helper
    thread calls it, so that the main thread gets to raise the interrupt), or, with on=False, allow them
    again."""
    stop_everything(on)


def validate(level: Level, par: int | None = None, *, slack: int = 2, **kwargs) -> Validation:
    """Check a designed par: solve up to par + slack moves and compare the proven bounds with it."""
    par = level.par if par is None else par
    if par is None:
        raise UsageError(f"{level.name or 'level'}: no par given (in the file or with --par)")
    if not isinstance(par, int) or par < 0:
        raise UsageError(f"par must be a non-negative integer, got {par!r}")
    res = solve(level, max_steps=par + slack, **kwargs)
    if res.lower_bound > par:
        verdict = Verdict.UNACHIEVABLE
    elif res.upper_bound is not None and res.upper_bound < par:
        verdict = Verdict.NOT_MINIMAL
    elif res.lower_bound == par and res.upper_bound == par:
        verdict = Verdict.CORRECT
    else:
        verdict = Verdict.UNKNOWN
    return Validation(level.name, par, verdict, res)


def prove_under(level: Level, under: int, **kwargs) -> Result:
    """Try to prove that no solution with fewer than `under` moves exists (status 'no-solution'),
    or find one (status 'optimal', with moves)."""
    if not isinstance(under, int) or under < 1:
        raise UsageError(f"--under must be a positive integer, got {under!r}")
    return solve(level, max_steps=under - 1, **kwargs)
