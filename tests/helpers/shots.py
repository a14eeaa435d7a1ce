"""A synthetic screenshot in the style of the Kami 2 game, drawn from a level (never a real screenshot).

It reproduces the layout and the looks measured on real screenshots (the facts, not their pixels):

- the board: 10 columns of equilateral triangles across the whole width, row pitch = column / sqrt 3,
  row 28's centre line 0.026 pitch below the footer's top, so row 0 is cut in half by the picture's top
  (or by a status bar's band); on a tablet, where that would not fit, the board fits the height,
  centred with background on both sides;
- the footer: a very dark brown bar, RGB about (34, 25, 13), with grain, 0.1655 x the width high on an
  iPhone (0.335 on the measured Android phone); its left 0.4 w holds four icon cells split by thin light
  divider lines at 0.0992, 0.2 and 0.2992 w: a back arrow, the moves-left number (centred at 0.15 w,
  digits 0.0386 w high, in Pillow's bundled font: never glyphs cut from the game), restart and a hint
  bulb; its right 0.6 w the level's n swatches, equal widths, in the game's order; the selected one
  (any, not only the first) has a dog-ear at its top right, 0.047 w x 0.044 w, tan below the fold and
  light grey above;
- cells: a per-triangle shade (off the colour's median by a median 2.6 ΔE, 90th percentile about 7, now
  and then a fold further), each colour's cells a few ΔE off its swatch, and paper grain with some
  spatial extent; holes show a smooth pastel gradient with about a quarter of the cells' grain (one
  pastel corner is closer to the pale swatches than the real game's, a harder case);
- phones: status bar and background bands (Android), a home-indicator band (iPhone X), downscaling
  (a 1242 x 2208 shot exported at 665 x 1182) and JPEG.
"""

from __future__ import annotations

import math

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from kamicp.board.level import HOLE, Level
from tests.helpers.pictures import jpeg_copy

BAR_RGB = (34, 25, 13)
DIVIDER_RGB = (222, 219, 214)
ICON_RGB = (236, 234, 230)
DOG_EAR = ((205, 162, 123), (225, 222, 215))  # below the fold, above it
CORNERS = ((250, 248, 240), (206, 236, 222), (246, 212, 222), (222, 214, 244))  # cream, mint, pink, lilac
IPHONE_FOOTER = 0.1655  # footer height / width on iPhones
ROW28_BELOW_FOOTER = 0.026
CELL_GRAIN = 4.0  # RGB noise on cells (standard deviation) ...
BACKGROUND_GRAIN = 0.25  # ... this share of it on the background (measured: its grain is ~0.22 x the cells')


def rgb(hexcode: str) -> np.ndarray:
    return np.array([int(hexcode[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)


def pastel(w: int, h: int) -> Image.Image:
    """The smooth background: a bilinear blend of four pastel corners (a 2 x 2 picture stretched)."""
    corners = Image.new("RGB", (2, 2))
    corners.putdata(list(CORNERS))
    return corners.resize((w, h), Image.Resampling.BILINEAR)


def layout(w: int, h: int, top: int, bottom: int, footer: float = IPHONE_FOOTER, row28: float = ROW28_BELOW_FOOTER,
           ) -> tuple[tuple[float, float], float, float, tuple[int, int]]:
    """Row 0's centre (x of the lattice's left edge, y), column width, pitch, and the footer's rows. The
    game's layout (phone or tablet) is chosen at the game's anchor; `row28` then moves the rows off it, so
    a board drawn above the anchor stays a phone's board with its top rows cut off."""
    f1 = h - bottom
    fh = round(footer * w)
    colw = w / 10
    pitch = colw / math.sqrt(3)
    f0 = f1 - fh
    row0 = f0 + ROW28_BELOW_FOOTER * pitch - 28 * pitch
    x0 = 0.0
    if row0 < top - pitch:  # a tablet: the board fits the height between the top and the footer
        fh = round(0.093 * (h - top - bottom))
        f0 = f1 - fh
        pitch = (f0 - top) / (28 - ROW28_BELOW_FOOTER - 0.1)
        colw = pitch * math.sqrt(3)
        row0 = top - 0.1 * pitch
        x0 = (w - 10 * colw) / 2
    return (x0, row0 + (row28 - ROW28_BELOW_FOOTER) * pitch), colw, pitch, (f0, f1)


def cell_polygon(origin: tuple[float, float], colw: float, pitch: float, r: int, c: int,
                 k: float = 1.0) -> list[tuple[float, float]]:
    """Triangle (r, c) of the game layout (row r centred on the line r * pitch), scaled by k."""
    x0, y0 = origin
    left, right, mid = x0 + c * colw, x0 + (c + 1) * colw, y0 + r * pitch
    if (r + c) % 2 == 0:  # points right
        pts = [(left, mid - pitch), (right, mid), (left, mid + pitch)]
    else:
        pts = [(right, mid - pitch), (left, mid), (right, mid + pitch)]
    return [(x * k, y * k) for x, y in pts]


def _shade(rng: np.random.Generator) -> np.ndarray:
    """A triangle's shade, per RGB channel: mostly a few ΔE off its colour (median about 3.4), now and
    then a fold much further (up to about 15)."""
    if rng.random() < 0.04:
        return np.full(3, float(rng.choice([0.82, 1.16])))
    return np.clip(1 + rng.normal(0, 0.08) + rng.normal(0, 0.005, 3), 0.84, 1.14)


def draw_board(level: Level, geometry, palette: dict[str, str], size: tuple[int, int], cut: tuple[int, int],
               rng: np.random.Generator) -> Image.Image:
    """The background with the cells painted on (2x supersampled, so edges are anti-aliased), a shade per
    triangle and paper grain on the cells (a fifth of it on the background). The board is cut at `cut`
    (its visible rows: the picture's top or a status band, and the footer)."""
    origin, colw, pitch = geometry
    w, h = size
    big = pastel(2 * w, 2 * h)
    mask = Image.new("L", big.size, 0)
    d, dm = ImageDraw.Draw(big), ImageDraw.Draw(mask)
    # each colour's cells a few ΔE off its swatch (mostly in lightness: pale colours keep their hue)
    offsets = {k: 1 + rng.normal(0, 0.03) + rng.normal(0, 0.008, 3) for k in palette}
    for cell, (r, c) in enumerate(level.labels):
        key = level.colours[cell]
        base, shade = rgb(palette[key]) * offsets[key], _shade(rng)
        if (base * shade).max() > 240:  # a pale colour is shaded darker: paper is never blown out to white
            shade = np.minimum(shade, 2 - shade)
        colour = tuple(int(v) for v in np.clip(base * shade, 0, 255))
        poly = cell_polygon(origin, colw, pitch, r, c, 2.0)
        d.polygon(poly, fill=colour)
        dm.polygon(poly, fill=255)
    outside = Image.new("L", big.size, 255)
    ImageDraw.Draw(outside).rectangle((0, 2 * cut[0], 2 * w, 2 * cut[1] - 1), fill=0)
    big.paste(pastel(2 * w, 2 * h), mask=outside)
    mask.paste(0, mask=outside)
    img = np.asarray(big.resize(size, Image.Resampling.BOX), dtype=np.float32)
    alpha = np.asarray(mask.resize(size, Image.Resampling.BOX), dtype=np.float32)[..., None] / 255
    grain = paper_grain(rng, w, h) * (BACKGROUND_GRAIN + (1 - BACKGROUND_GRAIN) * alpha)
    return Image.fromarray(np.clip(img + grain, 0, 255).astype(np.uint8))


def paper_grain(rng: np.random.Generator, w: int, h: int) -> np.ndarray:
    """Paper texture: noise with some spatial extent (so it survives a downscaled copy, as the game's
    does), mostly in lightness."""
    coarse = rng.standard_normal((max(1, h // 2), max(1, w // 2)), dtype=np.float32)
    coarse = np.asarray(Image.fromarray(coarse, mode="F").resize((w, h), Image.Resampling.BILINEAR))
    return (CELL_GRAIN * (1.4 * coarse + 0.6 * rng.standard_normal((h, w), dtype=np.float32)))[..., None] \
        + 1.0 * rng.standard_normal((h, w, 3), dtype=np.float32)


def _icons(d: ImageDraw.ImageDraw, w: int, f0: int, f1: int, par: int) -> None:
    """Back arrow, the moves-left number, restart and hint bulb, and the dividers between them."""
    cy, s, line = (f0 + f1) / 2, 0.032 * w, max(2, round(0.008 * w))
    for x in (0.0992, 0.2, 0.2992):
        d.rectangle((round(x * w) - 1, f0, round(x * w) if w < 1000 else round(x * w) + 1, f1 - 1),
                    fill=DIVIDER_RGB)
    ax = 0.015 * w
    d.polygon([(ax, cy), (ax + s, cy - s), (ax + s, cy - s / 2.5), (0.078 * w, cy - s / 2.5),
               (0.078 * w, cy + s / 2.5), (ax + s, cy + s / 2.5), (ax + s, cy + s)], fill=ICON_RGB)
    digits = 0.0386 * w  # the digits' height
    font = ImageFont.load_default(round(digits / 0.72))
    d.text((0.15 * w, cy), str(par), fill=ICON_RGB, font=font, anchor="mm")
    x, rad = 0.2535 * w, 0.03 * w
    d.arc((x - rad, cy - rad, x + rad, cy + rad), 60, 330, fill=ICON_RGB, width=line)
    d.polygon([(x + rad * 0.2, cy - rad * 1.35), (x + rad * 0.95, cy - rad * 0.75), (x + rad * 0.2, cy - rad * 0.3)],
              fill=ICON_RGB)
    x = 0.35 * w
    d.ellipse((x - 0.024 * w, cy - 0.04 * w, x + 0.024 * w, cy + 0.005 * w), fill=ICON_RGB)
    d.rectangle((x - 0.01 * w, cy, x + 0.01 * w, cy + 0.025 * w), fill=ICON_RGB)


def draw_footer(img: Image.Image, rows: tuple[int, int], palette: list[str], par: int, selected: int,
                rng: np.random.Generator) -> None:
    w = img.width
    f0, f1 = rows
    d = ImageDraw.Draw(img)
    d.rectangle((0, f0, w, f1 - 1), fill=BAR_RGB)
    _icons(d, w, f0, f1, par)
    x, sw = 0.4 * w, 0.6 * w / len(palette)
    for k, hexcode in enumerate(palette):
        d.rectangle((round(x + k * sw), f0, round(x + (k + 1) * sw) - 1, f1 - 1), fill=hexcode)
    right, ew, eh = round(x + (selected + 1) * sw) - 1, 0.047 * w, 0.044 * w
    d.polygon([(right - ew, f0), (right, f0 + eh), (right - ew, f0 + eh)], fill=DOG_EAR[0])
    d.polygon([(right - ew, f0), (right, f0), (right, f0 + eh)], fill=DOG_EAR[1])
    arr = np.asarray(img, dtype=np.float32).copy()  # the bar and swatches have grain too
    arr[f0:f1] += 2.0 * rng.standard_normal((f1 - f0, w, 1), dtype=np.float32)
    img.paste(Image.fromarray(np.clip(arr[f0:f1], 0, 255).astype(np.uint8)), (0, f0))


def draw_bars(img: Image.Image, top: int, bottom: int, footer_bottom: int) -> None:
    """A black status bar (time, battery) over the top band; below the footer either a home-indicator
    band (`bottom` rows, black with a light pill) or nothing."""
    d = ImageDraw.Draw(img)
    w, h = img.size
    if top:
        d.rectangle((0, 0, w, top - 1), fill=(0, 0, 0))
        d.text((0.08 * w, top / 2), "9:41", fill=(240, 240, 240), font=ImageFont.load_default(round(top * 0.4)),
               anchor="lm")
        d.rectangle((0.86 * w, top * 0.38, 0.93 * w, top * 0.62), outline=(240, 240, 240), width=2)
    if bottom and footer_bottom < h:
        d.rectangle((0, footer_bottom, w, h), fill=(0, 0, 0))
        d.rounded_rectangle((0.33 * w, h - bottom * 0.45, 0.67 * w, h - bottom * 0.3), radius=bottom * 0.1,
                            fill=(240, 240, 240))


def game_shot(level: Level, palette: dict[str, str], *, size: tuple[int, int] = (750, 1334), par: int = 5,
              status_bar: int = 0, home_band: int = 0, below: int = 0, footer: float = IPHONE_FOOTER,
              selected: int = 0, out_size: tuple[int, int] | None = None, jpeg: int | None = None,
              seed: int = 0, row28: float = ROW28_BELOW_FOOTER) -> Image.Image:
    """The level as a game-style screenshot. `palette` maps the level's keys to '#rrggbb' in the game's
    swatch order; holes show the background. `status_bar` rows on top (black), `home_band` rows of a
    home indicator at the bottom or `below` rows of background under the footer (Android), the footer
    `footer` x the width high, swatch `selected` with the dog-ear, row 28's centre line `row28` pitches
    below the footer's top (the game's is ROW28_BELOW_FOOTER)."""
    rng = np.random.default_rng(seed)
    w, h = size
    origin, colw, pitch, rows = layout(w, h, status_bar, home_band + below, footer, row28)
    img = draw_board(level, (origin, colw, pitch), palette, (w, h),
                     (max(status_bar, math.ceil(origin[1])), rows[0]), rng)
    draw_footer(img, rows, list(palette.values()), par, selected, rng)
    draw_bars(img, status_bar, home_band, rows[1])
    if out_size:
        img = img.resize(out_size, Image.Resampling.LANCZOS)
    return jpeg_copy(img, jpeg) if jpeg else img


def framed(img: Image.Image, margins: tuple[tuple[int, tuple[int, int, int]], ...]) -> Image.Image:
    """The picture pasted inside nested frames: (width, colour) from the inside out."""
    for width, colour in margins:
        out = Image.new("RGB", (img.width + 2 * width, img.height + 2 * width + width // 3), colour)
        out.paste(img, (width, width))
        img = out
    return img


# game-like palettes, each with a pale colour the pastel background can be taken for and a dark one
# only a few ΔE from the footer's bar
PALETTES = [
    ["#f2e8d5", "#1f3a5f", "#d9534f", "#5cb85c", "#2e2218"],
    ["#e8e4f0", "#2d6a4f", "#e76f51", "#3a2418", "#e9c46a"],
    ["#fdf0d5", "#c1121f", "#2c2010", "#669bbc", "#780000"],
]
SIZES = {  # name: game_shot keyword arguments (the phones measured on real screenshots, and others)
    "750x1334": {"size": (750, 1334)},
    "665x1182-jpeg": {"size": (1242, 2208), "out_size": (665, 1182), "jpeg": 80},
    "1125x2436-bars": {"size": (1125, 2436), "status_bar": 132, "home_band": 102, "selected": 2},
    "tablet-1536x2048": {"size": (1536, 2048), "jpeg": 90, "selected": 1},
    "640x1136": {"size": (640, 1136), "jpeg": 92},
    "1242x2208": {"size": (1242, 2208), "selected": 3},
    "android-1080x2280": {"size": (1080, 2280), "status_bar": 117, "below": 21, "footer": 0.335, "jpeg": 90},
    "android-720x1600": {"size": (720, 1600), "status_bar": 60, "below": 16, "footer": 0.3, "selected": 1},
}


def with_holes(level: Level, seed: int) -> Level:
    """The 29 x 10 level with two or three patches of holes punched out (a game board's cut-outs)."""
    rng = np.random.default_rng(seed)
    grid = [[level.colours[level.index((r, c))] for c in range(10)] for r in range(29)]
    for _ in range(rng.integers(2, 4)):
        r0, c0, size = rng.integers(0, 29), rng.integers(0, 10), rng.integers(2, 5)
        for r in range(29):
            for c in range(10):
                if abs(r - r0) / 2 + abs(c - c0) < size / 2:
                    grid[r][c] = HOLE
    return Level.from_rows(["".join(row) for row in grid], "triangle")


def game_palette(level: Level, k: int) -> dict[str, str]:
    return dict(zip(level.colour_keys, PALETTES[k % len(PALETTES)], strict=False))
