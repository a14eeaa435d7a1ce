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
    """How far the box's width / height is from `aspect`, as a fraction of it."""
    return abs((box[2] - box[0]) / max(1, box[3] - box[1]) / aspect - 1)


MAX_BANDS = 12  # a box split by more background rows than this is taken whole (no band is dropped)
BAND_GAP = 2  # background rows (of the reduced copy) that split a box into bands


def _ink(img: Image.Image, box: Box, background: Background) -> tuple[np.ndarray, float]:
    """Which pixels of `box` differ from the margin's background, on a blurred copy at most
    DETECT_SIDE pixels on its long side, and that copy's scale."""
    x0, y0, x1, y1 = box
    f = min(1.0, DETECT_SIDE / max(x1 - x0, y1 - y0, 1))
    crop = img.crop(box)
    if f < 1.0:
        crop = crop.resize((max(1, round(crop.width * f)), max(1, round(crop.height * f))), Image.Resampling.BOX)
    lab = rgb_to_lab(np.asarray(crop.filter(ImageFilter.GaussianBlur(1.0))))
    yy, xx = np.mgrid[0:lab.shape[0], 0:lab.shape[1]]
    return delta_e(lab, background_at(background, x0 + xx / f, y0 + yy / f)) > 10.0, f


def _bands(img: Image.Image, box: Box, background: Background | None) -> list[Box]:
    """The boxes that runs of bands of `box` make, where bands are what background rows split it into:
    a title above a board (our own pictures have one) is a band of its own, so the board alone is
    one of these boxes. Each is cut to the columns its rows use (a title may be wider than the board)."""
    if background is None:
        return []
    ink, f = _ink(img, box, background)
    rows = ink.mean(axis=1) > 0.01
    starts = [r for r in range(len(rows)) if rows[r] and (r == 0 or not rows[max(0, r - BAND_GAP):r].any())]
    if not 1 < len(starts) <= MAX_BANDS:
        return []
    ends = [r + 1 for r in range(len(rows)) if rows[r] and not rows[r + 1:r + 1 + BAND_GAP].any()]
    out = []
    for i, top in enumerate(starts):
        for bottom in ends[i:]:
            cols = np.flatnonzero(ink[top:bottom].mean(axis=0) > 0.01)
            if cols.size:
                out.append((box[0] + round(cols[0] / f), box[1] + round(top / f),
                            box[0] + round((cols[-1] + 1) / f), box[1] + round(bottom / f)))
    return out


Candidates = list[list[tuple[Box, Background | None]]]


def board_boxes(img: Image.Image, chain: Chain) -> Candidates:
    """Where a board may be, in groups tried in order: the boxes that bands of the innermost box make
    (`_bands`), then the nested boxes inside margins, innermost first, one group each."""
    box, background = chain[-1]
    bands = [(b, background) for b in _bands(img, box, background)]
    return ([bands] if bands else []) + [[entry] for entry in reversed(chain)]


def best_box(groups: Candidates, aspect: float) -> tuple[Box, Background | None] | None:
    """The box of the first group that has one with the grid's shape (within ASPECT_TOLERANCE): the one
    nearest to that shape; None when no box has it."""
    for group in groups:
        fits = [entry for entry in group if aspect_off(entry[0], aspect) <= ASPECT_TOLERANCE]
        if fits:
            return min(fits, key=lambda entry: aspect_off(entry[0], aspect))
    return None


def find_board(img: Image.Image, aspect: float, chain: Chain | None = None,
               groups: Candidates | None = None) -> tuple[Box, Background | None, list[str]]:
    """The board's bounding box, the background around it (None when it fills the picture) and
    warnings. `aspect` is the board's expected width / height: of the boxes where a board may be
    (`board_boxes`), the first with that shape is the board. FormatError when none has it: a grid
    spread over a box of another shape would be read wrong."""
    chain = peel_margins(img) if chain is None else chain
    groups = board_boxes(img, chain) if groups is None else groups
    found = best_box(groups, aspect)
    if found is not None:
        return found[0], found[1], []
    box = chain[-1][0]
    raise FormatError(f"no board of the grid's shape found (the picture's content is {box[2] - box[0]} x "
                      f"{box[3] - box[1]} pixels): check the geometry and --rows/--cols, or give the board's --box")
