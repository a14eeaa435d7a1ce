"""Every example of the README runs as shown from a fresh clone (issue 24): its shell blocks are
extracted and run, each block in a fresh folder holding copies of the checkout's `puzzles/` and
`examples/` (the files the examples use, made by examples/make_examples.py).

The convention (README.md, "Examples in this README"):
- in a fenced block marked `sh`, every line that starts with `kamicp` (after optional `VAR=value`
  settings) runs, in order; other lines (`dask ...`, `pip ...`) are not run;
- in a plain fenced block, every line `$ kamicp ...` runs, and its output's first line (the lines up to
  the next `$`) must be what the command prints first; an example whose output shows `error:` must
  exit 2, any other 0 or 1 (1 is a negative answer, e.g. a wrong par);
- a block right after `<!-- readme-test: skip (why) -->` is not run (it needs a cluster, a browser, ...),
  and one after `<!-- readme-test: slow -->` runs only in the slow profile (`-m slow`).
Lines starting `kamicp play` (a server that runs until Ctrl-C) and lines naming a placeholder host
(`tcp://HOST`) are never run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.helpers import ROOT

README = ROOT / "README.md"
COMMAND = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=\S+\s+)*kamicp\s")


@dataclass(frozen=True)
class Example:
    line: int  # where the block starts in README.md
    commands: tuple[tuple[str, str | None, bool], ...]  # (command, first output line shown, shows an error)
    slow: bool


def _runnable(command: str) -> bool:
    return not re.search(r"(^|\s)kamicp play\b", command) and "tcp://HOST" not in command


def _strip_comment(command: str) -> str:
    """The command without its trailing comment (` # ...`, as the README writes them)."""
    return re.sub(r"\s+#\s.*$", "", command).strip()


def examples() -> list[Example]:
    lines = README.read_text(encoding="utf-8").splitlines()
    found: list[Example] = []
    k = 0
    while k < len(lines):
        fence = re.match(r"^```(\w*)\s*$", lines[k])
        if not fence:
            k += 1
            continue
        marker = lines[k - 1].strip() if k else ""
        end = next(j for j in range(k + 1, len(lines)) if lines[j].startswith("```"))
        body, kind = lines[k + 1:end], fence[1]
        commands: list[tuple[str, str | None, bool]] = []
        if kind == "sh":
            commands = [(_strip_comment(b), None, False) for b in body if COMMAND.match(b)]
        elif kind == "":
            for j, b in enumerate(body):
                if b.startswith("$ ") and COMMAND.match(b[2:]):
                    shown = []
                    for after in body[j + 1:]:
                        if after.startswith("$ "):
                            break
                        shown.append(after)
                    first = next((s for s in shown if s.strip()), None)
                    commands.append((_strip_comment(b[2:]), first, any("error:" in s for s in shown)))
        commands = [c for c in commands if _runnable(c[0])]
        if commands and "readme-test: skip" not in marker:
            found.append(Example(k + 1, tuple(commands), "readme-test: slow" in marker))
        k = end + 1
    return found


EXAMPLES = examples()


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("example", [pytest.param(e, id=f"README.md:{e.line}",
                                                  marks=[pytest.mark.slow] if e.slow else [])
                                     for e in EXAMPLES])
def test_readme_example_runs_as_shown(example: Example, tmp_path: Path) -> None:
    for folder in ("puzzles", "examples"):
        shutil.copytree(ROOT / folder, tmp_path / folder)
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
           "COLUMNS": "200", "KAMICP_DEBUG": ""}
    for command, first, error in example.commands:
        proc = subprocess.run(["bash", "-c", command], cwd=tmp_path, env=env, capture_output=True, text=True,
                              timeout=300)
        said = f"{command!r} exited {proc.returncode}\n{proc.stdout}\n{proc.stderr}"
        assert proc.returncode == (2 if error else proc.returncode if proc.returncode in (0, 1) else -1), said
        assert "No such file" not in proc.stderr and "internal error" not in proc.stderr, said
        if first is not None:
            printed = next((line for line in (proc.stdout + proc.stderr).splitlines() if line.strip()), "")
            assert _words(printed) == _words(first), said


def test_the_readme_has_examples_and_the_convention_finds_them() -> None:
    assert len(EXAMPLES) >= 8
    assert any("examples/level.xml" in c for e in EXAMPLES for c, _, _ in e.commands)
