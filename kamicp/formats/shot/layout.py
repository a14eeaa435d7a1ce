"""The Kami 2 game's screen layout, read from the picture's structure (measured on real screenshots of
several phones; the shared development notes give the numbers, fractions of the width w here):

- the footer is a dark band across the bottom (a home-indicator band or background may lie below it):
  its left 0.4 w holds four icon cells (back arrow, the moves left, restart, hint) split by thin light
  divider lines at 0.1, 0.2 and 0.3 w, running the footer's full height; its right 0.6 w holds the
  level's n colour swatches, equal widths, in the game's order; the selected one (not always the first)
  has a folded corner, a dog-ear, at its top right;
- the board is 10 columns of equilateral triangles across the whole width, the row pitch (half a
  triangle's side) is the column width / sqrt 3; the centre line of the last row (28) lies a small part
  of a pitch below the footer's top, so row 0 is cut by the picture's top (or a status bar). On a
  tablet, where 28 pitches of the width would not fit above the footer, the board fits the height,
  centred with background on both sides.

How it is found:

1. Footer rows: the left 0.4 w is at least FOOTER_DARK_SHARE dark (L* under DARK_L: the light icons
   cover the rest) and at least two of the three divider columns are a thin light line between dark
   flanks. The lowest run of such rows at least MIN_FOOTER x the width high is the footer; the bar's
   colour is the median of its dark pixels.
2. Swatches: the footer's columns from 0.4 w, over the lower part of the bar (below any dog-ear), split
   into n equal parts for n = 1..MAX_SWATCHES: the one n whose parts are each one colour (left and
   right halves within SWATCH_SAME ΔE) while neighbours differ (more than SWATCH_APART) is the palette,
   however dark a swatch is.
3. Board: the lattice from the width and the footer's top, as above.

No footer: None (not a game screenshot). A footer whose swatches or board cannot be placed with
confidence: a FormatError saying what did not fit, never a board read wrong (game.py also refuses a
lattice whose samples straddle triangle edges, whose triangles show two colours at their corners (rows a
pitch or more off, or the board's edge across a row), or whose cells match no swatch).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from kamicp.errors import FormatError
from kamicp.formats.shot.colour import delta_e

ROWS, COLS = 29, 10  # a Kami 2 board
DARK_L = 28.0  # the footer bar is darker than this (CIE L*; about 10 on the measured phones)
FOOTER_DARK_SHARE = 0.3  # at least this share of a footer row's left 0.4 w is the dark bar
DIVIDERS = (0.1, 0.2, 0.3)  # light lines between the footer's icon cells (of the width)
DIVIDER_REACH = 0.008  # a divider is looked for this far (of the width) either side of its place
DIVIDER_CONTRAST = 15.0  # a divider is this much lighter (L*) than the bar beside it
MIN_FOOTER, MAX_FOOTER = 0.08, 0.6  # the footer's height, of the width (0.165 on iPhones, 0.335 Android)
SWATCH_LEFT = 0.4  # the swatches span the footer from here to the right edge
MAX_SWATCHES = 10
SWATCH_SAME, SWATCH_APART = 5.0, 6.0  # ΔE within one swatch / between neighbouring swatches
ROW28_BELOW_FOOTER = 0.026  # row 28's centre line lies this many pitches below the footer's top
MAX_STICK_OUT = 1.0  # on a phone, row 0's centre is at most this many pitches above the picture


@dataclass(frozen=True)
class GameLayout:
    """Where the game's parts are, in pixels of the picture that was read."""

    origin: tuple[float, float]  # x of the lattice's left edge, y of row 0's centre line
    column: float  # column width
    pitch: float  # vertical distance between row centre lines (column / sqrt 3)
    footer: tuple[int, int]  # first and last+1 row of the bar
    swatches: tuple[tuple[int, int], ...]  # first and last+1 column of each swatch, left to right
    bar_lab: tuple[float, float, float]  # the bar's colour (CIE Lab)

    @property
    def board(self) -> tuple[float, float, float, float]:
        """The box from row 0's centre line to row 28's, across the 10 columns."""
        x0, y0 = self.origin
        return (x0, y0, x0 + COLS * self.column, y0 + (ROWS - 1) * self.pitch)


def runs(flags: np.ndarray) -> list[tuple[int, int]]:
    """Maximal runs of True as (start, end) half-open intervals."""
    padded = np.concatenate([[False], flags, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist(), strict=True))


def _divider_rows(lightness: np.ndarray) -> np.ndarray:
    """Per row, how many of the three icon dividers show there as a thin light line between dark flanks."""
    h, w = lightness.shape
    k = max(1, round(DIVIDER_REACH * w))
    count = np.zeros(h, dtype=int)
    for f in DIVIDERS:
        x = round(f * w)
        if x - 3 * k < 0 or x + 3 * k + 1 > w:
            continue
        line = lightness[:, x - k:x + k + 1].max(axis=1)
        flanks = np.concatenate([lightness[:, x - 3 * k:x - k], lightness[:, x + k + 1:x + 3 * k + 1]], axis=1)
        side = np.median(flanks, axis=1)
        count += (line > side + DIVIDER_CONTRAST) & (side < DARK_L)
    return count


def footer_rows(lab: np.ndarray) -> tuple[int, int] | None:
    """The footer's first and last+1 row, or None when the picture has no game footer."""
    h, w = lab.shape[:2]
    lightness = lab[..., 0]
    share = (lightness[:, : max(1, round(SWATCH_LEFT * w))] < DARK_L).mean(axis=1)  # (>= 1 column: a tiny picture)
    flags = (share >= FOOTER_DARK_SHARE) & (_divider_rows(lightness) >= 2)
    for a, b in runs(~flags):  # a row or two lost to noise inside the band
        if a > 0 and b < h and b - a <= 2:
            flags[a:b] = True
    tall = [(a, b) for a, b in runs(flags) if b - a >= MIN_FOOTER * w]
    return tall[-1] if tall else None


def _swatch_parts(cols: np.ndarray, x0: float, n: int) -> tuple[list[tuple[int, int]], float, float]:
    """The span from x0 split into n equal parts: their column ranges, the largest difference between a
    part's left and right halves, and the smallest between neighbouring parts (ΔE)."""
    sw = (len(cols) - x0) / n
    parts, inside, medians = [], 0.0, []
    for i in range(n):
        a, b = x0 + i * sw, x0 + (i + 1) * sw
        left = np.median(cols[round(a + 0.15 * sw):round(a + 0.45 * sw)], axis=0)
        right = np.median(cols[round(a + 0.55 * sw):round(b - 0.15 * sw)], axis=0)
        inside = max(inside, float(delta_e(left, right)))
        medians.append(np.median(cols[round(a + 0.15 * sw):round(b - 0.15 * sw)], axis=0))
        parts.append((round(a), round(b)))
    apart = min((float(delta_e(medians[i], medians[i + 1])) for i in range(n - 1)), default=np.inf)
    return parts, inside, apart


def swatch_band(footer: tuple[int, int]) -> slice:
    """The footer's rows the swatches are read in: its lower part, below any dog-ear."""
    f0, f1 = footer
    return slice(f0 + round(0.4 * (f1 - f0)), f1 - max(1, round(0.1 * (f1 - f0))))


def find_swatches(lab: np.ndarray, footer: tuple[int, int]) -> list[tuple[int, int]]:
    """The swatches' column ranges; FormatError unless exactly one count of equal parts fits."""
    w = lab.shape[1]
    cols = np.median(lab[swatch_band(footer)], axis=0)
    fits = []
    for n in range(1, MAX_SWATCHES + 1):
        if (w - SWATCH_LEFT * w) / n < 6:
            break
        parts, inside, apart = _swatch_parts(cols, SWATCH_LEFT * w, n)
        if inside <= SWATCH_SAME and apart > SWATCH_APART:
            fits.append(parts)
    if len(fits) != 1:
        why = "no number of equal swatches fits" if not fits else \
            f"{' or '.join(str(len(f)) for f in fits)} equal swatches fit alike"
        raise FormatError(f"a Kami 2 footer, but its colour swatches cannot be told apart ({why})")
    if len(fits[0]) < 2:
        raise FormatError("a Kami 2 footer with a single colour swatch: no level to read")
    return fits[0]


def find_layout(lab: np.ndarray) -> GameLayout | None:
    """The game's layout in a picture (CIE Lab array), or None when it has no game footer; FormatError
    when it has one but the rest cannot be placed with confidence."""
    h, w = lab.shape[:2]
    footer = footer_rows(lab)
    if footer is None:
        return None
    f0, f1 = footer
    if (f1 - f0) > MAX_FOOTER * w:
        raise FormatError(f"a dark band with the game's icon dividers, but {f1 - f0} px high for a {w} px "
                          "wide picture: not the game's footer as known")
    left = lab[f0:f1, : round(SWATCH_LEFT * w)].reshape(-1, 3)
    bar = np.median(left[left[:, 0] < DARK_L], axis=0)
    swatches = find_swatches(lab, footer)
    column = w / COLS
    pitch = column / math.sqrt(3)
    row0 = f0 + ROW28_BELOW_FOOTER * pitch - (ROWS - 1) * pitch
    x0 = 0.0
    if row0 < -MAX_STICK_OUT * pitch:  # a tablet: the board fits the height, centred
        pitch = f0 / (ROWS - 1 - ROW28_BELOW_FOOTER - 0.1)
        column = pitch * math.sqrt(3)
        row0 = -0.1 * pitch
        x0 = (w - COLS * column) / 2
    return GameLayout((x0, row0), column, pitch, footer, tuple(swatches), tuple(float(v) for v in bar))
