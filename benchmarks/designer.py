"""Measure the designer tools: count times over a folder of levels, and the generator's rate (levels per
minute) and region counts by par and board. Writes a Markdown table and JSON.

    .venv/bin/python benchmarks/designer.py FOLDER [--time-limit 60] [--par 6 --par 8 --par 10]
                                           [--levels 3] [--compare] [--out benchmarks/results/designer]

Per level, the solve alone and the whole count run one after the other, so the count's cost over the
solve is a ratio measured in the same run. `--compare` also counts each level without the count's cheap
colour prunes (`colours_first=False`, the count as it was before them), in the same run: both times, their
ratio, and the counts checked equal.
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from kamicp import load_level, solve
from kamicp.designer.count import count_with
from kamicp.designer.generate import GenerateSpec, generate_level
from kamicp.errors import KamiError
from kamicp.runtime.clock import Deadline  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import RESULTS, Out, command_line, write  # noqa: E402

BOARDS = [("triangle", 29, 10), ("square", 10, 16)]  # the games' boards
app = typer.Typer(add_completion=False)
console = Console(stderr=True)


def count_rows(folder: Path, pattern: str, time_limit: float, compare: bool = False) -> list[dict]:
    rows = []
    for path in sorted(folder.glob(pattern)):
        level = load_level(path)
        t0 = time.monotonic()
        result = solve(level, time_limit=time_limit, engine="auto")
        solved = time.monotonic() - t0
        res = count_with(level, result, time_limit=time_limit)
        row = {"level": level.name, "regions": result.regions, "optimum": res.optimum,
               "solutions": res.solutions, "solutions_exact": res.solutions_complete, "classes": res.classes,
               "complete": res.complete, "solve_s": round(solved, 3), "count_s": round(res.seconds, 3)}
        if compare:
            before = count_with(level, result, time_limit=time_limit, colours_first=False)
            if before.complete and res.complete and (before.solutions, before.classes) != (res.solutions, res.classes):
                raise SystemExit(f"{level.name}: the counts differ with and without the prunes")
            row.update(before_s=round(before.seconds, 3), before_complete=before.complete,
                       before_solutions=before.solutions, before_exact=before.solutions_complete)
        rows.append(row)
        console.print(row)
    return rows


def generation_rows(pars: list[int], levels: int, seed: int, time_limit: float, colour_counts: list[int]
                    ) -> list[dict]:
    rows = []
    for (geometry, r, c), colours in ((b, k) for b in BOARDS for k in colour_counts):
        for par in pars:
            spec = GenerateSpec(geometry, colours, par, r, c, seed=seed)
            made, regions, attempts, failed = 0, [], [], 0
            t0 = time.monotonic()
            for i in range(levels):
                try:
                    g = generate_level(spec, i, deadline=Deadline.slice(time_limit))
                except (TimeoutError, KamiError) as e:  # a miss is a data point: counted, not hidden
                    console.print(f"{geometry} par {par} level {i}: {e}")
                    failed += 1
                    continue
                made += 1
                regions.append(g.regions)
                attempts.append(g.attempts)
            minutes = (time.monotonic() - t0) / 60
            row = {"board": f"{geometry} {r}x{c}, {colours} colours", "par": par, "made": made, "failed": failed,
                   "per_minute": round(made / minutes, 2) if minutes else None,
                   "boards_tried_median": statistics.median(attempts) if attempts else None,
                   "regions": sorted(regions)}
            rows.append(row)
            console.print(row)
    return rows


def compare_markdown(count: list[dict]) -> list[str]:
    """The count with and without the cheap colour prunes (in the same run), per level."""
    lines = ["| level | regions | optimum | solutions | classes | count s before | count s after | before / after |",
             "|---|---|---|---|---|---|---|---|"]
    for r in count:
        before = f"{r['before_s']:.2f}" + ("" if r["before_complete"] else " (time limit)")
        after = f"{r['count_s']:.2f}" + ("" if r["complete"] else " (time limit)")
        ratio = "-"  # (both cut by the time limit, or too fast to compare)
        if r["complete"] and min(r["count_s"], r["before_s"]) >= 0.005:
            ratio = f"{'' if r['before_complete'] else '> '}{r['before_s'] / r['count_s']:.1f}x"
        sol = f"{r['solutions']}" if r["solutions_exact"] else f"≥ {r['solutions']}"
        cls = f"{r['classes']}" if r["complete"] else f"≥ {r['classes']}"
        opt = "?" if r["optimum"] is None else r["optimum"]
        lines.append(f"| {r['level']} | {r['regions']} | {opt} | {sol} | {cls} | {before} | {after} | {ratio} |")
    done = [sum(r[k] for r in count) for k in ("before_complete", "complete")]
    lines.append(f"| **complete** | | | | | {done[0]}/{len(count)} | {done[1]}/{len(count)} | |")
    return [*lines, ""]


def markdown(count: list[dict], gen: list[dict]) -> str:
    lines: list[str] = []
    if count and "before_s" in count[0]:
        lines += compare_markdown(count)
    elif count:
        lines += ["| level | regions | optimum | solutions | classes | solve s | count s | count / solve |",
                  "|---|---|---|---|---|---|---|---|"]
        for r in count:
            sol = f"{r['solutions']}" if r["solutions_exact"] else f"≥ {r['solutions']}"
            cls = f"{r['classes']}" if r["complete"] else f"≥ {r['classes']}"
            ratio = f"{r['count_s'] / r['solve_s']:.1f}" if r["solve_s"] > 0 else "-"
            opt = "?" if r["optimum"] is None else r["optimum"]
            lines.append(f"| {r['level']} | {r['regions']} | {opt} | {sol} | {cls} | {r['solve_s']:.2f} | "
                         f"{r['count_s']:.2f} | {ratio} |")
        lines.append("")
    if gen:
        lines += ["| board | par | made | failed | levels / minute | boards tried (median) | regions |",
                  "|---|---|---|---|---|---|---|"]
        for r in gen:
            hist = ", ".join(f"{k}" + (f" x{n}" if n > 1 else "") for k, n in sorted(Counter(r["regions"]).items()))
            lines.append(f"| {r['board']} | {r['par']} | {r['made']} | {r['failed']} | {r['per_minute']} | "
                         f"{r['boards_tried_median']} | {hist} |")
    return "\n".join(lines) + "\n"


@app.command()
def main(
    folder: Annotated[Path | None, typer.Argument(help="Levels to count (skipped when absent).")] = None,
    pattern: Annotated[str, typer.Option("--glob", help="Which files in the folder.")] = "*.json",
    time_limit: Annotated[float, typer.Option("--time-limit", help="Seconds per solve, per count and per "
                                              "generated level.")] = 60.0,
    par: Annotated[list[int] | None, typer.Option("--par", help="Pars to generate (repeatable).")] = None,
    levels: Annotated[int, typer.Option("--levels", help="Levels per board and par.")] = 3,
    colours: Annotated[list[int] | None, typer.Option("--colours", help="Colours of generated boards "
                                                      "(repeatable; default 4).")] = None,
    seed: Annotated[int, typer.Option("--seed")] = 0,
    compare: Annotated[bool, typer.Option("--compare", help="Also count without the cheap colour prunes "
                                          "(before / after, same run).")] = False,
    out: Out = RESULTS / "designer",
) -> None:
    count = count_rows(folder, pattern, time_limit, compare) if folder else []
    gen = generation_rows(par or [], levels, seed, time_limit, colours or [4])
    write(out, command_line(__file__), markdown(count, gen), {"count": count, "generate": gen})


if __name__ == "__main__":
    app()
