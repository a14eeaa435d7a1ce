"""A closed pipe (`kamicp info LEVEL | head -0`): the reader of stdout or stderr went away, and the command
ends quietly with EXIT_BROKEN_PIPE (typer would exit 1, and the interpreter's last flush would print)."""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from kamicp.cli.exits import EXIT_BROKEN_PIPE


class PipeClosed(Exception):
    """The reader of stdout or stderr went away (a BrokenPipeError, carried past typer's own handling,
    which would exit 1 and may print)."""


@contextmanager
def pipe_guard() -> Iterator[None]:
    try:
        yield
    except BrokenPipeError as e:
        raise PipeClosed from e
    except SystemExit as e:  # another rich console's on_broken_pipe (typer's help) exits 1 while handling one
        if isinstance(e.__context__, BrokenPipeError):
            raise PipeClosed from e
        raise


def silence_std_streams() -> None:
    """Point stdout and stderr at /dev/null, so that the interpreter's last flush of what is still buffered
    neither fails nor prints 'Exception ignored ... BrokenPipeError' (Python's documented recipe)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # not a real file (tests), or already closed
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
            os.close(devnull)


def flushed(code: int) -> int:
    """`code`, or EXIT_BROKEN_PIPE when the output buffered last cannot be written any more."""
    try:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    except BrokenPipeError:
        silence_std_streams()
        return EXIT_BROKEN_PIPE
    return code
