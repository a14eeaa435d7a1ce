"""The one typer `app` every command registers on, and its group class: errors end the same way in every
command, including commands added later. KamiGroup turns option errors into one `error: ...` line with
exit 2, any unexpected exception into one line with exit 4 (KAMICP_DEBUG=1 adds the traceback), and a
closed pipe into a quiet exit 141 (kamicp.cli.exits lists the codes)."""

from __future__ import annotations

import os
import sys
import traceback
from collections.abc import Sequence
from typing import Annotated, Any

import typer
from typer.core import TyperGroup

try:  # typer vendors click from 0.2x on; older releases use click itself
    from typer._click.exceptions import ClickException, NoArgsIsHelpError
except ImportError:  # pragma: no cover - depends on the installed typer
    from click.exceptions import ClickException, NoArgsIsHelpError  # type: ignore[no-redef]

from kamicp.cli.console import err, one_line, out
from kamicp.cli.exits import EXIT_BAD_INPUT, EXIT_BROKEN_PIPE, EXIT_INTERNAL, EXIT_OK
from kamicp.cli.help import tidy_help
from kamicp.cli.pipes import PipeClosed, flushed, pipe_guard, silence_std_streams

DEBUG_ENV = "KAMICP_DEBUG"


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
        with pipe_guard():  # (--help is printed while the context is made)
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: Any) -> Any:
        with pipe_guard():
            return super().invoke(ctx)

    def main(self, args: Sequence[str] | None = None, prog_name: str | None = None,
             complete_var: str | None = None, standalone_mode: bool = True, **extra: Any) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, standalone_mode=False, **extra)
        try:
            code = self._main(args, prog_name, complete_var, **extra)
        except PipeClosed:  # (also while an error line below is printed)
            silence_std_streams()
            code = EXIT_BROKEN_PIPE
        sys.exit(flushed(code if isinstance(code, int) else EXIT_OK))

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
        except PipeClosed:
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
    "2 bad input, 3 no answer (time limit, or the cluster lost), 4 internal error, 130/143 interrupted.",
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
