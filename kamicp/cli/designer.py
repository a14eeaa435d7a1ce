"""Level designers' commands: count (how many optimal solutions, how many classes) and generate (levels
of a proven par)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Sequence
from enum import StrEnum
from pathlib import Path
from typing import Annotated, overload

import typer
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from kamicp.board.level import Level
from kamicp.cli.app import app
from kamicp.cli.console import bad_input, err, fail, out, plural, print_json
from kamicp.cli.exits import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_NEGATIVE, EXIT_OK, EXIT_UNKNOWN
from kamicp.cli.options import (
    EngineChoice,
    EngineOpt,
    ForceOpt,
    FormatOpt,
    Geometry,
    GeometryOpt,
    JsonOpt,
    LevelArg,
    PivotOpt,
    RuleName,
    RulesOpt,
    TimeLimit,
    Workers,
    load,
    rules_of,
)
from kamicp.cli.progress import following
from kamicp.cli.signals import interruptible
from kamicp.designer.count import CountResult, count_optimal
from kamicp.designer.generate import Generated, GenerateSpec, generate_pack, level_name
from kamicp.errors import Interrupted, KamiError
from kamicp.formats import write_json
from kamicp.prover.outcome import StoppedBy
from kamicp.runtime.clock import Deadline
from kamicp.runtime.interrupt import signal_of


def _at_least(n: int, exact: bool) -> str:
    return str(n) if exact else f"at least {n}"


def print_count(level: Level, res: CountResult, *, pivot: bool = False) -> None:
    """The count as a table and one line per class (under Flood-It's rules, `pivot`, every move taps the
    pivot: a class is its colour sequence)."""
    if res.optimum is None and res.complete:
        out.print(f"{level.name}: no solution (proven): nothing to count", markup=False)
        return
    if res.optimum is None:
        upper = "?" if res.upper_bound is None else str(res.upper_bound)
        out.print(f"{level.name}: optimum not proven within the time limit (between {res.lower_bound} and "
                  f"{upper} moves): nothing counted", markup=False, soft_wrap=True)
        return
    table = Table(show_header=False, show_edge=False, box=None)
    table.add_row("optimum", plural(res.optimum, "move"))
    table.add_row("solutions", _at_least(res.solutions, res.solutions_complete))
    table.add_row("classes", _at_least(res.classes, res.complete) + " (up to the order of commuting moves)")
    verdict = "yes" if res.unique else "no" if res.classes > 1 else "unknown"
    table.add_row("unique", verdict)
    out.print(Text(level.name, style="bold"))
    out.print(table)
    for k, plan in enumerate(res.examples, start=1):
        if pivot:
            moves = "colours " + " ".join(m.colour for m in plan) if plan else "(none: one colour already)"
        else:
            moves = ", ".join(f"{level.format_label(m.cell)} {m.colour}" for m in plan) or "(none: one colour already)"
        out.print(f"class {k}: {moves}", markup=False)
    if res.stopped_by:
        why = "the limit" if res.stopped_by == StoppedBy.LIMIT else "the time limit"
        out.print(f"[yellow]stopped by {why}: the counts marked 'at least' are lower bounds[/]")
    out.print(f"total {res.seconds:.3f} s", markup=False)


@app.command("count")
def count_cmd(
    level_path: LevelArg,
    limit: Annotated[int | None, typer.Option("--limit", min=1, metavar="N",
                                                  help="Stop after N classes (then 'at least N').")
                     ] = None,
    time_limit: TimeLimit = None,
    workers: Workers = None,
    engine: EngineOpt = EngineChoice.AUTO,
    as_json: JsonOpt = False,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
    rules: RulesOpt = RuleName.FREE,
    pivot: PivotOpt = None,
) -> None:
    """The optimum, the number of optimal solutions, and their classes up to commuting moves (unique = one).
    With --rules pivot (Flood-It) no two moves commute: the classes are the solutions."""
    level = load(level_path, fmt, geometry)
    with bad_input():
        how = rules_of(level, rules, pivot)
    with interruptible():
        try:
            with bad_input(), following(not as_json, None) as follow:
                live = follow.status is not None  # (the live line on a terminal: the solve's, then the count's)
                res = count_optimal(level, limit=limit, time_limit=time_limit, engine=engine.value, workers=workers,
                                    progress=follow.progress if live else None, rules=how,
                                    watch=follow.watch if live else None)
        except Interrupted as e:
            if not isinstance(e.result, CountResult):
                raise  # (the solve before the count: interruptible says what it had proven)
            raise _count_interrupted(e.result, e.signal) from None
    if as_json:
        print_json(res.to_dict(level))
    else:
        print_count(level, res, pivot=not how.chooses_region)
    none = res.optimum is None and res.complete  # (Flood-It: islands of several colours the flood cannot reach)
    raise typer.Exit(EXIT_UNKNOWN if res.stopped_by == StoppedBy.TIME else EXIT_NEGATIVE if none else EXIT_OK)


def _count_interrupted(res: CountResult, signum: int) -> typer.Exit:
    err.print(interrupted_count_line(res), markup=False, soft_wrap=True)
    return typer.Exit(EXIT_INTERRUPTED[signum])


def interrupted_count_line(res: CountResult) -> str:
    """One line: the proven optimum and what was counted before the signal (lower bounds)."""
    solutions = _at_least(res.solutions, res.solutions_complete)
    word = "optimal solution" if res.solutions == 1 else "optimal solutions"
    return (f"interrupted: optimum {plural(res.optimum or 0, 'move')} (proven); counted so far: {solutions} "
            f"{word}, at least {plural(res.classes, 'class', 'classes')}")


MAX_COUNT = 100_000  # levels per run (a bound on what one command promises to write)


class Symmetry(StrEnum):
    NONE = "none"
    MIRROR = "mirror"
    ROTATE = "rotate"


class _Targets(Sequence[Path]):
    """Where each level goes: OUT itself for one level named *.json, else OUT/<name>.json, each path made
    when asked for (100,000 of them made up front, each checked with a stat, took 8 s of a 1 s limit)."""

    def __init__(self, spec: GenerateSpec, count: int, out_path: Path) -> None:
        self.spec, self.count, self.out_path = spec, count, out_path
        self.single = count == 1 and out_path.suffix.lower() == ".json"

    def __len__(self) -> int:
        return self.count

    @overload
    def __getitem__(self, index: int) -> Path: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Path]: ...
    def __getitem__(self, index: int | slice) -> Path | Sequence[Path]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self.count))]
        if not -self.count <= index < self.count:
            raise IndexError(index)
        return self.out_path if self.single else self.out_path / f"{level_name(self.spec, index % self.count)}.json"

    def existing(self) -> Path | None:
        """The first target that exists already: one listing of the folder, not a stat per level."""
        if self.single or self.count == 1:
            return self[0] if self[0].exists() or self[0].is_symlink() else None  # (a dangling link too)
        try:
            present = set(os.listdir(self.out_path)) if self.out_path.is_dir() else set()
        except OSError:
            return None  # (the write says what is wrong with the folder)
        return next((self[i] for i in range(self.count) if f"{level_name(self.spec, i)}.json" in present), None)


def _summary(made: Generated, path: Path) -> dict:
    data = {"file": str(path), "name": made.level.name, "par": made.level.par, "regions": made.regions,
            "attempts": made.attempts, "seconds": round(made.seconds, 3)}
    if made.count is not None:
        data.update(classes=made.count.classes, solutions=made.count.solutions)
    return data


@app.command("generate")
def generate_cmd(
    out_path: Annotated[Path, typer.Option("-o", "--out", metavar="OUT",
                                           show_default=False,
                                           help="A .json file for one level, or a folder for a pack (--count).")],
    geometry: Annotated[Geometry, typer.Option("--geometry", help="Board geometry.")],
    colours: Annotated[int, typer.Option("--colours", "--colors", min=2, max=9, metavar="K",
                                                help="Colours to paint with (2 to 9; K colours need a par of "
                                                "K - 1 or more).")],
    par: Annotated[int, typer.Option("--par", min=1, metavar="N", help="The proven optimum every level must have.")],
    rows: Annotated[int | None, typer.Option("--rows", min=1, metavar="N",
                                             help="Rows (default: the game's board).")] = None,
    cols: Annotated[int | None, typer.Option("--cols", min=1, metavar="N",
                                             help="Columns (default: the game's board).")] = None,
    symmetry: Annotated[Symmetry, typer.Option("--symmetry", help="Mirror (left-right) or 180-degree "
                                               "rotation symmetric boards.")] = Symmetry.NONE,
    unique: Annotated[bool, typer.Option("--unique", help="Only levels with one class of optimal solutions.")
                      ] = False,
    seed: Annotated[int, typer.Option("--seed", min=0, metavar="N",
                                         help="Random seed (0 or more): the same seed makes the same levels.")] = 0,
    count: Annotated[int, typer.Option("--count", min=1, max=MAX_COUNT, metavar="N",
                                                  help="How many levels (a pack in the folder OUT).")] = 1,
    time_limit: TimeLimit = None,
    engine: EngineOpt = EngineChoice.AUTO,
    as_json: JsonOpt = False,
    force: ForceOpt = False,
) -> None:
    """Write levels whose optimum is proven to be exactly PAR, each with its proof in the file."""
    spec = GenerateSpec(geometry.value, colours, par, rows, cols, symmetry.value, unique, seed, time_limit,
                        engine=engine.value)
    with bad_input():
        spec.check()
        deadline = Deadline.after(time_limit)  # (the limit counts from here)
    targets = _Targets(spec, count, out_path)
    existing = None if force else targets.existing()
    if existing is not None:
        raise fail(f"{existing}: exists already (pass --force to overwrite it)")
    if out_path.exists() and not out_path.is_dir() and len(targets) > 1:
        raise fail(f"{out_path}: is a file, but a pack of {count} levels needs a folder")
    if targets[0].parent.exists() and not targets[0].parent.is_dir():
        raise fail(f"{targets[0].parent}: is not a folder, so {targets[0].name} cannot be written in it")
    try:
        targets[0].parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise fail(f"{targets[0].parent}: cannot create the folder: {e.strerror or e}") from None
    with interruptible():  # (SIGTERM raised as Terminated; _generate reports what was written)
        made, code = _generate(spec, targets, deadline, force=force, quiet=as_json)
    if as_json:
        print_json([_summary(g, p) for g, p in made])
    raise typer.Exit(code)


def _write_level(made: Generated, path: Path, force: bool) -> None:
    """Write one level with its proof; a signal during the write removes the file (never a truncated level)."""
    try:
        write_json(made.level, path, overwrite=force, proof=made.proof_data())
    except KeyboardInterrupt:
        with contextlib.suppress(OSError):
            path.unlink()
        raise


def _generate(spec: GenerateSpec, targets: Sequence[Path], deadline: Deadline, *, force: bool, quiet: bool
              ) -> tuple[list[tuple[Generated, Path]], int]:
    """Make and write the levels with a progress bar; the exit code: 0, or why it stopped early."""
    made: list[tuple[Generated, Path]] = []
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=err, transient=True, disable=quiet or not err.is_terminal) as bar:
        task = bar.add_task(f"par {spec.par}", total=len(targets))
        try:
            def note(message: str) -> None:
                bar.update(task, description=f"par {spec.par}: {message}")

            for level, path in zip(generate_pack(spec, len(targets), note, deadline), targets, strict=False):
                try:
                    _write_level(level, path, force)
                except KamiError as e:  # (a file that cannot be written is bad input: exit 2, not 1)
                    err.print(f"error: {e}; wrote {len(made)} of {len(targets)} levels", markup=False, soft_wrap=True)
                    return made, EXIT_BAD_INPUT
                made.append((level, path))
                bar.advance(task)
                if not quiet:
                    out.print(f"{path}: par {spec.par}, {plural(level.regions, 'region')}, "
                              f"{plural(level.attempts, 'board')} tried"
                              + (f", {plural(level.count.classes, 'class', 'classes')}" if level.count else ""),
                              markup=False, soft_wrap=True)
        except (KeyboardInterrupt, Interrupted) as e:  # Ctrl-C, SIGTERM: say what is written, exit 130 / 143
            signum = getattr(e, "signal", signal_of(e))
            err.print(f"interrupted: wrote {len(made)} of {len(targets)} levels, each complete and proven",
                      markup=False, soft_wrap=True)
            return made, EXIT_INTERRUPTED[signum]
        except TimeoutError as e:
            err.print(f"unknown: {e}; wrote {len(made)} of {len(targets)} levels", markup=False, soft_wrap=True)
            return made, EXIT_UNKNOWN
        except KamiError as e:  # no board of the par within the attempts: a negative answer
            err.print(f"error: {e}; wrote {len(made)} of {len(targets)} levels", markup=False, soft_wrap=True)
            return made, EXIT_NEGATIVE
    return made, EXIT_OK


