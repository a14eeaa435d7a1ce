"""Katamino solutions as pictures: the letter grid becomes a square-grid level (one colour per piece,
blocked cells as holes), drawn by kamicp.render like any board."""

from __future__ import annotations

from pathlib import Path

from kamicp.katamino.board import BLOCKED, Grid
from kamicp.level import Level
from kamicp.render.files import write_picture

PIECE_COLOURS = {
    "F": "#e63946", "I": "#457b9d", "L": "#f4a261", "N": "#2a9d8f", "P": "#8e44ad", "T": "#e9c46a",
    "U": "#1d3557", "V": "#90be6d", "W": "#f28482", "X": "#6d597a", "Y": "#8d5524", "Z": "#adb5bd",
}


def grid_level(grid: Grid, name: str = "") -> Level:
    return Level.from_rows(grid, "square", name=name, palette=PIECE_COLOURS, holes=BLOCKED)


def write_solution_picture(path: str | Path, grid: Grid, *, force: bool = False) -> Path:
    """Write the solution as SVG or PNG (by extension); refuses to overwrite without `force`."""
    return write_picture(path, grid_level(grid), force=force)
