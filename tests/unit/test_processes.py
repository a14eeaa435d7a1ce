"""The one process module (kamicp.runtime.processes): children end, whatever they do with SIGTERM, and a
process group takes what its leader started with it."""

from __future__ import annotations

import multiprocessing as mp
import os
import signal
import sys
import time

import pytest

from kamicp.runtime.processes import die_with, stop, stop_group

CTX = mp.get_context("fork")
pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="fork, /proc and PR_SET_PDEATHSIG")


def _stubborn(ready) -> None:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)  # only SIGKILL ends it
    ready.set()
    time.sleep(60)


def _leader(pids) -> None:
    os.setpgid(0, 0)
    child = CTX.Process(target=time.sleep, args=(60,))
    child.start()
    pids.put(child.pid)
    time.sleep(60)


def _orphan(parent: int, pids) -> None:
    die_with(parent)
    pids.put(os.getpid())
    time.sleep(60)


def _middle(pids) -> None:
    worker = CTX.Process(target=_orphan, args=(os.getpid(), pids))
    worker.start()
    time.sleep(60)


def _gone(pid: int, within: float = 5.0) -> bool:
    """Ended within `within` seconds (reaped, or a zombie waiting for whoever adopted it)."""
    end = time.monotonic() + within
    while time.monotonic() < end:
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().rsplit(")", 1)[1].split()[0] in ("Z", "X"):
                    return True
        except FileNotFoundError:
            return True
        time.sleep(0.05)
    return False


def test_stop_kills_a_child_that_ignores_sigterm() -> None:
    ready = CTX.Event()
    proc = CTX.Process(target=_stubborn, args=(ready,))
    proc.start()
    assert ready.wait(10)
    t0 = time.monotonic()
    stop([proc], wait=0.2)
    assert not proc.is_alive() and proc.exitcode == -signal.SIGKILL and time.monotonic() - t0 < 5


def test_stop_group_ends_what_the_leader_started() -> None:
    pids = CTX.Queue()
    proc = CTX.Process(target=_leader, args=(pids,))
    proc.start()
    grandchild = pids.get(timeout=10)
    stop_group(proc, 1.0)
    assert not proc.is_alive() and _gone(grandchild)


def test_a_worker_dies_with_its_parent() -> None:
    pids = CTX.Queue()
    middle = CTX.Process(target=_middle, args=(pids,))
    middle.start()
    worker = pids.get(timeout=10)
    middle.kill()  # SIGKILL: the parent cannot stop its worker itself
    middle.join()
    assert _gone(worker)  # (PR_SET_PDEATHSIG; an orphan is reaped by init)
