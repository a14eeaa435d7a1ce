"""User text made safe to show: in the terminal, in SVG (XML) and in PNG captions.

Level names, node ids, colour names and file names come from files the user may not have written.
Every character that is not printable (control characters such as ESC, bidirectional overrides,
lone surrogates, unassigned code points) is shown as its Python escape (`\\x1b`, `\\u202e`), so
nothing can move the cursor, recolour the terminal, reorder text, or make an SVG ill-formed.
"""

from __future__ import annotations


def printable(text: object) -> str:
    """`text` as a string with every non-printable character replaced by its escape (spaces kept)."""
    s = str(text)
    if s.isprintable():
        return s
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in s)
