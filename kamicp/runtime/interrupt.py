"""The process's interrupt flag, below every solver so that any of them can watch it cheaply, and the one
`SearchTimeout` every search raises at its deadline.

Set (from any thread) when the process is interrupted: every CP-SAT solve stops (kamicp.prover.model's watcher),
so the main thread can run its signal handler, which it cannot while CP-SAT holds it; see
coordination.stop_everything and cli/signals.py's interruptible. It lives here, not in kamicp.prover.model, so
that stopping everything does not import OR-Tools into a process that never solved with it.
"""

from __future__ import annotations

import threading

INTERRUPT = threading.Event()


class SearchTimeout(Exception):
    """A search's deadline passed (internal: Kami's IDA*, Flood-It's pivot IDA* and Katamino's Algorithm X
    raise it, and their callers turn it into an 'unknown' answer, or keep what was found so far)."""
