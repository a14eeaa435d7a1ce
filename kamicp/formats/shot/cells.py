"""The cells of a Kami 2 screenshot: each triangle's colour, or a hole.

Each cell is sampled as the median colour (CIE Lab) of a square patch at its incentre (on the cut top
and bottom rows, the incentre of the visible half), with its paper grain: the median |Laplacian| of L*
over the patch. Measured on real screenshots: cells have paper grain and a shade per triangle (a fold
moves a cell several ΔE lighter or darker, JPEG cells reach 8-15 ΔE from their swatch), while the
background behind holes is a smooth pastel gradient, its grain about a fifth of the cells', and at
least ~13 ΔE from every swatch. So:

1. Colour: the nearest swatch by shade distance (how far the sample is from the nearest lighter or
   darker shade of the swatch, as a fold shades without changing the hue; colour.shade_distance), then
   once more against each colour's own cells' median (a swatch can differ from its cells by several ΔE).
2. Grain ratio: each cell's grain over the typical grain of cells that are clearly their colour.
3. Hole: pale (L* over PASTEL_L, as the background is), and smooth (ratio under SMOOTH) and away from
   its colour (over HOLE_APART ΔE), or far from every colour (OFF_EVERY, further than any cell strays)
   with less grain than paper, or so smooth that no paper can be that (ratio under VERY_SMOOTH, a pale
   colour equal to the background). Then a pale cell off its colour whose sample matches the background
   seen in its nearest holes is one too, whatever grain a JPEG block gave it. Dark colours show less
   grain in L*, but are never background. Where the picture shows no grain at all (blurred), holes
   are told by colour alone (over HOLE_FAR) with a warning.
Cells near a threshold, or nearly as close to a second colour, are reported as uncertain.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kamicp.formats.shot.colour import delta_e, shade_distance
from kamicp.formats.shot.layout import COLS, ROWS, GameLayout

SMOOTH, VERY_SMOOTH = 0.4, 0.3  # grain ratios (cell / typical cell): background ~0.22 (<= 0.33), cells >= ~0.45
PASTEL_L = 60.0  # the background is pale (L* 70-97 measured): nothing darker is a hole
HOLE_APART = 12.0  # a smooth sample this far (ΔE) from its colour is background (measured: >= 12.9)
OFF_EVERY, PAPER = 22.0, 1.0  # a sample this far from every colour, with less grain than typical paper, too
NEIGHBOURS = 3  # the background at a cell: the median of this many nearest sure holes ...
BACKGROUND_NEAR = 6.0  # ... and a pale sample off its colour this close (ΔE) to it is a hole
HOLE_FAR = 20.0  # without visible grain: a sample this far (shade distance) from every colour is background
CLEAR = 8.0  # a cell this close (shade distance) to its swatch is clearly that colour
MIN_GRAIN = 0.25  # typical cells with less grain than this (L* units): grain is not visible at all
MIXED_DELTA_E, MIXED_PIXELS = 15.0, 0.1  # a patch with more than this share of pixels this far is mixed
CORNER_PATCH = 0.15  # half side (of a pitch) of the patch at a corner point, well inside its triangle
AMBIGUITY = 0.6  # uncertain when the distance to its colour > AMBIGUITY x the distance to the next


@dataclass(frozen=True)
class CellSamples:
    """Every cell's label, sample point (x, y, half side of the patch), colour (Lab) and grain."""

    labels: list[tuple[int, int]]
    points: list[tuple[float, float, float]]
    lab: np.ndarray
    grain: np.ndarray


@dataclass(frozen=True)
class CellReading:
    """Per cell: its colour (swatch index), whether it is a hole, and why to check it ("" when sure)."""

    colour: np.ndarray
    hole: np.ndarray
    doubt: list[str]
    distance: np.ndarray  # ΔE to its colour
    notes: list[str]


def cell_polygon(layout: GameLayout, r: int, c: int) -> list[tuple[float, float]]:
    """Triangle (r, c) in picture pixels: it points right when r + c is even."""
    (x0, y0), colw, pitch = layout.origin, layout.column, layout.pitch
    left, right, mid = x0 + c * colw, x0 + (c + 1) * colw, y0 + r * pitch
    if (r + c) % 2 == 0:
        return [(left, mid - pitch), (right, mid), (left, mid + pitch)]
    return [(right, mid - pitch), (left, mid), (right, mid + pitch)]


def sample_point(layout: GameLayout, r: int, c: int) -> tuple[float, float, float]:
    """(x, y, half side of the square patch) inside triangle (r, c): its incentre, or where half of it is
    cut (row 0 by the picture's top or a status bar, row 28 by the footer) the incentre of the visible
    half."""
    (x0, y0), colw, pitch = layout.origin, layout.column, layout.pitch
    right = (r + c) % 2 == 0
    base = x0 + c * colw if right else x0 + (c + 1) * colw
    inward = 1 if right else -1
    y = y0 + r * pitch
    if r == 0 or r == ROWS - 1:
        return base + inward * 0.211 * colw, y + (0.366 if r == 0 else -0.366) * pitch, 0.2 * pitch
    return base + inward * colw / 3, y, 0.3 * pitch


def sample_cells(lab: np.ndarray, layout: GameLayout) -> CellSamples:
    """A patch's median colour and grain at every cell, in reading order."""
    h = lab.shape[0]
    lightness = lab[..., 0]
    lap = np.zeros_like(lightness)
    lap[1:-1, 1:-1] = np.abs(4 * lightness[1:-1, 1:-1] - lightness[:-2, 1:-1] - lightness[2:, 1:-1]
                             - lightness[1:-1, :-2] - lightness[1:-1, 2:])
    labels, points, colours, grains = [], [], [], []
    for r in range(ROWS):
        for c in range(COLS):
            x, y, half = sample_point(layout, r, c)
            k = max(1, int(half))
            ix, iy = int(x), int(y)
            ys, xs = slice(max(0, iy - k), iy + k + 1), slice(max(0, ix - k), ix + k + 1)
            patch = lab[ys, xs].reshape(-1, 3)
            inner = lap[max(1, iy - k):min(h - 1, iy + k + 1), max(1, ix - k):min(lab.shape[1] - 1, ix + k + 1)]
            labels.append((r, c))
            points.append((x, y, half))
            colours.append(np.median(patch, axis=0) if patch.size else np.full(3, np.nan))
            grains.append(float(np.median(inner)) if inner.size else 0.0)
    return CellSamples(labels, points, np.array(colours), np.array(grains))


def mixed_share(lab: np.ndarray, layout: GameLayout) -> float:
    """The share of cells whose sample patch is not one colour (over MIXED_PIXELS of its pixels more than
    MIXED_DELTA_E from the patch's median): near 0 when the lattice sits on the triangles, as every
    patch lies well inside its cell; it grows as the lattice slips off them."""
    mixed = 0
    for r in range(ROWS):
        for c in range(COLS):
            x, y, half = sample_point(layout, r, c)
            k, ix, iy = max(1, int(half)), int(x), int(y)
            patch = _patch(lab, ix, iy, k)
            if patch.size:
                mixed += float(np.mean(delta_e(patch, np.median(patch, axis=0)) > MIXED_DELTA_E)) > MIXED_PIXELS
    return mixed / (ROWS * COLS)


def corner_points(layout: GameLayout, r: int, c: int) -> list[tuple[float, float]]:
    """Three points of triangle (r, c), each halfway from a corner to the centre: all inside it when the
    lattice sits on the triangles, but in three different triangles when it is an odd number of pitches
    off (the triangles then point the other way), and above and below the board's edge where that edge
    crosses the row."""
    corners = cell_polygon(layout, r, c)
    cx, cy = sum(x for x, _ in corners) / 3, sum(y for _, y in corners) / 3
    return [((x + cx) / 2, (y + cy) / 2) for x, y in corners]


def split_cells(lab: np.ndarray, layout: GameLayout) -> list[tuple[int, int]]:
    """The cells of rows 1-27 (whole in the picture) whose corner points differ by more than MIXED_DELTA_E:
    none when the lattice is on the game's triangles, as each is one colour (measured: none on the real
    screenshots), however far from the edges the samples of mixed_share stay."""
    k = max(1, round(CORNER_PATCH * layout.pitch))
    split = []
    for r in range(1, ROWS - 1):
        for c in range(COLS):
            a, b, c3 = (_patch_colour(lab, x, y, k) for x, y in corner_points(layout, r, c))
            if max(float(delta_e(a, b)), float(delta_e(b, c3)), float(delta_e(a, c3))) > MIXED_DELTA_E:
                split.append((r, c))
    return split


def _patch_colour(lab: np.ndarray, x: float, y: float, k: int) -> np.ndarray:
    """The median colour of the square patch of half side k at (x, y) (its grain averages out)."""
    return np.median(_patch(lab, round(x), round(y), k), axis=0)


def _patch(lab: np.ndarray, ix: int, iy: int, k: int) -> np.ndarray:
    """The pixels (Lab, one per row) of the square of half side k at (ix, iy), clipped to the picture."""
    return lab[max(0, iy - k):iy + k + 1, max(0, ix - k):ix + k + 1].reshape(-1, 3)


def _nearest(lab: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per sample: the nearest centre by shade distance, that distance and the second nearest."""
    d = shade_distance(lab[:, None, :], centres[None, :, :])
    order = np.argsort(d, axis=1)
    rows = np.arange(len(lab))
    second = d[rows, order[:, 1]] if centres.shape[0] > 1 else np.full(len(lab), np.inf)
    return order[:, 0], d[rows, order[:, 0]], second


def _holes(samples: CellSamples, ratio: np.ndarray, apart: np.ndarray) -> np.ndarray:
    """Which cells show the background: pale, and smooth and off their colour, or far off every colour
    and smoother than paper, or too smooth for paper at all; then any pale cell off its colour (by
    HOLE_APART, or by less with less grain than paper) that matches the background seen in the nearest
    such holes (the gradient is smooth) twice as closely (a JPEG block or a resampled copy can add
    texture to the background)."""
    pale = samples.lab[:, 0] > PASTEL_L
    hole = pale & (((ratio < SMOOTH) & (apart > HOLE_APART)) | ((apart > OFF_EVERY) & (ratio < PAPER))
                   | (ratio < VERY_SMOOTH))
    sure = np.flatnonzero(hole)
    if len(sure) < NEIGHBOURS:
        return hole
    xy = np.array([(x, y) for x, y, _ in samples.points])
    off = (apart > HOLE_APART) | ((apart > BACKGROUND_NEAR) & (ratio < PAPER))  # grain decides when near
    for n in np.flatnonzero(pale & ~hole & off):
        near = sure[np.argsort(np.hypot(*(xy[sure] - xy[n]).T))[:NEIGHBOURS]]
        background = np.median(samples.lab[near], axis=0)
        if delta_e(samples.lab[n], background) < min(BACKGROUND_NEAR, 0.5 * apart[n]):
            hole[n] = True
    return hole


def read_cells(samples: CellSamples, swatches: np.ndarray) -> CellReading:
    """Each cell's colour (index into `swatches`, Lab) or hole; see the module doc."""
    lab = samples.lab
    colour, dist, second = _nearest(lab, swatches)
    clear = dist < CLEAR
    centres = swatches.copy()
    for k in range(len(swatches)):  # each colour's own cells, where it has clear ones
        own = clear & (colour == k)
        if own.sum() >= 3:
            centres[k] = np.median(lab[own], axis=0)
    d_sw = shade_distance(lab[:, None, :], swatches[None, :, :])
    d_own = shade_distance(lab[:, None, :], centres[None, :, :])
    both = np.minimum(d_sw, d_own)
    order = np.argsort(both, axis=1)
    rows = np.arange(len(lab))
    colour, dist = order[:, 0], both[rows, order[:, 0]]
    second = both[rows, order[:, 1]] if len(swatches) > 1 else np.full(len(lab), np.inf)
    apart = np.minimum(delta_e(lab, swatches[colour]), delta_e(lab, centres[colour]))
    notes: list[str] = []
    typical = float(np.median(samples.grain[clear])) if clear.sum() >= 5 else float(np.median(samples.grain))
    doubt = [""] * len(lab)
    if typical < MIN_GRAIN:
        notes.append("no paper grain visible (a blurred or heavily compressed picture): holes are told from "
                     "cells by colour alone")
        hole = (dist > HOLE_FAR) & (lab[:, 0] > PASTEL_L)
        for n in np.flatnonzero(np.abs(dist - HOLE_FAR) < 0.3 * HOLE_FAR):
            doubt[n] = "hole or colour?"
    else:
        ratio = samples.grain / typical
        hole = _holes(samples, ratio, apart)
        for n in np.flatnonzero(~hole & (np.abs(ratio - SMOOTH) < 0.1) & (apart > HOLE_APART)):
            doubt[n] = "hole or colour?"
    for n in np.flatnonzero(~hole & (apart > OFF_EVERY)):
        doubt[n] = doubt[n] or "matches no colour well (covered, or not the board?)"
    for n in np.flatnonzero(~hole & (dist > AMBIGUITY * second)):
        doubt[n] = doubt[n] or "between two colours"
    return CellReading(colour, hole, doubt, apart, notes)
