"""Katamino puzzle files: JSON `{"rows": R, "cols": C, "pieces": "LPUVY", "blocked": [[r, c], ...]}`."""

from __future__ import annotations

import json
from pathlib import Path

from kamicp.errors import FormatError
from kamicp.formats.common import read_text_file
from kamicp.katamino.puzzle import Puzzle, puzzle_from_data


def read_katamino(path: str | Path) -> Puzzle:
    """Read a Katamino puzzle (FormatError naming the file and the field)."""
    text = read_text_file(path)
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise FormatError(f"not valid JSON: {e.msg}", source=str(path), where=f"line {e.lineno}") from None
    puzzle = puzzle_from_data(data, str(path))
    if not puzzle.name:
        puzzle = Puzzle(puzzle.rows, puzzle.cols, puzzle.pieces, puzzle.blocked, name=Path(path).stem)
    return puzzle
