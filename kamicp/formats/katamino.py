"""Katamino puzzle files: JSON `{"rows": R, "cols": C, "pieces": "LPUVY", "blocked": [[r, c], ...]}`."""

from __future__ import annotations

from pathlib import Path

from kamicp.formats.common import load_json, read_text_file
from kamicp.katamino.puzzle import Puzzle, puzzle_from_data


def read_katamino(path: str | Path) -> Puzzle:
    """Read a Katamino puzzle (FormatError naming the file and the field)."""
    text = read_text_file(path)
    data = load_json(text, source=str(path))
    puzzle = puzzle_from_data(data, str(path))
    if not puzzle.name:
        puzzle = Puzzle(puzzle.rows, puzzle.cols, puzzle.pieces, puzzle.blocked, name=Path(path).stem)
    return puzzle
