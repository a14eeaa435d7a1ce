"""What commands print, and how: the two consoles (stdout `out`, stderr `err`) that never write a control
character they did not make, user text made safe (`shown`, `one_line`), JSON, the spinner, and the
one-line error that ends a command (`fail`, `bad_input`). User text printed through rich goes through
`shown` (markup) or `printable` (plain text, kamicp.render.safe)."""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import typer
from rich.console import Console, ConsoleOptions, ConsoleRenderable, RenderHook, RenderResult, RichCast
from rich.segment import Segment
from rich.text import Text

from kamicp.cli.exits import EXIT_BAD_INPUT, EXIT_INTERNAL
from kamicp.cli.pipes import PipeClosed
from kamicp.errors import Interrupted, KamiError, SolverError
from kamicp.render.safe import printable


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
        raise PipeClosed


def _safe_text(text: str) -> str:
    return "\n".join("\t".join(printable(part) for part in line.split("\t")) for line in text.split("\n"))


out = SafeConsole(highlight=False, emoji=False)  # (a name like ":a:" prints as written)
err = SafeConsole(stderr=True, highlight=False, emoji=False)


_BRACKET = re.compile(r"(\\*)\[(?=([a-z#/@][^[]*?\])?)")  # a '[' with the backslashes before it; group 2: a tag


def _escape_markup(text: str) -> str:
    """`text` as rich markup that shows it as written. rich's own escape() covers only a '[' that starts a tag,
    while its markup also reads a backslash before any other '[', and before the closing tag, as an escape:
    k backslashes before a tag's '[' become 2k + 1, before another '[' k + 1, at the end 2k."""
    def bracket(m: re.Match) -> str:
        k = len(m.group(1))
        return "\\" * (2 * k + 1 if m.group(2) is not None else k + 1) + "["

    text = _BRACKET.sub(bracket, text)
    return text + "\\" * (len(text) - len(text.rstrip("\\")))


def shown(value: object) -> str:
    """User text (a name, a path, a colour) to embed in a rich markup string: control characters
    escaped (kamicp.render.safe.printable) and markup escaped, so it prints as written."""
    return _escape_markup(printable(value))


def plural(n: int, word: str, words: str | None = None) -> str:
    """"1 move", "2 moves" (`words` when the plural is not word + s)."""
    return f"{n} {word if n == 1 else words or word + 's'}"


def one_line(message: str) -> str:
    return " ".join(printable(part) for part in message.splitlines() if part.strip())


def fail(message: str, code: int = EXIT_BAD_INPUT) -> typer.Exit:
    err.print(f"error: {one_line(message)}", markup=False, soft_wrap=True)
    return typer.Exit(code)


def print_json(data: Any) -> None:
    """JSON on stdout, every non-ASCII character escaped (so no control character reaches the terminal):
    highlighted on a terminal, written as it is to a pipe or a file, where rich's highlighting of a large
    answer (a pack of 1000 levels) would cost more than the answers themselves."""
    if out.is_terminal:
        out.print_json(json.dumps(data), ensure_ascii=True)
        return
    text = json.dumps(data, indent=2, ensure_ascii=True).replace("\x7f", "\\u007f")  # (DEL: ASCII, not escaped)
    out.file.write(text + "\n")


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


@contextmanager
def spinner(enabled: bool) -> Iterator[Callable[[str], None] | None]:
    """A spinner on stderr naming the horizon being solved (only on a terminal)."""
    if not enabled or not err.is_terminal:
        yield None
        return
    with err.status("solving") as status:
        yield lambda msg: status.update(Text(printable(msg)))
