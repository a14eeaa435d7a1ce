"""The one clock: a `Deadline`, made once from the time limit where a request enters, handed down whole.

Every part of a long computation asks the same object how much time is left (`left()`), whether it is over
(`expired()`), or for a shorter slice of it (`within(seconds)`: a heuristic's budget, the race's first
slice); nothing converts it to seconds and back on the way down. It is a frozen pair of `time.monotonic()`
values, so it pickles to a child process of this machine (the monotonic clock is the machine's, since
boot); for another machine (a Dask worker) `portable()` gives it on the wall clock and `resumed(at)`
rebuilds it there.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field

from kamicp.limits import time_budget


def checked_limit(seconds: float | None) -> float | None:
    """A user's time limit as a run keeps it (a pack's settings): None for none (None or infinity), a limit
    too long for a timer clamped; zero, a negative number or NaN is a UsageError. (kamicp.limits.time_budget,
    called here and nowhere else.)"""
    return time_budget(seconds)


@dataclass(frozen=True)
class Deadline:
    """A point on the monotonic clock (`end`, infinity: no deadline) and when this clock started
    (`start`, for `elapsed()`)."""

    end: float = math.inf
    start: float = field(default_factory=time.monotonic)

    @classmethod
    def after(cls, time_limit: float | None) -> Deadline:
        """The deadline of a user's time limit, from now: None or infinity is none; a limit too long for a
        timer is clamped (kamicp.limits.time_budget); zero, a negative number or NaN is a UsageError."""
        limit = time_budget(time_limit)  # (the one clamp)
        now = time.monotonic()
        return cls(math.inf if limit is None else now + limit, now)

    @classmethod
    def never(cls) -> Deadline:
        """No deadline (its clock starts now)."""
        return cls()

    @classmethod
    def slice(cls, seconds: float) -> Deadline:
        """An internal budget of `seconds` from now (not a user's limit: not checked)."""
        return cls.never().within(seconds)

    @classmethod
    def resumed(cls, at: float | None) -> Deadline:
        """A deadline rebuilt on another machine from `portable()` (None: none)."""
        return cls.never() if at is None else cls.slice(max(at - time.time(), 0.0))

    @property
    def limited(self) -> bool:
        return self.end != math.inf

    @property
    def total(self) -> float:
        """The whole span from the clock's start to the deadline (infinity when none): the time limit."""
        return self.end - self.start

    def left(self) -> float:
        """Seconds left (never negative; infinity without a deadline)."""
        return max(self.end - time.monotonic(), 0.0)

    def expired(self) -> bool:
        return time.monotonic() >= self.end

    def elapsed(self) -> float:
        """Seconds since this clock started."""
        return time.monotonic() - self.start

    def within(self, seconds: float | None) -> Deadline:
        """A sub-budget: at most `seconds` from now (None: no more than this deadline), never past this
        deadline; its clock starts now."""
        now = time.monotonic()
        end = self.end if seconds is None else min(self.end, now + seconds)
        return Deadline(end, now)

    def share(self, part: float) -> Deadline:
        """The first `part` of the time left (at least a millisecond; the rest is for what comes after)."""
        return self if not self.limited else self.within(max(self.left() * part, 0.001))

    def head(self, seconds: float) -> Deadline:
        """The first `seconds` of this deadline, counted from its start (never past it): a first slice."""
        return Deadline(min(self.end, self.start + seconds), self.start)

    def later(self, seconds: float) -> Deadline:
        """This deadline `seconds` later (a grace to wait for children past it)."""
        return Deadline(self.end + seconds, self.start)

    def limit(self, floor: float = 0.0) -> float | None:
        """The time left as a time limit for an API that takes seconds (CP-SAT, a compiled search, a
        wait), at least `floor`; None without a deadline."""
        return None if not self.limited else max(self.left(), floor)

    def portable(self) -> float | None:
        """This deadline for another machine (a Dask worker): on the wall clock, whose epoch the machines
        share (the monotonic clock is per boot), so a task that starts late there gets only what is left;
        `resumed` rebuilds it there. None without a deadline."""
        return None if not self.limited else time.time() + self.left()


NEVER = Deadline(math.inf, 0.0)  # the default of a `deadline` parameter: no deadline
