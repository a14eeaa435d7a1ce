"""The moves-left number in a Kami 2 footer (the par, on a fresh level), read with Tesseract OCR.

The number sits in the second icon cell, between the dividers at 0.1 and 0.2 of the width. Its light
ink (L* over INK_L) is cut out between the dividers (so the divider lines never count as a stroke),
cropped, scaled to a fixed height, and read by the `tesseract` program (Debian's tesseract-ocr; an
optional extra: without it the par is "not known") as one line of digits, at a few scales. The reading
is kept only when it is clear: at least MIN_AGREE scales read the same number confidently
(MIN_CONFIDENCE) and none reads another, and the text has as many digits as the ink has
separate marks, each "1" a narrow mark and every other digit a wide one. A wrong par is worse than none.
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
OCR_HEIGHTS = (24, 32, 40)  # the digits are read scaled to each of these heights (pixels) ...
MIN_AGREE = 2  # ... and kept when this many readings are clear and none clearly says otherwise
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


def _tesseract(ink: np.ndarray, exe: str, height: int) -> tuple[str, float] | None:
    """Tesseract's one-line reading of the ink (dark on white, scaled to `height`, padded) and its
    confidence."""
    from PIL import Image

    scale = height / ink.shape[0]
    img = Image.fromarray(np.where(ink, 0, 255).astype(np.uint8))
    img = img.resize((max(1, round(ink.shape[1] * scale)), height), Image.Resampling.LANCZOS)
    pad = height // 2
    canvas = Image.new("L", (img.width + 2 * pad, img.height + 2 * pad), 255)
    canvas.paste(img, (pad, pad))
    buf = io.BytesIO()
    canvas.save(buf, "PNG")
    try:
        run = subprocess.run([exe, "stdin", "stdout", "--psm", "7", "-c", "tessedit_char_whitelist=0123456789",
                              "tsv"], input=buf.getvalue(), capture_output=True, timeout=TIMEOUT, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return None
    words = []
    for line in run.stdout.decode("utf-8", "replace").splitlines()[1:]:
        f = line.split("\t")
        if len(f) >= 12 and f[11].strip():
            words.append((f[11].strip(), float(f[10])))
    if run.returncode != 0 or len(words) != 1:
        return None
    return words[0]


def read_moves(lab: np.ndarray, layout: GameLayout) -> tuple[int | None, str]:
    """The moves-left number and how it was read, or (None, why not)."""
    exe = shutil.which("tesseract")
    if exe is None:
        return None, "tesseract-ocr is not installed, which reads it from the picture"
    ink = _ink(lab, layout)
    if ink is None:
        return None, "no number in the footer"
    marks = _marks(ink)
    reads = [r for r in (_tesseract(ink, exe, hgt) for hgt in OCR_HEIGHTS) if r is not None]
    clear = {(t, c) for t, c in reads if t.isdigit() and t[0] != "0" and c >= MIN_CONFIDENCE}
    texts = {t for t, _ in clear}
    if len(texts) > 1:
        return None, f"the number read as {' or '.join(sorted(texts))}"
    if len(clear) < MIN_AGREE:
        return None, "the number could not be read clearly"
    text = texts.pop()
    confidence = min(c for _, c in clear)
    narrow = [(b - a) < NARROW * ink.shape[0] for a, b in marks]
    if len(marks) != len(text) or any(n != (d == "1") for n, d in zip(narrow, text, strict=True)):
        return None, f"the number read as {text}, but its shapes disagree"
    return int(text), f"read by Tesseract, confidence {confidence:.0f}"
