"""The time budget: `--time-limit inf` means no limit in every command, and a limit too large for a timer
(3e6, 1e7, 1e300 seconds) is clamped, never an OverflowError. The level here is not answered by the
search's first slice, so the race (whose timers overflowed, and whose "little time left" test was true
for an infinite limit) runs."""

from __future__ import annotations

import math
import resource
import time

import pytest
from typer.testing import CliRunner

from kamicp.cli import app
from kamicp.errors import UsageError
from kamicp.limits import MAX_SECONDS, time_budget
from tests.helpers import LEVELS

runner = CliRunner()
RACED = LEVELS / "tri-48b5c-s110.json"  # optimum 9, proven in about 2 s, past the search's first slice
RACED_SMALL = LEVELS / "tri-24b4c-s104.json"  # its 36 optimal plans counted in seconds

SLOW = pytest.mark.slow  # the same solve as the default cases, through another command
CASES = [
    (["solve", RACED], "inf", "optimal: 9 moves"),
    (["solve", RACED], "3e6", "optimal: 9 moves"),
    pytest.param(["hint", RACED], "inf", "optimal: 9 more moves", marks=SLOW),
    pytest.param(["prove", RACED, "--under", "9"], "inf", "proven: no solution with fewer than 9 moves", marks=SLOW),
    pytest.param(["show", RACED, "--solution"], "1e300", "optimal: 9 moves", marks=SLOW),
    (["validate", RACED, "--par", "9"], "1e7", "correct"),
    pytest.param(["validate", RACED, "--par", "9"], "inf", "correct", marks=SLOW),
    (["count", RACED_SMALL], "inf", "solutions 36"),  # (its solve is the same as solve's; the count's own timer)
    pytest.param(["count", RACED_SMALL], "3e6", "solutions 36", marks=SLOW),
]


def _cpu_seconds() -> float:
    """CPU seconds of this thread (the command runs in it) and of the ended child processes (the levels'
    and the race's: each process's count includes the children it waited for)."""
    own, children = resource.getrusage(resource.RUSAGE_THREAD), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


IDS = [f"{c[0][0]}-{c[1]}" for c in (getattr(c, "values", c) for c in CASES)]


@pytest.mark.parametrize(("args", "limit", "answer"), CASES, ids=IDS)
def test_an_infinite_or_huge_limit_is_no_limit(args, limit, answer):
    """Answered as without a limit: about 3 CPU seconds (the command's processes included) and 2 s of wall
    time alone. The work is bounded in CPU time, which load hardly stretches (9 s beside 24 busy processes
    on the 2 cores, where the wall time was 60 s; the 90 s wall bound this test had failed once under
    load); the wall time only against waiting on a timer."""
    start, cpu = time.monotonic(), _cpu_seconds()
    res = runner.invoke(app, [*map(str, args), "--time-limit", limit])
    assert _cpu_seconds() - cpu < 60 and time.monotonic() - start < 600
    assert res.exit_code == 0, res.output
    assert answer in " ".join(res.stdout.split()), res.stdout
    assert "unknown" not in res.stdout and "Overflow" not in res.output


def test_time_budget():
    assert time_budget(None) is None and time_budget(math.inf) is None
    assert time_budget(3e6) == MAX_SECONDS == time_budget(1e300) and time_budget(2.5) == 2.5
    for bad in (0.0, -1.0, math.nan, -math.inf):
        with pytest.raises(UsageError):
            time_budget(bad)
