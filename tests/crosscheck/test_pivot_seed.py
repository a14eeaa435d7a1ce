"""--seed under the Flood-It rules: CP-SAT's random seed is the pivot engines' only random choice, so it
reaches the pivot model (solve_pivot, validate_pivot, pack rows and the CLI); one worker repeats a run
exactly, and different seeds may find different optimal solutions, never a different optimum (checked
against the exhaustive oracle, not by expecting CP-SAT to pick differently)."""

from __future__ import annotations

import random

import pytest
from ortools.sat.python import cp_model

import kamicp.floodit.model as pivot_model
from kamicp.board.level import Level
from kamicp.board.rules import verify
from kamicp.floodit import Pivot, solve_pivot, validate_pivot
from kamicp.packs.rows import Loaded, PackSettings
from kamicp.packs.worker import solve_level
from tests.helpers.oracle import bfs_pivot_optimum


def board(seed: int) -> Level:
    rng = random.Random(seed)
    rows = ["".join(rng.choice("ABCD") for _ in range(6)) for _ in range(6)]
    return Level.from_rows(rows, "square", name=f"seed-{seed}", par=8)


@pytest.fixture
def seeds(monkeypatch) -> list[int]:
    """The random seed of every CP-SAT solve of the pivot model while the test runs."""
    seen: list[int] = []

    class Spy(cp_model.CpSolver):
        def solve(self, model, *args, **kwargs):
            seen.append(self.parameters.random_seed)
            return super().solve(model, *args, **kwargs)

    monkeypatch.setattr(pivot_model.cp_model, "CpSolver", Spy)
    return seen


def test_the_seed_reaches_cp_sat(seeds):
    solve_pivot(board(19), engine="cpsat", workers=1, seed=1234)
    validate_pivot(board(19), engine="cpsat", workers=1, seed=99)
    solve_level(Loaded("seed-19.json", board(19)), "k", PackSettings(rules="pivot", engine="cpsat", seed=4242),
                Pivot())
    assert seeds and set(seeds) == {1234, 99, 4242}


@pytest.mark.parametrize("n", range(16, 24))
def test_each_seed_reaches_its_run_finds_the_optimum_and_repeats(seeds, n):
    """What --seed promises, without relying on which optimal solution CP-SAT picks for a seed: the run's
    CP-SAT solves get that seed and only it, the optimum is the exhaustive oracle's whatever the seed,
    and one worker repeats a run exactly."""
    level = board(n)
    optimum, _ = bfs_pivot_optimum(level, pivot=0)
    for seed in range(4):
        asked = len(seeds)
        res = solve_pivot(level, engine="cpsat", workers=1, seed=seed)
        assert set(seeds[asked:]) == {seed}  # CP-SAT ran (the bound and greedy alone do not prove these)
        assert res.status == "optimal" and len(res.moves) == optimum
        verify(level, res.moves, pivot=res.moves[0].cell)
        assert solve_pivot(level, engine="cpsat", workers=1, seed=seed).moves == res.moves


def test_the_cli_seed_reaches_cp_sat_in_solve_and_prove(seeds, tmp_path):
    from typer.testing import CliRunner

    from kamicp.cli import app
    from kamicp.formats import write_json

    path = tmp_path / "seed-19.json"
    write_json(board(19), path)
    runner = CliRunner()
    for command, seed in (["solve"], 77), (["prove", "--under", "9"], 88):
        res = runner.invoke(app, [*command, str(path), "--rules", "pivot", "--engine", "cpsat", "--workers", "1",
                                  "--seed", str(seed)])
        assert res.exit_code in (0, 1), res.output
    assert seeds and set(seeds) == {77, 88}
