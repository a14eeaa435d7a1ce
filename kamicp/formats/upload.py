"""Levels sent as bytes (the play page's "open a level"): read by the same readers as files on disk.

The bytes go to a private temporary directory under the file's own base name, so every error names the
file the user chose, exactly as the CLI would (e.g. "bad.puz: field 'tiles': ...").
"""

from __future__ import annotations

import tempfile
from pathlib import Path, PurePath

from kamicp.board.level import Level
from kamicp.errors import FormatError, KamiError
from kamicp.formats import detect_format, load_level

SCREENSHOT_EXTENSIONS = (".png", ".jpg", ".jpeg", ".webp", ".bmp", ".gif")


MAX_NAME_BYTES = 200  # a file name must fit the file system's 255 bytes


def safe_name(name: str) -> str:
    """The base name of an uploaded file (no directories, no character a file name cannot hold or a
    terminal would act on: NUL, controls, lone surrogates), at most MAX_NAME_BYTES of UTF-8 (the stem
    is cut, the extension kept), or 'upload' when nothing is left."""
    base = PurePath(name.replace("\\", "/")).name
    base = "".join(ch for ch in base if ch.isprintable()).strip()  # (surrogates are not printable)
    if base in ("", ".", ".."):
        return "upload"
    path = PurePath(base)
    stem, suffix = path.stem, path.suffix[:16]
    while len((stem + suffix).encode()) > MAX_NAME_BYTES:
        stem = stem[:-1]
    return (stem + suffix) if stem.strip(".") else "upload" + suffix


def load_upload(name: str, data: bytes) -> Level:
    """Read an uploaded level: kamicp JSON, a text grid (as triangles), .puz (triangles), .xml (Kami 1's
    squares) or a screenshot (Kami 2 triangles, 29 x 10, as `kamicp import` reads it by default). Only a
    text grid is given a geometry: every other format says its own."""
    base = safe_name(name)
    suffix = PurePath(base).suffix.lower()
    if suffix not in SCREENSHOT_EXTENSIONS:
        detect_format(Path(base))  # an unknown type fails before anything is written
    with tempfile.TemporaryDirectory(prefix="kamicp-upload-") as tmp:
        path = Path(tmp) / base
        try:
            path.write_bytes(data)
        except OSError as e:  # e.g. the temporary folder is full
            raise FormatError(f"cannot store the upload: {e.strerror or e}", source=base) from None
        try:
            if suffix in SCREENSHOT_EXTENSIONS:
                from kamicp.formats.screenshot import read_screenshot

                return read_screenshot(path, name=PurePath(base).stem).level
            fmt = detect_format(path)  # only a text grid needs a geometry (the page has no such option)
            return load_level(path, fmt, geometry="triangle" if fmt == "text" else None)
        except KamiError as e:  # name the file the user chose, not the temporary copy
            raise FormatError(str(e).replace(str(path), base)) from None
