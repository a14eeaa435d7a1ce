"""The moves-left number in a Kami 2 footer (the par, on a fresh level), read with Tesseract OCR.

The number sits in the second icon cell, between the dividers at 0.1 and 0.2 of the width. Its light
ink (L* over INK_L) is cut out between the dividers (so the divider lines never count as a stroke),
cropped, and read by the `tesseract` program (Debian's tesseract-ocr; an optional extra: without it the
par is "not known") scaled to several heights, the larger ones with thickened strokes, stacked as the
lines of one picture (one run). A reading counts only when it fits the ink's shapes: as many digits as
the ink has separate marks, each "1" a narrow mark and every other digit a wide one. The number is kept
only when it is clear: at least MIN_AGREE fitting readings say it confidently (MIN_CONFIDENCE) and no
fitting reading says another with some confidence (DISSENT_CONFIDENCE). A wrong par is worse than none.
"""

from __future__ import annotations

import io
import shutil
import subprocess

import numpy as np

from kamicp.formats.shot.layout import GameLayout, runs

SPAN = (0.1, 0.2)  # the number's icon cell, between two dividers (of the width)
INK_L = 60.0  # the number is light on the dark bar
MIN_CONFIDENCE = 70.0  # Tesseract's word confidence (0-100) to accept a reading
NARROW = 0.5  # a "1" is narrower than this x its height (the game's 0.24), other digits wider (0.64)
OCR_HEIGHTS = (20, 24, 28, 32, 36, 40, 44, 52)  # the digits are read scaled to each of these heights
THICKENED = (36, 44, 52)  # (pixels), at these with the strokes thickened (the small ones would close up);
MIN_AGREE = 4  # kept when this many readings are clear and agree ...
DISSENT_CONFIDENCE = 50.0  # ... and no reading this confident says otherwise
TIMEOUT = 20.0  # seconds for one Tesseract run


def _marks(ink: np.ndarray) -> list[tuple[int, int]]:
    return [(a, b) for a, b in runs(ink.any(axis=0)) if b - a >= 1]


def _ink(lab: np.ndarray, layout: GameLayout) -> np.ndarray | None:
    """The number's ink, cropped to it, or None when there is none."""
    f0, f1 = layout.footer
    w = lab.shape[1]
    cut = max(3, round(0.006 * w))  # clear of the divider lines and their blur
    ink = lab[f0:f1, round(SPAN[0] * w) + cut:round(SPAN[1] * w) - cut, 0] > INK_L
    if ink.sum() < 6:
        return None
    rows, cols = np.flatnonzero(ink.any(axis=1)), np.flatnonzero(ink.any(axis=0))
    return ink[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1]


def _variants(ink: np.ndarray) -> list:
    """The ink as dark-on-white pictures at each OCR height, thin and with its strokes thickened (thin
    strokes are where Tesseract's readings differ)."""
    from PIL import Image, ImageFilter

    out = []
    for height in OCR_HEIGHTS:
        img = Image.fromarray(np.where(ink, 0, 255).astype(np.uint8))
        img = img.resize((max(1, round(ink.shape[1] * height / ink.shape[0])), height), Image.Resampling.LANCZOS)
        out.append(img.filter(ImageFilter.MinFilter(3)) if height in THICKENED else img)
    return out


def _tesseract(ink: np.ndarray, exe: str) -> list[tuple[str, float]]:
    """Tesseract's reading of every variant of the ink, stacked as lines of one picture (one run): each
    line's text and its lowest word confidence."""
    from PIL import Image

    variants = _variants(ink)
    gap = max(v.height for v in variants)
    canvas = Image.new("L", (max(v.width for v in variants) + 2 * gap, sum(v.height + gap for v in variants) + gap),
                       255)
    y = gap
    for v in variants:
        canvas.paste(v, (gap, y))
        y += v.height + gap
    buf = io.BytesIO()
    canvas.save(buf, "PNG")
    try:
        run = subprocess.run([exe, "stdin", "stdout", "--psm", "6", "-c", "tessedit_char_whitelist=0123456789",
                              "tsv"], input=buf.getvalue(), capture_output=True, timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return []
    if run.returncode != 0:
        return []
    lines: dict[tuple[str, ...], tuple[str, float]] = {}
    for line in run.stdout.decode("utf-8", "replace").splitlines()[1:]:
        f = line.split("\t")
        if len(f) >= 12 and f[11].strip():
            key = tuple(f[1:5])  # page, block, paragraph, line
            text, conf = lines.get(key, ("", 100.0))
            lines[key] = (text + f[11].strip(), min(conf, float(f[10])))
    return list(lines.values())


def read_moves(lab: np.ndarray, layout: GameLayout) -> tuple[int | None, str]:
    """The moves-left number and how it was read, or (None, why not)."""
    exe = shutil.which("tesseract")
    if exe is None:
        return None, "tesseract-ocr is not installed, which reads it from the picture"
    ink = _ink(lab, layout)
    if ink is None:
        return None, "no number in the footer"
    narrow = [(b - a) < NARROW * ink.shape[0] for a, b in _marks(ink)]

    def fits(text: str) -> bool:  # a digit per mark, "1" on the narrow ones only
        return text.isdigit() and text[0] != "0" and len(text) == len(narrow) and all(
            n == (d == "1") for n, d in zip(narrow, text, strict=True))

    reads = _tesseract(ink, exe)
    if not reads:
        return None, "the number could not be read"
    fitting = [(t, c) for t, c in reads if fits(t)]
    clear = [(t, c) for t, c in fitting if c >= MIN_CONFIDENCE]
    texts = {t for t, c in fitting if c >= DISSENT_CONFIDENCE}
    if len(texts) > 1:
        return None, f"the number read as {' or '.join(sorted(texts))}"
    if len(clear) < MIN_AGREE:
        shown = ", ".join(sorted({t for t, _ in reads})) or "nothing"
        return None, f"the number could not be read clearly (read as {shown})"
    text = clear[0][0]
    confidence = float(np.median([c for _, c in clear]))
    return int(text), f"read by Tesseract, {len(clear)} of {len(reads)} readings agree, confidence {confidence:.0f}"
