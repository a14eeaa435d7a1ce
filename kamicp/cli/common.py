"""What every command shares: the typer app, the consoles, option types, exit codes and error handling.

Exit codes: 0 success (solved, proven, par correct); 1 the answer is negative (no solution within N,
a shorter solution exists, par wrong); 2 bad input (a file or an option); 3 time limit reached without
an answer; 4 internal error (a bug: an exception kamicp did not expect, or a solver's failure such as a
crashed worker of the race); 130 / 143 interrupted by SIGINT / SIGTERM; 141 (128 + SIGPIPE) the reader
of the output went away (`kamicp info LEVEL | head -0`), quietly.

Errors end the same way in every command, including commands added later: the app's group class
(KamiGroup) turns option errors into one `error: ...` line with exit 2, and any unexpected exception
into one line with exit 4 (KAMICP_DEBUG=1 adds the traceback). User text printed through rich goes
through `shown` (markup) or `printable` (plain text, kamicp.render.safe).
"""

from __future__ import annotations

import contextlib
import inspect
import json
import os
import signal
import sys
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from enum import StrEnum
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderHook, RenderResult, RichCast
from rich.markup import escape
from rich.segment import Segment
from rich.text import Text
from typer.core import TyperArgument, TyperGroup, TyperOption

try:  # typer vendors click from 0.2x on; older releases use click itself
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # pragma: no cover - depends on the installed typer
    from click.exceptions import ClickException, NoArgsIsHelpError  # type: ignore[no-redef]

from kamicp.errors import Interrupted, KamiError, SolverError, Terminated
from kamicp.formats import load_level
from kamicp.level import Level
from kamicp.render.safe import printable
from kamicp.solver import SEED_RANGE, TECHNIQUES, interrupt_solves

EXIT_OK, EXIT_NEGATIVE, EXIT_BAD_INPUT, EXIT_UNKNOWN, EXIT_INTERNAL = 0, 1, 2, 3, 4
EXIT_INTERRUPTED = {signal.SIGINT: 130, signal.SIGTERM: 143}  # 128 + the signal's number
EXIT_BROKEN_PIPE = 128 + signal.SIGPIPE  # 141, what a shell reports for a tool stopped by a closed pipe
DEBUG_ENV = "KAMICP_DEBUG"

class _PipeClosed(Exception):
    """The reader of stdout or stderr went away (a BrokenPipeError, carried past typer's own handling,
    which would exit 1 and may print)."""


@contextmanager
def _pipe_guard() -> Iterator[None]:
    try:
        yield
    except BrokenPipeError as e:
        raise _PipeClosed from e
    except SystemExit as e:  # another rich console's on_broken_pipe (typer's help) exits 1 while handling one
        if isinstance(e.__context__, BrokenPipeError):
            raise _PipeClosed from e
        raise


def _silence_std_streams() -> None:
    """Point stdout and stderr at /dev/null, so that the interpreter's last flush of what is still buffered
    neither fails nor prints 'Exception ignored ... BrokenPipeError' (Python's documented recipe)."""
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):  # not a real file (tests), or already closed
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, stream.fileno())
            os.close(devnull)


def _flushed(code: int) -> int:
    """`code`, or EXIT_BROKEN_PIPE when the output buffered last cannot be written any more."""
    try:
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
    except BrokenPipeError:
        _silence_std_streams()
        return EXIT_BROKEN_PIPE
    return code


class _Escaped:
    """A renderable whose text segments have their control characters shown as escapes (`\\x1b`), newlines
    and tabs kept; rich's control segments (cursor moves of a live display) and styles pass unchanged."""

    def __init__(self, renderable: ConsoleRenderable | RichCast | str) -> None:
        self.renderable = renderable

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for seg in console.render(self.renderable, options):
            yield seg if seg.control or seg.text.isprintable() else Segment(_safe_text(seg.text), seg.style)


class _EscapeHook(RenderHook):
    def process_renderables(self, renderables: list[ConsoleRenderable]) -> list[ConsoleRenderable]:
        return [_Escaped(r) for r in renderables]


class SafeConsole(Console):
    """A console that never writes a control character it did not make itself: everything printed (a
    name, a path, an error, a table cell, whatever a command printed and however) goes through a render
    hook (rich's public `RenderHook`) that escapes the control characters of its text segments. The hook
    stays the last of the console's hooks, so it also sees what a live display (spinner, progress bar)
    adds. A net under `shown`/`printable`, so a command that forgets them cannot let ESC sequences through."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._escape = _EscapeHook()
        super().push_render_hook(self._escape)

    def push_render_hook(self, hook: RenderHook) -> None:
        super().pop_render_hook()  # (the escaping hook, always last)
        super().push_render_hook(hook)
        super().push_render_hook(self._escape)

    def pop_render_hook(self) -> None:
        super().pop_render_hook()
        super().pop_render_hook()
        super().push_render_hook(self._escape)

    def on_broken_pipe(self) -> None:
        """Rich's hook for a reader gone away (its default exits 1): KamiGroup ends quietly with 141."""
        raise _PipeClosed


def _safe_text(text: str) -> str:
    return "\n".join("\t".join(printable(part) for part in line.split("\t")) for line in text.split("\n"))


out = SafeConsole(highlight=False)
err = SafeConsole(stderr=True, highlight=False)


def shown(value: object) -> str:
    """User text (a name, a path, a colour) to embed in a rich markup string: control characters
    escaped (kamicp.render.safe.printable) and markup escaped, so it prints as written."""
    return escape(printable(value))


def plural(n: int, word: str, words: str | None = None) -> str:
    """"1 move", "2 moves" (`words` when the plural is not word + s)."""
    return f"{n} {word if n == 1 else words or word + 's'}"


def one_line(message: str) -> str:
    return " ".join(printable(part) for part in message.splitlines() if part.strip())


class _KamiOption(TyperOption):
    """An option as a well-kept CLI's help shows it: `--time-limit SECONDS`, `--engine [auto|cpsat|search]`,
    a flag with no metavar (typer's own `<bool>`, `<int range> [x>=1]` labels crowd the help at 80 columns;
    a range goes to the help text instead)."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None if self.is_flag else self.metavar

    def _get_number_range_help_str(self) -> str | None:
        return None


class _KamiArgument(TyperArgument):
    """An argument shown by its metavar alone: `kamicp solve [OPTIONS] LEVEL` (typer's own usage line reads
    `{LEVEL}`), `[PATHS]...` when optional."""

    def display_type_rich(self, ctx: Any) -> str | None:
        return None

    def get_usage_pieces(self, ctx: Any) -> list[str]:
        name = self.metavar or self.name.upper()
        return [name if self.required else f"[{name}]"]


_TYPE_METAVARS = {int: "INTEGER", float: "NUMBER", str: "TEXT", Path: "PATH"}


def _metavar(param: TyperOption) -> str:
    """The metavar an option without one shows: its choices, or its type's name in click's words."""
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None and descriptor.is_choice:
        return "[" + "|".join(str(getattr(c, "value", c)) for c in descriptor.choices or ()) + "]"
    annotation = getattr(descriptor, "annotation", None)
    return _TYPE_METAVARS.get(annotation, "VALUE")  # type: ignore[arg-type]


def _range_words(param: TyperOption) -> str:
    """An upper bound worth a word in the help ("1 to 256"); a lower one (0, 1, a positive time) goes
    without saying."""
    low, high = getattr(param, "min", None), getattr(param, "max", None)
    if high is None:
        return ""
    return f"at most {high}" if low is None else f"{low} to {high}"


def unwrapped(text: str | None) -> str | None:
    """A docstring's paragraphs each on one line (rich wraps them to the terminal; a docstring's own line
    breaks would break the help mid-sentence)."""
    if not text:
        return text
    paragraphs = inspect.cleandoc(text).split("\n\n")
    return "\n\n".join(" ".join(line.strip() for line in p.splitlines()) for p in paragraphs)


def tidy_help(command: Any) -> None:
    """Give `command`'s help the conventions of the whole command line (see _KamiOption, _KamiArgument)."""
    command.help = unwrapped(command.help)
    if getattr(command, "short_help", None):
        command.short_help = unwrapped(command.short_help)
    for param in command.params:
        if isinstance(param, TyperOption) and type(param) is TyperOption:
            if not param.is_flag and param.metavar is None:
                param.metavar = _metavar(param)
            words = _range_words(param)
            if words and words not in (param.help or "") and not param.is_flag:
                param.help = f"{(param.help or '').rstrip()} ({words})".lstrip()
            param.__class__ = _KamiOption  # (the same object, with the help methods above)
        elif isinstance(param, TyperArgument) and type(param) is TyperArgument:
            param.__class__ = _KamiArgument
        if getattr(param, "help", None):
            param.help = unwrapped(param.help)
    made = command.get_help_option  # (--help is made when first asked for: tidied then)

    def get_help_option(ctx: Any) -> Any:
        option = made(ctx)
        if option is not None and type(option) is TyperOption:
            option.__class__ = _KamiOption
        return option

    command.get_help_option = get_help_option


class KamiGroup(TyperGroup):
    """The app's command group: every error ends as one line on stderr with a documented exit code.

    Runs click in non-standalone mode, so option and usage errors come here as exceptions instead
    of typer's boxed usage message, and so does every exception a command did not expect. A closed
    pipe (`kamicp info LEVEL | head -0`) ends quietly with EXIT_BROKEN_PIPE. Every command's help
    follows one set of conventions (`tidy_help`), including commands added later."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        tidy_help(self)
        for command in self.commands.values():
            tidy_help(command)

    def make_context(self, *args: Any, **kwargs: Any) -> Any:
        with _pipe_guard():  # (--help is printed while the context is made)
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        with _pipe_guard():
            return super().invoke(ctx)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = self._main(args, prog_name, complete_var, **extra)
        except _PipeClosed:  # (also while an error line below is printed)
            _silence_std_streams()
            code = EXIT_BROKEN_PIPE
        sys.exit(_flushed(code if isinstance(code, int) else EXIT_OK))

    def _main(self, args: Sequence[str] | None, prog_name: str | None, complete_var: str | None,
              **extra: Any) -> Any:
        try:
            code = super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        except NoArgsIsHelpError as e:  # `kamicp` alone: the help (rich has printed it already)
            if e.format_message().strip():
                out.print(e.format_message(), markup=False, highlight=False)
            code = EXIT_BAD_INPUT
        except ClickException as e:
            ctx = getattr(e, "ctx", None)
            hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
            message = one_line(e.format_message()).replace("Value error, ", "")  # (typer's validation's words)
            err.print(f"error: {message}{hint}", markup=False, soft_wrap=True)
            code = e.exit_code
        except typer.Abort:
            err.print("error: aborted", markup=False)
            code = 130
        except _PipeClosed:
            raise
        except Exception as e:  # a bug: one line and its own exit code, never 1 ("negative answer")
            if os.environ.get(DEBUG_ENV):
                traceback.print_exc()
            err.print(f"error: internal error: {type(e).__name__}: {one_line(str(e))[:300]} (a bug in kamicp; "
                      f"{DEBUG_ENV}=1 shows the traceback)", markup=False, soft_wrap=True)
            code = EXIT_INTERNAL
        return code


app = typer.Typer(
    cls=KamiGroup,
    add_completion=False,
    no_args_is_help=True,
    help="Solve Kami-style flood puzzles provably optimally.\n\nExit codes: 0 success, 1 negative answer, "
    "2 bad input, 3 time limit without an answer, 4 internal error, 130/143 interrupted.",
)


def version() -> str:
    """kamicp's version as installed (pyproject's), or the checkout's when it is not installed."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("kamicp")
    except PackageNotFoundError:  # pragma: no cover - run from a checkout without pip install
        return "unknown (not installed)"


def _print_version(value: bool) -> None:
    if value:
        out.print(f"kamicp {version()}", markup=False)
        raise typer.Exit(EXIT_OK)


@app.callback()
def _main(
    _version: Annotated[bool, typer.Option("--version", callback=_print_version, is_eager=True,
                                           help="Print kamicp's version and exit.")] = False,
) -> None:
    """Solve Kami-style flood puzzles provably optimally."""


class Engine(StrEnum):
    cpsat = "cpsat"
    search = "search"
    auto = "auto"


class Geometry(StrEnum):
    triangle = "triangle"
    square = "square"


LevelArg = Annotated[Path, typer.Argument(metavar="LEVEL", help="Level file (.json, .puz, .xml, or a text grid "
                                          "with --geometry).",
                                          show_default=False)]
MaxSteps = Annotated[int | None, typer.Option("--max-steps", min=0, metavar="N",
                                                help="Look for solutions of at most N moves.")]
TimeLimit = Annotated[float | None, typer.Option("--time-limit", min=0.001, metavar="SECONDS",
                                                 help="Seconds for the whole command; then 'unknown'.")]
MAX_WORKERS = 256  # CP-SAT takes a 32-bit count; more threads than this only slow a machine down
Workers = Annotated[int | None, typer.Option("--workers", min=1, max=MAX_WORKERS, metavar="N",
                                             help=f"CP-SAT worker threads (1 to {MAX_WORKERS}).")]
EngineOpt = Annotated[Engine, typer.Option("--engine", help="cpsat (the model), search (IDA*) or auto (both race, "
                                           "first proof wins).")]
NoOpt = Annotated[list[str] | None, typer.Option("--no", metavar="TECHNIQUE", help="Switch a proof technique off "
                                                 f"(repeatable): {', '.join(TECHNIQUES)} (cube-order: --dask "
                                                 "only; the only one --dask takes).")]
SEED_MAX = SEED_RANGE[1]  # CP-SAT's random_seed is 32-bit, and the race adds small offsets to it
Seed = Annotated[int, typer.Option("--seed", min=0, max=SEED_MAX, metavar="N",
                                   help=f"Random seed passed to CP-SAT (0 to {SEED_MAX}).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
FormatOpt = Annotated[str | None, typer.Option("--format", metavar="FORMAT",
                                                help="Level format (json, text, puz, xml, flood99); default: by "
                                                "extension (flood99: by name).")]
GeometryOpt = Annotated[Geometry | None, typer.Option("--geometry", help="Geometry of a text grid.")]
StepsDirOpt = Annotated[Path | None, typer.Option("--steps-dir", metavar="DIR", help="Write one SVG and PNG per move "
                                                  "(step-01.svg, ...) and strip.svg/.png into DIR.")]
ForceOpt = Annotated[bool, typer.Option("--force", help="Overwrite existing output files.")]


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    err.print(f"error: {one_line(message)}", markup=False, soft_wrap=True)
    return typer.Exit(code)


def print_json(data: Any) -> None:
    """JSON on stdout, every non-ASCII character escaped (so no control character reaches the terminal)."""
    out.print_json(json.dumps(data), ensure_ascii=True)


@contextmanager
def bad_input() -> Iterator[None]:
    """Turn every KamiError into a one-line message and exit code 2 (4 for a solver's failure)."""
    try:
        yield
    except Interrupted:
        raise  # (for `interruptible`, outside)
    except SolverError as e:
        raise fail(str(e), EXIT_INTERNAL) from None
    except KamiError as e:
        raise fail(str(e)) from None


def _raise_terminated(_signum: int, _frame: object) -> None:
    raise Terminated


def _watch_signals() -> Callable[[], None] | None:
    """A helper thread that hears a signal at once (through Python's wakeup fd) and stops the running
    CP-SAT solves, so that the main thread returns from OR-Tools and raises the interrupt. Returns the undo."""
    read, write = os.pipe()
    os.set_blocking(write, False)
    try:
        old = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    except ValueError:  # not the main thread
        os.close(read)
        os.close(write)
        return None

    def listen() -> None:
        with contextlib.suppress(OSError):
            if os.read(read, 1):
                interrupt_solves()
        os.close(read)

    threading.Thread(target=listen, daemon=True).start()

    def undo() -> None:
        signal.set_wakeup_fd(old)
        os.close(write)  # (ends the helper's read)
        interrupt_solves(False)

    return undo


@contextmanager
def interruptible() -> Iterator[None]:
    """SIGINT and SIGTERM end the command with one line, what was proven so far, and exit 130 / 143. (The
    library stops its worker processes on the way out; SIGTERM is raised as `Terminated` meanwhile.)"""
    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:  # not the main thread: leave signals alone
        previous = None
    undo = _watch_signals() if previous is not None else None
    try:
        yield
    except Interrupted as e:
        raise _interrupted(e.result, e.signal) from None
    except KeyboardInterrupt as e:
        raise _interrupted(None, signal.SIGTERM if isinstance(e, Terminated) else signal.SIGINT) from None
    finally:
        if undo is not None:
            undo()
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _interrupted(result: object, signum: int) -> typer.Exit:
    lower = getattr(result, "lower_bound", None)
    upper = getattr(result, "upper_bound", None)
    best = "no solution" if upper is None else plural(upper, "move")
    bounds = "none" if lower is None else f"{lower}..{'?' if upper is None else upper}"
    err.print(f"interrupted: best so far {best}, bounds {bounds}", markup=False, soft_wrap=True)
    return typer.Exit(EXIT_INTERRUPTED[signum])


def load(path: Path, fmt: str | None, geometry: Geometry | None) -> Level:
    if path.is_dir():
        raise fail(f"{path}: is a directory, and this command takes one level file (`kamicp validate` takes "
                   "folders)")
    with bad_input():
        return load_level(path, fmt, geometry.value if geometry else None)


@contextmanager
def spinner(enabled: bool) -> Iterator[Callable[[str], None] | None]:
    """A spinner on stderr naming the horizon being solved (only on a terminal)."""
    if not enabled or not err.is_terminal:
        yield None
        return
    with err.status("solving") as status:
        yield lambda msg: status.update(Text(printable(msg)))


