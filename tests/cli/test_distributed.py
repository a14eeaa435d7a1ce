"""Distributed proofs (kamicp.prover.distributed, `solve --dask`) end to end on a real Dask LocalCluster (worker
processes): the proven optimum equals the single-machine one, the store resumes after an interruption
without recomputing stored cubes, and the CLI's options and errors."""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import socket
import sqlite3
import subprocess
import sys
import time
import warnings

import psutil
import pytest
from typer.testing import CliRunner

from kamicp import load_level
from kamicp.board.regions import regions_of
from kamicp.board.rules import verify
from kamicp.cli import app
from kamicp.errors import FormatError, Interrupted
from kamicp.prover.config import options_without
from kamicp.prover.cubes import enumerate_cubes
from kamicp.prover.distributed import CubeOutcome, CubeSource, cube_settings, solve_distributed
from kamicp.prover.outcome import EngineName, Outcome, Status
from kamicp.runtime.cluster import connect, dashboard_link
from kamicp.runtime.store import Store
from tests.helpers import HARD, LEVELS, known_optima
from tests.helpers.processes import command

# a worse first solution and a weaker root bound: the cubes must find shorter solutions and refute a horizon
GREEDY_ONLY = options_without(["beam", "rollout", "pivot-bound"])


@pytest.fixture(scope="module")
def client():
    """One LocalCluster of 2 one-thread worker processes for the whole module (starting one costs seconds), its
    workers up and their first imports done, so that no test's time limit pays for them (under load, seconds)."""
    client, cluster = connect("local", 2)
    client.wait_for_workers(2)
    client.run(importlib.import_module, "kamicp.prover.cube_task")
    yield client
    client.close()
    cluster.close()


def test_a_local_cluster_serves_http_on_a_free_local_port_quietly() -> None:
    """Dask's default HTTP port (8787) taken, as by another cluster: the local cluster takes a free port of
    this machine without warning (Dask warns "Port 8787 is already in use" when it falls back)."""
    taken = socket.socket()
    with contextlib.suppress(OSError):  # (already taken by another process: the same situation)
        taken.bind(("127.0.0.1", 8787))
        taken.listen()
    with taken, warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        client, cluster = connect("local", 1)
        try:
            host, port = cluster.scheduler.http_server.address, cluster.scheduler.http_server.port
            link = dashboard_link(client)
        finally:
            client.close()
            cluster.close()
    assert [str(w.message) for w in caught if "in use" in str(w.message)] == []
    assert host == "127.0.0.1" and port != 8787
    assert link is None or f":{port}/" in link  # a dashboard only with bokeh installed


def check_proof(level, result, optimum: int) -> None:
    assert result.status == Status.OPTIMAL and result.optimum == optimum
    verify(level, result.moves, max_moves=optimum)
    rows = {h.steps: h for h in result.proof_by_horizon()}
    assert rows[optimum].outcome == Outcome.FEASIBLE
    assert all(rows[h].outcome in (Outcome.BOUND, Outcome.IMPLIED, Outcome.INFEASIBLE) for h in range(optimum)
               if h in rows)


@pytest.mark.parametrize("name", ["tri-32b5c-s106", "squ-26b5c-s303", "tri-20b4c-s103"])
def test_proof_equals_the_known_optimum(client, name: str) -> None:
    level = load_level(LEVELS / f"{name}.json")
    optimum = known_optima()[name]["optimum"]
    run = solve_distributed(level, client, depth=1)
    check_proof(level, run.result, optimum)
    last = run.horizons[-1]
    assert last.horizon == optimum - 1 and last.outcome == Outcome.INFEASIBLE
    assert len(last.answers) == last.cubes and all(a.outcome == CubeOutcome.REFUTED for a in last.answers)
    assert {a.worker for a in last.answers if a.by != EngineName.BOUND} <= set(client.nthreads())


@pytest.mark.parametrize(("name", "depth"), [("tri-24b4c-s104", 1), ("tri-10b3c-s111", 2), ("tri-18b4c-s113", 1)])
def test_cubes_find_shorter_solutions_top_down(client, name: str, depth: int) -> None:
    """From the greedy's solution, top-down: solved horizons (a cube's child solved), then one refuted."""
    level = load_level(LEVELS / f"{name}.json")
    optimum = known_optima()[name]["optimum"]
    run = solve_distributed(level, client, depth=depth, options=GREEDY_ONLY)
    check_proof(level, run.result, optimum)
    assert [h.outcome for h in run.horizons][-1] == Outcome.INFEASIBLE
    assert Outcome.FEASIBLE in [h.outcome for h in run.horizons]
    assert run.horizons[-1].depth == depth


def test_cubes_sent_a_window_at_a_time(client) -> None:
    """16 tasks in flight at most (8 per worker): the 148 cubes still all answered, the same proof."""
    level = load_level(LEVELS / "tri-32b5c-s106.json")
    run = solve_distributed(level, client, window=1)
    check_proof(level, run.result, 8)
    assert len(run.horizons[-1].answers) == run.horizons[-1].cubes == 148


def test_max_steps_below_the_optimum_is_no_solution(client) -> None:
    level = load_level(LEVELS / "tri-32b5c-s106.json")
    run = solve_distributed(level, client, max_steps=6)
    assert run.result.status == Status.NO_SOLUTION and run.result.lower_bound == 7


def test_time_limit_holds_for_the_whole_run(client) -> None:
    """Unknown with honest bounds: the lower bound stays the proven one, the best solution is kept."""
    level = load_level(LEVELS / "tri-48b5c-s110.json")  # optimum 9, lower bound 7 (6 without the pivot relation)
    start = time.monotonic()
    run = solve_distributed(level, client, time_limit=4.0)
    assert time.monotonic() - start < 4.0 + 3.0  # (the answers in flight are not waited for)
    res = run.result
    assert res.status == Status.UNKNOWN and res.lower_bound == res.bound.value == 7
    assert res.upper_bound is not None and res.upper_bound >= 9
    verify(level, res.moves)


def test_store_resumes_after_an_interruption(client, tmp_path) -> None:
    level = load_level(LEVELS / "tri-32b5c-s106.json")
    path = tmp_path / "proofs.db"
    seen: list[int] = []

    def stop_midway(_horizon: int, done: int, total: int) -> None:
        seen.append(done)
        if 20 <= done < total:
            raise KeyboardInterrupt

    with Store(path) as store, pytest.raises(Interrupted) as stopped:
        solve_distributed(level, client, store=store, progress=stop_midway)
    assert stopped.value.result.status == Status.UNKNOWN and stopped.value.result.upper_bound == 8
    with Store(path) as store:
        stored = {key for after in (False, True)
                  for key in store.cubes_with(store_hash(level), cube_settings(1, after), "refuted", 7)}
        assert 20 <= len(stored) < 148
        run = solve_distributed(level, client, store=store)
    check_proof(level, run.result, 8)
    answers = run.horizons[-1].answers
    from_store = {a.key for a in answers if a.source == CubeSource.STORE}
    assert from_store == stored  # every stored cube skipped, and only those
    assert not from_store & {a.key for a in answers if a.source == CubeSource.TASK}
    with Store(path) as store:  # a third run computes nothing
        again = solve_distributed(level, client, store=store)
    assert again.result.optimum == 8 and again.horizons[-1].counts() == {"store": 148}


@pytest.mark.parametrize("depth", [1, 2])
def test_the_order_across_the_cube_boundary_proves_the_same(client, depth: int) -> None:
    """With and without --no cube-order: the same optimum; with it, depth 2 enumerates fewer sequences (the
    same boards: a pair's swap reaches its board), and the children of cubes with a prior are answered as
    restricted ("after")."""
    level = load_level(LEVELS / "tri-20b4c-s103.json")
    optimum = known_optima()["tri-20b4c-s103"]["optimum"]
    # (without the pivot relation: with it the bound refutes more cubes here, and none left to search has a prior)
    ordered = solve_distributed(level, client, depth=depth, options=options_without(["pivot-bound"]))
    free = solve_distributed(level, client, depth=depth, options=options_without(["cube-order", "pivot-bound"]))
    check_proof(level, ordered.result, optimum)
    check_proof(level, free.result, optimum)
    last, last_free = ordered.horizons[-1], free.horizons[-1]
    assert not any(a.after for a in last_free.answers)
    assert any(a.after for a in last.answers if a.source == CubeSource.TASK)
    if depth == 2:
        assert last.cubes == last_free.cubes and last.sequences < last_free.sequences


def test_restricted_refutations_are_reused_only_with_their_prior(client, tmp_path) -> None:
    """A refutation found canonical after the cube's last move is not reused by a run without the order;
    unrestricted refutations (the run without it) are reused by a run with it."""
    # (a level whose last horizon has cubes the search refutes: where a child's bound refutes them all,
    # as the pivot relation does on tri-20b4c-s103, nothing is restricted)
    level = load_level(LEVELS / "squ-26b5c-s303.json")
    free_options = options_without(["cube-order"])
    with Store(tmp_path / "a.db") as store:
        solve_distributed(level, client, store=store)
        free = solve_distributed(level, client, store=store, options=free_options)
    counts = free.horizons[-1].counts()
    assert counts.get("search", 0) + counts.get("cpsat", 0) > 0  # recomputed: the stored ones were restricted
    with Store(tmp_path / "b.db") as store:
        solve_distributed(level, client, store=store, options=free_options)
        again = solve_distributed(level, client, store=store)
    assert again.horizons[-1].counts() == {"store": again.horizons[-1].cubes}


def test_rerun_starts_from_the_shortest_stored_solution(client, tmp_path) -> None:
    """Solutions found by cubes are stored too: the rerun starts from the shortest and takes the refuted
    horizon's cubes from the store, computing nothing."""
    level = load_level(LEVELS / "tri-18b4c-s113.json")  # optimum 6, the greedy's solution 10
    with Store(tmp_path / "p.db") as store:
        first = solve_distributed(level, client, store=store, options=GREEDY_ONLY)
        again = solve_distributed(level, client, store=store, options=GREEDY_ONLY)
    assert len(first.horizons) > 1 and first.result.optimum == again.result.optimum == 6
    assert [(h.horizon, h.counts()) for h in again.horizons] == [(5, {"store": again.horizons[0].cubes})]


def test_malformed_stored_cube_is_a_format_error(client, tmp_path) -> None:
    level = load_level(LEVELS / "tri-32b5c-s106.json")
    key = enumerate_cubes(regions_of(level), 1).cubes[0].key
    with Store(tmp_path / "p.db") as store:
        store.put_cubes(store_hash(level), '{"cube_depth": 1, "rules": "free"}', [(key, 7, "refuted", {"x": 1})])
        with pytest.raises(FormatError, match="p.db: a stored cube is malformed"):
            solve_distributed(level, client, store=store)


def store_hash(level) -> str:
    from kamicp.board.hashing import level_hash
    return level_hash(level.with_par(None))


@pytest.mark.parametrize("order", [True, False])
def test_cli_solve_on_a_running_cluster(client, tmp_path, order: bool) -> None:
    runner = CliRunner()
    path = str(LEVELS / "tri-32b5c-s106.json")
    store = str(tmp_path / "p.db")
    res = runner.invoke(app, ["solve", path, "--dask", client.scheduler.address, "--store", store,
                              "--json", *([] if order else ["--no", "cube-order"])])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["optimum"] == 8 and data["workers"] == 2
    assert data["cubes"][-1]["horizon"] == 7 and sum(data["cubes"][-1]["counts"].values()) == 148
    tasks = [a for a in data["cubes"][-1]["answers"] if a["worker"] != "parent"]
    assert tasks and all(a["after"] == order for a in tasks)  # the children searched canonical after the cube


def test_cli_dask_local_starts_no_cluster_for_a_level_the_single_machine_proves() -> None:
    """An easy level costs what it costs without --dask: the single-machine race answers first, and no
    LocalCluster is started (no workers)."""
    res = CliRunner().invoke(app, ["solve", str(LEVELS / "tri-32b5c-s106.json"), "--dask", "local", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["optimum"] == 8 and data["workers"] == 0 and data["cubes"] == []
    text = CliRunner().invoke(app, ["solve", str(LEVELS / "tri-32b5c-s106.json"), "--dask", "local"]).stdout
    assert "no cubes needed: proven on this machine" in " ".join(text.split())


@pytest.mark.parametrize("limit", [5.0, pytest.param(8.0, marks=pytest.mark.slow)])
def test_cli_dask_local_time_limit_counts_the_cluster(limit: float) -> None:
    """--time-limit holds for the whole run: the single-machine race, the LocalCluster's start and stop."""
    start = time.monotonic()
    hard = HARD / "gen-tri-60b5c-proper-s700.json"  # (no machine proves it within the race or the limit)
    res = CliRunner().invoke(app, ["solve", str(hard), "--dask", "local", "--time-limit", str(limit)])
    took = time.monotonic() - start
    assert res.exit_code == 3 and "unknown" in res.stdout, res.output
    assert took < limit + 1.5, took  # (on main: 10.1 s for 5)


def test_cli_dask_local_cubes_start_from_what_the_race_proved() -> None:
    """The race before a LocalCluster refutes horizon 8 of s700 (the search: 0.1 s); the cubes take its proof
    row (and its plan) and start above it, where they once started from the root bound again (8..10)."""
    hard = HARD / "gen-tri-60b5c-proper-s700.json"
    res = CliRunner().invoke(app, ["solve", str(hard), "--dask", "local", "--time-limit", "10", "--json"])
    data = json.loads(res.stdout)
    rows = {p["steps"]: (p["outcome"], p["engine"]) for p in data["proof"]}
    assert rows[8] == ("infeasible", "search") and data["lower_bound"] >= 9, rows
    assert all(h["horizon"] >= 9 for h in data["cubes"])


@pytest.mark.slow
def test_cli_rerun_prints_every_cube_from_the_store(tmp_path) -> None:
    runner = CliRunner()
    path, store = str(LEVELS / "tri-32b5c-s106.json"), str(tmp_path / "p.db")
    on, cluster = connect("local", 2)  # a running cluster: no single-machine race first
    try:
        address = on.scheduler.address
        assert runner.invoke(app, ["solve", path, "--dask", address, "--store", store]).exit_code == 0
        res = runner.invoke(app, ["solve", path, "--dask", address, "--store", store, "--verbose"])
    finally:
        on.close()
        cluster.close()
    assert res.exit_code == 0, res.output
    assert "optimal: 8 moves" in res.stdout and "every cube" in res.stdout
    assert res.stdout.count("│ store") == 148  # the verbose table: each cube answered from the store


@pytest.mark.parametrize(("args", "message"), [
    (["--dask", "local", "--cube-depth", "3"], "error: cube depth must be one of 1, 2, got 3"),
    (["--dask", "tcp://127.0.0.1:9", "--dask-workers", "2"], "error: --dask-workers is for --dask local"),
    (["--dask", "local", "--rules", "pivot"], "error: --dask solves Kami levels"),
    (["--dask", "local", "--workers", "4"], "error: --workers does not apply to --dask"),
    (["--dask", "nonsense"], "error: --dask nonsense: not a scheduler address"),
    (["--dask", "tls://127.0.0.1:9"], "error: --dask tls://127.0.0.1:9: kamicp connects to a scheduler over tcp://"),
    (["--dask", "ucx://127.0.0.1:9"], "error: --dask ucx://127.0.0.1:9: kamicp connects to a scheduler over tcp://"),
    (["--dask", "local", "--no", "beam"], "error: --no does not apply to --dask"),
])
def test_cli_bad_options_are_one_line(args: list[str], message: str) -> None:
    res = CliRunner().invoke(app, ["solve", str(LEVELS / "tri-8b3c-s100.json"), *args])
    assert res.exit_code == 2
    assert res.stderr.startswith(message) and res.stderr.count("\n") == 1


def test_cli_foreign_store_is_refused(tmp_path) -> None:
    foreign = tmp_path / "other.db"
    foreign.write_text("not a database, someone else's file\n")
    res = CliRunner().invoke(app, ["solve", str(LEVELS / "tri-8b3c-s100.json"), "--dask", "local",
                                   "--store", str(foreign)])
    assert res.exit_code == 2 and "not a kamicp results store" in res.stderr and res.stderr.count("\n") == 1
    assert foreign.read_text() == "not a database, someone else's file\n"


@pytest.mark.slow
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_signal_mid_run_leaves_no_process_and_the_rerun_resumes(tmp_path, signum: int, code: int) -> None:
    """The CLI interrupted while cubes run: exit 130/143 with one line, the LocalCluster's processes gone,
    and a rerun with the same store skips the cubes answered before the signal."""
    level = str(LEVELS / "tri-48b5c-s110.json")
    store = tmp_path / "proofs.db"
    with command([sys.executable, "-c", "from kamicp.cli import main; main()", "solve", level,
                  "--dask", "local", "--store", str(store)],
                 stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                 env={**os.environ, "KAMICP_DASK_LOCAL_FIRST": "0"}) as proc:  # cubes from the start
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and cube_rows(store) < 10:
            time.sleep(0.2)
        children = psutil.Process(proc.pid).children(recursive=True)
        assert children  # the LocalCluster's worker processes
        proc.send_signal(signum)
        _, stderr = proc.communicate(timeout=60)
        assert proc.returncode == code
        saved, stopped = stderr.splitlines()  # how many cube answers the rerun skips, then what was proven
        assert saved.endswith(f"cube answers saved to {store}: the same command resumes from them"), stderr
        assert stopped.startswith("interrupted: best so far")
        _, alive = psutil.wait_procs(children, timeout=15)
        assert not alive
    answered = cube_rows(store)
    assert int(saved.split()[0]) > 0
    res = CliRunner().invoke(app, ["solve", level, "--dask", "local", "--store", str(store), "--json"],
                             env={"KAMICP_DASK_LOCAL_FIRST": "0"})
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["optimum"] == known_optima()["tri-48b5c-s110"]["optimum"]
    assert data["cubes"][-1]["counts"].get("store", 0) >= answered


def cube_rows(path) -> int:
    if not path.exists():
        return 0
    try:
        with contextlib.closing(sqlite3.connect(path, timeout=1)) as db:
            return db.execute("SELECT COUNT(*) FROM cubes WHERE outcome = 'refuted'").fetchone()[0]
    except sqlite3.OperationalError:  # not created yet, or busy
        return 0


def test_cli_dask_local_first_must_be_seconds() -> None:
    res = CliRunner().invoke(app, ["solve", str(LEVELS / "tri-8b3c-s100.json"), "--dask", "local"],
                             env={"KAMICP_DASK_LOCAL_FIRST": "soon"})
    assert res.exit_code == 2 and "error: KAMICP_DASK_LOCAL_FIRST must be a number of seconds" in res.output
