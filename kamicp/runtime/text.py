"""Text for one-line messages, and JSON integers that cannot blow up: shared by the readers (formats),
the designer tools (hint), the packs and the Dask connection, so it lives in the lowest wing they all
may import (the runtime), not in `formats`, which designer tools and the runtime must not depend on."""

from __future__ import annotations

import json
from typing import Any

from kamicp.limits import MAX_DIGITS


def cut(text: str, width: int = 60) -> str:
    """Text from a file for an error message, cut to `width` characters, a control character escaped (so a
    message stays one line)."""
    if not text.isprintable():
        text = "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)
    return text if len(text) <= width else text[:width - 3] + "..."


def short(value: Any, width: int = 60) -> str:
    """A value from a file for an error message: as JSON, cut to `width` characters."""
    try:
        text = json.dumps(value, default=repr)
    except (ValueError, RecursionError):
        text = type(value).__name__
    return cut(text, width)


class HugeNumber:
    """An integer literal with more than MAX_DIGITS digits, kept unconverted: no field accepts it, and
    int() of a long enough literal would hit Python's digit limit (a ValueError) or take quadratic time."""

    def __init__(self, literal: str) -> None:
        self.digits = len(literal.lstrip("-"))

    def __repr__(self) -> str:
        return f"<a {self.digits}-digit number>"


def json_int(literal: str) -> int | HugeNumber:
    """json.loads's `parse_int`: an int, or a HugeNumber for a literal over MAX_DIGITS digits."""
    return HugeNumber(literal) if len(literal.lstrip("-")) > MAX_DIGITS else int(literal)


__all__ = ["HugeNumber", "cut", "json_int", "short"]
