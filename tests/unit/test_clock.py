"""The one clock (kamicp/runtime/clock.py): a deadline made once from a time limit, asked for what is left,
sliced for sub-budgets, and carried to a child process or another machine without changing form."""

from __future__ import annotations

import math
import pickle
import time

import pytest

from kamicp.errors import UsageError
from kamicp.limits import MAX_SECONDS
from kamicp.runtime.clock import NEVER, Deadline, checked_limit


def test_no_limit_is_no_deadline() -> None:
    for limit in (None, math.inf):
        deadline = Deadline.after(limit)
        assert not deadline.limited and deadline.left() == math.inf and not deadline.expired()
        assert deadline.limit() is None and deadline.portable() is None
    assert not NEVER.limited and not NEVER.expired()


def test_a_limit_is_clamped_once_and_checked() -> None:
    # (end - start of a monotonic clock: exact only up to the rounding of the sum, which depends on the uptime)
    assert Deadline.after(1e300).total == pytest.approx(MAX_SECONDS, abs=1e-3)
    assert checked_limit(1e300) == MAX_SECONDS
    assert checked_limit(math.inf) is None and checked_limit(2.5) == 2.5
    for bad in (0, -1.0, math.nan):
        with pytest.raises(UsageError, match="time-limit must be positive"):
            Deadline.after(bad)


def test_a_slice_never_outlasts_its_deadline() -> None:
    deadline = Deadline.after(10)
    assert deadline.within(1).left() <= 1 and deadline.within(100).end == deadline.end
    assert deadline.within(None).end == deadline.end and deadline.head(100).end == deadline.end
    assert deadline.head(2).end == deadline.start + 2 and deadline.later(5).end == deadline.end + 5
    assert Deadline.slice(0.0).expired() and Deadline.slice(0.0).limit(0.01) == 0.01


def test_the_deadline_crosses_to_a_child_and_to_another_machine() -> None:
    deadline = Deadline.after(30)
    assert pickle.loads(pickle.dumps(deadline)) == deadline  # (the monotonic clock is this machine's)
    rebuilt = Deadline.resumed(deadline.portable())  # (on the wall clock, rebuilt where it runs)
    assert abs(rebuilt.end - deadline.end) < 0.5 and not Deadline.resumed(None).limited
    assert Deadline.resumed(time.time() - 1).expired()  # a task that starts late gets only what is left
