"""A Kami 2 game screenshot read as a level: the layout (layout.py), the palette from the footer's
swatches, every cell or hole (cells.py) and the moves left (moves.py)."""

from __future__ import annotations

import string

import numpy as np
from PIL import Image

from kamicp.board.level import HOLE, Level
from kamicp.errors import FormatError
from kamicp.formats.shot import layout as game_layout
from kamicp.formats.shot.cells import (
    CellReading,
    CellSamples,
    cell_polygon,
    mixed_share,
    read_cells,
    sample_cells,
    split_cells,
)
from kamicp.formats.shot.colour import hex_colour, rgb_to_lab
from kamicp.formats.shot.moves import read_moves
from kamicp.formats.shot.report import Box, CellMark, ImportReport, Screenshot, UncertainCell

KEYS = string.ascii_uppercase
MAX_HOLE_SHARE = 0.97  # a board that is all holes but a few cells is not a board read right
MAX_UNMATCHED = 0.1  # nor one where more than this share of the cells match no swatch
MAX_MIXED = 0.1  # nor one where more than this share of the samples straddle a triangle's edge
MIN_SPLIT = 2  # nor one with this many triangles of two colours (none on a board in place; a speck is one)


def _swatch_colours(arr: np.ndarray, lab: np.ndarray,
                    layout: game_layout.GameLayout) -> tuple[list[np.ndarray], np.ndarray]:
    """Each swatch's colour, RGB (the palette) and Lab (what cells are matched to): the median of its
    middle, low in the bar (below any dog-ear) and in from its sides."""
    band = game_layout.swatch_band(layout.footer)
    rgb, centres = [], []
    for a, b in layout.swatches:
        inner = slice(a + (b - a) // 5, b - (b - a) // 5)
        rgb.append(np.median(arr[band, inner].reshape(-1, 3), axis=0))
        centres.append(np.median(lab[band, inner].reshape(-1, 3), axis=0))
    return rgb, np.array(centres)


def _marks(layout: game_layout.GameLayout, samples: CellSamples, keys: list[str],
           offset: tuple[int, int]) -> tuple[CellMark, ...]:
    """Where each cell was read, for the overlay, in the whole picture's pixels (the layout was found in
    the content inside any frames, which starts at `offset`)."""
    ox, oy = offset
    return tuple(CellMark((r, c), tuple((px + ox, py + oy) for px, py in cell_polygon(layout, r, c)),
                          (x + ox, y + oy), key)
                 for (r, c), (x, y, _), key in zip(samples.labels, samples.points, keys, strict=True))


def _grid(samples: CellSamples, reading: CellReading, keys: str) -> tuple[list[list[str]], list[UncertainCell],
                                                                        list[str]]:
    grid = [[HOLE] * game_layout.COLS for _ in range(game_layout.ROWS)]
    uncertain, cell_keys = [], []
    for n, (r, c) in enumerate(samples.labels):
        key = HOLE if reading.hole[n] else keys[reading.colour[n]]
        grid[r][c] = key
        cell_keys.append(key)
        if reading.doubt[n]:
            uncertain.append(UncertainCell((r, c), key, reading.doubt[n], round(float(reading.distance[n]), 1)))
    return grid, uncertain, cell_keys


def _refuse_split(lab: np.ndarray, layout: game_layout.GameLayout, source: str) -> None:
    """A FormatError when triangles show two colours at their corners: the rows lie a whole pitch or more
    off the layout (samples inside the wrong triangles, which mixed_share cannot see), or the board's
    edge crosses the lattice's rows, so reading it would shift the board by rows."""
    split = split_cells(lab, layout)
    if len(split) >= MIN_SPLIT:
        rows = sorted({r for r, _ in split})
        shown = ", ".join(map(str, rows[:6])) + (", ..." if len(rows) > 6 else "")
        where = f"{'rows' if len(rows) > 1 else 'row'} {shown}"
        raise FormatError(f"a Kami 2 footer, but the triangles could not be placed: {len(split)} cells ({where}) "
                          "show two colours at their corners, so the board is not where the game's layout puts "
                          "it (rows a pitch or more off?)", source=source)


def game_screenshot(img: Image.Image, content: Box, name: str, source: str) -> Screenshot | None:
    """The level of a Kami 2 screenshot whose content (inside any frames) is `content`; None when the
    picture has no game footer; FormatError when it has one but cannot be read with confidence."""
    ox, oy = content[0], content[1]
    arr = np.asarray(img.crop(content))
    lab = rgb_to_lab(arr)
    try:
        layout = game_layout.find_layout(lab)
    except FormatError as e:
        raise FormatError(e.message, source=source) from None
    if layout is None:
        return None
    mixed = mixed_share(lab, layout)  # the lattice off the triangles (another layout): refused, not misread
    if mixed > MAX_MIXED:
        raise FormatError(f"a Kami 2 footer, but the triangles could not be placed: {mixed:.0%} of the cells' "
                          "samples straddle an edge (not the game's board layout)", source=source)
    _refuse_split(lab, layout, source)
    par, par_note = read_moves(lab, layout)
    swatch_rgb, centres = _swatch_colours(arr, lab, layout)
    samples = sample_cells(lab, layout)
    reading = read_cells(samples, centres)
    keys = KEYS[:len(centres)]
    grid, uncertain, cell_keys = _grid(samples, reading, keys)
    if reading.hole.mean() > MAX_HOLE_SHARE:
        raise FormatError("a Kami 2 footer, but almost every cell shows the background: the board could not "
                          "be placed", source=source)
    unmatched = sum(d.startswith("matches no colour") for d in reading.doubt)
    if unmatched > MAX_UNMATCHED * len(reading.doubt):
        raise FormatError(f"a Kami 2 footer, but {unmatched} cells match none of its swatches: the board could "
                          "not be placed with confidence", source=source)
    palette = tuple((k, hex_colour(v)) for k, v in zip(keys, swatch_rgb, strict=True))
    level = Level.from_rows(["".join(row) for row in grid], "triangle", name=name, palette=dict(palette))
    if par is not None:  # the moves left shown, kept wherever the level goes
        level = level.with_par(par)
    counts = tuple((k, sum(row.count(k) for row in grid)) for k in keys)
    notes = list(reading.notes)
    unused = [k for k, n in counts if n == 0]
    if unused:
        notes.append(f"swatch {', '.join(unused)} has no cell on the board: check the palette")
    x0, y0, x1, y1 = layout.board
    h = arr.shape[0]
    box = (round(x0) + ox, max(0, round(y0)) + oy, round(x1) + ox, min(h, round(y1)) + oy)
    report = ImportReport(
        source=source, image_size=img.size, box=box, geometry="triangle",
        shape=(game_layout.ROWS, game_layout.COLS), palette=palette, counts=counts,
        holes=int(reading.hole.sum()), uncertain=tuple(uncertain), warnings=tuple(notes), layout="game",
        cells=_marks(layout, samples, cell_keys, (ox, oy)), par=par, par_note=par_note,
    )
    return Screenshot(level, report)
