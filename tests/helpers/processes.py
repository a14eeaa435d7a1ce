"""Commands the tests start as users start them, never left running: a test that fails halfway (an assert
between the start and the signal) would otherwise leave its command, and whatever that started, at work."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
from collections.abc import Iterator, Sequence


@contextlib.contextmanager
def command(args: Sequence[str], **popen: object) -> Iterator[subprocess.Popen]:
    """`subprocess.Popen(args, **popen)` in a session of its own; on leaving, however the test ended, every
    process still in that session (the command and its workers) is killed and the command reaped."""
    proc = subprocess.Popen(list(args), start_new_session=True, **popen)  # type: ignore[call-overload]
    try:
        yield proc
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()  # (reaps it and closes its pipes)
