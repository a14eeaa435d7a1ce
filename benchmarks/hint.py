"""Time hints from random positions of every level in a folder; write a Markdown table and JSON.

    .venv/bin/python benchmarks/hint.py FOLDER [--moves 1 --moves 3] [--time-limit 10] [--seed 0]
                                        [--engine auto] [--out benchmarks/results/hint]

Per level: the start is solved once (the baseline), then for each --moves k a position is made by k
random legal moves (seeded, so every run plays the same positions) and a hint is asked from it. The hint
and the start solve run one after the other in the same run, so their times compare as ratios.
"""

from __future__ import annotations

import platform
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import Progress

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))  # the checkout's packages: kamicp, tests.helpers

from benchmarks.report import RESULTS, Out, command_line, paths, write  # noqa: E402
from kamicp import load_level, solve  # noqa: E402
from kamicp.board.level import Level  # noqa: E402
from kamicp.board.regions import regions_of  # noqa: E402
from kamicp.board.rules import replay  # noqa: E402
from kamicp.designer.hint import hint, position_level  # noqa: E402
from kamicp.prover.solver import OPTIMAL  # noqa: E402
from tests.helpers.boards import random_moves  # noqa: E402

app = typer.Typer(add_completion=False)


def one_level(level: Level, ks: list[int], seed: int, time_limit: float, engine: str) -> list[dict]:
    t0 = time.monotonic()
    start = solve(level, time_limit=time_limit, engine=engine)
    start_s = time.monotonic() - t0
    rows = []
    for k in ks:
        moves = random_moves(random.Random(f"{seed}:{level.name}:{k}"), level, k)
        board = replay(level, moves)[-1]
        t0 = time.monotonic()
        h = hint(level, moves, time_limit=time_limit, engine=engine)
        rows.append({
            "level": level.name, "regions": start.regions, "start_status": start.status,
            "start_optimum": start.optimum, "start_seconds": round(start_s, 3), "moves": len(moves),
            "position_regions": regions_of(position_level(level, board)).size, "status": h.status.value,
            "remaining": h.remaining, "lower": h.lower_bound, "upper": h.upper_bound,
            "seconds": round(time.monotonic() - t0, 3),
        })
    return rows


def markdown(rows: list[dict], meta: dict) -> str:
    lines = [f"{meta['date']}, time limit "
             f"{meta['time_limit']} s per solve and hint, engine {meta['engine']}.", "",
             "| level | regions | start | start s | random moves | regions then | hint | hint s |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        start = f"optimal {r['start_optimum']}" if r["start_status"] == OPTIMAL else r["start_status"]
        answer = f"{r['remaining']} left" if r["status"] != "unknown" else f"unknown {r['lower']}..{r['upper']}"
        lines.append(f"| {r['level']} | {r['regions']} | {start} | {r['start_seconds']:.2f} | {r['moves']} | "
                     f"{r['position_regions']} | {answer} | {r['seconds']:.2f} |")
    secs = [r["seconds"] for r in rows]
    proven = [r for r in rows if r["status"] != "unknown"]
    both = [r for r in proven if r["start_status"] == OPTIMAL]
    ratio = sum(r["seconds"] for r in both) / max(sum(r["start_seconds"] for r in both), 1e-9)
    lines += ["", f"Hints proven: {len(proven)} / {len(rows)}; median {statistics.median(secs):.2f} s; "
              f"within 2 s: {sum(s <= 2 for s in secs)} / {len(rows)}; slowest {max(secs):.2f} s. "
              f"Hint time / start solve time on the {len(both)} positions of levels both prove: {ratio:.2f}."]
    return "\n".join(lines) + "\n"


@app.command()
def main(
    folder: Annotated[Path, typer.Argument(help="Folder of level files.")],
    moves: Annotated[list[int] | None, typer.Option("--moves", help="Random moves before each hint.")] = None,
    time_limit: Annotated[float, typer.Option("--time-limit", help="Seconds per solve and hint.")] = 10.0,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the random positions.")] = 0,
    engine: Annotated[str, typer.Option("--engine", help="auto, cpsat or search.")] = "auto",
    out: Out = RESULTS / "hint",
    pattern: Annotated[str, typer.Option("--glob", help="Which files in the folder.")] = "*.json",
) -> None:
    ks = moves or [1, 3]
    files = sorted(folder.glob(pattern))
    if not files:
        raise typer.BadParameter(f"no levels matching {pattern} in {folder}")
    console = Console(stderr=True)
    rows: list[dict] = []
    with Progress(console=console) as progress:
        task = progress.add_task("levels", total=len(files))
        for path in files:
            level = load_level(path)
            progress.update(task, description=level.name)
            rows += one_level(level, ks, seed, time_limit, engine)
            progress.advance(task)
    meta = {"command": command_line(__file__), "time_limit": time_limit, "engine": engine,
            "python": platform.python_version(), "date": time.strftime("%Y-%m-%d")}
    write(out, meta["command"], markdown(rows, meta), {"meta": meta, "rows": rows}, echo=False)
    console.print(f"wrote {' and '.join(map(str, paths(out)))}")


if __name__ == "__main__":
    app()
