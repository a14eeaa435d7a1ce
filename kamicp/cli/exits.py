"""The command line's exit codes, the one list every command returns from.

0 success (solved, proven, par correct); 1 the answer is negative (no solution within N, a shorter
solution exists, par wrong); 2 bad input (a file or an option); 3 time limit reached without an answer;
4 internal error (a bug: an exception kamicp did not expect, or a solver's failure such as a crashed worker
of the race); 130 / 143 interrupted by SIGINT / SIGTERM; 141 (128 + SIGPIPE) the reader of the output went
away (`kamicp info LEVEL | head -0`), quietly.
"""

from __future__ import annotations

import signal

EXIT_OK, EXIT_NEGATIVE, EXIT_BAD_INPUT, EXIT_UNKNOWN, EXIT_INTERNAL = 0, 1, 2, 3, 4
EXIT_INTERRUPTED = {signal.SIGINT: 130, signal.SIGTERM: 143}  # 128 + the signal's number
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE  # 141, what a shell reports for a tool stopped by a closed pipe
