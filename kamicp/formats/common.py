"""What every reader shares: reading a file safely (regular files only, at most a byte limit), integers
parsed with a range check, and the cell limit (kamicp.limits)."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

from kamicp.errors import FormatError
from kamicp.limits import ENV, MAX_DIGITS, MAX_MOVES, limits
from kamicp.runtime.text import cut, json_int

_INT = re.compile(r"[+-]?[0-9]+")


def _kind(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO (named pipe)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a regular file"


def read_bytes(path: str | Path, *, what: str = "level file", max_bytes: int | None = None) -> bytes:
    """The file's bytes. Refuses (FormatError) anything but a regular file (after following symlinks),
    and files over the byte limit, without reading more than limit + 1 bytes.

    The file is opened non-blocking and checked on the open descriptor, so a FIFO cannot hang the open
    and nothing can be swapped in between the check and the read."""
    source = str(path)
    limit = limits().max_bytes if max_bytes is None else max_bytes
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise FormatError("no such file", source=source) from None
    except IsADirectoryError:
        raise FormatError(f"is a directory, not a {what}", source=source) from None
    except OSError as e:
        raise FormatError(f"cannot read: {e.strerror or e}", source=source) from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise FormatError(f"is a directory, not a {what}", source=source)
        if not stat.S_ISREG(mode):
            raise FormatError(f"is {_kind(mode)}, not a {what}", source=source)
        if getattr(os, "O_NONBLOCK", 0):
            os.set_blocking(fd, True)
        with os.fdopen(fd, "rb", closefd=True) as f:
            fd = -1
            data = f.read(limit + 1)
    except OSError as e:
        raise FormatError(f"cannot read: {e.strerror or e}", source=source) from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:
        raise FormatError(f"larger than the limit of {limit} bytes (raise it with {ENV['max_bytes']})",
                          source=source)
    return data


def read_text_file(path: str | Path) -> str:
    """The file as UTF-8 text (a leading BOM dropped), read with read_bytes."""
    data = read_bytes(path)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise FormatError(f"not UTF-8 text (byte {e.start})", source=str(path)) from None


def parse_int(text: str, *, source: str, where: str, minimum: int | None = 0,
              maximum: int | None = MAX_MOVES) -> int:
    """An integer field: optional sign and ASCII digits, at most MAX_DIGITS of them, within
    [minimum, maximum] (None: unbounded on that side, still at most MAX_DIGITS digits)."""
    value = text.strip()
    if not value:
        raise FormatError("is empty (expected an integer)", source=source, where=where)
    if not _INT.fullmatch(value):
        raise FormatError(f"must be an integer, got {cut(value)!r}", source=source, where=where)
    digits = len(value.lstrip("+-"))
    if digits > MAX_DIGITS:
        raise FormatError(f"a {digits}-digit number is out of range (at most {MAX_DIGITS} digits)",
                          source=source, where=where)
    return check_range(int(value), source=source, where=where, minimum=minimum, maximum=maximum)


def check_range(number: int, *, source: str, where: str, minimum: int | None = 0,
                maximum: int | None = MAX_MOVES) -> int:
    if minimum is not None and number < minimum:
        raise FormatError(f"must be at least {minimum}, got {number}", source=source, where=where)
    if maximum is not None and number > maximum:
        raise FormatError(f"must be at most {maximum}, got {number}", source=source, where=where)
    return number


def check_cells(count: int, *, source: str, where: str, what: str = "cells") -> None:
    """Refuse a level with more cells than the limit (before anything of that size is built)."""
    limit = limits().max_cells
    if count > limit:
        raise FormatError(f"{count} {what} is over the limit of {limit} cells (raise it with {ENV['max_cells']})",
                          source=source, where=where)


def load_json(text: str, *, source: str, where: str | None = None) -> Any:
    """Parse JSON from a file or an option the way every reader must: integers of more than MAX_DIGITS
    digits become HugeNumber (refused by every field check, never int() of 5000 digits), and nesting too
    deep for the parser is a FormatError, as is any syntax error (with its line)."""
    try:
        return json.loads(text, parse_int=json_int)
    except json.JSONDecodeError as e:
        raise FormatError(f"not valid JSON: {e.msg}", source=source,
                          where=where or f"line {e.lineno}") from None
    except RecursionError:  # the C decoder stops cleanly at the interpreter's recursion limit
        raise FormatError("not valid JSON: nested too deeply", source=source, where=where) from None
