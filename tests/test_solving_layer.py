"""The solving layer's contracts: typed answers, the options registry, a race worker's failure as an error,
signals ending the whole process tree with one line."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kamicp.cli import app
from kamicp.config import TECHNIQUES, ModelOptions, SolveOptions, options_without
from kamicp.errors import UsageError, WorkerError
from kamicp.formats import load_level
from kamicp.outcome import EngineName, Outcome, Status
from kamicp.solver import solve

ROOT = Path(__file__).resolve().parent.parent
HARBOUR = ROOT / "puzzles" / "tri-harbour.json"


def test_answers_are_enums_equal_to_their_old_strings():
    res = solve(load_level(HARBOUR), engine="search")
    assert res.status is Status.OPTIMAL and res.status == "optimal"
    assert all(isinstance(h.outcome, Outcome) and isinstance(h.engine, EngineName) for h in res.proof)
    data = json.loads(json.dumps(res.to_dict(load_level(HARBOUR))))
    assert data["status"] == "optimal" and data["engine"] == "search"
    assert [h["outcome"] for h in data["proof"]] == ["bound", "infeasible", "infeasible", "feasible"]


def test_every_technique_switches_one_field_off():
    base = SolveOptions()
    for name, t in TECHNIQUES.items():
        changed = options_without([name])
        assert getattr(getattr(changed, t.part), t.name) == t.off, name
        others = [p for p in ("model", "cpsat", "search", "bound", "upper", "race") if p != t.part]
        assert all(getattr(changed, p) == getattr(base, p) for p in others), name
    assert options_without([], ModelOptions(tight_colours=False)).model.tight_colours is False


def _crashing_worker(target_kwargs: dict) -> tuple[dict, dict]:
    """One race worker (the real `worker_main`) with a pipe, as `_race` starts them."""
    import multiprocessing as mp

    from kamicp.portfolio import worker_main

    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=worker_main, args=(child, *target_kwargs["args"], os.getpid()), daemon=True)
    proc.start()
    child.close()
    return {parent: "cpsat"}, {"cpsat": proc}


def test_a_crashing_worker_is_an_error_with_its_message():
    from kamicp.portfolio import collect, stop_workers

    bad = SolveOptions(model=ModelOptions(cpsat_parameters=(("no_such_parameter", 1),)))
    conns, procs = _crashing_worker({"args": (load_level(HARBOUR), "cpsat", {"options": bad, "time_limit": 30})})
    try:
        with pytest.raises(WorkerError, match="cpsat worker failed: AttributeError.*no_such_parameter"):
            collect(conns, procs, time.monotonic() + 30, None)
    finally:
        stop_workers(procs)
    assert not any(p.is_alive() for p in procs.values())


def test_a_worker_that_dies_is_an_error_with_its_exit_code():
    import multiprocessing as mp

    from kamicp.portfolio import collect, stop_workers

    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=os._exit, args=(7,), daemon=True)
    proc.start()
    child.close()
    try:
        with pytest.raises(WorkerError, match="search worker failed: process ended without an answer .exit code 7"):
            collect({parent: "search"}, {"search": proc}, time.monotonic() + 30, None)
    finally:
        stop_workers({"search": proc})


def test_cli_reports_a_solver_failure_in_one_line_with_exit_4(monkeypatch):
    import kamicp.cli.solving as solving

    def crash(*_args, **_kwargs):
        raise WorkerError("the race's cpsat worker failed: RuntimeError: boom")

    monkeypatch.setattr(solving, "solve", crash)
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


def _start(level: Path, *args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", "from kamicp.cli import app; app()", "solve", str(level), *args],
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
    proc = _start(level)
    end = time.monotonic() + 60
    workers: list[int] = []
    while len(workers) < 2 and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.2)
        workers = _children(proc.pid)
    assert len(workers) == 2, "the race did not start"
    proc.send_signal(sig)
    _one_line(proc, code)
    time.sleep(0.5)
    assert _alive(workers) == []


@pytest.mark.slow
@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_a_signal_stops_a_running_cpsat_solve(tmp_path):
    """CP-SAT holds the main thread while it solves; the signal still ends the command at once."""
    level = tmp_path / "big.json"
    _big_level(level)
    proc = _start(level, "--engine", "cpsat", "--no", "beam", "--no", "rollout")
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
