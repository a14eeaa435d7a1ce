"""Levels from screenshots: find the board, sample every cell, cluster the colours, write a level.

0. Margins: while the picture's border is one colour, what lies inside it is taken (peel_margins), so a
   screenshot pasted inside a frame, itself inside another, is found. A Kami 2 game screenshot (its
   dark footer with the colour swatches; triangle geometry, default size) is read by its own layout:
   gameshot.py, with the palette from the swatches and holes against the background.
1. The board (any other picture): the border colour is the background; the board is the innermost
   box inside the margins with the grid's shape (or `box`, given by the caller). Cells are placed by
   the lattice geometry (triangle 29 x 10, square 10 x 16 by default) scaled to that box.
2. Samples: the median colour of a small patch at each cell's centre (not one pixel), so noise, paper
   texture and JPEG artefacts average out; the patch's spread says whether it is uniform.
3. Colours: clustered in CIE Lab, where distances match what the eye sees. Samples closer than
   LINK_DELTA_E are chained into one colour (a shading gradient drifts slowly from cell to cell, so
   a colour stays one chain), then colours whose centres are closer than MERGE_DELTA_E are merged.
   The number of colours is whatever remains. Keys are A, B, C, ... in reading order of first use.
4. Report: sizes, palette, cell counts, holes (cells showing the background) and uncertain cells: a
   sample nearly as close to another colour as to its own, a patch that is not uniform, or the only
   cell of its colour.

Large images are refused before decoding: MAX_PIXELS is Pillow's decompression-bomb limit here.
"""

from __future__ import annotations

import io
import string
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from PIL import Image, ImageFilter, UnidentifiedImageError

from kamicp.errors import FormatError, UsageError
from kamicp.formats import gameshot
from kamicp.formats.common import read_bytes
from kamicp.geometry import Lattice, lattice
from kamicp.level import HOLE, Level

# 40 megapixels: more than any phone or tablet screenshot (a 4K screen is 8.3 MP), far below what
# would exhaust memory. Pillow refuses (DecompressionBombError) above it; kamicp turns that into a
# FormatError.
MAX_PIXELS = 40_000_000
DEFAULT_SHAPES: dict[str, tuple[int, int]] = {"triangle": (29, 10), "square": (10, 16)}
DETECT_SIDE = 1000  # the board is located on a copy at most this many pixels wide or high
LINK_DELTA_E = 9.0  # samples closer than this chain into one colour
MERGE_DELTA_E = 16.0  # colours whose centres are closer than this are one colour
BORDER_UNIFORM_DELTA_E = 10.0  # 90% of border pixels this close to their median: the border is a margin
HOLE_DELTA_E = 6.0  # a cell this close to the background colour is a hole
SPREAD_DELTA_E = 10.0  # a patch spreading more than this (and 3x the typical patch) is not uniform
AMBIGUITY = 0.5  # uncertain when (distance to own colour) > AMBIGUITY * (distance to the next colour)
ASPECT_TOLERANCE = 0.06
KEYS = string.ascii_uppercase + string.ascii_lowercase + string.digits

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class UncertainCell:
    """A cell whose colour should be checked by eye; `reason` says why."""

    label: tuple[int, int]
    key: str
    reason: str
    delta_e: float  # distance of its sample to its colour's centre


@dataclass(frozen=True)
class CellMark:
    """Where a cell was read: its outline and sample point in image pixels, and the key it got."""

    label: tuple[int, int]
    polygon: tuple[tuple[float, float], ...]
    at: tuple[float, float]
    key: str  # HOLE for a hole


@dataclass(frozen=True)
class ImportReport:
    source: str
    image_size: tuple[int, int]
    box: Box  # board bounding box (left, top, right, bottom) in image pixels
    geometry: str
    shape: tuple[int, int]
    palette: tuple[tuple[str, str], ...]  # key -> '#rrggbb', in key order
    counts: tuple[tuple[str, int], ...]  # key -> number of cells
    holes: int
    uncertain: tuple[UncertainCell, ...]
    warnings: tuple[str, ...]
    layout: str = "board"  # "game": a Kami 2 screenshot (footer, swatches); "board": a board on a margin
    cells: tuple[CellMark, ...] = ()  # every lattice position, for the overlay
    par: int | None = None  # read from the game's footer
    par_note: str = ""  # how the par was read, or why not

    @property
    def colors(self) -> int:
        return len(self.palette)


@dataclass(frozen=True)
class Screenshot:
    """An imported level and what the import saw."""

    level: Level
    report: ImportReport


# --- colour science ---------------------------------------------------------------------------------
_LINEAR = np.arange(256) / 255.0
_LINEAR = np.where(_LINEAR <= 0.04045, _LINEAR / 12.92, ((_LINEAR + 0.055) / 1.055) ** 2.4).astype(np.float32)


def rgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """sRGB (0..255, last axis RGB) to CIE Lab (D65). Whole pictures (uint8) go through a lookup table in
    single precision, which is plenty for colour differences of a unit or more."""
    if isinstance(rgb, np.ndarray) and rgb.dtype == np.uint8:
        c = _LINEAR[rgb]
    else:
        c = np.asarray(rgb, dtype=np.float64) / 255.0
        c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124564, 0.3575761, 0.1804375],
                  [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]], dtype=c.dtype)
    xyz = c @ m.T / np.array([0.95047, 1.0, 1.08883], dtype=c.dtype)
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    lab = np.empty_like(f)
    lab[..., 0] = 116 * f[..., 1] - 16
    lab[..., 1] = 500 * (f[..., 0] - f[..., 1])
    lab[..., 2] = 200 * (f[..., 1] - f[..., 2])
    return lab


def delta_e(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """CIE76 colour difference (Euclidean in Lab); about 2.3 is just noticeable."""
    return np.sqrt(((np.asarray(a) - np.asarray(b)) ** 2).sum(axis=-1))



# --- reading ----------------------------------------------------------------------------------------
def open_image(path: str | Path) -> Image.Image:
    """The image as RGB (transparency over white); FormatError for anything that is not a readable,
    reasonably sized image."""
    source = str(path)
    old_limit = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    size = ""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(read_bytes(path, what="image"))) as img:  # regular files, bounded
                w, h = img.size
                size = f"{w} x {h} pixels; "
                if w * h > MAX_PIXELS:
                    raise Image.DecompressionBombError("too many pixels")
                img.load()
                if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
                    rgba = img.convert("RGBA")
                    out = Image.new("RGB", rgba.size, (255, 255, 255))
                    out.paste(rgba, mask=rgba.getchannel("A"))
                    return out
                return img.convert("RGB")
    except FileNotFoundError:
        raise FormatError("no such file", source=source) from None
    except IsADirectoryError:
        raise FormatError("is a directory, not an image", source=source) from None
    except UnidentifiedImageError:
        raise FormatError("not an image kamicp can read (PNG, JPEG, GIF, BMP, WebP, ...)", source=source) from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise FormatError(f"image too large ({size}the limit is {MAX_PIXELS // 1_000_000} megapixels)",
                          source=source) from None
    except (OSError, SyntaxError, ValueError) as e:
        raise FormatError(f"cannot read the image: {e}", source=source) from None
    finally:
        Image.MAX_IMAGE_PIXELS = old_limit


# --- the board --------------------------------------------------------------------------------------
def _fit_background(lab: np.ndarray, width: int = 2) -> tuple[np.ndarray, np.ndarray]:
    """A background colour that may drift linearly across the image (a shading gradient), fitted to
    the border pixels by least squares: returns the coefficients and the border's residuals (ΔE)."""
    h, w = lab.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w]
    ring = np.zeros((h, w), dtype=bool)
    ring[:width], ring[-width:], ring[:, :width], ring[:, -width:] = True, True, True, True
    design = np.stack([np.ones(ring.sum()), xx[ring] / w, yy[ring] / h], axis=1)
    coef = np.linalg.lstsq(design, lab[ring], rcond=None)[0]
    return coef, delta_e(lab[ring], design @ coef)


Background = tuple[np.ndarray, tuple[float, float, float, float]]  # coefficients, frame (left, top, w, h)


def background_at(background: Background, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """The fitted background colour (Lab) at points (x, y), in the pixels its frame is given in."""
    coef, (left, top, fw, fh) = background
    design = np.stack([np.ones_like(x, dtype=float), (x - left) / fw, (y - top) / fh], axis=-1)
    return design @ coef


def _inner_box(lab: np.ndarray) -> tuple[Box, np.ndarray] | None:
    """When the border of `lab` is one colour (a margin), the box of everything else and the margin's
    background coefficients; None when the border is not uniform."""
    sh, sw = lab.shape[:2]
    coef, residual = _fit_background(lab)
    if np.quantile(residual, 0.9) > BORDER_UNIFORM_DELTA_E:
        return None
    threshold = max(10.0, 2.0 * float(np.quantile(residual, 0.98)) + 4.0)
    yy, xx = np.mgrid[0:sh, 0:sw]
    mask = delta_e(lab, background_at((coef, (0, 0, sw, sh)), xx, yy)) > threshold
    rows = np.flatnonzero(mask.mean(axis=1) > 0.01)
    cols = np.flatnonzero(mask.mean(axis=0) > 0.01)
    if rows.size == 0 or cols.size == 0:
        raise FormatError("no board found: the picture is one uniform colour")
    return (int(cols[0]), int(rows[0]), int(cols[-1]) + 1, int(rows[-1]) + 1), coef


def peel_margins(img: Image.Image, depth: int = 5) -> list[tuple[Box, Background | None]]:
    """Boxes nested in the picture, outermost (the whole picture) first: each next one is what lies
    inside a uniform margin of the previous one (a screenshot pasted in a frame has two), with that
    margin's background model in full-image pixels."""
    w, h = img.size
    f = min(1.0, DETECT_SIDE / max(w, h))
    small = img if f == 1.0 else img.resize((max(1, round(w * f)), max(1, round(h * f))), Image.Resampling.BOX)
    small = small.filter(ImageFilter.GaussianBlur(1.5))  # noise and JPEG artefacts out of the way
    lab = rgb_to_lab(np.asarray(small))
    sh, sw = lab.shape[:2]
    chain: list[tuple[tuple[int, int, int, int], Background | None]] = [((0, 0, sw, sh), None)]
    while len(chain) <= depth:
        a, b, c, d = chain[-1][0]
        if len(chain) > 1:  # look past the blurred seam between two margins
            a, b, c, d = a + 3, b + 3, c - 3, d - 3
        if min(c - a, d - b) < 12:
            break
        found = _inner_box(lab[b:d, a:c])
        if found is None or found[0] == (0, 0, c - a, d - b):
            break
        (x0, y0, x1, y1), coef = found
        chain.append(((a + x0, b + y0, a + x1, b + y1), (coef, (a / f, b / f, (c - a) / f, (d - b) / f))))
    sx, sy = w / sw, h / sh
    return [((round(a * sx), round(b * sy), round(c * sx), round(d * sy)), bg) for (a, b, c, d), bg in chain]


def refine_box(img: Image.Image, box: Box, background: Background | None, reach: int = 6) -> Box:
    """The box's edges moved, within `reach` pixels, to where the margin ends at full resolution
    (peel_margins works on a blurred, reduced copy)."""
    if background is None:
        return box
    x0, y0, x1, y1 = box
    w, h = img.size
    xa, xb, ya, yb = max(0, x0 - reach), min(w, x1 + reach), max(0, y0 - reach), min(h, y1 + reach)
    lab = rgb_to_lab(np.asarray(img.crop((xa, ya, xb, yb))))
    ring = np.ones(lab.shape[:2], dtype=bool)  # the pixels 3-5 outside the box: the margin's true colour
    ring[max(0, y0 - ya - 2):y1 - ya + 2, max(0, x0 - xa - 2):x1 - xa + 2] = False
    ring[:max(0, y0 - ya - 5)] = ring[y1 - ya + 5:] = False
    ring[:, :max(0, x0 - xa - 5)] = ring[:, x1 - xa + 5:] = False
    if ring.sum() < 10:
        return box
    margin = delta_e(lab, np.median(lab[ring], axis=0)) < 8.0
    inner = margin[y0 - ya + reach:y1 - ya - reach, x0 - xa + reach:x1 - xa - reach]
    if inner.size == 0:
        return box
    col_margin = margin[y0 - ya + reach:y1 - ya - reach].mean(axis=0) > 0.5  # indexed from xa
    row_margin = margin[:, x0 - xa + reach:x1 - xa - reach].mean(axis=1) > 0.5  # indexed from ya

    def edge(flags: np.ndarray, origin: int, at: int, start: bool) -> int:
        lo, hi = max(0, at - reach - origin), min(len(flags), at + reach - origin)
        hits = np.flatnonzero(flags[lo:hi]) + lo + origin
        if hits.size == 0:
            return at
        return int(hits[-1]) + 1 if start else int(hits[0])

    return (edge(col_margin, xa, x0, True), edge(row_margin, ya, y0, True),
            edge(col_margin, xa, x1, False), edge(row_margin, ya, y1, False))


def find_board(img: Image.Image, aspect: float) -> tuple[Box, Background | None, list[str]]:
    """The board's bounding box, the background around it (None when it fills the picture) and
    warnings. `aspect` is the board's expected width / height: of the nested boxes inside margins, the
    innermost one with that shape is the board."""
    chain = peel_margins(img)

    def off(b: Box) -> float:
        return abs((b[2] - b[0]) / max(1, b[3] - b[1]) / aspect - 1)

    for box, background in reversed(chain):
        if off(box) <= ASPECT_TOLERANCE:
            return box, background, []
    box, background = chain[-1]
    bw, bh = box[2] - box[0], box[3] - box[1]
    return box, background, [f"the board found ({bw} x {bh} pixels) does not have the shape of the grid: check "
                             "the geometry, --rows/--cols, or give the board's --box"]


# --- import -----------------------------------------------------------------------------------------
def _single_linkage(points: np.ndarray, threshold: float) -> list[int]:
    n = len(points)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    d = delta_e(points[:, None, :], points[None, :, :])
    for i, j in zip(*np.nonzero(np.triu(d < threshold, 1)), strict=True):
        a, b = find(int(i)), find(int(j))
        if a != b:
            parent[max(a, b)] = min(a, b)
    return [find(i) for i in range(n)]


def _cluster(samples: np.ndarray) -> np.ndarray:
    """A cluster number per sample: single-linkage chains, then centre merging (see module doc)."""
    roots = _single_linkage(samples, LINK_DELTA_E)
    labels = np.unique(roots, return_inverse=True)[1]
    while True:
        ids = np.unique(labels)
        centres = np.array([np.median(samples[labels == k], axis=0) for k in ids])
        d = delta_e(centres[:, None, :], centres[None, :, :])
        np.fill_diagonal(d, np.inf)
        i, j = np.unravel_index(np.argmin(d), d.shape)
        if len(ids) < 2 or d[i, j] >= MERGE_DELTA_E:
            return np.unique(labels, return_inverse=True)[1]
        labels[labels == ids[j]] = ids[i]


def _patch(arr: np.ndarray, x: float, y: float, half: float) -> tuple[np.ndarray, float]:
    """Median colour (RGB) of the square patch around (x, y) and its spread (ΔE, 75th percentile)."""
    k = max(1, int(half))
    ix, iy = int(x), int(y)
    patch = arr[max(0, iy - k):iy + k + 1, max(0, ix - k):ix + k + 1].reshape(-1, 3)
    med = np.median(patch, axis=0)
    return med, float(np.quantile(delta_e(rgb_to_lab(patch), rgb_to_lab(med)), 0.75))


def _hex(rgb: np.ndarray) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(round(float(v)) for v in rgb))


GAME_SHAPE = DEFAULT_SHAPES["triangle"]  # a Kami 2 board: 29 rows of 10 triangles


def _swatch_colours(arr: np.ndarray, lab_img: np.ndarray,
                    layout: gameshot.GameLayout) -> tuple[list[np.ndarray], np.ndarray]:
    """Each footer swatch's colour, RGB (the palette) and Lab (the centres cells are matched to): the
    median of the swatch's middle, low in the bar and in from its sides, clear of edges and icons."""
    f0, f1 = layout.footer
    band = slice(f0 + int(0.45 * (f1 - f0)), f1 - max(1, int(0.1 * (f1 - f0))))
    swatch_rgb, swatch_lab = [], []
    for a, b in layout.swatches:
        inner = slice(a + (b - a) // 5, b - (b - a) // 5)
        swatch_rgb.append(np.median(arr[band, inner].reshape(-1, 3), axis=0))
        swatch_lab.append(np.median(lab_img[band, inner].reshape(-1, 3), axis=0))
    return swatch_rgb, np.array(swatch_lab)


def _game_samples(arr: np.ndarray, board: tuple[float, float, float, float], rows: int,
                  cols: int) -> tuple[list[tuple[int, int]], np.ndarray, list[tuple[float, float, float]]]:
    """Every cell's label, median colour (Lab) and sample point (x, y, half side), in reading order: a
    patch's median, not one pixel, so the paper grain and JPEG noise average out."""
    labels, medians, samples = [], [], []
    for r in range(rows):
        for c in range(cols):
            x, y, half = gameshot.sample_point(board, r, c, rows)
            labels.append((r, c))
            medians.append(_patch(arr, x, y, half)[0])
            samples.append((x, y, half))
    return labels, rgb_to_lab(np.array(medians)), samples


def _nearest_swatch(lab: np.ndarray, centres: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Per sample: its nearest swatch, the ΔE to it and to the second nearest (how ambiguous the cell
    is), and its hue distance to the nearest (which tells holes, as a fold only shades a colour)."""
    dist = delta_e(lab[:, None, :], centres[None, :, :])
    order = np.argsort(dist, axis=1)
    nearest = order[:, 0]
    d1 = dist[np.arange(len(lab)), nearest]
    d2 = dist[np.arange(len(lab)), order[:, 1]]
    # a fold shades a triangle lighter or darker: off its swatch in lightness, hardly in hue
    return nearest, d1, d2, gameshot.hue_distance(lab, centres[nearest])


def _grain_ratio(lightness: np.ndarray, samples: list[tuple[float, float, float]], confident: np.ndarray,
                 notes: list[str]) -> tuple[np.ndarray, np.ndarray]:
    """Each cell's paper grain against the typical sure cell's, and whether it is smooth (the background
    has no grain, so a pale colour and a hole differ there). With no grain visible at all, no cell is
    smooth and a note says holes are told by colour alone."""
    grain = np.array([gameshot.grain(lightness, x, y, gameshot.GRAIN_PATCH * h) for x, y, h in samples])
    typical = float(np.median(grain[confident])) if confident.any() else 0.0
    if typical < gameshot.MIN_GRAIN:
        notes.append("no paper grain visible (a blurred or heavily compressed picture): holes are told from "
                     "pale colours by colour alone")
        return np.ones(len(samples)), np.zeros(len(samples), dtype=bool)
    ratio = grain / typical
    return ratio, ratio < gameshot.SMOOTH_RATIO


def _game_doubt(dw: float, ratio: float, smooth: bool, hole: bool, d1: float, d2: float) -> str:
    """Why a game cell should be checked by eye, or "": it sits near a hole threshold (hue distance or
    grain), or it is nearly as close to a second swatch as to its own."""
    near_far = abs(dw - gameshot.HOLE_FAR_DELTA_E) < 0.3 * gameshot.HOLE_FAR_DELTA_E and not smooth
    near_smooth = abs(ratio - gameshot.SMOOTH_RATIO) < 0.5 * gameshot.SMOOTH_RATIO
    if near_far or near_smooth:
        return "hole or colour?"
    if not hole and d1 > AMBIGUITY * d2:
        return "between two colours"
    return ""


def _game_marks(board: tuple[float, float, float, float], labels: list[tuple[int, int]],
                samples: list[tuple[float, float, float]], cell_keys: list[str],
                offset: tuple[int, int]) -> tuple[CellMark, ...]:
    """Where each cell was read, for the overlay: in the whole picture's pixels, as the layout was found
    in the content inside any frames, which starts at `offset`."""
    ox, oy = offset
    return tuple(CellMark((r, c), tuple((px + ox, py + oy) for px, py in gameshot.cell_polygon(board, r, c)),
                          (x + ox, y + oy), key)
                 for (r, c), (x, y, _), key in zip(labels, samples, cell_keys, strict=True))


def _game_screenshot(img: Image.Image, content: Box, name: str, source: str) -> Screenshot | None:
    """The level of a Kami 2 screenshot whose content (inside any frames) is `content`, or None when
    the picture does not have the game's footer (gameshot.py has the layout and the method)."""
    ox, oy = content[0], content[1]
    arr = np.asarray(img.crop(content))
    lab_img = rgb_to_lab(arr)
    found = gameshot.find_layout(lab_img)
    if found is None:
        return None
    layout, notes = found
    par, par_note = gameshot.read_moves(lab_img, layout)
    swatch_rgb, centres = _swatch_colours(arr, lab_img, layout)
    rows, cols = GAME_SHAPE
    labels, lab, samples = _game_samples(arr, layout.board, rows, cols)
    nearest, d1, d2, dw = _nearest_swatch(lab, centres)
    ratio, smooth = _grain_ratio(lab_img[..., 0], samples, dw < gameshot.HOLE_NEAR_DELTA_E, notes)
    hole = (dw > gameshot.HOLE_FAR_DELTA_E) | smooth
    keys = KEYS[:len(centres)]
    cell_keys = [HOLE if hole[n] else keys[nearest[n]] for n in range(len(labels))]
    grid = [[HOLE] * cols for _ in range(rows)]
    uncertain = []
    for n, ((r, c), key) in enumerate(zip(labels, cell_keys, strict=True)):
        grid[r][c] = key
        reason = _game_doubt(dw[n], ratio[n], smooth[n], hole[n], d1[n], d2[n])
        if reason:
            uncertain.append(UncertainCell((r, c), key, reason, round(float(d1[n]), 1)))
    palette = tuple((k, _hex(v)) for k, v in zip(keys, swatch_rgb, strict=True))
    if all(k == HOLE for row in grid for k in row):
        raise FormatError("no board found: every cell shows the background", source=source)
    level = Level.from_rows(["".join(row) for row in grid], "triangle", name=name, palette=dict(palette))
    x0, y0, x1, y1 = layout.board
    counts = tuple((k, sum(row.count(k) for row in grid)) for k in keys)
    unused = [k for k, n in counts if n == 0]
    if unused:
        notes.append(f"swatch {', '.join(unused)} has no cell on the board: check the palette")
    report = ImportReport(
        source=source, image_size=img.size,
        box=(round(x0) + ox, round(y0) + oy, round(x1) + ox, round(y1) + oy),
        geometry="triangle", shape=(rows, cols), palette=palette, counts=counts,
        holes=int(hole.sum()), uncertain=tuple(uncertain), warnings=tuple(notes), layout="game",
        cells=_game_marks(layout.board, labels, samples, cell_keys, (ox, oy)), par=par, par_note=par_note,
    )
    return Screenshot(level, report)


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
    clusters = _cluster(lab)
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


def level_from_image(img: Image.Image, geometry: str = "triangle", rows: int | None = None,
                     cols: int | None = None, *, box: Box | None = None, name: str = "",
                     source: str = "") -> Screenshot:
    """Read a board from an RGB image (see the module doc); FormatError when there is none."""
    rows, cols = _board_shape(geometry, rows, cols, source)
    img = img.convert("RGB")
    lat = lattice(geometry)
    ext_w, ext_h = lat.extent(rows, cols, 1.0)
    notes: list[str] = []
    background = None
    if box is None:
        try:
            if geometry == "triangle" and (rows, cols) == GAME_SHAPE:
                game = _game_screenshot(img, refine_box(img, *peel_margins(img)[-1]), name, source)
                if game is not None:
                    return game
            box, background, notes = find_board(img, ext_w / ext_h)
        except FormatError as e:
            raise FormatError(e.message, source=source) from None
    else:
        _check_box(img, box, source)
    x0, y0 = box[0], box[1]
    sx, sy, half = _cell_scale(box, (ext_w, ext_h), geometry, (rows, cols), source)
    samples = _sample_cells(np.asarray(img), lat, (rows, cols), (x0, y0), (sx, sy), half)
    lab = rgb_to_lab(samples.rgb)
    hole = _holes(lab, samples, background, source)
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


def read_screenshot(path: str | Path, geometry: str = "triangle", rows: int | None = None,
                    cols: int | None = None, *, box: Box | None = None, name: str | None = None) -> Screenshot:
    """Import a level from a screenshot file (PNG, JPEG, ...); the level is named after the file."""
    p = Path(path)
    return level_from_image(open_image(p), geometry, rows, cols, box=box,
                            name=p.stem if name is None else name, source=str(p))


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
