"""The level as the play page draws it: shapes from the picture code (kamicp.render.scene), the palette
with a readable name per colour, and the cells' ids (the page's stable hooks: "r,c" or the node id)."""

from __future__ import annotations

from functools import lru_cache

from kamicp.board.level import Level
from kamicp.board.rules import Board
from kamicp.render.colours import CSS_COLOURS, hex_of, parse_colour, rgb_of
from kamicp.render.scene import Circle, Label, Line, Polygon, board_scene, flat_items

CELL = 30.0  # drawing units per cell side (the page scales the SVG to fit)


def cell_id(level: Level, cell: int) -> str:
    label = level.labels[cell]
    return f"{label[0]},{label[1]}" if isinstance(label, tuple) else label


def colour_name(level: Level, key: str) -> str:
    """A name a screen reader can say: the palette's name, else the nearest CSS colour to its hex code."""
    shown = level.display_colour(key)
    if shown and not shown.startswith("#"):
        return shown
    if parse_colour(key) is not None and not key.startswith("#"):
        return key
    return f"{_nearest_css(rgb_of(level, key))} ({key})"


@lru_cache(maxsize=4096)
def _nearest_css(rgb: tuple[int, int, int]) -> str:
    """The CSS colour name nearest to `rgb` (cached, with the names parsed once: an upload of a level of
    100,000 colours asked this of every colour and pinned a worker thread for minutes)."""
    return min(_css_rgb(), key=lambda n: sum((u - v) ** 2 for u, v in zip(_css_rgb()[n], rgb, strict=True)))


@lru_cache(maxsize=1)
def _css_rgb() -> dict[str, tuple[int, int, int]]:
    return {name: parse_colour(code) or (0, 0, 0) for name, code in CSS_COLOURS.items()}


def _shape(level: Level, item: object) -> dict | None:
    if isinstance(item, Polygon) and item.cell is not None:
        return {"kind": "cell", "cell": item.cell, "points": [[round(x, 2), round(y, 2)] for x, y in item.points]}
    if isinstance(item, Circle) and item.role == "node" and item.cell is not None:
        return {"kind": "node", "cell": item.cell, "cx": round(item.center[0], 2), "cy": round(item.center[1], 2),
                "r": item.radius}
    if isinstance(item, Line):
        return {"kind": "edge", "a": [round(v, 2) for v in item.a], "b": [round(v, 2) for v in item.b]}
    if isinstance(item, Label) and item.role == "node-label":
        return {"kind": "label", "x": round(item.pos[0], 2), "y": round(item.pos[1], 2), "text": item.text,
                "cell": item.cell}
    return None


def level_view(level: Level, token: str) -> dict:
    """Everything the page needs to draw and play `level`."""
    scene = board_scene(Board.start(level), cell=CELL)
    shapes = [s for s in (_shape(level, item) for item in flat_items(scene)) if s is not None]
    holes: list[list[int]] = []
    if level.shape is not None:
        rows, cols = level.shape
        holes = [[r, c] for r in range(rows) for c in range(cols) if not level.has_cell((r, c))]
    return {
        "token": token,
        "name": level.name,
        "geometry": level.geometry,
        "shape": list(level.shape) if level.shape else None,
        "par": level.par,
        "width": round(scene.width, 2),
        "height": round(scene.height, 2),
        "cells": [cell_id(level, i) for i in range(level.size)],
        "colors": list(level.colours),
        "palette": [{"key": k, "hex": hex_of(level, k), "name": colour_name(level, k)}
                    for k in level.display_keys],  # (the file's palette order: swatches, 1-9 keys)
        "holes": holes,
        "shapes": shapes,
    }
