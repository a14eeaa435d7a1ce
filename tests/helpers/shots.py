"""A synthetic screenshot in the style of the Kami 2 game, drawn from a level (never a real screenshot).

The layout follows the game's (README, "Screenshot import"): the board is 10 columns of triangles across
the whole width, 29 rows with the top and bottom rows cut in half (row pitch = board height / 28), a dark
footer below it (about 9.3 % of the height of board + footer) with a back arrow, the move count, a
restart icon, a hint bulb, and the level's colour swatches in the right 60 %, the first one selected
(a folded corner). Holes show a smooth pastel gradient; cells have paper grain and a shade per triangle.
Options add a status bar and a home-indicator band (1125 x 2436), a tablet's aspect (the board then
fits the height, with background on both sides), downscaling and JPEG.
"""

from __future__ import annotations

import io
import math

import numpy as np
from PIL import Image, ImageDraw, ImageFont

from kamicp.level import HOLE, Level

FOOTER_RGB = (38, 38, 40)
CORNERS = ((250, 250, 247), (214, 240, 228), (246, 218, 226), (226, 218, 244))  # white, mint, pink, lilac
FOOTER_PER_BOARD = 0.093 / 0.907  # footer height / board height
BOARD_ASPECT = 10 * math.sqrt(3) / 28  # board width / height: 10 columns, 28 row pitches, equilateral


def rgb(hexcode: str) -> np.ndarray:
    return np.array([int(hexcode[i:i + 2], 16) for i in (1, 3, 5)], dtype=float)


def pastel(w: int, h: int) -> Image.Image:
    """The smooth background: a bilinear blend of four pastel corners (a 2 x 2 picture stretched)."""
    corners = Image.new("RGB", (2, 2))
    corners.putdata(list(CORNERS))
    return corners.resize((w, h), Image.Resampling.BILINEAR)


def layout(w: int, h: int, top: int, bottom: int) -> tuple[tuple[float, float, float, float], tuple[int, int]]:
    """The board box (left, top, right, bottom) and the footer's rows (top, bottom)."""
    avail = h - top - bottom
    bh = w / BOARD_ASPECT
    if bh * (1 + FOOTER_PER_BOARD) > avail:  # a tablet: the board fits the height
        bh = avail / (1 + FOOTER_PER_BOARD)
    bw = bh * BOARD_ASPECT
    fh = round(bh * FOOTER_PER_BOARD)
    f1 = h - bottom
    f0 = f1 - fh
    return ((w - bw) / 2, f0 - bh, (w + bw) / 2, float(f0)), (f0, f1)


def cell_polygon(box: tuple[float, float, float, float], r: int, c: int, k: float = 1.0) -> list[tuple[float, float]]:
    """Triangle (r, c) of the game layout (row r centred on the line r * pitch), scaled by k."""
    x0, y0, x1, y1 = box
    colw, pitch = (x1 - x0) / 10, (y1 - y0) / 28
    left, right, mid = x0 + c * colw, x0 + (c + 1) * colw, y0 + r * pitch
    if (r + c) % 2 == 0:  # points right
        pts = [(left, mid - pitch), (right, mid), (left, mid + pitch)]
    else:
        pts = [(right, mid - pitch), (left, mid), (right, mid + pitch)]
    return [(x * k, y * k) for x, y in pts]


def draw_board(level: Level, box, palette: dict[str, str], size: tuple[int, int],
               rng: np.random.Generator) -> Image.Image:
    """The background with the cells painted on (2x supersampled, so edges are anti-aliased), a shade
    per triangle, and paper grain on the cells only."""
    w, h = size
    big = pastel(2 * w, 2 * h)
    mask = Image.new("L", big.size, 0)
    d, dm = ImageDraw.Draw(big), ImageDraw.Draw(mask)
    for cell, (r, c) in enumerate(level.labels):
        shade = rng.uniform(0.93, 1.05)
        colour = tuple(int(v) for v in np.clip(rgb(palette[level.colors[cell]]) * shade, 0, 255))
        poly = cell_polygon(box, r, c, 2.0)
        d.polygon(poly, fill=colour)
        dm.polygon(poly, fill=255)
    # the screen's edge and the footer cut the top and bottom rows in half
    outside = Image.new("L", big.size, 255)
    ImageDraw.Draw(outside).rectangle((0, round(2 * box[1]), 2 * w, round(2 * box[3]) - 1), fill=0)
    big.paste(pastel(2 * w, 2 * h), mask=outside)
    mask.paste(0, mask=outside)
    img = np.asarray(big.resize(size, Image.Resampling.BOX), dtype=np.float32)
    alpha = np.asarray(mask.resize(size, Image.Resampling.BOX), dtype=np.float32)[..., None] / 255
    grain = 5.0 * rng.standard_normal((h, w, 1), dtype=np.float32) + 2.0 * rng.standard_normal((h, w, 3),
                                                                                               dtype=np.float32)
    return Image.fromarray(np.clip(img + grain * alpha, 0, 255).astype(np.uint8))


def draw_footer(img: Image.Image, rows: tuple[int, int], palette: list[str], par: int) -> None:
    w = img.width
    f0, f1 = rows
    fh = f1 - f0
    d = ImageDraw.Draw(img)
    d.rectangle((0, f0, w, f1 - 1), fill=FOOTER_RGB)
    white, line = (235, 235, 235), max(2, fh // 20)
    cy = f0 + fh / 2
    # back arrow, the move count, restart and hint icons in the left 40 %
    d.line([(0.075 * w, cy - fh * 0.15), (0.045 * w, cy), (0.075 * w, cy + fh * 0.15)], fill=white, width=line)
    font = ImageFont.load_default(round(fh * 0.42))
    d.text((0.14 * w, cy), str(par), fill=white, font=font, anchor="mm")
    rad = fh * 0.16
    d.arc((0.24 * w - rad, cy - rad, 0.24 * w + rad, cy + rad), 40, 330, fill=white, width=line)
    d.ellipse((0.33 * w - rad * 0.8, cy - rad, 0.33 * w + rad * 0.8, cy + rad * 0.6), outline=white, width=line)
    # the swatches: equal widths over the right 60 %, the first one selected (a folded corner)
    x = 0.4 * w
    sw = 0.6 * w / len(palette)
    for k, hexcode in enumerate(palette):
        d.rectangle((round(x + k * sw), f0, round(x + (k + 1) * sw) - 1, f1 - 1), fill=hexcode)
    fold = fh * 0.22
    right = round(x + sw) - 1
    d.polygon([(right - fold, f0), (right, f0), (right, f0 + fold)], fill=(250, 250, 250))


def draw_bars(img: Image.Image, top: int, bottom: int) -> None:
    """A status bar (time, battery) over the top band and a home-indicator band at the bottom."""
    d = ImageDraw.Draw(img)
    w, h = img.size
    if top:
        d.text((0.08 * w, top / 2), "9:41", fill=(20, 20, 20), font=ImageFont.load_default(round(top * 0.4)),
               anchor="lm")
        d.rectangle((0.86 * w, top * 0.38, 0.93 * w, top * 0.62), outline=(20, 20, 20), width=2)
    if bottom:
        d.rectangle((0, h - bottom, w, h), fill=(0, 0, 0))
        d.rounded_rectangle((0.33 * w, h - bottom * 0.45, 0.67 * w, h - bottom * 0.3), radius=bottom * 0.1,
                            fill=(240, 240, 240))


def game_shot(level: Level, palette: dict[str, str], *, size: tuple[int, int] = (750, 1334), par: int = 5,
              status_bar: int = 0, home_band: int = 0, out_size: tuple[int, int] | None = None,
              jpeg: int | None = None, seed: int = 0) -> Image.Image:
    """The level as a game-style screenshot. `palette` maps the level's keys to '#rrggbb' in the game's
    swatch order; holes show the background."""
    rng = np.random.default_rng(seed)
    w, h = size
    box, footer = layout(w, h, status_bar, home_band)
    img = draw_board(level, box, palette, (w, h), rng)
    draw_footer(img, footer, list(palette.values()), par)
    draw_bars(img, status_bar, home_band)
    if out_size:
        img = img.resize(out_size, Image.Resampling.LANCZOS)
    if jpeg:
        buf = io.BytesIO()
        img.save(buf, "JPEG", quality=jpeg)
        buf.seek(0)
        img = Image.open(buf).convert("RGB")
    return img


def framed(img: Image.Image, margins: tuple[tuple[int, tuple[int, int, int]], ...]) -> Image.Image:
    """The picture pasted inside nested frames: (width, colour) from the inside out."""
    for width, colour in margins:
        out = Image.new("RGB", (img.width + 2 * width, img.height + 2 * width + width // 3), colour)
        out.paste(img, (width, width))
        img = out
    return img


# game-like palettes, each with a pale colour that the pastel background can be taken for
PALETTES = [
    ["#f2e8d5", "#1f3a5f", "#d9534f", "#5cb85c", "#f0ad4e"],
    ["#e8e4f0", "#2d6a4f", "#e76f51", "#264653", "#e9c46a"],
    ["#fdf0d5", "#c1121f", "#003049", "#669bbc", "#780000"],
]
SIZES = {  # name: game_shot keyword arguments
    "750x1334": {"size": (750, 1334)},
    "665x1182-jpeg": {"size": (1242, 2208), "out_size": (665, 1182), "jpeg": 80},
    "1125x2436-bars": {"size": (1125, 2436), "status_bar": 132, "home_band": 102},
    "tablet-1536x2048": {"size": (1536, 2048), "jpeg": 90},
}


def with_holes(level: Level, seed: int) -> Level:
    """The 29 x 10 level with two or three patches of holes punched out (a game board's cut-outs)."""
    rng = np.random.default_rng(seed)
    grid = [[level.colors[level.index((r, c))] for c in range(10)] for r in range(29)]
    for _ in range(rng.integers(2, 4)):
        r0, c0, size = rng.integers(0, 29), rng.integers(0, 10), rng.integers(2, 5)
        for r in range(29):
            for c in range(10):
                if abs(r - r0) / 2 + abs(c - c0) < size / 2:
                    grid[r][c] = HOLE
    return Level.from_rows(["".join(row) for row in grid], "triangle")


def game_palette(level: Level, k: int) -> dict[str, str]:
    return dict(zip(level.color_keys, PALETTES[k % len(PALETTES)], strict=False))
