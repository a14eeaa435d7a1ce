"""The solving commands: solve, prove (validate is in packs.py)."""

from __future__ import annotations

from typing import Annotated

import typer

from kamicp.cli.app import app
from kamicp.cli.console import bad_input, err, out, plural, print_json, spinner
from kamicp.cli.distributed import (
    CubeDepthOpt,
    CubeStoreOpt,
    DaskOpt,
    DaskWorkersOpt,
    VerboseOpt,
    dask_settings,
    print_cubes,
    solve_on_dask,
)
from kamicp.cli.exits import EXIT_NEGATIVE, EXIT_OK, EXIT_UNKNOWN
from kamicp.cli.floodit import PivotOpt, Rules, RulesOpt, pivot_data, pivot_label, print_pivot_result
from kamicp.cli.options import (
    EngineChoice,
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
    load,
)
from kamicp.cli.report import exit_for, print_result
from kamicp.cli.signals import interruptible
from kamicp.floodit import solve_pivot
from kamicp.level import Label, Level
from kamicp.render.files import check_steps_dir, write_steps
from kamicp.render.safe import printable
from kamicp.solver import NO_SOLUTION, OPTIMAL, Progress, Result, options_without, solve


def _solve(level: Level, rules: Rules, label: Label | None, *, max_steps: int | None, time_limit: float | None,
           workers: int | None, engine: EngineChoice, seed: int, progress: Progress | None,
           no: list[str] | None = None) -> Result:
    """The solver of the rules: Flood-It (kamicp.floodit's own horizon loop) or Kami."""
    if rules == Rules.pivot:
        return solve_pivot(level, label, engine=engine.value, max_steps=max_steps, time_limit=time_limit,
                           workers=workers, seed=seed, progress=progress)
    return solve(level, max_steps=max_steps, time_limit=time_limit, workers=workers, engine=engine.value, seed=seed,
                 progress=progress, options=options_without(no or []))


def _show(level: Level, result: Result, rules: Rules, label: Label | None, *, show_moves: bool = True) -> None:
    if rules == Rules.pivot:
        print_pivot_result(level, result, label, show_moves=show_moves)
    else:
        print_result(level, result, show_moves=show_moves)


@app.command("solve")
def solve_cmd(
    level_path: LevelArg,
    max_steps: MaxSteps = None,
    time_limit: TimeLimit = None,
    workers: Workers = None,
    engine: EngineOpt = EngineChoice.AUTO,
    seed: Seed = 0,
    as_json: JsonOpt = False,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
    steps_dir: StepsDirOpt = None,
    force: ForceOpt = False,
    no: NoOpt = None,
    rules: RulesOpt = Rules.free,
    pivot: PivotOpt = None,
    dask: DaskOpt = None,
    dask_workers: DaskWorkersOpt = None,
    cube_depth: CubeDepthOpt = None,
    store: CubeStoreOpt = None,
    verbose: VerboseOpt = False,
) -> None:
    """Print a shortest solution (taps and colours) with the proof that nothing shorter exists."""
    level = load(level_path, fmt, geometry)
    with bad_input():
        label = pivot_label(level, rules, pivot)
        if steps_dir is not None:
            check_steps_dir(steps_dir, force=force)
        no_besides_cube_order = [n for n in no or () if n != "cube-order"]  # --dask takes only --no cube-order
        unused = tuple(name for name, value in (("--workers", workers), ("--no", no_besides_cube_order)) if value)
        distributed = dask_settings(dask, dask_workers, cube_depth, store, rules == Rules.pivot, unused, verbose)
    cubes = None
    with interruptible(), bad_input(), spinner(not as_json and distributed is None) as progress:
        if distributed is not None:
            cubes = solve_on_dask(level, distributed, max_steps=max_steps, time_limit=time_limit,
                                  engine=engine.value, seed=seed, progress=not as_json,
                                  options=options_without(no or []))
            result = cubes.result
        else:
            result = _solve(level, rules, label, max_steps=max_steps, time_limit=time_limit, workers=workers,
                            engine=engine, seed=seed, progress=progress, no=no)
    if as_json:
        print_json(pivot_data(level, result, label) if rules == Rules.pivot
                   else cubes.to_dict(level) if cubes else result.to_dict(level))
    else:
        # A solution over --max-steps is only shown as a count, not as the answer.
        _show(level, result, rules, label, show_moves=result.status != NO_SOLUTION)
        if cubes is not None:
            print_cubes(level, cubes, verbose=verbose)
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
    engine: EngineOpt = EngineChoice.AUTO,
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
    with interruptible(), bad_input(), spinner(not as_json) as progress:
        result = _solve(level, rules, label, max_steps=under - 1, time_limit=time_limit, workers=workers,
                        engine=engine, seed=seed, progress=progress)
    if as_json:
        data = pivot_data(level, result, label) if rules == Rules.pivot else result.to_dict(level)
        data["under"] = under
        data["proven"] = result.status == NO_SOLUTION
        print_json(data)
    elif result.status == NO_SOLUTION:
        _show(level, result, rules, label, show_moves=False)
        out.print(f"[bold green]proven: no solution with fewer than {plural(under, 'move')}[/]")
    elif result.status == OPTIMAL:
        _show(level, result, rules, label)
        out.print(f"[bold red]not proven: this solution has {plural(len(result.moves), 'move')}, fewer than "
                  f"{under}[/]")
    else:
        _show(level, result, rules, label, show_moves=False)
    code = {NO_SOLUTION: EXIT_OK, OPTIMAL: EXIT_NEGATIVE}.get(result.status, EXIT_UNKNOWN)
    raise typer.Exit(code)
