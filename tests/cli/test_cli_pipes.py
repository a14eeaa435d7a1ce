"""A reader that goes away (`kamicp info LEVEL | head -0`) ends the command quietly with exit 141
(128 + SIGPIPE, what a shell reports for a tool stopped by a closed pipe): no message, no traceback,
not typer's or rich's exit 1. Real pipes, through a real process."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from kamicp.cli.exits import EXIT_BROKEN_PIPE
from tests.helpers import PUZZLES

BLOG = str(PUZZLES / "blog-18.json")
ENTRY = [sys.executable, "-c", "from kamicp.cli import app; app()"]  # the installed script's entry point


def into_closed_pipe(*args: str, stream: str = "stdout") -> subprocess.CompletedProcess:
    """Run kamicp with `stream` writing into a pipe whose reader has already gone; the other one captured."""
    read, write = os.pipe()
    os.close(read)
    try:
        pipes = {"stdout": write, "stderr": subprocess.PIPE} if stream == "stdout" else \
                {"stdout": subprocess.PIPE, "stderr": write}
        return subprocess.run([*ENTRY, *args], timeout=120, **pipes)
    finally:
        os.close(write)


@pytest.mark.parametrize("args", [("info", BLOG), ("solve", BLOG, "--json"),
                                  ("--help",)])
def test_a_closed_stdout_exits_141_quietly(args):
    proc = into_closed_pipe(*args)
    assert proc.returncode == EXIT_BROKEN_PIPE == 141, proc.stderr
    assert proc.stderr == b""


def test_a_closed_stderr_exits_141_quietly(tmp_path):
    proc = into_closed_pipe("info", str(tmp_path / "none.json"), stream="stderr")  # its error line has no reader
    assert proc.returncode == EXIT_BROKEN_PIPE and proc.stdout == b""


def test_head_in_a_shell_pipeline():
    """`kamicp solve ... --json | head -c 10`: all output fits the pipe's buffer (exit 0) or the pipe closes
    first (141); either way nothing on stderr and the first bytes are the JSON's."""
    cmd = " ".join(f"'{a}'" for a in [*ENTRY, "solve", BLOG, "--json"]) + " | head -c 10; exit ${PIPESTATUS[0]}"
    proc = subprocess.run(["bash", "-c", cmd], capture_output=True, timeout=120)
    assert proc.returncode in (0, EXIT_BROKEN_PIPE) and proc.stderr == b""
    assert proc.stdout.startswith(b"{")
