"""What a caller asks of the prover: the rules to play by and the budget to spend.

`Budget` is the tuple every entry point used to thread through its signature (steps, time, workers, seed,
engine, progress); `Rules` is the protocol a puzzle's rules implement, so that one call, `rules.solve(level,
budget)`, serves Kami (`prover.solver.Free`) and Flood-It (`kamicp.floodit.Pivot(cell)`, which supplies its own
engines: the prover never imports a sibling). The command line parses its options into these two and prints
what comes back; it never branches on the rules.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

from kamicp.errors import UsageError
from kamicp.runtime.clock import Deadline

if TYPE_CHECKING:
    from kamicp.board.level import Level
    from kamicp.prover.outcome import Result, Validation
    from kamicp.prover.watch import Estimator, Watch

Progress = Callable[[str], None]


@dataclass(frozen=True)
class Budget:
    """What a solve may spend: at most `max_steps` moves (None: any), the time up to its `deadline` (made
    once where the request enters: `Budget.start(time_limit=...)`), CP-SAT's `workers` and `seed`, the
    `engine` (None: the rules' default), where its `progress` lines go, and where its `watch` snapshots go
    (kamicp.prover.watch: proven bounds, the horizon, the search's rate, about twice a second; Kami's engines
    only), each given the open horizon's `estimator` estimate when one is set (an estimate, never a bound)."""

    max_steps: int | None = None
    deadline: Deadline = field(default_factory=Deadline.never)
    workers: int | None = None
    seed: int = 0
    engine: str | None = None
    progress: Progress | None = None
    watch: Watch | None = None
    estimator: Estimator | None = None

    @classmethod
    def start(cls, time_limit: float | None = None, **fields: object) -> Budget:
        """A budget whose clock starts now, from a time limit in seconds (None or infinity: none; a huge one
        clamped; UsageError when not positive) and the other fields."""
        return cls(deadline=Deadline.after(time_limit), **fields)  # type: ignore[arg-type]

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
    chooses_region: bool  # a move picks the region it repaints (Kami), or always repaints one (Flood-It's pivot)

    def solve(self, request: Request) -> Result: ...
    def validate(self, request: Request, par: int | None, *, slack: int = 2) -> Validation: ...
    def data(self, level: Level) -> dict: ...
    def describe(self, level: Level) -> str: ...


@dataclass(frozen=True)
class Request:
    """One question to the prover, built once where it enters (the command line, a pack's level process, a
    cube's task, the library's keyword face) and passed whole down to the engines: the `level`, the `rules`
    to play it by (which bring their engines) and the `budget` (steps, deadline, workers, seed, engine)."""

    level: Level
    rules: Rules
    budget: Budget

    def but(self, **changes: object) -> Request:
        """This request with some of its budget's fields changed (the clock is the same)."""
        return replace(self, budget=self.budget.but(**changes))

    def solve(self) -> Result:
        """The rules' answer to this request."""
        return self.rules.solve(self)

    def validate(self, par: int | None, *, slack: int = 2) -> Validation:
        """The rules' verdict on `par` (solving up to par + slack moves within this budget)."""
        return self.rules.validate(self, par, slack=slack)
