"""The solving commands: solve, prove, validate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table
from rich.text import Text

from kamicp.cli.common import (
    EXIT_BAD_INPUT,
    EXIT_NEGATIVE,
    EXIT_OK,
    EXIT_UNKNOWN,
    Engine,
    EngineOpt,
    ForceOpt,
    FormatOpt,
    GeometryOpt,
    JsonOpt,
    LevelArg,
    MaxSteps,
    NoOpt,
    Seed,
    StepsDirOpt,
    TimeLimit,
    Workers,
    app,
    bad_input,
    err,
    interruptible,
    load,
    out,
    spinner,
)
from kamicp.cli.report import exit_for, print_result
from kamicp.errors import KamiError
from kamicp.formats import load_level
from kamicp.render.files import check_steps_dir, write_steps
from kamicp.solver import NO_SOLUTION, OPTIMAL, options_without, prove_under, solve, validate


@app.command("solve")
def solve_cmd(
    level_path: LevelArg,
    max_steps: MaxSteps = None,
    time_limit: TimeLimit = None,
    workers: Workers = None,
    engine: EngineOpt = Engine.auto,
    seed: Seed = 0,
    as_json: JsonOpt = False,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
    steps_dir: StepsDirOpt = None,
    force: ForceOpt = False,
    no: NoOpt = None,
) -> None:
    """Print a shortest solution (taps and colours) with the proof that nothing shorter exists."""
    level = load(level_path, fmt, geometry)
    if steps_dir is not None:
        with bad_input():
            check_steps_dir(steps_dir, force=force)
    with interruptible(), bad_input(), spinner(not as_json) as progress:
        result = solve(level, max_steps=max_steps, time_limit=time_limit, workers=workers,
                       engine=engine.value, seed=seed, progress=progress, options=options_without(no or []))
    if as_json:
        out.print_json(json.dumps(result.to_dict(level)))
    else:
        # A solution over --max-steps is only shown as a count, not as the answer.
        print_result(level, result, show_moves=result.status != NO_SOLUTION)
    if steps_dir is not None and result.status != NO_SOLUTION and (result.moves or result.status == OPTIMAL):
        with bad_input():
            written = write_steps(steps_dir, level, result.moves, force=force)
        (err if as_json else out).print(f"wrote {len(written)} pictures to {steps_dir}", markup=False)
    raise typer.Exit(exit_for(result))


@app.command("prove")
def prove_cmd(
    level_path: LevelArg,
    under: Annotated[int, typer.Option("--under", min=1, help="Prove no solution has fewer than N moves.")],
    time_limit: TimeLimit = None,
    workers: Workers = None,
    engine: EngineOpt = Engine.auto,
    seed: Seed = 0,
    as_json: JsonOpt = False,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
) -> None:
    """Prove that LEVEL has no solution with fewer than N moves, or show one that has."""
    level = load(level_path, fmt, geometry)
    with interruptible(), bad_input(), spinner(not as_json) as progress:
        result = prove_under(level, under, time_limit=time_limit, workers=workers, engine=engine.value,
                             seed=seed, progress=progress)
    if as_json:
        data = result.to_dict(level)
        data["under"] = under
        data["proven"] = result.status == NO_SOLUTION
        out.print_json(json.dumps(data))
    elif result.status == NO_SOLUTION:
        print_result(level, result, show_moves=False)
        out.print(f"[bold green]proven: no solution with fewer than {under} moves[/]")
    elif result.status == OPTIMAL:
        print_result(level, result)
        out.print(f"[bold red]not proven: this solution has {len(result.moves)} moves, fewer than {under}[/]")
    else:
        print_result(level, result, show_moves=False)
    code = {NO_SOLUTION: EXIT_OK, OPTIMAL: EXIT_NEGATIVE}.get(result.status, EXIT_UNKNOWN)
    raise typer.Exit(code)


VERDICT_TEXT = {
    "correct": "correct (achievable, minimal)",
    "not-minimal": "not minimal: shorter exists",
    "unachievable": "not achievable",
    "unknown": "unknown (time limit)",
}


@app.command("validate")
def validate_cmd(
    level_paths: Annotated[list[Path], typer.Argument(help="One or more level files.", show_default=False)],
    par: Annotated[int | None, typer.Option("--par", min=0, help="Par to check (default: the file's).")] = None,
    slack: Annotated[int, typer.Option("--slack", min=0, help="Search up to par + K moves to say how far off.")] = 2,
    time_limit: Annotated[float | None, typer.Option("--time-limit", min=0.001, help="Seconds per level.")] = None,
    workers: Workers = None,
    engine: EngineOpt = Engine.auto,
    seed: Seed = 0,
    as_json: JsonOpt = False,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
) -> None:
    """Check each level's par: achievable, minimal, or how far off (a table for several files)."""
    levels = []
    problems = []
    for path in level_paths:
        try:
            level = load_level(path, fmt, geometry.value if geometry else None)
        except KamiError as e:
            problems.append(str(e))
            continue
        if par is None and level.par is None:
            problems.append(f"{path}: no par in the file (give --par)")
        levels.append(level)
    if problems:
        for p in problems:
            err.print(f"error: {p}", markup=False, soft_wrap=True)
        raise typer.Exit(EXIT_BAD_INPUT)
    checks = []
    with interruptible(), bad_input(), spinner(not as_json) as progress:
        for level in levels:
            if progress:
                progress(f"{level.name}: solving")
            checks.append(validate(level, par, slack=slack, time_limit=time_limit, workers=workers,
                                   engine=engine.value, seed=seed))
    if as_json:
        out.print_json(json.dumps([
            {"level": c.level, "par": c.par, "verdict": c.verdict, "optimum": c.optimum,
             "result": c.result.to_dict(level)} for c, level in zip(checks, levels, strict=True)]))
    else:
        table = Table(show_edge=False)
        for col in ("level", "par", "optimum", "bounds", "verdict", "seconds"):
            table.add_column(col, justify="right" if col in ("par", "optimum", "seconds") else "left")
        for c in checks:
            r = c.result
            opt = str(c.optimum) if c.optimum is not None else "?"
            if r.status == NO_SOLUTION:
                opt = f"> {r.max_steps}"
            upper = "" if r.upper_bound is None else str(r.upper_bound)
            style = {"correct": "green", "unknown": "yellow"}.get(c.verdict, "red")
            verdict = Text(VERDICT_TEXT[c.verdict], style=style)
            table.add_row(c.level, str(c.par), opt, f"{r.lower_bound}..{upper}", verdict, f"{r.seconds:.2f}")
        out.print(table)
    if any(c.verdict == "unknown" for c in checks):
        raise typer.Exit(EXIT_UNKNOWN)
    raise typer.Exit(EXIT_OK if all(c.verdict == "correct" for c in checks) else EXIT_NEGATIVE)


