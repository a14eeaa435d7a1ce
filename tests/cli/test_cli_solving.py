"""The solving layer seen from the command line: a solver's failure as one line with exit 4, the seed's range,
signals ending the whole process tree with one line."""

from __future__ import annotations

import contextlib
import json
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kamicp.cli import app
from kamicp.errors import UsageError, WorkerError
from kamicp.formats import load_level
from kamicp.prover.solver import solve
from tests.helpers import PUZZLES, ROOT
from tests.helpers.processes import command

HARBOUR = PUZZLES / "tri-harbour.json"


def test_cli_reports_a_solver_failure_in_one_line_with_exit_4(monkeypatch):
    import kamicp.prover.solver as solver  # (the CLI's request reaches the race through the solving API)

    def crash(*_args, **_kwargs):
        raise WorkerError("the race's cpsat worker failed: RuntimeError: boom")

    monkeypatch.setattr(solver, "solve_auto", crash)
    result = CliRunner().invoke(app, ["solve", str(HARBOUR)])
    assert result.exit_code == 4 and "Traceback" not in result.output
    assert result.output.strip().splitlines() == ["error: the race's cpsat worker failed: RuntimeError: boom"]


def test_seed_out_of_cpsat_range_is_bad_input():
    result = CliRunner().invoke(app, ["solve", str(HARBOUR), "--engine", "cpsat", "--seed", "2147483648"])
    assert result.exit_code == 2 and "--seed" in result.output and "Traceback" not in result.output
    with pytest.raises(UsageError, match="seed must be an integer"):  # the library checks it too
        solve(load_level(HARBOUR), engine="cpsat", seed=2**31)


def _big_level(path: Path) -> None:
    """A 12 x 16 square board in 6 colours (about 130 regions): the race runs for minutes."""
    rng = random.Random(5)
    rows = ["".join(rng.choice("ABCDEF") for _ in range(16)) for _ in range(12)]
    path.write_text(json.dumps({"name": "big", "geometry": "square", "rows": rows}))


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                out.append(int(entry.name))
    return out


def _alive(pids: list[int]) -> list[int]:
    alive = []
    for p in pids:
        try:
            state = (Path("/proc") / str(p) / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            continue
        if state != "Z":
            alive.append(p)
    return alive


def _start(level: Path, *args: str) -> contextlib.AbstractContextManager[subprocess.Popen]:
    return command([sys.executable, "-c", "from kamicp.cli import app; app()", "solve", str(level), *args],
                   cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _one_line(proc: subprocess.Popen, code: int) -> None:
    _out, err = proc.communicate(timeout=30)
    assert proc.returncode == code
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("interrupted: best so far ") and ", bounds " in lines[0]


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize(("sig", "code"), [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_a_signal_ends_the_race_and_its_workers_with_one_line(tmp_path, sig, code):
    level = tmp_path / "big.json"
    _big_level(level)
    with _start(level) as proc:
        end = time.monotonic() + 60
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < end and proc.poll() is None:
            time.sleep(0.2)
            workers = _children(proc.pid)
        assert len(workers) == 2, "the race did not start"
        proc.send_signal(sig)
        _one_line(proc, code)
        time.sleep(0.5)
        assert _alive(workers) == []  # (inside: leaving the block kills what is left)


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_a_signal_stops_a_running_cpsat_solve(tmp_path):
    """CP-SAT holds the main thread while it solves; the signal still ends the command at once."""
    level = tmp_path / "big.json"
    _big_level(level)
    with _start(level, "--engine", "cpsat", "--no", "beam", "--no", "rollout") as proc:
        # wait for CP-SAT: the signal helper thread, the solve's watcher thread and CP-SAT's own
        end = time.monotonic() + 90
        while len(list(Path(f"/proc/{proc.pid}/task").iterdir())) < 4 and time.monotonic() < end:
            time.sleep(0.2)
        time.sleep(1)
        assert proc.poll() is None
        t0 = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        _one_line(proc, 143)
        assert time.monotonic() - t0 < 10
