"""Every example of the README and of the reference under docs/ runs as shown from a fresh clone (issues
24, 25): the shell blocks of README.md and docs/*.md are extracted and run, each block in a fresh folder
holding copies of the checkout's `puzzles/` and `examples/` (the files the examples use, made by
examples/make_examples.py). The README stays a welcome (two screens), and every relative link of these
pages leads somewhere.

The convention (docs/commands.md, "Examples in these pages"):
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
PAGES = (README, *sorted((ROOT / "docs").glob("*.md")))
COMMAND = re.compile(r"^(?:[A-Z_][A-Z0-9_]*=\S+\s+)*kamicp\s")


@dataclass(frozen=True)
class Example:
    page: str  # README.md or docs/NAME.md
    line: int  # where the block starts in the page
    commands: tuple[tuple[str, str | None, bool], ...]  # (command, first output line shown, shows an error)
    slow: bool


def _runnable(command: str) -> bool:
    return not re.search(r"(^|\s)kamicp play\b", command) and "tcp://HOST" not in command


def _strip_comment(command: str) -> str:
    """The command without its trailing comment (` # ...`, as the README writes them)."""
    return re.sub(r"\s+#\s.*$", "", command).strip()


def examples(page: Path) -> list[Example]:
    lines = page.read_text(encoding="utf-8").splitlines()
    name = page.relative_to(ROOT).as_posix()
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
            found.append(Example(name, k + 1, tuple(commands), "readme-test: slow" in marker))
        k = end + 1
    return found


EXAMPLES = [example for page in PAGES for example in examples(page)]


def _words(text: str) -> str:
    return " ".join(text.split())


@pytest.mark.parametrize("example", [pytest.param(e, id=f"{e.page}:{e.line}",
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


def test_the_pages_have_examples_and_the_convention_finds_them() -> None:
    assert len(EXAMPLES) >= 8
    assert any(e.page == "README.md" for e in EXAMPLES)
    assert any("examples/level.xml" in c for e in EXAMPLES for c, _, _ in e.commands)
    assert {e.page for e in EXAMPLES} >= {"README.md", "docs/commands.md", "docs/formats.md", "docs/designers.md"}


QUICK_START = (
    "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/kamicp solve puzzles/blog-18.json",
    "python3 -m venv .venv && .venv/bin/pip install -e '.[test]' && .venv/bin/pytest",  # what .ci/run runs
)


def test_the_readme_is_a_welcome_of_two_screens_with_the_two_commands() -> None:
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= 120, f"README.md has {len(lines)} lines: the reference belongs under docs/"
    for command in QUICK_START:
        assert command in lines, command


def _anchors(page: Path) -> set[str]:
    """GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens."""
    headings = re.findall(r"^#+\s+(.*)$", page.read_text(encoding="utf-8"), flags=re.M)
    return {re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in headings}


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_somewhere(page: Path) -> None:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue  # https://...
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        assert linked.exists(), f"{page.name}: {target}: no such file"
        if anchor and linked.suffix == ".md" and linked.parent in (ROOT, ROOT / "docs"):
            assert anchor in _anchors(linked), f"{page.name}: {target}: no such heading"


def test_the_command_reference_names_every_command_and_option() -> None:
    import typer

    from kamicp.cli import app

    reference = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    group = typer.main.get_command(app)
    for name, command in group.commands.items():
        section = re.search(rf"^### {name}\n(.*?)(?=^### |\Z)", reference, flags=re.M | re.S)
        assert section, f"docs/commands.md has no section '### {name}'"
        for param in command.params:
            for option in param.opts + param.secondary_opts if param.param_type_name == "option" else ():
                assert f"`{option}" in section[1] or f" {option} " in section[1] or f"/ {option}" in section[1], \
                    f"docs/commands.md, {name}: {option} is not described"
