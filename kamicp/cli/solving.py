"""The solving commands: solve, prove (validate is in packs.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kamicp.board.level import Level
from kamicp.cli.app import app
from kamicp.cli.console import bad_input, err, out, plural, print_json
from kamicp.cli.distributed import (
    CubeDepthOpt,
    CubeStoreOpt,
    DaskOpt,
    DaskWorkersOpt,
    VerboseOpt,
    dask_settings,
    local_settings,
    print_cubes,
    solve_here,
    solve_on_dask,
)
from kamicp.cli.exits import EXIT_NEGATIVE, EXIT_OK, EXIT_UNKNOWN
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
    PivotOpt,
    RuleName,
    RulesOpt,
    Seed,
    StepsDirOpt,
    TimeLimit,
    Workers,
    flood_it_note,
    load,
    rules_of,
)
from kamicp.cli.progress import Follow, ProgressJsonOpt, check_stream, following
from kamicp.cli.report import exit_for, print_result, result_data
from kamicp.cli.signals import interruptible
from kamicp.prover.distributed import DistributedResult
from kamicp.prover.outcome import Result
from kamicp.prover.request import Budget, Request, Rules
from kamicp.prover.solver import NO_SOLUTION, OPTIMAL
from kamicp.render.files import check_steps_dir, write_steps
from kamicp.render.safe import printable


def _note_rules(path: Path, fmt: str | None, rules: RuleName, as_json: bool) -> None:
    note = flood_it_note(path, fmt, rules)
    if note is not None:
        (err if as_json else out).print(note, markup=False, soft_wrap=True)


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
    rules: RulesOpt = RuleName.FREE,
    pivot: PivotOpt = None,
    dask: DaskOpt = None,
    dask_workers: DaskWorkersOpt = None,
    cube_depth: CubeDepthOpt = None,
    store: CubeStoreOpt = None,
    verbose: VerboseOpt = False,
    progress_json: ProgressJsonOpt = None,
) -> None:
    """Print a shortest solution (taps and colours) with the proof that nothing shorter exists."""
    level = load(level_path, fmt, geometry)
    with bad_input():
        how = rules_of(level, rules, pivot, no)
        _note_rules(level_path, fmt, rules, as_json)
        if steps_dir is not None:
            check_steps_dir(steps_dir, force=force)
        if progress_json is not None:
            check_stream(progress_json, force=force)
        no_besides_cube_order = [n for n in no or () if n != "cube-order"]  # --dask takes only --no cube-order
        unused = tuple(name for name, value in (("--workers", workers), ("--no", no_besides_cube_order),
                                                ("--progress-json", progress_json)) if value)
        distributed = dask_settings(dask, dask_workers, cube_depth, store, how.name != "free", unused, verbose)
        here = None if distributed else local_settings(workers, cube_depth, store, kami=how.name == "free",
                                                       engine=engine.value, no=no or [])
        request = Request(level, how, Budget.start(time_limit, max_steps=max_steps, workers=workers, seed=seed,
                                                   engine=engine.value))  # (its clock starts here)
    cubes, follow = None, None
    if distributed is not None:
        with interruptible(), bad_input():
            cubes = solve_on_dask(request, distributed, progress=not as_json)
            result = cubes.result
    else:
        with interruptible(), bad_input(), following(not as_json, progress_json, force=force) as follow:
            followed = _followed(request, follow)
            if here is not None:  # the race first, then (a long proof) cubes on this machine's cores
                cubes = solve_here(followed, here)
                result = cubes.result
            else:
                result = followed.solve()
    if as_json:
        print_json(_with_progress(_json(level, result, how, cubes, store), follow))
    else:
        # A solution over --max-steps is only shown as a count, not as the answer.
        print_result(level, result, how, show_moves=result.status != NO_SOLUTION)
        if cubes is not None and (distributed is not None or cubes.horizons):
            print_cubes(level, cubes, verbose=verbose)
    if steps_dir is not None and result.status != NO_SOLUTION and (result.moves or result.status == OPTIMAL):
        with bad_input():
            written = write_steps(steps_dir, level, result.moves, force=force)
        (err if as_json else out).print(f"wrote {len(written)} pictures to {printable(steps_dir)}", markup=False)
    raise typer.Exit(exit_for(result))


def _followed(request: Request, follow: Follow) -> Request:
    """The request with its progress lines and snapshots going to `follow`."""
    return request.but(progress=follow.progress if follow.status is not None else None, watch=follow.watch)


def _with_progress(data: dict, follow: Follow | None) -> dict:
    """`--json`'s object with the last snapshot's facts as `progress` (when the rules gave snapshots)."""
    facts = None if follow is None else follow.facts()
    return data if facts is None else {**data, "progress": facts}


def _json(level: Level, result: Result, how: Rules, cubes: DistributedResult | None, store: Path | None) -> dict:
    """A solve's JSON: the cube summary when cubes ran (or with --dask), and what the store gave."""
    data = cubes.to_dict(level) if cubes is not None and (cubes.horizons or cubes.pool == "dask") \
        else result_data(level, result, how)
    if store is not None and cubes is not None:
        data["store"] = {"path": str(store), "reused": cubes.reused or 0}
    return data


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
    rules: RulesOpt = RuleName.FREE,
    pivot: PivotOpt = None,
    progress_json: ProgressJsonOpt = None,
    force: ForceOpt = False,
) -> None:
    """Prove that LEVEL has no solution with fewer than N moves, or show one that has."""
    level = load(level_path, fmt, geometry)
    with bad_input():
        how = rules_of(level, rules, pivot)
        _note_rules(level_path, fmt, rules, as_json)
        if progress_json is not None:
            check_stream(progress_json, force=force)
        request = Request(level, how, Budget.start(time_limit, max_steps=under - 1, workers=workers, seed=seed,
                                                   engine=engine.value))
    with interruptible(), bad_input(), following(not as_json, progress_json, force=force) as follow:
        result = _followed(request, follow).solve()
    if as_json:
        data = _with_progress(result_data(level, result, how), follow)
        data["under"] = under
        data["proven"] = result.status == NO_SOLUTION
        print_json(data)
    elif result.status == NO_SOLUTION:
        print_result(level, result, how, show_moves=False)
        out.print(f"[bold green]proven: no solution with fewer than {plural(under, 'move')}[/]")
    elif result.status == OPTIMAL:
        print_result(level, result, how)
        out.print(f"[bold red]not proven: this solution has {plural(len(result.moves), 'move')}, fewer than "
                  f"{under}[/]")
    else:
        print_result(level, result, how, show_moves=False)
    code = {NO_SOLUTION: EXIT_OK, OPTIMAL: EXIT_NEGATIVE}.get(result.status, EXIT_UNKNOWN)
    raise typer.Exit(code)
