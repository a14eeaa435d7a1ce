"""Finding a board inside a picture's margins: while the picture's border is one colour (fitted as a
colour that may drift linearly across the picture, a shading gradient), what lies inside it is taken,
so a screenshot pasted inside a frame, itself inside another, is found; the board is the innermost box
with the grid's shape."""

from __future__ import annotations

import numpy as np
from PIL import Image, ImageFilter

from kamicp.errors import FormatError
from kamicp.formats.shot.colour import delta_e, rgb_to_lab
from kamicp.formats.shot.report import Box

DETECT_SIDE = 1000  # the board is located on a copy at most this many pixels wide or high
BORDER_UNIFORM_DELTA_E = 10.0  # 90% of border pixels this close to their median: the border is a margin
ASPECT_TOLERANCE = 0.06


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
        try:
            found = _inner_box(lab[b:d, a:c])
        except FormatError:
            if len(chain) == 1:  # the whole picture is one colour
                raise
            found = None  # inside a margin, one colour: the previous box is the content
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


Chain = list[tuple[Box, Background | None]]


def aspect_off(box: Box, aspect: float) -> float:
    return abs((box[2] - box[0]) / max(1, box[3] - box[1]) / aspect - 1)


def find_board(img: Image.Image, aspect: float, chain: Chain | None = None,
               ) -> tuple[Box, Background | None, list[str]]:
    """The board's bounding box, the background around it (None when it fills the picture) and
    warnings. `aspect` is the board's expected width / height: of the nested boxes inside margins
    (`chain`, peel_margins's), the innermost one with that shape is the board."""
    chain = peel_margins(img) if chain is None else chain
    for box, background in reversed(chain):
        if aspect_off(box, aspect) <= ASPECT_TOLERANCE:
            return box, background, []
    box, background = chain[-1]
    bw, bh = box[2] - box[0], box[3] - box[1]
    return box, background, [f"the board found ({bw} x {bh} pixels) does not have the shape of the grid: check "
                             "the geometry, --rows/--cols, or give the board's --box"]
