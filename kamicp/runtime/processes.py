"""Child processes, the one place that starts their end: no process is ever left behind.

A child dies with its parent (`die_with`, `on_parent_death`: on Linux the kernel signals it when the parent
dies, even by SIGKILL); a parent stops its children with SIGTERM first and SIGKILL for what is left (`stop`
for plain children; `stop_group`/`signal_group` for a child leading its own process group, which takes
everything it started with it). The race's workers (kamicp.prover.race), the packs' level processes
(kamicp.packs.worker) and the play server's solves (kamicp.play.jobs) all end this way.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
from collections.abc import Iterable
from multiprocessing.process import BaseProcess

PR_SET_PDEATHSIG = 1


def on_parent_death(sig: int) -> None:
    """Have the kernel send `sig` to this process when its parent dies (Linux; elsewhere nothing: the
    parent's own stopping still applies)."""
    with contextlib.suppress(OSError, AttributeError):  # (not Linux: no such call)
        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, sig)


def die_with(parent: int) -> None:
    """A worker never outlives its parent (pid `parent`): SIGINT is the parent's to handle (ignored here),
    SIGTERM ends the worker at once, the kernel kills it when the parent dies, and it exits now if the
    parent died before that was set."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    on_parent_death(signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the line above
        os._exit(1)


def stop(procs: Iterable[BaseProcess], wait: float = 1.0) -> None:
    """End every process: SIGTERM to all, then SIGKILL for one that has not ended within `wait` seconds."""
    procs = list(procs)
    for proc in procs:
        if proc.pid is not None and proc.is_alive():
            proc.terminate()
    for proc in procs:
        if proc.pid is None:
            continue  # (never started)
        proc.join(timeout=wait)
        if proc.is_alive():
            proc.kill()
            proc.join()


def kill(proc: BaseProcess, wait: float = 5.0) -> None:
    """SIGKILL a process at once (its own workers die with it, `die_with`) and reap it."""
    if proc.is_alive():
        proc.kill()
    proc.join(timeout=wait)


def signal_group(proc: BaseProcess, sig: int) -> None:
    """Send `sig` to the process group `proc` leads (only to `proc` when it leads none, or has ended)."""
    try:
        os.killpg(proc.pid, sig)  # type: ignore[arg-type]
    except (ProcessLookupError, PermissionError, TypeError):
        if proc.is_alive():
            proc.kill() if sig == signal.SIGKILL else proc.terminate()


def stop_group(proc: BaseProcess, wait: float) -> None:
    """Stop a process group: SIGTERM, then, after `wait` seconds, SIGKILL whatever is left."""
    signal_group(proc, signal.SIGTERM)
    proc.join(wait)
    signal_group(proc, signal.SIGKILL)
    proc.join(wait)
