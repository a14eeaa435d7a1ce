"""The CLI's start-up cost: `kamicp --help`, `info` and `solve` of an old commit and of this tree, interleaved.

    .venv/bin/python benchmarks/startup.py --old COMMIT [--runs 10] [--out benchmarks/results/startup]

The old commit is extracted with `git archive` into a temporary folder (this checkout's git metadata is
left alone) and given this tree's compiled core when the C++ sources did not change (otherwise it is
built there). Each command runs `--runs` times per tree in a fresh process (PYTHONPATH = the tree), the
trees alternating run by run so that the load of a shared machine hits both alike. Reported: the median
wall time and the median CPU time (user + system of the child) of each command, the ratio new / old,
and the third-party packages `import kamicp.cli` loads. Writes a Markdown table and JSON.
"""

from __future__ import annotations

import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from io import BytesIO
from pathlib import Path
from typing import Annotated

import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import RESULTS, Out, command_line, write  # noqa: E402

RUNNER = "import sys; from kamicp.cli import app; sys.argv[0] = 'kamicp'; app()"
HEAVY = ("ortools", "pandas", "numpy", "networkx", "PIL", "dask", "distributed", "starlette", "uvicorn",
         "playwright")
LOADED = f"import sys, kamicp.cli; print(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
COMMANDS = {"--help": ["--help"], "info blog-18": ["info", "puzzles/blog-18.json"],
            "solve blog-18": ["solve", "puzzles/blog-18.json"]}

app = typer.Typer(add_completion=False)


def git(*args: str) -> bytes:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True).stdout


def extract(commit: str, into: Path) -> Path:
    """The commit's files in `into`, with a compiled core (this tree's when the C++ sources are the same)."""
    with tarfile.open(fileobj=BytesIO(git("archive", commit))) as archive:
        archive.extractall(into, filter="data")
    same = subprocess.run(["git", "-C", str(ROOT), "diff", "--quiet", commit, "HEAD", "--", "kamicp/_core",
                           "setup.py"]).returncode == 0
    cores = list((ROOT / "kamicp").glob("_fastsearch*.so"))
    if same and cores:
        shutil.copy(cores[0], into / "kamicp")
    else:
        subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=into, check=True,
                       capture_output=True)
    return into


def env_of(tree: Path) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    env.pop("KAMICP_DEBUG", None)
    return env


def timed(tree: Path, args: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one `kamicp ARGS` of the tree, in a fresh process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-c", RUNNER, *args], cwd=tree, env=env_of(tree), capture_output=True,
                          timeout=120)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{tree}: kamicp {' '.join(args)} exited {proc.returncode}: {proc.stderr.decode()[-300:]}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def loaded(tree: Path) -> str:
    out = subprocess.run([sys.executable, "-c", LOADED], cwd=tree, env=env_of(tree), check=True,
                         capture_output=True, text=True).stdout.strip()
    return out or "none"


def measure(trees: dict[str, Path], runs: int) -> dict[str, dict[str, list[tuple[float, float]]]]:
    times: dict[str, dict[str, list[tuple[float, float]]]] = {c: {t: [] for t in trees} for c in COMMANDS}
    for i in range(runs):
        for name, args in COMMANDS.items():
            for tree_name, tree in (trees.items() if i % 2 == 0 else reversed(trees.items())):
                times[name][tree_name].append(timed(tree, args))
        print(f"run {i + 1}/{runs}", flush=True)
    return times


def table(times: dict[str, dict[str, list[tuple[float, float]]]]) -> tuple[list[str], dict]:
    lines = ["| command | old wall s | new wall s | wall new/old | old CPU s | new CPU s | CPU new/old |",
             "|---|---:|---:|---:|---:|---:|---:|"]
    medians: dict[str, dict[str, float]] = {}
    for name, per_tree in times.items():
        m = {f"{t} {k}": statistics.median(x[j] for x in per_tree[t])
             for t in ("old", "new") for j, k in enumerate(("wall", "cpu"))}
        medians[name] = m
        lines.append(f"| `kamicp {name}` | {m['old wall']:.2f} | {m['new wall']:.2f} | "
                     f"{m['new wall'] / m['old wall']:.2f} | {m['old cpu']:.2f} | {m['new cpu']:.2f} | "
                     f"{m['new cpu'] / m['old cpu']:.2f} |")
    return lines, medians


@app.command()
def main(
    old: Annotated[str, typer.Option("--old", help="The commit to compare with this tree.")],
    runs: Annotated[int, typer.Option("--runs", min=1)] = 10,
    out: Out = RESULTS / "startup",
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"old": extract(old, Path(tmp)), "new": ROOT}
        packages = {name: loaded(tree) for name, tree in trees.items()}
        times = measure(trees, runs)
    lines, medians = table(times)
    header = [f"Medians of {runs} runs per tree, old = {old} ({time.strftime('%Y-%m-%d %H:%M')}).", ""]
    footer = ["", *(f"Third-party packages `import kamicp.cli` loads ({name}): {pkgs}"
                    for name, pkgs in packages.items())]
    write(out, command_line(__file__), "\n".join(header + lines + footer),
          {"old": old, "packages": packages, "medians": medians, "runs": times})


if __name__ == "__main__":
    app()
