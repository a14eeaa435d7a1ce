"""The tests' own command helper (tests/helpers/processes.py): a test that fails leaves nothing running."""

from __future__ import annotations

import subprocess
import sys
import time

import psutil
import pytest

from tests.helpers.processes import command

SLEEPER = ("import subprocess, sys, time; "
           "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(120)']); time.sleep(120)")


def _family(pid: int) -> list[psutil.Process]:
    """The command and its child, once the child is there (30 s at most)."""
    deadline = time.monotonic() + 30
    while not psutil.Process(pid).children() and time.monotonic() < deadline:
        time.sleep(0.05)
    return [psutil.Process(pid), *psutil.Process(pid).children()]


def test_a_failing_test_leaves_neither_the_command_nor_what_it_started():
    family: list[psutil.Process] = []
    with pytest.raises(AssertionError), command([sys.executable, "-c", SLEEPER], stdout=subprocess.PIPE) as proc:
        family = _family(proc.pid)
        raise AssertionError("a test failing halfway")
    _, alive = psutil.wait_procs(family, timeout=10)
    assert len(family) == 2 and alive == []
    assert proc.returncode is not None and proc.stdout.closed
