"""The process's interrupt: its flag, the registry of the compiled searches it stops, the watcher that stops a
CP-SAT solve, and the one `SearchTimeout` every search raises at its deadline. Below every solver, so that
any of them (the prover, Flood-It, Katamino) can be stopped without importing another.

`INTERRUPT` is set (from any thread) when the process is interrupted: every CP-SAT solve stops (its
`watching` thread), so the main thread can run its signal handler, which it cannot while CP-SAT holds it;
every compiled search `attach`ed here stops too (its stop flags set). See cli/signals.py's interruptible.
It lives here, not beside a model, so that stopping everything does not import OR-Tools into a process
that never solved with it.
"""

from __future__ import annotations

import ctypes
import signal
import threading
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from kamicp.errors import Terminated

INTERRUPT = threading.Event()
FLAGS = 256  # stop flags per compiled search (the Kami search reads flag h for horizon h; Katamino flag 0)

_searches: list[weakref.ref] = []  # the stop flags of this process's compiled searches


class SearchTimeout(Exception):
    """A search's deadline passed (internal: Kami's IDA*, Flood-It's pivot IDA* and counter, Katamino's
    Algorithm X and the designer's counter raise it, and their callers turn it into an 'unknown' answer,
    or keep what was found so far)."""


def signal_of(exc: KeyboardInterrupt) -> int:
    """The signal behind an interrupt: SIGTERM (the CLI raises `Terminated` for it) or SIGINT."""
    return signal.SIGTERM if isinstance(exc, Terminated) else signal.SIGINT


def stop_everything(on: bool = True) -> None:
    """Stop every running CP-SAT solve and compiled search of this process from any thread (they hold the
    main thread, so it could not raise a signal's interrupt before they return), or allow them again."""
    if on:
        INTERRUPT.set()
    else:
        INTERRUPT.clear()
    for ref in list(_searches):
        flags = ref()
        if flags is not None:
            ctypes.memset(flags, 0xFF if on else 0, ctypes.sizeof(flags))


def attach(search: object) -> None:
    """Let `stop_everything` stop a compiled search (one with `stop_on(flags)`; every flag set at once)."""
    stop_on = getattr(search, "stop_on", None)
    flags = (ctypes.c_int * FLAGS)()
    if stop_on is not None and stop_on(flags):
        _searches[:] = [r for r in _searches if r() is not None] + [weakref.ref(flags)]


@contextmanager
def watching(halt: Callable[[], None], stop: Callable[[], bool] | None = None) -> Iterator[None]:
    """While the body runs (a CP-SAT solve holding the main thread), a helper thread calls `halt` (the
    solver's stop_search) once the interrupt flag is set or `stop` says True, polling every 50 ms."""
    done = threading.Event()

    def watch() -> None:
        while not done.wait(0.05):
            if INTERRUPT.is_set() or (stop is not None and stop()):
                halt()
                return

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    try:
        yield
    finally:
        done.set()
        watcher.join()
