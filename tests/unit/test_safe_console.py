"""SafeConsole escapes control characters through rich's public render hooks (no private method
overridden): whatever is printed, however (print, out, print_json, a table cell, a live display's text),
no control character it did not make itself reaches the terminal; its own styles and cursor moves do."""

from __future__ import annotations

import io
import re

from rich.progress import Progress, TextColumn
from rich.table import Table
from rich.text import Text

from kamicp.cli.console import SafeConsole

HOSTILE = "n\x1b[2Jm\u202ex\x00y"
ESCAPED = "n\\x1b[2Jm\\u202ex\\x00y"
OWN = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]|\x1b\]8;[^\x1b]*\x1b\\")  # the console's styles, cursor moves, links


def console() -> tuple[SafeConsole, io.StringIO]:
    buffer = io.StringIO()
    return SafeConsole(file=buffer, force_terminal=True, color_system="standard", width=120,
                         highlight=False), buffer


def assert_clean(written: str) -> None:
    rest = OWN.sub("", written)
    assert not any(not c.isprintable() and c not in "\n\r\t" for c in rest), repr(rest)


def test_only_public_rich_api():
    assert not any(name.startswith("_") and not name.startswith("__") and hasattr(SafeConsole.__mro__[1], name)
                   for name in vars(SafeConsole))


def test_every_way_of_printing_is_escaped():
    c, buffer = console()
    c.print(HOSTILE, markup=False)
    c.out(HOSTILE, highlight=False)
    c.print(Text(HOSTILE, style="red"))
    table = Table("name")
    table.add_row(Text(HOSTILE))
    c.print(table)
    c.print_json(data={"name": HOSTILE}, ensure_ascii=False)  # (JSON writes ESC as \u001b; U+202E raw)
    c.log(Text(HOSTILE))
    written = buffer.getvalue()
    assert written.count(ESCAPED) == 5 and '"n\\u001b[2Jm\\u202ex\\u0000y"' in written
    assert "\x1b[31m" in written  # the console's own colours pass
    assert_clean(written)


def test_a_live_display_and_what_follows_it_are_escaped():
    c, buffer = console()
    with Progress(TextColumn("{task.description}"), console=c, auto_refresh=False) as bar:
        task = bar.add_task(HOSTILE, total=2)
        bar.update(task, advance=1)
        bar.refresh()
        c.print(HOSTILE, markup=False)  # printed above the live display
    c.print(HOSTILE, markup=False)  # the escaping hook is still there once the display has gone
    written = buffer.getvalue()
    assert ESCAPED in written and "\x1b[?25l" in written  # the display's own cursor control passes
    assert_clean(written)
    assert buffer.getvalue().rstrip().endswith(ESCAPED)


def test_json_to_a_pipe_is_written_plain_with_every_control_character_escaped(monkeypatch):
    """`print_json` writes JSON to a pipe or file as it is (no highlighting: a pack of 1000 rows), yet every
    control character, DEL included (ASCII, which json leaves as it is), is a JSON escape."""
    import json

    from kamicp.cli import console as console_module

    buffer = io.StringIO()
    monkeypatch.setattr(console_module, "out", SafeConsole(file=buffer, highlight=False))
    data = {"level": HOSTILE + "\x7f\u009b", "rows": [1, 2]}
    console_module.print_json(data)
    written = buffer.getvalue()
    assert_clean(written)
    assert json.loads(written) == data
    assert written.startswith('{\n  "level": ') and written.endswith("\n}\n")  # (indented, as on a terminal)
