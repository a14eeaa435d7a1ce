"""The solving commands: solve, prove (validate is in packs.py)."""

from __future__ import annotations

from typing import Annotated

import typer

from kamicp.cli.common import (
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
    print_json,
    printable,
    spinner,
)
from kamicp.cli.floodit import PivotOpt, Rules, RulesOpt, pivot_data, pivot_label, print_pivot_result
from kamicp.cli.report import exit_for, print_result
from kamicp.floodit import prove_pivot_under, solve_pivot
from kamicp.render.files import check_steps_dir, write_steps
from kamicp.solver import NO_SOLUTION, OPTIMAL, options_without, prove_under, solve


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
    rules: RulesOpt = Rules.free,
    pivot: PivotOpt = None,
) -> None:
    """Print a shortest solution (taps and colours) with the proof that nothing shorter exists."""
    level = load(level_path, fmt, geometry)
    with bad_input():
        label = pivot_label(level, rules, pivot)
        if steps_dir is not None:
            check_steps_dir(steps_dir, force=force)
    with interruptible(), bad_input(), spinner(not as_json) as progress:
        if rules == Rules.pivot:  # Flood-It: kamicp.floodit's own horizon loop
            result = solve_pivot(level, label, engine=engine.value, max_steps=max_steps, time_limit=time_limit,
                                 workers=workers, progress=progress)
        else:
            result = solve(level, max_steps=max_steps, time_limit=time_limit, workers=workers,
                           engine=engine.value, seed=seed, progress=progress, options=options_without(no or []))
    if as_json:
        print_json(pivot_data(level, result, label) if rules == Rules.pivot else result.to_dict(level))
    elif rules == Rules.pivot:
        print_pivot_result(level, result, label, show_moves=result.status != NO_SOLUTION)
    else:
        # A solution over --max-steps is only shown as a count, not as the answer.
        print_result(level, result, show_moves=result.status != NO_SOLUTION)
    if steps_dir is not None and result.status != NO_SOLUTION and (result.moves or result.status == OPTIMAL):
        with bad_input():
            written = write_steps(steps_dir, level, result.moves, force=force)
        (err if as_json else out).print(f"wrote {len(written)} pictures to {printable(steps_dir)}", markup=False)
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
    rules: RulesOpt = Rules.free,
    pivot: PivotOpt = None,
) -> None:
    """Prove that LEVEL has no solution with fewer than N moves, or show one that has."""
    level = load(level_path, fmt, geometry)
    with bad_input():
        label = pivot_label(level, rules, pivot)
    show = print_result if rules == Rules.free else (lambda lv, r, **kw: print_pivot_result(lv, r, label, **kw))
    with interruptible(), bad_input(), spinner(not as_json) as progress:
        if rules == Rules.pivot:  # Flood-It: kamicp.floodit's own horizon loop
            result = prove_pivot_under(level, under, label, engine=engine.value, time_limit=time_limit,
                                       workers=workers, progress=progress)
        else:
            result = prove_under(level, under, time_limit=time_limit, workers=workers, engine=engine.value,
                                 seed=seed, progress=progress)
    if as_json:
        data = pivot_data(level, result, label) if rules == Rules.pivot else result.to_dict(level)
        data["under"] = under
        data["proven"] = result.status == NO_SOLUTION
        print_json(data)
    elif result.status == NO_SOLUTION:
        show(level, result, show_moves=False)
        out.print(f"[bold green]proven: no solution with fewer than {under} moves[/]")
    elif result.status == OPTIMAL:
        show(level, result)
        out.print(f"[bold red]not proven: this solution has {len(result.moves)} moves, fewer than {under}[/]")
    else:
        show(level, result, show_moves=False)
    code = {NO_SOLUTION: EXIT_OK, OPTIMAL: EXIT_NEGATIVE}.get(result.status, EXIT_UNKNOWN)
    raise typer.Exit(code)
