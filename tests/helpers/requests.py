"""A Kami request for the prover's internals (run_horizons, the race's workers), as the entry points build it."""

from __future__ import annotations

from kamicp.board.level import Level
from kamicp.prover.request import Budget, Request
from kamicp.prover.solver import Free


def kami_request(level: Level, engine: str, time_limit: float | None = None, **fields) -> Request:
    """`level` under Kami's rules, by `engine`, its clock started now (`fields`: the budget's others)."""
    return Request(level, Free(), Budget.start(time_limit, engine=engine, **fields))
