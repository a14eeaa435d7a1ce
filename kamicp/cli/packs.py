"""The pack commands: validate (levels, folders, globs; in parallel, resumable, on Dask) and report."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    ProgressColumn,
    Task,
    TextColumn,
    TimeElapsedColumn,
)
from rich.text import Text

from kamicp.cli.app import app
from kamicp.cli.console import bad_input, err, fail, out, print_json
from kamicp.cli.exits import EXIT_BAD_INPUT, EXIT_INTERRUPTED, EXIT_NEGATIVE, EXIT_OK, EXIT_UNKNOWN
from kamicp.cli.options import (
    MAX_WORKERS,
    EngineChoice,
    EngineOpt,
    FormatOpt,
    GeometryOpt,
    JsonOpt,
    PivotOpt,
    RuleName,
    RulesOpt,
    Seed,
)
from kamicp.cli.pack_table import VERDICT_TEXT, pack_table, report_tables
from kamicp.errors import ClusterLost, UsageError
from kamicp.formats import read_pars
from kamicp.packs import (
    LEVEL_SUFFIXES,
    PackOutcome,
    PackSettings,
    PackStore,
    Row,
    Verdict,
    discover,
    json_rows,
    load_pack,
    pack_outcome,
    run_pack,
    summarize,
    to_csv,
    to_markdown,
)
from kamicp.packs.runner import default_jobs, with_pars
from kamicp.packs.worker import Live
from kamicp.render.safe import printable
from kamicp.rulebook import check_rules
from kamicp.runtime.interrupt import signal_of
from kamicp.runtime.store import StoreWriteError

EXIT_FOR = {PackOutcome.CORRECT: EXIT_OK, PackOutcome.WRONG: EXIT_NEGATIVE, PackOutcome.UNKNOWN: EXIT_UNKNOWN,
            PackOutcome.BAD_INPUT: EXIT_BAD_INPUT}


class EtaColumn(ProgressColumn):
    """The time left, counting down between levels: the time per level run so far (wall time at the last
    one done, over the levels run; those from the store take none) times the levels to run, less the time
    spent since; '-:--:--' before the first level and once the estimate has run out (rich's own column
    keeps its last estimate, e.g. 0:00:01 for as long as the last level runs)."""

    def render(self, task: Task) -> Text:
        done_at, worked = task.fields.get("done_at"), task.fields.get("worked", 0)
        if task.finished or not worked or done_at is None or task.total is None:
            return Text("-:--:--" if not task.finished else "0:00:00", style="progress.remaining")
        left = done_at / worked * (worked + task.total - task.completed) - (task.elapsed or 0.0)
        if left <= 0:
            return Text("-:--:--", style="progress.remaining")
        minutes, seconds = divmod(int(left) + 1, 60)
        hours, minutes = divmod(minutes, 60)
        return Text(f"{hours:d}:{minutes:02d}:{seconds:02d}", style="progress.remaining")


@contextmanager
def pack_progress(total: int, plain: bool) -> Iterator[PackShow]:
    """A progress bar on stderr (levels done / total, proven, wrong par, unknown, ETA) with a line per running
    level (its elapsed seconds, proven bounds and the horizon being refuted); off a terminal, a plain line per
    level (`plain`), or nothing."""
    counts = {"done": 0, "proven": 0, "wrong": 0, "unknown": 0, "worked": 0}

    def count(row: Row) -> None:
        counts["done"] += 1
        if row.verdict in (Verdict.CORRECT, Verdict.NOT_MINIMAL, Verdict.UNACHIEVABLE):
            counts["proven"] += 1
        if row.verdict in (Verdict.NOT_MINIMAL, Verdict.UNACHIEVABLE):
            counts["wrong"] += 1
        if row.verdict in (Verdict.UNKNOWN, Verdict.ERROR):
            counts["unknown"] += 1

    if not err.is_terminal:
        def line(row: Row, skipped: bool) -> None:
            count(row)
            if plain:
                how = "from the store" if skipped else f"{row.seconds:.2f} s"
                word = VERDICT_TEXT[row.verdict]  # (the table's word: "bad input", not the code "bad-input")
                err.file.write(f"[{counts['done']}/{total}] {printable(row.level)}: {word} ({how})\n")  # (plain)
        yield PackShow(line, lambda _running: None)
        return
    columns = (TextColumn("validating"), BarColumn(), MofNCompleteColumn(),
               TextColumn("[green]{task.fields[proven]} proven[/] [red]{task.fields[wrong]} wrong par[/] "
                          "[yellow]{task.fields[unknown]} unknown[/]"), TimeElapsedColumn(), TextColumn("ETA"),
               EtaColumn())
    with _PackBar(*columns, console=err, transient=True) as bar:
        task = bar.add_task("pack", total=total, proven=0, wrong=0, unknown=0, done_at=None, worked=0)

        def advance(row: Row, skipped: bool) -> None:
            count(row)
            timing = {}
            if not skipped:
                counts["worked"] += 1
                elapsed = next(t.elapsed for t in bar.tasks if t.id == task)
                timing = {"worked": counts["worked"], "done_at": elapsed}
            bar.update(task, completed=counts["done"], proven=counts["proven"], wrong=counts["wrong"],
                       unknown=counts["unknown"], **timing)

        def running(levels: list[Live]) -> None:
            bar.running = Text("\n".join(live_line(live) for live in levels))
        yield PackShow(advance, running)


class _PackBar(Progress):
    """The pack's bar with a line per running level under it (rich's documented `get_renderables` hook)."""

    running: Text = Text("")

    def get_renderables(self):  # noqa: ANN201 - rich's signature
        yield self.make_tasks_table(self.tasks)
        if self.running:
            yield self.running


@dataclass(frozen=True)
class PackShow:
    """What the pack's progress shows: each row as it comes (`row(row, skipped)`), the running levels."""

    row: Callable[[Row, bool], None]
    running: Callable[[list[Live]], None]


def live_line(live: Live) -> str:
    """A running level's line: `s704.json: 12.3 s · bounds 10..13 · refuting 10` (the bounds are proven)."""
    bounds = f"bounds {live.lower}..{live.upper}" if live.upper is not None else f"lower bound {live.lower}"
    refuting = "" if live.horizon is None else f" · refuting {live.horizon}"
    return f"  {printable(live.level)}: {live.elapsed:.1f} s · {bounds}{refuting}"


def _open_store(path: Path | None, resume: bool) -> PackStore | None:
    if resume and path is None:
        raise fail("--resume needs --store FILE")
    if path is None:
        return None
    with bad_input():
        return PackStore(path)


MAX_MEMORY_MB = 2**40  # (a byte count the kernel's RLIMIT_AS takes: a larger one overflowed as a crash per level)


@app.command("validate")
def validate_cmd(
    paths: Annotated[list[str], typer.Argument(metavar="PATHS...", help="Level files, folders (searched "
                                               "recursively; a file there that is clearly another command's, a "
                                               "Katamino book, is skipped with a note) and glob patterns "
                                               "('pack/*.json').",
                                               show_default=False)],
    par: Annotated[int | None, typer.Option("--par", min=0, help="Par to check (default: each file's).")] = None,
    pars_path: Annotated[Path | None, typer.Option("--pars", metavar="FILE", help="One par a line, in the "
                                                   "pack's order: a number, or a solution whose length is the "
                                                   "par (for a pack file of many boards).")] = None,
    slack: Annotated[int, typer.Option("--slack", min=0, help="Search up to par + K moves to say how far off.")] = 2,
    time_limit: Annotated[float | None, typer.Option("--time-limit", min=0.001, help="Seconds per level.")] = None,
    workers: Annotated[int, typer.Option("--workers", min=1, max=MAX_WORKERS,
                                         help="CP-SAT threads per level.")] = 1,
    engine: EngineOpt = EngineChoice.AUTO,
    seed: Seed = 0,
    jobs: Annotated[int | None, typer.Option("--jobs", "-j", min=1, max=MAX_WORKERS,
                                             help="Levels at a time (default: the cores, "
                                             "halved for --engine auto, which races 2 processes per level).",
                                             show_default=False)] = None,
    dask: Annotated[str | None, typer.Option("--dask", metavar="SCHEDULER", help="Run on a Dask cluster: the "
                                             "scheduler's address, or 'local' (needs kamicp\\[dask]).")] = None,
    store_path: Annotated[Path | None, typer.Option("--store", metavar="FILE", help="Keep every answer in this "
                                                    "SQLite file as it comes.")] = None,
    resume: Annotated[bool, typer.Option("--resume", help="Skip levels the store already answered "
                                         "(same content and settings; a proof under any time limit).")] = False,
    memory_mb: Annotated[int, typer.Option("--memory-limit", metavar="MB", min=0, max=MAX_MEMORY_MB,
                                           help="Address-space cap of each level's process (0: none; at most "
                                           f"{MAX_MEMORY_MB:,}).")] = 2048,
    as_json: JsonOpt = False,
    fmt: FormatOpt = None,
    geometry: GeometryOpt = None,
    rules: RulesOpt = RuleName.FREE,
    pivot: PivotOpt = None,
) -> None:
    """Check each level's par: achievable, minimal, or how far off (a table; a summary line for a pack).

    Exit code, the worst wins: 2 a file is bad input (its row is reported, the rest still run), else 3 a
    level is unknown or failed, else 1 a par is wrong, else 0."""
    settings = PackSettings(par=par, slack=slack, time_limit=time_limit, engine=engine.value, workers=workers,
                            seed=seed, memory_mb=memory_mb or None, rules=rules.value, pivot=pivot)
    with bad_input():
        check_rules(settings.rules, settings.pivot)
        pars = _pars(pars_path, par)
    store = _open_store(store_path, resume)  # checked before any work: one line, exit 2
    try:
        rows = _validate(paths, settings, store, store_path, resume=resume, jobs=jobs, dask=dask, fmt=fmt,
                         geometry=geometry.value if geometry else None, as_json=as_json, pars=pars)
    finally:
        if store is not None:
            store.close()
    raise typer.Exit(EXIT_FOR[pack_outcome(rows)])


def _pars(path: Path | None, par: int | None) -> tuple[Path, list[int]] | None:
    """The pars file, read before any work (UsageError beside --par)."""
    if path is None:
        return None
    if par is not None:
        raise UsageError("give --par (one par for every level) or --pars (one a level), not both")
    return path, read_pars(path)


def _validate(paths: list[str], settings: PackSettings, store: PackStore | None, store_path: Path | None, *,
              resume: bool, jobs: int | None, dask: str | None, fmt: str | None, geometry: str | None,
              as_json: bool, pars: tuple[Path, list[int]] | None = None) -> list[Row]:
    """Run the pack and print its table; stopped early (a signal, the store not written), print the table of
    the levels done, say how to go on, and exit as documented (130 / 143, or 2)."""
    others: list[tuple[Path, str]] = []
    with bad_input():
        items = load_pack(discover(paths, others), fmt, geometry)
        if pars is not None:
            items = with_pars(items, pars[1], str(pars[0]))
    for path, command in others:
        err.print(f"note: skipped {printable(path)}: a file for `kamicp {command}`, not a level", markup=False,
                  soft_wrap=True)
    if not items:
        raise fail(f"no levels in {', '.join(paths)} (level files end in {', '.join(LEVEL_SUFFIXES)})")
    jobs = jobs or (2 if dask == "local" else default_jobs(settings.engine))
    done: list[Row] = []
    skipped: list[Row] = []
    with bad_input():  # (outside: the handlers below come first)
        try:
            with pack_progress(len(items), plain=len(items) > 1) as show:
                def on_row(row: Row, was_skipped: bool) -> None:
                    done.append(row)
                    skipped.extend([row] if was_skipped else [])
                    show.row(row, was_skipped)
                rows = run_pack(items, settings, jobs=jobs, dask=dask, store=store, resume=resume, on_row=on_row,
                                on_live=show.running)
        except KeyboardInterrupt as e:
            code = EXIT_INTERRUPTED[signal_of(e)]
            raise _stopped(done, len(items), store_path, "interrupted", code, as_json) from None
        except StoreWriteError as e:
            raise _stopped(done, len(items), store_path, str(e), EXIT_BAD_INPUT, as_json) from None
        except ClusterLost as e:
            raise _stopped(done, len(items), store_path, str(e), EXIT_UNKNOWN, as_json) from None
    _print_rows(rows, as_json=as_json, skipped=len(skipped))
    return rows


def _stopped(done: list[Row], total: int, store_path: Path | None, why: str, code: int, as_json: bool
             ) -> typer.Exit:
    """The levels done before a run stopped, and one line: why, how many, and how to go on."""
    if done:
        _print_rows(done, as_json=as_json, skipped=0, summary=False)
    how = (f"the answers are in {store_path}: the same command with --resume continues" if store_path
           else "nothing was stored (no --store): give --store FILE to keep answers, --resume to continue")
    return fail(f"{why}: {len(done)} of {total} levels done; {how}", code)


def _print_rows(rows: list[Row], *, as_json: bool, skipped: int, summary: bool = True) -> None:
    for r in rows:
        if r.verdict == Verdict.BAD_INPUT:
            err.print(f"error: {r.error}", markup=False, soft_wrap=True)
        elif r.verdict == Verdict.ERROR:
            err.print(f"error: {r.path}: {r.error}", markup=False, soft_wrap=True)
    if as_json:
        print_json(json_rows(rows))
    elif any(r.verdict != Verdict.BAD_INPUT for r in rows):
        out.print(pack_table(rows))
        if len(rows) > 1 and summary:
            out.print(f"[bold]{summarize(rows, skipped).line()}[/]")


@app.command("report")
def report_cmd(
    store_path: Annotated[Path, typer.Argument(metavar="STORE", help="A results store (validate --store).",
                                               show_default=False)],
    as_json: JsonOpt = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="Print CSV.")] = False,
    as_markdown: Annotated[bool, typer.Option("--markdown", help="Print a Markdown table.")] = False,
) -> None:
    """Print a pack's table again from its store (exit code as validate's)."""
    if as_json + as_csv + as_markdown > 1:
        raise fail("give at most one of --json, --csv, --markdown")
    with bad_input(), PackStore(store_path, create=False) as store:
        rows = store.rows()
    if as_csv:
        out.out(to_csv(rows), end="", highlight=False)
    elif as_markdown:
        out.out(to_markdown(rows), end="", highlight=False)
    elif as_json:
        print_json(json_rows(rows))
    else:
        out.print(report_tables(rows))
        out.print(f"[bold]{summarize(rows).line()}[/]")
    raise typer.Exit(EXIT_FOR[pack_outcome(rows)] if rows else EXIT_OK)
