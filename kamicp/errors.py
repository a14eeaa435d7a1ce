"""One exception hierarchy, so callers (and the CLI) can catch every kamicp failure in one place."""

from __future__ import annotations


class KamiError(Exception):
    """Base of every error kamicp raises on purpose."""


class FormatError(KamiError):
    """A level file (or level data) is malformed.

    Carries the source and the field or line so the message can point the user at the problem.
    """

    def __init__(self, message: str, *, source: str | None = None, where: str | None = None) -> None:
        self.message = message
        self.source = source
        self.where = where
        super().__init__(str(self))

    def __str__(self) -> str:
        parts = [p for p in (self.source, self.where) if p]
        prefix = ": ".join(parts)
        return f"{prefix}: {self.message}" if prefix else self.message


class RuleError(KamiError):
    """A move or a claimed solution breaks a rule of the game; `rule` names which one."""

    def __init__(self, rule: str, message: str, *, step: int | None = None) -> None:
        self.rule = rule
        self.step = step
        self.message = message
        where = f"move {step}: " if step is not None else ""
        super().__init__(f"{where}{message} (rule: {rule})")


class SolverError(KamiError):
    """A solver failed in a way that is not an answer (bad parameters, internal inconsistency)."""


class UsageError(KamiError):
    """A parameter given by the caller is invalid (negative step count, unknown engine, ...)."""


class WorkerError(SolverError):
    """A worker process of the `auto` race failed (an exception, or it died); the message says which and why."""


class ClusterLost(KamiError):
    """The Dask scheduler went away during a run (killed, or the network to it lost): no answer from it;
    what was stored stays."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised in the main thread by the CLI's handler (SIGINT raises KeyboardInterrupt)."""


class Interrupted(KamiError):
    """A solve was interrupted by SIGINT or SIGTERM. `result` (status 'unknown', or None when the
    interrupt came before the first bound) holds what was proven by then; `signal` is the signal number."""

    def __init__(self, result: object, signal: int) -> None:
        self.result = result
        self.signal = signal
        super().__init__("interrupted")
