"""Dask under faults, with real clusters: a port that accepts connections but is not a scheduler (a silent
listener, the dashboard's HTTP port), addresses of transports kamicp does not speak, a worker killed
mid-proof (its cubes are sent again and the proof completes), the scheduler killed mid-run (one line,
exit 3, the store keeps what was proven), and more workers asked than levels. (A missing dask extra:
test_optional_extras.py.)"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kamicp.cli import app
from tests.helpers import HARD, LEVELS, PUZZLES, known_optima

pytest.importorskip("distributed")

runner = CliRunner()
DAWN = PUZZLES / "tri-dawn.json"
SLOW_LEVEL = LEVELS / "tri-48b5c-s110.json"  # past the single machine's first seconds; cubes for about 20 s


def one_line(res, code: int, needle: str) -> None:
    assert res.exit_code == code, res.output
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and lines[0].startswith("error: ") and needle in lines[0], res.stderr
    assert "Traceback" not in res.output


@contextlib.contextmanager
def silent_listener() -> Iterator[int]:
    """A port that accepts connections and never says a word."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(64)
    held: list[socket.socket] = []

    def accept() -> None:
        with contextlib.suppress(OSError):
            while True:
                held.append(server.accept()[0])

    threading.Thread(target=accept, daemon=True).start()
    try:
        yield server.getsockname()[1]
    finally:
        server.close()
        for conn in held:
            conn.close()


@pytest.mark.parametrize("command", [["validate", DAWN], ["solve", SLOW_LEVEL, "--time-limit", "2"]],
                         ids=["validate", "solve"])
def test_a_silent_port_fails_in_bounded_time(command):
    with silent_listener() as port:
        start = time.monotonic()
        res = runner.invoke(app, [*map(str, command), "--dask", f"tcp://127.0.0.1:{port}"])
        assert time.monotonic() - start < 10  # (at most 5 s, or the time limit when shorter)
    one_line(res, 2, "no Dask scheduler answered")


def test_the_dashboard_s_http_port_is_not_a_scheduler():
    from kamicp.runtime.cluster import connect

    client, cluster = connect("local", 1)
    try:
        http = cluster.scheduler.http_server.port  # HTTP, not Dask's protocol
        start = time.monotonic()
        res = runner.invoke(app, ["solve", str(SLOW_LEVEL), "--time-limit", "2", "--dask", f"tcp://127.0.0.1:{http}"])
        assert time.monotonic() - start < 10
    finally:
        client.close()
        cluster.close()
    one_line(res, 2, f"--dask tcp://127.0.0.1:{http}")


@pytest.mark.parametrize("scheme", ["tls", "ucx", "ws"])
def test_other_transports_are_one_line(scheme):
    for command in (["validate", DAWN], ["solve", DAWN]):
        one_line(runner.invoke(app, [*map(str, command), "--dask", f"{scheme}://127.0.0.1:8786"]), 2,
                 "kamicp connects to a scheduler over tcp://")


def test_no_more_local_workers_than_levels(monkeypatch, tmp_path):
    from kamicp.packs import dask_runner

    asked: list[int] = []
    real = dask_runner.connect
    monkeypatch.setattr(dask_runner, "connect", lambda address, jobs, *a: asked.append(jobs) or real(address, jobs, *a))
    res = runner.invoke(app, ["validate", str(DAWN), "--dask", "local", "--jobs", "8"])
    assert res.exit_code == 0 and asked == [1], (res.output, asked)
    store = tmp_path / "s.sqlite"
    assert runner.invoke(app, ["validate", str(DAWN), "--store", str(store)]).exit_code == 0
    res = runner.invoke(app, ["validate", str(DAWN), "--dask", "local", "--store", str(store), "--resume"])
    assert res.exit_code == 0 and asked == [1], asked  # nothing left to run: no cluster at all


def store_rows(path: Path, table: str) -> int:
    """Rows in a table of the store (0 while it is not there yet)."""
    try:
        with contextlib.closing(sqlite3.connect(path, timeout=1)) as db:
            return db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0]
    except sqlite3.Error:
        return 0


def cube_rows(path: Path) -> int:
    return store_rows(path, "cubes")


def wait_for(check, seconds: float = 120) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.1)


@pytest.mark.slow
def test_a_killed_worker_s_cubes_are_sent_again_and_the_proof_completes(tmp_path):
    """One worker process (its nanny restarts it): killed mid-proof, the level it held is lost with it, so
    every cube in flight is cancelled; they are sent again and the proof completes."""
    from kamicp.runtime.cluster import connect

    client, cluster = connect("local", 1)
    store = tmp_path / "p.db"
    try:
        [pid] = client.run(os.getpid).values()

        def kill_mid_proof() -> None:
            wait_for(lambda: cube_rows(store) >= 3)
            os.kill(pid, signal.SIGKILL)

        killer = threading.Thread(target=kill_mid_proof, daemon=True)
        killer.start()
        res = runner.invoke(app, ["solve", str(SLOW_LEVEL), "--dask", cluster.scheduler_address, "--store",
                                  str(store), "--json"])
        killer.join(1)
        assert not killer.is_alive()
        assert client.run(os.getpid) != {pid}  # (the kill happened: a new worker process)
    finally:
        client.close()
        cluster.close()
    assert res.exit_code == 0, res.output
    assert json.loads(res.stdout)["optimum"] == known_optima()["tri-48b5c-s110"]["optimum"]


@contextlib.contextmanager
def scheduler_and_workers() -> Iterator[tuple[str, subprocess.Popen]]:
    """A Dask scheduler and a worker process started as users start them (`dask scheduler`, `dask worker`)."""
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    scheduler = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_scheduler", "--host", "127.0.0.1",
                                  "--port", "0", "--dashboard-address", "127.0.0.1:0"], stderr=subprocess.PIPE,
                                 text=True, env=env)
    worker = None
    try:
        address = ""
        assert scheduler.stderr is not None
        for line in scheduler.stderr:
            if "Scheduler at:" in line:
                address = line.split("Scheduler at:")[1].strip()
                break
        assert address
        threading.Thread(target=scheduler.stderr.read, daemon=True).start()  # (its log: never a full pipe)
        worker = subprocess.Popen([sys.executable, "-m", "distributed.cli.dask_worker", address, "--nthreads", "1",
                                   "--nworkers", "2"], stderr=subprocess.DEVNULL, env=env)
        yield address, scheduler
    finally:
        for proc in (worker, scheduler):
            if proc is not None and proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(30)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def _kill_scheduler_during(scheduler, args: tuple[object, ...], ready, settle: float = 0.0
                           ) -> tuple[subprocess.Popen, str, str]:
    """Run `kamicp ARGS`, kill the scheduler once `ready()` (or the command ended) and `settle` seconds
    later, and return the process with its output; the process never outlives the call."""
    proc = subprocess.Popen([sys.executable, "-c", "from kamicp.cli import main; main()", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: ready() or proc.poll() is not None)
        time.sleep(settle)
        scheduler.kill()
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    return proc, out, err


@pytest.mark.slow
def test_a_killed_scheduler_is_one_line_and_the_store_keeps_the_cubes(tmp_path):
    store = tmp_path / "p.db"
    with scheduler_and_workers() as (address, scheduler):
        proc, out, err = _kill_scheduler_during(scheduler, ("solve", SLOW_LEVEL, "--dask", address, "--store", store),
                                                lambda: cube_rows(store) >= 3)
    assert proc.returncode == 3, err
    assert err.startswith(f"error: the Dask scheduler at {address} went away") and err.count("\n") == 1, err
    assert f"the cube answers proven so far are in {store}" in err
    assert cube_rows(store) >= 3


@pytest.mark.slow
def test_a_killed_scheduler_stops_validate_with_the_table_of_what_was_done(tmp_path):
    pack = tmp_path / "pack"
    pack.mkdir()
    for p in sorted(PUZZLES.glob("*.json")):
        shutil.copy(p, pack / p.name)
    hard = json.loads((HARD / "gen-tri-150b5c-mirror-proper-s708.json").read_text())
    (pack / "zz-hard.json").write_text(json.dumps({**hard, "name": "zz-hard", "par": 13}))  # open for an hour
    store = tmp_path / "v.db"
    easy = len(list(PUZZLES.glob("*.json")))
    with scheduler_and_workers() as (address, scheduler):
        proc, out, err = _kill_scheduler_during(
            scheduler, ("validate", pack, "--dask", address, "--store", store, "--time-limit", "60"),
            lambda: store_rows(store, "rows") >= easy, settle=1)
    assert proc.returncode == 3, err
    error = [line for line in err.splitlines() if line.startswith("error:")]
    assert error == [f"error: the Dask scheduler at {address} went away (killed, or the network to it lost): "
                     f"{easy} of {easy + 1} levels done; the answers are in {store}: the same command with "
                     "--resume continues"], err
    assert "Traceback" not in err and "tri-dawn" in out and "zz-hard" not in out



@pytest.mark.slow
def test_a_scheduler_lost_between_horizons_is_one_line_exit_3(tmp_path, monkeypatch):
    """The scheduler killed while the parent prepares (no cube in flight): the next call to the cluster
    (the workers' count before the cubes are sent) meets a closed client. One line, exit 3, as validate
    says it; it was `internal error: AttributeError: 'NoneType' object has no attribute 'ncores'`, exit 4."""
    from kamicp.prover import distributed

    real = distributed.prepare
    store = tmp_path / "p.db"
    with scheduler_and_workers() as (address, scheduler):

        def prepare_then_lose_the_scheduler(*args, **kwargs):
            scheduler.kill()
            scheduler.wait(30)
            time.sleep(3)  # (the client notices the lost connection)
            return real(*args, **kwargs)

        from distributed import Client

        with Client(address, timeout="30s") as waiting:
            waiting.wait_for_workers(2, timeout=60)
        monkeypatch.setattr(distributed, "prepare", prepare_then_lose_the_scheduler)
        res = runner.invoke(app, ["solve", str(SLOW_LEVEL), "--dask", address, "--store", str(store)])
    one_line(res, 3, f"the Dask scheduler at {address} went away")
    assert "internal error" not in res.output


# --- Ctrl-C with a LocalCluster: as a terminal sends it, to the whole process group ----------------------
GEN_60 = Path(__file__).parents[2] / "benchmarks" / "levels" / "gen-tri-60b5c-proper-s700.json"


def _session_processes(sid: int) -> list[str]:
    """The living processes of session `sid` (zombies have ended)."""
    out = subprocess.run(["ps", "-e", "-o", "pid=,sid=,stat=,args="], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if int(line.split()[1]) == sid and not line.split()[2].startswith("Z")]


def _ctrl_c(args: tuple[object, ...], ready, env: dict[str, str]) -> tuple[int, str, str]:
    """Run `kamicp ARGS` in its own session, send SIGINT to its whole process group (as a terminal's Ctrl-C
    does: Dask's worker processes too) once `ready(pid)`, and return its exit code and output; nothing of
    the session may be left a few seconds later."""
    proc = subprocess.Popen([sys.executable, "-c", "from kamicp.cli import main; main()", *map(str, args)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env={**os.environ, **env})
    try:
        wait_for(lambda: ready(proc.pid) or proc.poll() is not None)
        assert proc.poll() is None, proc.communicate()
        os.killpg(proc.pid, signal.SIGINT)
        out, err = proc.communicate(timeout=90)
        wait_for(lambda: not _session_processes(proc.pid), 15)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    return proc.returncode, out, err


def _has_children(pid: int) -> bool:
    return bool(subprocess.run(["ps", "-o", "pid=", "--ppid", str(pid)], capture_output=True, text=True).stdout.split())


def _dask_worker_started(pid: int) -> bool:
    """Has `pid` started a Dask worker process (spawned: the race's processes are forked)?"""
    out = subprocess.run(["ps", "-ww", "-o", "args=", "--ppid", str(pid)], capture_output=True, text=True).stdout
    return "spawn_main" in out  # (-ww: whole lines, whatever COLUMNS says)


def _quiet(err: str) -> None:
    for noise in ("Traceback", "KeyboardInterrupt", "Exception ignored", "AssertionError", "Nanny"):
        assert noise not in err, err


@pytest.mark.slow
@pytest.mark.parametrize("command", [("solve", GEN_60, "--dask", "local"),
                                     ("validate", GEN_60, "--par", "15", "--dask", "local")],
                         ids=["solve", "validate"])
def test_ctrl_c_while_the_local_cluster_starts_is_one_line_and_leaves_nothing(command):
    """SIGINT to the process group as soon as the LocalCluster's first worker process exists: it printed
    about 25 lines of "Exception ignored in atexit callback: close_clusters ... AssertionError" and the
    workers' KeyboardInterrupt tracebacks."""
    code, _, err = _ctrl_c(command, _has_children, {"KAMICP_DASK_LOCAL_FIRST": "0"})
    assert code == 130, err
    _quiet(err)
    if command[0] == "solve":
        assert err.splitlines() == ["interrupted: best so far no solution, bounds none"], err


@pytest.mark.slow
def test_ctrl_c_while_the_local_cluster_starts_reports_what_the_race_found():
    """After the single-machine race's first seconds, the LocalCluster starting: the interrupt line gives
    the race's best solution and bounds (it said "no solution, bounds none")."""
    import re

    code, _, err = _ctrl_c(("solve", GEN_60, "--dask", "local"), _dask_worker_started, {})
    assert code == 130, err
    _quiet(err)
    assert len(err.splitlines()) == 1, err
    assert re.fullmatch(r"interrupted: best so far (\d+) moves, bounds \d+\.\.\1\n", err), err


@pytest.mark.slow
def test_ctrl_c_mid_run_on_a_local_cluster_is_one_line_with_the_bounds(tmp_path):
    """SIGINT to the process group once cubes are answered: no worker traceback, the store's line, and the
    interrupt line with the best solution and the bounds known (it said "no solution, bounds none")."""
    import re

    store = tmp_path / "p.db"
    code, _, err = _ctrl_c(("solve", GEN_60, "--dask", "local", "--store", store), lambda _pid: cube_rows(store) >= 1,
                           {})
    assert code == 130, err
    _quiet(err)
    lines = err.splitlines()
    assert len(lines) == 2 and lines[0].endswith(f"cube answers saved to {store}: the same command resumes from them")
    assert re.fullmatch(r"interrupted: best so far (\d+) moves, bounds \d+\.\.\1", lines[1]), err
