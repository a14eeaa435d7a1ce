"""What a caller asks of the prover: the rules to play by and the budget to spend.

`Budget` is the tuple every entry point used to thread through its signature (steps, time, workers, seed,
engine, progress); `Rules` is the protocol a puzzle's rules implement, so that one call, `rules.solve(level,
budget)`, serves Kami (`prover.solver.Free`) and Flood-It (`kamicp.floodit.Pivot(cell)`, which supplies its own
engines: the prover never imports a sibling). The command line parses its options into these two and prints
what comes back; it never branches on the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from kamicp.errors import UsageError

if TYPE_CHECKING:
    from kamicp.board.level import Level
    from kamicp.prover.outcome import Result, Validation

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Budget:
    """What a solve may spend: at most `max_steps` moves (None: any), `time_limit` seconds (None or
    infinity: no limit), CP-SAT's `workers` and `seed`, the `engine` (None: the rules' default), and where
    its `progress` lines go."""

    max_steps: int | None = None
    time_limit: float | None = None
    workers: int | None = None
    seed: int = 0
    engine: str | None = None
    progress: Progress | None = None

    def but(self, **changes: object) -> Budget:
        """This budget with some fields changed (e.g. max_steps for a validation's par + slack)."""
        return replace(self, **changes)  # type: ignore[arg-type]

    def engine_or(self, default: str) -> str:
        return default if self.engine is None else str(self.engine)


SEED_RANGE = (-(2**31), 2**31 - 1 - 64)  # CP-SAT's seeds are 32-bit; the race adds up to 7 + cubes to it


def check_budget(budget: Budget, engines: tuple[str, ...]) -> None:
    """A UsageError naming the first field out of range (`engines`: the ones the rules offer)."""
    max_steps, workers, seed, engine = budget.max_steps, budget.workers, budget.seed, budget.engine
    if max_steps is not None and (not isinstance(max_steps, int) or max_steps < 0):
        raise UsageError(f"max-steps must be a non-negative integer, got {max_steps!r}")
    if workers is not None and workers < 1:
        raise UsageError(f"workers must be at least 1, got {workers!r}")
    if engine not in engines:
        raise UsageError(f"unknown engine {engine!r} (expected one of {', '.join(engines)})")
    if not isinstance(seed, int) or not SEED_RANGE[0] <= seed <= SEED_RANGE[1]:
        raise UsageError(f"seed must be an integer from {SEED_RANGE[0]} to {SEED_RANGE[1]}, got {seed!r}")


class Rules(Protocol):
    """A puzzle's rules as the prover's entry points see them: each brings its own engines. (Flood-It's
    `Pivot` also counts: kamicp.designer.count hands a count to the rules that are not `Free`.)"""

    name: str  # "free" (Kami) or "pivot" (Flood-It), as in the JSON outputs and the packs' settings

    def solve(self, level: Level, budget: Budget) -> Result: ...
    def validate(self, level: Level, par: int | None, budget: Budget, *, slack: int = 2) -> Validation: ...
    def data(self, level: Level) -> dict: ...
