"""SIGINT and SIGTERM while a command runs: one line with what was proven so far, exit 130 / 143, and the
running CP-SAT solves and compiled searches stopped at once (a helper thread hears the signal through
Python's wakeup fd and calls `solver.interrupt_solves`)."""

from __future__ import annotations

import contextlib
import os
import signal
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import typer

from kamicp.cli.console import err, plural
from kamicp.cli.exits import EXIT_INTERRUPTED
from kamicp.errors import Interrupted, Terminated
from kamicp.prover.solver import interrupt_solves
from kamicp.runtime.interrupt import signal_of


def _raise_terminated(_signum: int, _frame: object) -> None:
    raise Terminated


def _watch_signals() -> Callable[[], None] | None:
    """A helper thread that hears a signal at once (through Python's wakeup fd) and stops the running
    CP-SAT solves, so that the main thread returns from OR-Tools and raises the interrupt. Returns the undo."""
    read, write = os.pipe()
    os.set_blocking(write, False)
    try:
        old = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    except ValueError:  # not the main thread
        os.close(read)
        os.close(write)
        return None

    def listen() -> None:
        with contextlib.suppress(OSError):
            if os.read(read, 1):
                interrupt_solves()
        os.close(read)

    threading.Thread(target=listen, daemon=True).start()

    def undo() -> None:
        signal.set_wakeup_fd(old)
        os.close(write)  # (ends the helper's read)
        interrupt_solves(False)

    return undo


@contextmanager
def interruptible() -> Iterator[None]:
    """SIGINT and SIGTERM end the command with one line, what was proven so far, and exit 130 / 143. (The
    library stops its worker processes on the way out; SIGTERM is raised as `Terminated` meanwhile.)"""
    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:  # not the main thread: leave signals alone
        previous = None
    undo = _watch_signals() if previous is not None else None
    try:
        yield
    except Interrupted as e:
        raise _interrupted(e.result, e.signal) from None
    except KeyboardInterrupt as e:
        raise _interrupted(None, signal_of(e)) from None
    finally:
        if undo is not None:
            undo()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _interrupted(result: object, signum: int) -> typer.Exit:
    lower = getattr(result, "lower_bound", None)
    upper = getattr(result, "upper_bound", None)
    best = "no solution" if upper is None else plural(upper, "move")
    bounds = "none" if lower is None else f"{lower}..{'?' if upper is None else upper}"
    err.print(f"interrupted: best so far {best}, bounds {bounds}", markup=False, soft_wrap=True)
    return typer.Exit(EXIT_INTERRUPTED[signum])
