"""Plain `solve`'s long proof (kamicp.prover.long_proof): the race first, then cubes on a local pool of worker
processes (no Dask), resumable with `--store` (KAMICP_LOCAL_FIRST=0 sends a small level to the cubes at once)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import psutil
import pytest
from typer.testing import CliRunner

from kamicp.cli import app
from tests.cli.test_distributed import cube_rows
from tests.helpers import HARD, LEVELS, known_optima

CUBES_AT_ONCE = {"KAMICP_LOCAL_FIRST": "0"}


def solve(*args: str, env: dict[str, str] | None = None) -> dict:
    res = CliRunner().invoke(app, ["solve", *args, "--json"], env=env)
    assert res.exit_code == 0, res.output
    return json.loads(res.stdout)


def cubes_in_a_process(level: str, store, stdout: int, *more: str) -> subprocess.Popen:
    """`solve LEVEL --store STORE --workers 2` in a process of its own, sent to the cubes at once."""
    return subprocess.Popen([sys.executable, "-c", "from kamicp.cli import main; main()", "solve", level,
                             "--store", str(store), "--workers", "2", *more],
                            stdout=stdout, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **CUBES_AT_ONCE, "PYTHONFAULTHANDLER": "1"})  # (see `ended`)


def ended(proc: subprocess.Popen, timeout: float) -> str:
    """The process's stderr once it has ended; if it has not within `timeout` s, a failure that shows where each of
    its threads waits (SIGABRT: the fault handler's dump)."""
    try:
        return proc.communicate(timeout=timeout)[1]
    except subprocess.TimeoutExpired:
        proc.send_signal(signal.SIGABRT)
        pytest.fail(f"the process did not end within {timeout} s; its threads:\n{proc.communicate(timeout=30)[1]}")


def until_answered(proc: subprocess.Popen, store, cubes: int) -> None:
    """Wait (two minutes at most) until the store holds `cubes` cube answers, or the process has ended."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and cube_rows(store) < cubes and proc.poll() is None:
        time.sleep(0.05)


def test_a_long_proof_goes_to_cubes_on_local_workers_and_agrees_with_the_race() -> None:
    path = str(LEVELS / "tri-32b5c-s106.json")
    cubes = solve(path, "--workers", "2", env=CUBES_AT_ONCE)
    race = solve(path, "--workers", "1", env=CUBES_AT_ONCE)  # one worker, no store: the race alone
    assert cubes["pool"] == "local" and cubes["workers"] == 2 and cubes["cubes"], cubes
    assert cubes["engine"] == "cubes" and cubes["optimum"] == race["optimum"] == 8
    assert "cubes" not in race and "store" not in race
    tasks = [a for h in cubes["cubes"] for a in h["answers"] if a["worker"] not in ("parent", "")]
    assert tasks and all(a["worker"].startswith("local pid ") for a in tasks)
    assert len({a["worker"] for a in tasks}) <= 2


def test_a_level_the_race_settles_first_prints_as_before(tmp_path) -> None:
    path = str(LEVELS / "tri-20b4c-s103.json")
    data = solve(path, "--store", str(tmp_path / "p.db"))  # (proven within the race's first seconds)
    assert "cubes" not in data and data["store"] == {"path": str(tmp_path / "p.db"), "reused": 0}
    text = CliRunner().invoke(app, ["solve", path]).stdout
    assert "cubes on" not in text and "optimal:" in text


def test_store_without_dask_resumes_with_units_reused(tmp_path) -> None:
    path, store = str(LEVELS / "tri-32b5c-s106.json"), str(tmp_path / "p.db")
    first = solve(path, "--store", store, env=CUBES_AT_ONCE)
    assert first["store"] == {"path": store, "reused": 0}
    again = solve(path, "--store", store)  # (no race: the store holds this level's cubes)
    assert again["optimum"] == first["optimum"] == known_optima()["tri-32b5c-s106"]["optimum"]
    counts = again["cubes"][-1]["counts"]
    assert again["store"]["reused"] > 0 and set(counts) <= {"store", "bound"}, again["cubes"][-1]
    # (the units: the cubes' answers from the store, and the whole horizon's when CP-SAT beside them refuted it)
    assert again["store"]["reused"] == sum(a["source"] == "store" for h in again["cubes"] for a in h["answers"])


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGKILL], ids=["sigint", "sigkill"])
def test_stopped_mid_run_leaves_no_process_and_resumes(tmp_path, sig: int) -> None:
    name = "tri-32b5c-s106"
    level, store = str(LEVELS / f"{name}.json"), tmp_path / "proofs.db"
    proc = cubes_in_a_process(level, store, subprocess.DEVNULL)
    try:
        until_answered(proc, store, 2)  # (early: with the pivot test's A* at every node the proof takes seconds)
        family = psutil.Process(proc.pid).children(recursive=True)
        assert family, proc.poll()  # the pool's worker processes
        proc.send_signal(sig)
        stderr = ended(proc, 30)
    finally:
        if proc.poll() is None:
            proc.kill()
    _, alive = psutil.wait_procs(family, timeout=15)  # (after SIGKILL: the kernel ends them with their parent)
    assert not alive, "processes left behind"
    if proc.returncode == 0:  # (a quick machine finished before the signal)
        pytest.skip("the proof ended before the signal")
    if sig == signal.SIGINT:
        assert proc.returncode == 130
        assert "cube answers saved to" in stderr and "interrupted:" in stderr, stderr
    answered = cube_rows(store)
    assert answered >= 2
    data = solve(level, "--store", str(store))
    assert data["optimum"] == known_optima()[name]["optimum"]
    assert data["store"]["reused"] >= answered


@pytest.mark.slow
def test_a_time_limit_then_a_rerun_settles_the_level_from_the_store(tmp_path) -> None:
    """The issue's example, with the defaults (the race 3 s first with a store): a proof cut by its time
    limit, then the same command without one (a minute or two)."""
    name = "gen-tri-60b5c-proper-s700"
    path, store = str(HARD / f"{name}.json"), str(tmp_path / "p.db")
    res = CliRunner().invoke(app, ["solve", path, "--store", store, "--time-limit", "10", "--json"])
    assert res.exit_code == 3, res.output
    saved = cube_rows(tmp_path / "p.db")
    data = solve(path, "--store", store)
    assert data["optimum"] == 10 and data["store"]["reused"] >= saved > 0


@pytest.mark.parametrize(("args", "message"), [
    (["--engine", "search", "--store", "x.db"], "error: --store needs the cube proof"),
    (["--rules", "pivot", "--cube-depth", "2"], "error: --cube-depth needs the cube proof"),
    (["--dask-workers", "2"], "error: --dask-workers needs --dask"),
    (["--cube-depth", "3"], "error: cube depth must be one of 1, 2, got 3"),
])
def test_bad_options_are_one_line(args: list[str], message: str) -> None:
    res = CliRunner().invoke(app, ["solve", str(LEVELS / "tri-8b3c-s100.json"), *args])
    assert res.exit_code == 2, res.output
    assert res.stderr.startswith(message) and res.stderr.count("\n") == 1, res.stderr


def test_local_first_must_be_seconds() -> None:
    res = CliRunner().invoke(app, ["solve", str(LEVELS / "tri-8b3c-s100.json")], env={"KAMICP_LOCAL_FIRST": "x"})
    assert res.exit_code == 2 and "error: KAMICP_LOCAL_FIRST must be a number of seconds" in res.output


def test_a_pool_worker_killed_mid_proof_loses_nothing(tmp_path) -> None:
    """A worker process killed while cubes run: its tasks (and those in flight on the broken pool) are sent
    again to a fresh pool, and the proof completes with the same optimum, no process left."""
    name = "tri-32b5c-s106"
    store = tmp_path / "p.db"
    proc = cubes_in_a_process(str(LEVELS / f"{name}.json"), store, subprocess.PIPE, "--json")
    try:
        until_answered(proc, store, 3)
        family = psutil.Process(proc.pid).children(recursive=True)
        if family:
            family[0].kill()
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert json.loads(out)["optimum"] == known_optima()[name]["optimum"]
    _, alive = psutil.wait_procs(family, timeout=15)
    assert not alive


def test_the_progress_of_a_long_proof_goes_on_through_its_cubes(tmp_path) -> None:
    """The race's snapshots, then the cubes' (their horizon and how many are answered), one stream: the
    race's own last snapshot is not the proof's end, the bounds never loosen, the last line is the answer's;
    the cubes' loop starts above the horizons the race refuted (their rows are in the proof)."""
    stream = tmp_path / "progress.jsonl"
    data = solve(str(LEVELS / "tri-44b4c-s109.json"), "--progress-json", str(stream), "--workers", "2",
                 env={"KAMICP_LOCAL_FIRST": "0.1"})  # (the search refutes 7 in 0.01-0.2 s: the race must not finish)
    lines = [json.loads(line) for line in stream.read_text().splitlines()]
    phases = [line["phase"] for line in lines]
    assert data["pool"] == "local" and data["cubes"] and data["optimum"] == 8, data
    assert "slice" in phases and "cubes" in phases and phases.count("done") == 1 and phases[-1] == "done"
    assert phases.index("cubes") > max(i for i, p in enumerate(phases) if p in ("slice", "race"))
    lowers = [line["lower"] for line in lines]
    assert lowers == sorted(lowers) and lines[-1]["lower"] == lines[-1]["upper"] == 8
    assert any(line["cubes_total"] for line in lines if line["phase"] == "cubes")
    rows = {r["steps"]: (r["outcome"], r["engine"]) for r in data["proof"]}
    assert rows[7] == ("infeasible", "cubes") and rows[8][0] == "feasible"  # (top-down from the best plan)
    assert all(engine in ("search", "cpsat", "bound") for steps, (_, engine) in rows.items() if steps < 7)
