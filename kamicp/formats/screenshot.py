"""Levels from screenshots: find the board, sample every cell, cluster the colours, write a level.

0. Margins: while the picture's border is one colour, what lies inside it is taken (shot/margins.py), so
   a screenshot pasted inside a frame, itself inside another, is found. A Kami 2 game screenshot (its
   dark footer with the colour swatches; triangle geometry, default size) is read by its own layout:
   shot/game.py, with the palette from the swatches and holes against the background.
1. The board (any other picture): the border colour is the background; the board is the innermost
   box inside the margins with the grid's shape (or `box`, given by the caller). Cells are placed by
   the lattice geometry (triangle 29 x 10, square 10 x 16 by default) scaled to that box.
2. Samples: the median colour of a small patch at each cell's centre (not one pixel), so noise, paper
   texture and JPEG artefacts average out; the patch's spread says whether it is uniform.
3. Colours: clustered in CIE Lab, where distances match what the eye sees (shot/cluster.py): samples
   chained into one colour, then colours with close centres merged. The number of colours is whatever
   remains. Keys are A, B, C, ... in reading order of first use.
4. Report: sizes, palette, cell counts, holes (cells showing the background) and uncertain cells: a
   sample nearly as close to another colour as to its own, a patch that is not uniform, or the only
   cell of its colour.

Large images are refused before decoding (MAX_PIXELS) and read reduced to WORK_SIDE pixels (shot/image.py).
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image

from kamicp.board.lattice import Lattice, lattice
from kamicp.board.level import HOLE, Level
from kamicp.errors import FormatError, UsageError
from kamicp.formats.shot.cluster import cluster
from kamicp.formats.shot.colour import delta_e, rgb_to_lab
from kamicp.formats.shot.game import game_screenshot
from kamicp.formats.shot.image import MAX_PIXELS, WORK_SIDE, open_image, open_reduced
from kamicp.formats.shot.margins import (
    Background,
    Candidates,
    Chain,
    aspect_off,
    background_at,
    best_box,
    board_boxes,
    find_board,
    peel_margins,
    refine_box,
)
from kamicp.formats.shot.report import Box, CellMark, ImportReport, Screenshot, UncertainCell

DEFAULT_SHAPES: dict[str, tuple[int, int]] = {"triangle": (29, 10), "square": (10, 16)}
HOLE_DELTA_E = 6.0  # a cell this close to the background colour is a hole
SPREAD_DELTA_E = 10.0  # a patch spreading more than this (and 3x the typical patch) is not uniform
AMBIGUITY = 0.5  # uncertain when (distance to own colour) > AMBIGUITY * (distance to the next colour)
KEYS = string.ascii_uppercase + string.ascii_lowercase + string.digits


def _patch(arr: np.ndarray, x: float, y: float, half: float) -> tuple[np.ndarray, float]:
    """Median colour (RGB) of the square patch around (x, y) and its spread (ΔE, 75th percentile)."""
    k = max(1, int(half))
    ix, iy = int(x), int(y)
    patch = arr[max(0, iy - k):iy + k + 1, max(0, ix - k):ix + k + 1].reshape(-1, 3)
    med = np.median(patch, axis=0)
    return med, float(np.quantile(delta_e(rgb_to_lab(patch), rgb_to_lab(med)), 0.75))


def _board_shape(geometry: str, rows: int | None, cols: int | None, source: str) -> tuple[int, int]:
    """The grid's rows and columns, the geometry's default where not given (0 too); checked first, so a
    wrong request is named before any picture work."""
    if geometry not in DEFAULT_SHAPES:
        raise FormatError(f"unknown geometry {geometry!r} for a screenshot (expected triangle or square)",
                          source=source)
    drows, dcols = DEFAULT_SHAPES[geometry]
    rows, cols = rows or drows, cols or dcols
    if rows < 1 or cols < 1:
        raise FormatError("rows and columns must be positive", source=source)
    return rows, cols


def _check_box(img: Image.Image, box: Box, source: str) -> None:
    """A box given by the caller must lie inside the image: cells are sampled inside it."""
    x0, y0, x1, y1 = box
    if not (0 <= x0 < x1 <= img.width and 0 <= y0 < y1 <= img.height):
        raise FormatError(f"box {box} is not inside the {img.width} x {img.height} image", source=source)


def _cell_scale(box: Box, extent: tuple[float, float], geometry: str, shape: tuple[int, int],
                source: str) -> tuple[float, float, int]:
    """Pixels per lattice unit across and down, and the half side of each cell's sample patch (40% of
    the cell's inradius, so the patch stays inside the cell when the box is a little off). FormatError
    when the cells are too small to sample."""
    x0, y0, x1, y1 = box
    sx, sy = (x1 - x0) / extent[0], (y1 - y0) / extent[1]
    inradius = min(sx, sy) * (3**0.5 / 6 if geometry == "triangle" else 0.5)
    half = max(1, int(inradius * 0.4))
    if inradius < 2.5:
        raise FormatError(f"the board is too small to read ({x1 - x0} x {y1 - y0} pixels for {shape[0]} x "
                          f"{shape[1]} cells)", source=source)
    return sx, sy, half


@dataclass(frozen=True)
class _Samples:
    """What was read at every lattice position, in reading order."""

    labels: list[tuple[int, int]]
    rgb: np.ndarray  # the patch's median colour, one row per cell
    spreads: list[float]  # how far the patch strays from its median (ΔE, 75th percentile)
    xs: list[float]  # the cell's centre in image pixels
    ys: list[float]


def _sample_cells(arr: np.ndarray, lat: Lattice, shape: tuple[int, int], origin: tuple[int, int],
                  scale: tuple[float, float], half: int) -> _Samples:
    """A patch at every cell's centre (the lattice polygon's centroid, scaled into the box at `origin`)."""
    labels: list[tuple[int, int]] = []
    medians, spreads, xs, ys = [], [], [], []
    for r in range(shape[0]):
        for c in range(shape[1]):
            pts = lat.polygon(r, c, 1.0)
            cx = origin[0] + scale[0] * sum(p[0] for p in pts) / len(pts)
            cy = origin[1] + scale[1] * sum(p[1] for p in pts) / len(pts)
            med, spread = _patch(arr, cx, cy, half)
            labels.append((r, c))
            xs.append(cx)
            ys.append(cy)
            medians.append(med)
            spreads.append(spread)
    return _Samples(labels, np.array(medians), spreads, xs, ys)


def _holes(lab: np.ndarray, samples: _Samples, background: Background | None, source: str) -> np.ndarray:
    """Which cells show the margin's background (none when the board fills the picture, as there is no
    background to compare with); FormatError when every cell does."""
    hole = np.zeros(len(samples.labels), dtype=bool)
    if background is not None:
        bg = background_at(background, np.array(samples.xs), np.array(samples.ys))
        hole = delta_e(lab, bg) < HOLE_DELTA_E
    if hole.all():
        raise FormatError("no board found: every cell shows the background", source=source)
    return hole


@dataclass(frozen=True)
class _Colours:
    """The colours of the board's cells (holes left out): each cell's cluster, and per cluster its key,
    centre (Lab) and number of cells. Clusters are in reading order of first use, as keys are given."""

    clusters: np.ndarray
    order: list[int]
    key_of: dict[int, str]
    centres: dict[int, np.ndarray]
    sizes: dict[int, int]


def _find_colours(lab: np.ndarray, source: str) -> _Colours:
    """Cluster the cells' colours (Lab) and give them keys; FormatError when there are more than keys."""
    clusters = cluster(lab)
    if clusters.max() + 1 > len(KEYS):
        raise FormatError(f"{clusters.max() + 1} colours found: too many for a level (at most {len(KEYS)})",
                          source=source)
    order = list(dict.fromkeys(clusters.tolist()))  # clusters in reading order of first use
    return _Colours(clusters, order, {k: KEYS[n] for n, k in enumerate(order)},
                    {k: np.median(lab[clusters == k], axis=0) for k in order},
                    {k: int((clusters == k).sum()) for k in order})


def _board_palette(rgb: np.ndarray, colours: _Colours) -> tuple[tuple[str, str], ...]:
    """Each key's display colour: the median of its cells' colours (`rgb`, holes left out)."""
    return tuple((colours.key_of[k], "#{:02x}{:02x}{:02x}".format(*(round(v) for v in
                  np.median(rgb[colours.clusters == k], axis=0)))) for k in colours.order)


def _board_doubt(own: float, other: float, spread: float, spread_limit: float, size: int, cells: int) -> str:
    """Why a cell should be checked by eye, or "": nearly as close to another colour as to its own, a
    patch that is not uniform, or the only cell of its colour (a stray mark may look like one)."""
    if own > AMBIGUITY * other:
        return "between two colours"
    if spread > spread_limit:
        return "patch not uniform"
    if size == 1 and cells > 1:
        return "only cell of its colour"
    return ""


def _board_grid(lab: np.ndarray, samples: _Samples, cells: np.ndarray, colours: _Colours,
                shape: tuple[int, int]) -> tuple[list[list[str]], list[UncertainCell]]:
    """The grid of keys (holes where no cell was kept) and the cells to check by eye."""
    grid = [[HOLE] * shape[1] for _ in range(shape[0])]
    uncertain = []
    spread_limit = max(SPREAD_DELTA_E, 3.0 * float(np.median(samples.spreads)))  # relative to the image's noise
    centres, order = colours.centres, colours.order
    for n, cell in enumerate(cells):
        k = int(colours.clusters[n])
        r, c = samples.labels[cell]
        grid[r][c] = colours.key_of[k]
        own = float(delta_e(lab[cell], centres[k]))
        other = min((float(delta_e(lab[cell], centres[j])) for j in order if j != k), default=np.inf)
        reason = _board_doubt(own, other, samples.spreads[cell], spread_limit, colours.sizes[k], len(cells))
        if reason:
            uncertain.append(UncertainCell((r, c), colours.key_of[k], reason, round(own, 1)))
    return grid, uncertain


MAX_GUESSED_HOLES = 0.5  # a picture whose grid was guessed from its shape: at most this share of holes ...
MAX_MIXED = 0.2  # ... and of cells whose patch is not one colour, or it is not taken for a board


def _check_board_like(samples: _Samples, hole: np.ndarray, source: str) -> None:
    """A picture read as the grid its shape suggests must look like a board: mostly cells, each one
    colour; FormatError otherwise (a drawing, a photo) rather than a level of noise."""
    limit = max(SPREAD_DELTA_E, 3.0 * float(np.median(samples.spreads)))
    mixed = float(np.mean(np.array(samples.spreads)[~hole] > limit)) if (~hole).any() else 0.0
    if hole.mean() > MAX_GUESSED_HOLES or mixed > MAX_MIXED:
        why = (f"{hole.mean():.0%} of the grid shows the background" if hole.mean() > MAX_GUESSED_HOLES
               else f"{mixed:.0%} of the cells are not one colour")
        raise FormatError(f"no board found: the picture has a board's shape, but {why} (give --geometry to read "
                          "it anyway)", source=source)


def _aspect(geometry: str, shape: tuple[int, int]) -> float:
    ext_w, ext_h = lattice(geometry).extent(*shape, 1.0)
    return ext_w / ext_h


def _guess_geometry(chain: Chain, groups: Candidates, rows: int | None, cols: int | None, source: str) -> str:
    """Triangle or square, by which grid's shape a box where a board may be has (`board_boxes`, in its
    order; the nearer shape within a group); FormatError when none has either: then it is not a picture
    of a board kamicp knows."""
    aspects = {g: _aspect(g, _board_shape(g, rows, cols, source)) for g in DEFAULT_SHAPES}
    for group in groups:
        fits = [(aspect_off(found[0], aspects[g]), g) for g in DEFAULT_SHAPES
                if (found := best_box([group], aspects[g])) is not None]
        if fits:
            return min(fits)[1]
    box = chain[-1][0]
    wanted = " or ".join(f"{g} {r} x {c}" for g, (r, c) in
                         ((g, _board_shape(g, rows, cols, source)) for g in DEFAULT_SHAPES))
    raise FormatError(f"no board found: neither a game screenshot (no Kami 2 footer) nor a board of the shape of a "
                      f"{wanted} grid ({box[2] - box[0]} x {box[3] - box[1]} pixels inside the margins): give "
                      "--geometry, --rows/--cols or the board's --box", source=source)


def level_from_image(img: Image.Image, geometry: str | None = None, rows: int | None = None,
                     cols: int | None = None, *, box: Box | None = None, name: str = "",
                     source: str = "") -> Screenshot:
    """Read a board from an RGB image (see the module doc); FormatError when there is none. Without
    `geometry`, a Kami 2 game screenshot is read as one, and any other picture as the grid (triangle or
    square) whose shape its board has."""
    img = img.convert("RGB")
    notes: list[str] = []
    background = None
    guessed = geometry is None
    if box is None:
        try:
            chain = peel_margins(img)
            game_shape = DEFAULT_SHAPES["triangle"]
            if geometry in (None, "triangle") and (rows or game_shape[0], cols or game_shape[1]) == game_shape:
                game = game_screenshot(img, refine_box(img, *chain[-1]), name, source)
                if game is not None:
                    return game
            groups = board_boxes(img, chain)
            if geometry is None:
                geometry = _guess_geometry(chain, groups, rows, cols, source)
            rows, cols = _board_shape(geometry, rows, cols, source)
            box, background, notes = find_board(img, _aspect(geometry, (rows, cols)), chain, groups)
        except FormatError as e:
            raise FormatError(e.message, source=source) from None
    else:
        geometry = geometry or "triangle"
        rows, cols = _board_shape(geometry, rows, cols, source)
        _check_box(img, box, source)
    lat = lattice(geometry)
    ext_w, ext_h = lat.extent(rows, cols, 1.0)
    x0, y0 = box[0], box[1]
    sx, sy, half = _cell_scale(box, (ext_w, ext_h), geometry, (rows, cols), source)
    samples = _sample_cells(np.asarray(img), lat, (rows, cols), (x0, y0), (sx, sy), half)
    lab = rgb_to_lab(samples.rgb)
    hole = _holes(lab, samples, background, source)
    if guessed:
        _check_board_like(samples, hole, source)
    cells = np.flatnonzero(~hole)
    colours = _find_colours(lab[cells], source)
    palette = _board_palette(samples.rgb[cells], colours)
    grid, uncertain = _board_grid(lab, samples, cells, colours, (rows, cols))
    level = Level.from_rows(["".join(row) for row in grid], geometry, name=name, palette=dict(palette))
    marks = tuple(CellMark((r, c), tuple((x0 + sx * px, y0 + sy * py) for px, py in lat.polygon(r, c, 1.0)),
                           (samples.xs[n], samples.ys[n]), grid[r][c]) for n, (r, c) in enumerate(samples.labels))
    report = ImportReport(
        source=source,
        image_size=img.size,
        box=box,
        geometry=geometry,
        shape=(rows, cols),
        palette=palette,
        counts=tuple((colours.key_of[k], colours.sizes[k]) for k in colours.order),
        holes=int(hole.sum()),
        uncertain=tuple(uncertain),
        warnings=tuple(notes),
        cells=marks,
    )
    return Screenshot(level, report)


def read_screenshot(path: str | Path, geometry: str | None = None, rows: int | None = None,
                    cols: int | None = None, *, box: Box | None = None, name: str | None = None) -> Screenshot:
    """Import a level from a screenshot file (PNG, JPEG, ...); the level is named after the file."""
    p = Path(path)
    img, size = open_reduced(p, WORK_SIDE)
    factor = size[0] / img.width
    if box is not None and factor != 1.0:
        box = (*(round(v / factor) for v in box),)  # type: ignore[assignment]
    shot = level_from_image(img, geometry, rows, cols, box=box, name=p.stem if name is None else name,
                            source=str(p))
    return Screenshot(shot.level, shot.report.scaled(factor, size))


def parse_box(text: str) -> Box:
    """'left,top,right,bottom' in pixels, as given on the command line."""
    parts = text.replace(" ", "").split(",")
    try:
        left, top, right, bottom = (int(p) for p in parts)
    except ValueError:
        raise UsageError(f"--box must be four whole numbers left,top,right,bottom (got {text!r})") from None
    if left >= right or top >= bottom or min(left, top) < 0:
        raise UsageError(f"--box {text}: need 0 <= left < right and 0 <= top < bottom")
    return (left, top, right, bottom)


__all__ = ["MAX_PIXELS", "CellMark", "ImportReport", "Screenshot", "UncertainCell", "delta_e", "level_from_image",
           "open_image", "parse_box", "read_screenshot", "rgb_to_lab"]
