"""How every benchmark records its results, in one shape: OUT.md (the command line that produced it, the
commit and the machine, then the tables) and OUT.json (`command`, `commit`, `machine` and the script's own
keys), the Markdown also printed. A benchmark builds its options with `options()` (argparse) or the `Out`
option (typer), names its command with `command_line()` and writes with `write()`.

Scripts import it as `benchmarks.report`, with the repository's root on sys.path (they insert `ROOT`).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shlex
import subprocess
import sys
from pathlib import Path
from typing import Annotated, Any

import typer

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
OUT_HELP = "output path without extension (OUT.md and OUT.json are written)"

Out = Annotated[Path, typer.Option("--out", help=OUT_HELP)]
"""The --out option of a typer benchmark (its default is the script's own)."""


def options(doc: str | None, *, out: str | Path | None = None, raw: bool = False) -> argparse.ArgumentParser:
    """An argparse parser described by the script's docstring (its first line; the whole of it when `raw`)
    with `--out` (default `out`; None: the results are only printed unless --out is given)."""
    text = doc or ""
    ap = (argparse.ArgumentParser(description=text, formatter_class=argparse.RawDescriptionHelpFormatter) if raw
          else argparse.ArgumentParser(description=text.splitlines()[0] if text else None))
    ap.add_argument("--out", default=None if out is None else str(out), help=OUT_HELP)
    return ap


def command_line(script: str, argv: list[str] | None = None) -> str:
    """`python benchmarks/SCRIPT ARGS`, the command that produced the results: `script` is the file's name
    (or `__file__`), `argv` the arguments main() was given (None: this process's own)."""
    args = sys.argv[1:] if argv is None else argv
    return shlex.join(["python", f"benchmarks/{Path(script).name}", *map(str, args)])


def commit() -> str:
    """The checkout's short commit, `+changes` when tracked files differ from it; `unknown` outside git."""
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30,
                              check=True).stdout.strip()

    try:
        head = git("rev-parse", "--short", "HEAD")
        return head + ("+changes" if git("status", "--porcelain", "--untracked-files=no") else "")
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def machine() -> str:
    """The facts a time depends on: architecture, cores (the machine is shared), Python, load average."""
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    return (f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}, "
            f"load average {load}")


def paths(out: str | Path) -> tuple[Path, Path]:
    """OUT.md and OUT.json (an OUT ending in .md or .json names the pair too)."""
    base = Path(out)
    if base.suffix in (".md", ".json"):
        base = base.with_suffix("")
    return Path(f"{base}.md"), Path(f"{base}.json")


def write(out: str | Path | None, command: str, text: str, data: dict[str, Any], *, echo: bool = True) -> None:
    """OUT.md (the command, the commit and the machine, then `text`) and OUT.json ({command, commit, machine,
    **data}); `echo` prints the Markdown. `out` None: only printed. Called again, it overwrites both (a
    long run writes what it has measured so far)."""
    facts = {"command": command, "commit": commit(), "machine": machine()}
    markdown = f"`{command}`\n\nCommit {facts['commit']}; {facts['machine']}.\n\n{text.rstrip()}\n"
    if out is not None:
        md, js = paths(out)
        md.parent.mkdir(parents=True, exist_ok=True)
        md.write_text(markdown)
        js.write_text(json.dumps(facts | data, indent=1) + "\n")
    if echo:
        print(markdown, end="", flush=True)
