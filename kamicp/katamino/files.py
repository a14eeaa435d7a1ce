"""Katamino files (JSON): a puzzle `{"rows": R, "cols": C, "pieces": "LPUVY", "blocked": [[r, c], ...],
"rule"?}`, a challenge `{"name", "pieces": "LYPNU...", "start": 3}`, or a book of challenges
`{"name", "rule"?, "challenges": [challenge, ...]}` (README, "Katamino")."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from kamicp.formats.common import load_json, read_text_file
from kamicp.katamino.book import Book, book_from_data
from kamicp.katamino.puzzle import Puzzle, puzzle_from_data

SAMPLER = "sampler"  # the name `kamicp katamino sampler` reads the example book by


def bundled_book() -> Path | None:
    """kamicp's example book: the one a built package carries (kamicp/katamino/books/sampler.json, copied
    by setup.py), else a checkout's puzzles/katamino/book.json; None when neither is there."""
    here = Path(__file__).resolve().parent
    for path in (here / "books" / f"{SAMPLER}.json", here.parents[1] / "puzzles" / "katamino" / "book.json"):
        if path.is_file():
            return path
    return None


def _load(path: str | Path) -> Any:
    return load_json(read_text_file(path), source=str(path))


def is_book(data: Any) -> bool:
    """Parsed JSON that is a book or a challenge (it has challenges, or a start), not a puzzle."""
    return isinstance(data, dict) and ("challenges" in data or ("start" in data and "rows" not in data))


def _puzzle(data: Any, path: str | Path) -> Puzzle:
    puzzle = puzzle_from_data(data, str(path))
    return puzzle if puzzle.name else replace(puzzle, name=Path(path).stem)


def read_katamino(path: str | Path) -> Puzzle:
    """Read a Katamino puzzle (FormatError naming the file and the field)."""
    return _puzzle(_load(path), path)


def read_book(path: str | Path) -> Book:
    """Read a book of challenges, or one challenge as a book of one (FormatError naming the file, the
    challenge and the field)."""
    return book_from_data(_load(path), str(path), default_name=Path(path).stem)


def read_katamino_file(path: str | Path) -> Puzzle | Book:
    """A puzzle or a book, whichever the file holds."""
    data = _load(path)
    if is_book(data):
        return book_from_data(data, str(path), default_name=Path(path).stem)
    return _puzzle(data, path)
