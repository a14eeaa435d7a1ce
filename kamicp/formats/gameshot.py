"""Kami 2 game screenshots: the footer, the board box, the palette from the swatches, cells and holes.

The game's layout (iPhone screenshots; other phones and tablets scale it):

- a dark footer bar below the board holds, left to right, a back arrow, the moves left (the par at the
  start), a restart icon, a hint bulb, then the level's colour swatches, equal widths, over the right
  ~60 % of the width (the selected one has a folded corner);
- the board is 10 columns of equilateral triangles across the whole width (on a tablet, where the
  width would not fit, across the height with background on both sides), 29 rows whose centre lines are
  one pitch apart, pitch = board height / 28: the top and bottom rows are half triangles cut by the
  edge. Cell (r, c) points right when r + c is even (kamicp's triangle lattice, as the .puz reader lays
  out the game's boards), so its centroid is one sixth of a column left or right of the column's middle;
- holes show the background, a smooth pastel gradient without the cells' paper grain.

How it is read:

1. Footer: rows whose left 38 % is mostly one dark neutral colour while the right part (from 42 %) is
   mostly something else (the swatches); the lowest such run of rows. A home-indicator band below it is
   dark on both sides and so not part of it; a status bar above the board is never reached.
2. Board: ends at the footer's top; its height is the width / (10 sqrt 3 / 28) when that fits above
   the footer, else it is the whole height above the footer and the width follows, centred.
3. Palette: footer columns (in the lower part of the bar, below the folded corner) that are not the
   bar's colour, cut where neighbouring columns differ; runs wider than 3 % of the width are swatches,
   in the game's order (left to right): keys A, B, C, ...
4. Cells: the median colour of a patch at each triangle's incentre (of its visible half on the edge
   rows), given the nearest swatch (CIE76) unless it is a hole. A fold shades a triangle several ΔE
   lighter or darker but keeps its hue, while the background differs from a pale swatch in hue (mint,
   pink, lilac against cream), and it is smooth where cells have paper grain. A hole is far from its
   swatch by hue_distance (lightness weighted 1/3, over HOLE_FAR_DELTA_E), or smooth: its grain
   (median |Laplacian| of L*) under SMOOTH_RATIO x the typical cell's, which tells even a pale colour
   equal to the background from it. Without visible grain (a blurred copy) holes are judged by colour
   alone, with a warning. Cells near either threshold, or nearly as close to a second swatch, are
   reported as uncertain.

The par (the moves left at the start) is read by read_moves when every digit matches clearly; see there.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

BOARD_ASPECT = 10 * math.sqrt(3) / 28  # board width / height
FOOTER_PER_BOARD = 0.093 / 0.907  # footer height / board height (110 px of 1182 in the game)
DARK_L = 32.0  # the footer bar is darker than this (CIE L*) ...
NEUTRAL_C = 10.0  # ... and greyer (chroma)
FOOTER_LEFT, SWATCH_LEFT = 0.38, 0.42  # icons left of the first, swatches right of the second
MIN_SWATCH = 0.03  # a swatch is at least this fraction of the width
SWATCH_STEP_DELTA_E = 6.0  # neighbouring footer columns further apart than this start a new run
LIGHTNESS_WEIGHT = 1 / 3  # in hue_distance: a fold's shade changes lightness by several units
HOLE_FAR_DELTA_E = 8.0  # a sample this far (hue_distance) from its nearest swatch is background
HOLE_NEAR_DELTA_E = 4.0  # a smooth sample closer than this to a swatch is still that colour
SMOOTH_RATIO = 0.3  # smooth: less grain than this x the typical cell's grain
MIN_GRAIN = 0.25  # typical cells with less grain than this (L* units): grain is not visible at all
GRAIN_PATCH = 1.0  # the grain is measured over the sample's patch


@dataclass(frozen=True)
class GameLayout:
    """Where the game's parts are, in pixels of the picture that was read."""

    board: tuple[float, float, float, float]  # left, top, right, bottom
    footer: tuple[int, int]  # first and last+1 row of the bar
    swatches: tuple[tuple[int, int], ...]  # first and last+1 column of each swatch, left to right
    footer_lab: tuple[float, float, float]  # the bar's colour


def _runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """Maximal runs of True as (start, end) half-open intervals."""
    padded = np.concatenate([[False], flags, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))


def _footer_rows(lab: np.ndarray) -> tuple[int, int, np.ndarray] | None:
    """The footer's rows and colour, or None when the picture has no game footer."""
    h, w = lab.shape[:2]
    left = lab[:, : int(FOOTER_LEFT * w)]
    chroma = np.hypot(left[..., 1], left[..., 2])
    dark = (left[..., 0] < DARK_L) & (chroma < NEUTRAL_C)
    dark_share = dark.mean(axis=1)
    right = lab[:, int(SWATCH_LEFT * w):]
    flags = np.zeros(h, dtype=bool)
    colours = np.zeros((h, 3))
    for y in np.flatnonzero(dark_share > 0.55):
        colours[y] = np.median(left[y][dark[y]], axis=0)
        other = np.sqrt(((right[y] - colours[y]) ** 2).sum(axis=-1)) > 15.0
        flags[y] = other.mean() > 0.7
    runs = [r for r in _runs(flags) if r[1] - r[0] >= 0.04 * w and r[0] > h * 0.3]
    if not runs:
        return None
    top, bottom = runs[-1]
    expected = w / BOARD_ASPECT * FOOTER_PER_BOARD  # the tallest a footer can be (a phone's)
    if bottom - top > 1.1 * expected:  # a dark board corner continues the run upwards
        top = bottom - round(expected)
    return top, bottom, np.median(colours[top:bottom], axis=0)


def _swatches(lab: np.ndarray, top: int, bottom: int, bar: np.ndarray) -> list[tuple[int, int]]:
    h, w = lab.shape[:2]
    band = lab[top + int(0.45 * (bottom - top)): bottom - max(1, int(0.1 * (bottom - top)))]
    cols = np.median(band, axis=0)
    x0 = int(SWATCH_LEFT * w)
    not_bar = np.sqrt(((cols - bar) ** 2).sum(axis=-1)) > 12.0
    step = np.sqrt(((cols[1:] - cols[:-1]) ** 2).sum(axis=-1))
    cut = np.concatenate([[True], step > SWATCH_STEP_DELTA_E])
    found = []
    start = None
    for x in range(x0, w + 1):
        if x == w or not not_bar[x] or cut[x]:
            if start is not None and x - start >= MIN_SWATCH * w:
                found.append((start, x))
            start = x if x < w and not_bar[x] else None
        elif start is None:
            start = x
    return found


def find_layout(lab: np.ndarray) -> tuple[GameLayout, list[str]] | None:
    """The game's layout in a picture (CIE Lab array), with notes, or None when it is not a game shot."""
    footer = _footer_rows(lab)
    if footer is None:
        return None
    top, bottom, bar = footer
    swatches = _swatches(lab, top, bottom, bar)
    if len(swatches) < 2:
        return None
    notes = []
    h, w = lab.shape[:2]
    full = w / BOARD_ASPECT
    if top >= 0.98 * full:
        board = (0.0, float(top) - full, float(w), float(top))
    else:  # the board fits the height (a tablet), centred between background on both sides
        bw = top * BOARD_ASPECT
        board = ((w - bw) / 2, 0.0, (w + bw) / 2, float(top))
    widths = [b - a for a, b in swatches]
    if max(widths) > 1.25 * min(widths):
        notes.append(f"the footer's swatches differ in width ({min(widths)}-{max(widths)} px): check the palette")
    ratio = (bottom - top) / ((board[3] - board[1]) * FOOTER_PER_BOARD)
    if not 0.8 < ratio < 1.2:
        notes.append(f"the footer is {bottom - top} px high, unlike the game's layout: check the board box")
    return GameLayout(board, (top, bottom), tuple(swatches), tuple(float(v) for v in bar)), notes


def hue_distance(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """CIE76 with lightness down-weighted: how far a sample is from a swatch once shading is allowed for."""
    d = np.asarray(a, dtype=float) - np.asarray(b, dtype=float)
    return np.sqrt((LIGHTNESS_WEIGHT * d[..., 0]) ** 2 + d[..., 1] ** 2 + d[..., 2] ** 2)


def grain(lightness: np.ndarray, x: float, y: float, half: float) -> float:
    """Paper grain around (x, y): the median |Laplacian| of L* over the patch. The background's gradient
    is smooth (about 0); the cells' paper is not, even after downscaling and JPEG."""
    k = max(2, int(half))
    ix, iy = int(x), int(y)
    p = lightness[max(0, iy - k):iy + k + 1, max(0, ix - k):ix + k + 1]
    if min(p.shape) < 3:
        return 0.0
    lap = 4 * p[1:-1, 1:-1] - p[:-2, 1:-1] - p[2:, 1:-1] - p[1:-1, :-2] - p[1:-1, 2:]
    return float(np.median(np.abs(lap)))


def cell_polygon(board: tuple[float, float, float, float], r: int, c: int) -> list[tuple[float, float]]:
    """Triangle (r, c) in picture pixels (row r centred on the line r * pitch below the board's top)."""
    x0, y0, x1, y1 = board
    colw, pitch = (x1 - x0) / 10, (y1 - y0) / 28
    left, right, mid = x0 + c * colw, x0 + (c + 1) * colw, y0 + r * pitch
    if (r + c) % 2 == 0:
        return [(left, mid - pitch), (right, mid), (left, mid + pitch)]
    return [(right, mid - pitch), (left, mid), (right, mid + pitch)]


def sample_point(board: tuple[float, float, float, float], r: int, c: int,
                 rows: int = 29) -> tuple[float, float, float]:
    """(x, y, half side of the square patch) inside triangle (r, c): its incentre, or on the cut edge
    rows the incentre of the visible half."""
    x0, y0, x1, y1 = board
    colw, pitch = (x1 - x0) / 10, (y1 - y0) / 28
    right = (r + c) % 2 == 0
    base = x0 + c * colw if right else x0 + (c + 1) * colw
    inward = 1 if right else -1
    if r == 0 or r == rows - 1:
        dy = 0.366 * pitch if r == 0 else -0.366 * pitch
        return base + inward * 0.211 * colw, y0 + r * pitch + dy, 0.2 * pitch
    return base + inward * colw / 3, y0 + r * pitch, 0.3 * pitch


# --- the moves count in the footer ------------------------------------------------------------------
DIGITS_SPAN = (0.09, 0.21)  # the number sits between the back arrow and the restart icon (of the width)
BRIGHT_L = 60.0  # the number is light on the dark bar
DIGIT_MATCH = 0.75  # a glyph is read when its best digit overlaps this much (IoU) ...
DIGIT_MARGIN = 0.08  # ... and this much more than the second best


def _glyph_mask(text: str, height: int) -> np.ndarray:
    """A digit drawn with Pillow's bundled font, cropped to its ink, as a boolean mask."""
    from PIL import Image, ImageDraw, ImageFont

    font = ImageFont.load_default(max(8, round(height * 1.4)))
    img = Image.new("L", (height * 3, height * 3), 0)
    ImageDraw.Draw(img).text((height // 2, height // 2), text, fill=255, font=font)
    a = np.asarray(img) > 127
    rows, cols = np.flatnonzero(a.any(axis=1)), np.flatnonzero(a.any(axis=0))
    return a[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]


def _resized(mask: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    from PIL import Image

    img = Image.fromarray(mask.astype(np.uint8) * 255).resize((shape[1], shape[0]), Image.Resampling.BILINEAR)
    return np.asarray(img) > 127


def read_moves(lab: np.ndarray, layout: GameLayout) -> tuple[int | None, str]:
    """The moves count shown in the footer, and how it was read; (None, why) unless every glyph
    matches one digit of Pillow's bundled font clearly (IoU DIGIT_MATCH, DIGIT_MARGIN ahead of the
    next digit). The game's own font is not shipped, so on a real screenshot this may well decline."""
    f0, f1 = layout.footer
    w = lab.shape[1]
    x0, x1 = round(DIGITS_SPAN[0] * w), round(DIGITS_SPAN[1] * w)
    ink = lab[f0:f1, x0:x1, 0] > BRIGHT_L
    if ink.sum() < 10:
        return None, "no number found in the footer"
    rows = np.flatnonzero(ink.any(axis=1))
    ink = ink[rows[0]:rows[-1] + 1]
    glyphs = [ink[:, a:b] for a, b in _runs(ink.any(axis=0)) if b - a >= 2]
    if not 1 <= len(glyphs) <= 2:
        return None, f"{len(glyphs)} marks where the number should be"
    text, worst = "", 1.0
    for glyph in glyphs:
        g_rows = np.flatnonzero(glyph.any(axis=1))
        glyph = glyph[g_rows[0]:g_rows[-1] + 1]
        scores = []
        for d in "0123456789":
            t = _resized(_glyph_mask(d, glyph.shape[0]), glyph.shape)
            scores.append(float((t & glyph).sum() / max(1, (t | glyph).sum())))
        order = np.argsort(scores)[::-1]
        best, second = scores[order[0]], scores[order[1]]
        if best < DIGIT_MATCH or best - second < DIGIT_MARGIN:
            return None, f"the number's shapes do not match the known digit shapes clearly (best {best:.2f})"
        text += str(order[0])
        worst = min(worst, best)
    return int(text), f"digit shapes matched, worst overlap {worst:.2f}"
