"""Issue 37, the CLI output, input-checking and docs items: each test fails before its fix."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from kamicp.cli import app
from tests.helpers import PUZZLES

runner = CliRunner()


def run(*args: object):
    return runner.invoke(app, [str(a) for a in args])


# --- hostile 11: outputs written at once, never through a symbolic link


def test_convert_force_replaces_a_link_not_its_target(tmp_path: Path) -> None:
    precious = tmp_path / "precious.json"
    precious.write_text("mine\n")
    link = tmp_path / "link.json"
    link.symlink_to(precious)
    res = run("convert", PUZZLES / "tri-dawn.json", "-o", link, "--force")
    assert res.exit_code == 0, res.output
    assert precious.read_text() == "mine\n"
    assert not link.is_symlink() and json.loads(link.read_text())["geometry"] == "triangle"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temporary left


def test_a_dangling_link_is_an_existing_file_and_its_target_is_not_created(tmp_path: Path) -> None:
    link = tmp_path / "out.json"
    link.symlink_to(tmp_path / "target.json")
    res = run("convert", PUZZLES / "tri-dawn.json", "-o", link)
    assert res.exit_code == 2 and "exists already" in res.output
    assert not (tmp_path / "target.json").exists()
    svg = tmp_path / "out.svg"
    svg.symlink_to(tmp_path / "target.svg")
    res = run("show", PUZZLES / "tri-dawn.json", "--svg", svg)
    assert res.exit_code == 2 and "exists already" in res.output
    assert not (tmp_path / "target.svg").exists()


def test_a_failed_write_leaves_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full disk (ENOSPC when the bytes reach the disk) leaves the old file whole, no partial one beside."""
    import errno

    out = tmp_path / "precious.json"
    out.write_text("mine\n")

    def full(fd: int) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(os, "fsync", full)
    res = run("convert", PUZZLES / "tri-dawn.json", "-o", out, "--force")
    monkeypatch.undo()
    assert res.exit_code == 2 and "No space left" in res.output, res.output
    assert out.read_text() == "mine\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["precious.json"]


def test_show_refuses_the_same_path_twice_before_writing(tmp_path: Path) -> None:
    x = tmp_path / "x.png"
    res = run("show", PUZZLES / "tri-dawn.json", "--svg", x, "--png", x)
    assert res.exit_code == 2 and "named twice" in res.output
    assert not x.exists()


# --- new-user 8: every output checked before the work


def test_steps_dir_under_a_file_is_refused_before_the_solve(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    res = run("solve", PUZZLES / "tri-dawn.json", "--steps-dir", blocker / "x")
    assert res.exit_code == 2, res.output
    assert "not a folder" in res.output and "optimal" not in res.output
