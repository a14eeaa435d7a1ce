"""Every optional extra missing (as if not installed: importing it fails) is one line naming the extra,
with the install command for a package and for a checkout, exit 2."""

from __future__ import annotations

import sys

import pytest
from typer.testing import CliRunner

from kamicp.cli import app
from tests.helpers import LEVELS, PUZZLES

runner = CliRunner()
DAWN = PUZZLES / "tri-dawn.json"


def says_how_to_install(res, what: str, extra: str) -> None:
    assert res.exit_code == 2, res.output
    lines = [line for line in res.stderr.splitlines() if line.strip()]
    assert lines == [f"error: {what} needs the optional extra '{extra}': pip install 'kamicp[{extra}]' (in a "
                     f"checkout of kamicp: pip install -e '.[{extra}]')"], res.stderr


@pytest.mark.parametrize("command", [["validate", DAWN], ["solve", LEVELS / "tri-48b5c-s110.json"]],
                         ids=["validate", "solve"])
def test_dask(monkeypatch, command):
    monkeypatch.setitem(sys.modules, "distributed", None)
    says_how_to_install(runner.invoke(app, [*map(str, command), "--dask", "local"]), "--dask", "dask")


def test_play(monkeypatch):
    monkeypatch.setitem(sys.modules, "starlette", None)
    monkeypatch.delitem(sys.modules, "kamicp.play.server", raising=False)
    says_how_to_install(runner.invoke(app, ["play", str(DAWN)]), "play", "play")
