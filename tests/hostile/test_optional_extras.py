"""Every optional extra missing is one line naming the extra, with the install command for a package and
for a checkout, exit 2. Each case runs in a fresh interpreter where importing the extra's package fails
(as when it is not installed), so no module imported earlier can stand in for it."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.helpers import LEVELS, PUZZLES

DAWN = PUZZLES / "tri-dawn.json"
WITHOUT = ("import sys\n"
           "for name in sys.argv[1].split(','): sys.modules[name] = None  # importing it fails\n"
           "sys.argv = ['kamicp', *sys.argv[2:]]\n"
           "from kamicp.cli import main\n"
           "main()\n")


def without(modules: str, *args: object) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", WITHOUT, modules, *map(str, args)], capture_output=True,
                          text=True, timeout=60)


def says_how_to_install(res: subprocess.CompletedProcess, what: str, extra: str) -> None:
    assert res.returncode == 2, res.stderr
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert lines == [f"error: {what} needs the optional extra '{extra}': pip install 'kamicp[{extra}]' (in a "
                     f"checkout of kamicp: pip install -e '.[{extra}]')"], res.stderr
    assert not res.stdout


@pytest.mark.parametrize("command", [["validate", DAWN], ["solve", LEVELS / "tri-48b5c-s110.json"]],
                         ids=["validate", "solve"])
def test_dask(command):
    says_how_to_install(without("dask,distributed", *command, "--dask", "local"), "--dask", "dask")


def test_play():
    says_how_to_install(without("starlette,uvicorn", "play", DAWN), "play", "play")


def test_a_long_proof_on_the_local_pool_needs_no_dask(tmp_path):
    """Plain solve's cubes (and --store) run on kamicp's own local pool: no Dask imported."""
    env_first = "import os; os.environ['KAMICP_LOCAL_FIRST'] = '0'\n"
    res = subprocess.run([sys.executable, "-c", env_first + WITHOUT, "dask,distributed", "solve",
                          str(LEVELS / "tri-20b4c-s103.json"), "--store", str(tmp_path / "p.db"), "--json"],
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stderr
    assert '"pool": "local"' in res.stdout and '"reused": 0' in res.stdout
