"""Run solvers over a folder of levels and write a Markdown table and JSON.

    .venv/bin/python benchmarks/run.py [FOLDER] [--engine cpsat --engine search] [--time-limit 20]
                                       [--out benchmarks/results/bench]

Engines run one after the other on each level in the same run, so their times compare as ratios
even on a shared, noisy machine.
"""

from __future__ import annotations

import platform
import statistics
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress

from kamicp import load_level, solve
from kamicp.prover.solver import OPTIMAL, Result

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import RESULTS, Out, command_line, paths, write  # noqa: E402

DEFAULT_FOLDER = ROOT / "tests" / "data" / "levels"  # the tests' levels, optima in tests/data/KNOWN.json

app = typer.Typer(add_completion=False)


def horizons(result: Result) -> str:
    parts = []
    for h in result.proof:
        if h.outcome == "bound":
            parts.append(f"≤{h.steps}:bound")
        else:
            parts.append(f"{h.steps}:{h.outcome[:3]} {h.seconds:.2f}s")
    return ", ".join(parts)


def outcome(result: Result) -> str:
    if result.status == OPTIMAL:
        return f"optimal {len(result.moves)}"
    if result.status == "unknown":
        upper = "?" if result.upper_bound is None else result.upper_bound
        return f"unknown {result.lower_bound}..{upper}"
    return f"none ≤ {result.max_steps}"


@app.command()
def main(
    folder: Annotated[Path, typer.Argument(help="Folder of level files.")] = DEFAULT_FOLDER,
    engine: Annotated[list[str] | None, typer.Option("--engine", help="Engines to compare.")] = None,
    time_limit: Annotated[float, typer.Option("--time-limit", help="Seconds per level and engine.")] = 20.0,
    out: Out = RESULTS / "bench",
    pattern: Annotated[str, typer.Option("--glob", help="Which files in the folder.")] = "*.json",
) -> None:
    engines = engine or ["cpsat", "search"]
    files = sorted(folder.glob(pattern))
    if not files:
        raise typer.BadParameter(f"no levels matching {pattern} in {folder}")
    rows = []
    console = Console(stderr=True)
    with Progress(console=console) as progress:
        task = progress.add_task("levels", total=len(files) * len(engines))
        for path in files:
            level = load_level(path)
            for eng in engines:
                progress.update(task, description=f"{level.name} [{eng}]")
                t0 = time.monotonic()
                result = solve(level, engine=eng, time_limit=time_limit)
                wall = time.monotonic() - t0
                rows.append({
                    "level": level.name, "engine": eng, "regions": result.regions, "colors": result.colours,
                    "lower_bound": result.bound.value, "status": result.status,
                    "optimum": result.optimum, "proven_lower": result.lower_bound,
                    "upper": result.upper_bound, "seconds": round(wall, 3), "result": outcome(result),
                    "horizons": [{"steps": h.steps, "outcome": h.outcome, "seconds": round(h.seconds, 3)}
                                 for h in result.proof],
                    "horizons_text": horizons(result),
                })
                progress.advance(task)
    meta = {
        "command": command_line(__file__), "time_limit": time_limit, "engines": engines,
        "python": platform.python_version(), "machine": platform.machine(), "date": time.strftime("%Y-%m-%d"),
    }
    write(out, meta["command"], markdown(rows, engines, meta), {"meta": meta, "rows": rows}, echo=False)
    console.print(f"wrote {' and '.join(map(str, paths(out)))}")


def markdown(rows: list[dict], engines: list[str], meta: dict) -> str:
    lines = [f"{meta['date']}, time limit {meta['time_limit']} s per level and engine.", ""]
    lines += ["| level | regions | colours | lower bound | engine | result | seconds | horizons |",
              "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['level']} | {r['regions']} | {r['colors']} | {r['lower_bound']} | {r['engine']} | "
                     f"{r['result']} | {r['seconds']:.2f} | {r['horizons_text']} |")
    lines.append("")
    lines.append("| engine | proven optimal | total seconds on levels every engine proves | median seconds |")
    lines.append("|---|---|---|---|")
    by = {e: {r["level"]: r for r in rows if r["engine"] == e} for e in engines}
    common = [lv for lv in by[engines[0]] if all(by[e][lv]["status"] == OPTIMAL for e in engines)]
    totals = {e: sum(by[e][lv]["seconds"] for lv in common) for e in engines}
    for e in engines:
        proven = sum(1 for r in by[e].values() if r["status"] == OPTIMAL)
        median = statistics.median(r["seconds"] for r in by[e].values())
        lines.append(f"| {e} | {proven} / {len(by[e])} | {totals[e]:.2f} | {median:.2f} |")
    if len(engines) > 1 and totals[engines[0]] > 0:
        base = engines[0]
        ratios = ", ".join(f"{e}/{base} = {totals[e] / totals[base]:.2f}" for e in engines[1:])
        lines.append("")
        lines.append(f"Time ratio on the {len(common)} levels every engine proves: {ratios}.")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    app()
