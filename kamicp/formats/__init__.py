"""The formats wing: level readers and writers, the only place kamicp touches level files (JSON, text
grids, Kami 2 .puz, Kami 1 .xml, Flood-It boards and packs of boards, screenshots through `formats.screenshot` and
`formats/shot/`), and reading files safely (`formats.common`: regular files only, a byte limit, checked
integers).

`load_level` picks the reader by `fmt` or by the file's extension; a picture (.png, .jpg, ...) is read
as a screenshot, so every level command takes one. A pack file (many boards: `formats.flood_pack`) is read
whole by `load_levels`, and `FILE#K` names its board K for `load_level`.

May import: the board, the runtime and the foundations (never the prover, pictures, siblings, designer
tools, packs or faces). `formats/katamino.py` is Katamino's reader, which moves to `katamino/files.py`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

from kamicp.board.level import Level
from kamicp.errors import FormatError
from kamicp.formats.flood99 import looks_like_flood99, read_flood99
from kamicp.formats.flood_pack import FORMAT as PACK_FORMAT
from kamicp.formats.flood_pack import read_flood_pack, read_pars
from kamicp.formats.json_format import read_json, write_json
from kamicp.formats.puz import read_puz
from kamicp.formats.text import read_text
from kamicp.formats.xml_format import read_xml

Reader = Callable[[Path, str | None], Level]

READERS: dict[str, Reader] = {
    "json": lambda p, g: read_json(p),
    "text": read_text,
}
EXTENSIONS: dict[str, str] = {".json": "json", ".txt": "text", ".kami": "text"}


def register(fmt: str, reader: Reader, *extensions: str) -> None:
    """Add a reader (used by the game-file formats)."""
    READERS[fmt] = reader
    for ext in extensions:
        EXTENSIONS[ext] = fmt


register("puz", read_puz, ".puz")  # Kami 2 game asset (triangles)
register("xml", read_xml, ".xml")  # Kami 1 PuzzleData (squares)
register(PACK_FORMAT, lambda p, g: load_level(p, PACK_FORMAT, g))  # many boards: FILE#K names one
register("flood99", read_flood99)  # the 99problems Flood-It boards: no extension, found by name (detect_format)


def read_image(path: Path, geometry: str | None) -> Level:
    """A screenshot as a level (a Kami 2 game screenshot, or a board on a margin), with the par its
    footer shows when that was read clearly. numpy and Pillow are imported only for a picture."""
    from kamicp.formats.screenshot import read_screenshot

    return read_screenshot(path, geometry).level


register("image", read_image, ".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp")  # screenshots


NUMBERS_HINT = "; a Flood-It board of numbers separated by spaces: --format flood99 (docs/formats.md)"


PACK_READERS: dict[str, Callable[[Path, str | None], list[Level]]] = {PACK_FORMAT: read_flood_pack}
SELECTION = re.compile(r"(?s)(.+)#([0-9]{1,9})")


def split_selection(path: str | Path) -> tuple[Path, int | None]:
    """`FILE#K` names board K (from 1) of a pack file, unless a file of that very name exists."""
    p = Path(path)
    match = SELECTION.fullmatch(str(path))
    if match is None or p.exists():
        return p, None
    return Path(match[1]), int(match[2])


def _pick(levels: list[Level], k: int | None, source: Path) -> Level:
    if k is None:
        if len(levels) == 1:
            return levels[0]
        raise FormatError(f"a pack of {len(levels)} boards: name one as {source}#K (K from 1 to {len(levels)}), "
                          "or validate the whole pack", source=str(source))
    if not 1 <= k <= len(levels):
        raise FormatError(f"no board {k}: the pack holds boards 1 to {len(levels)}", source=str(source))
    return levels[k - 1]


def load_levels(path: str | Path, fmt: str | None = None, geometry: str | None = None) -> list[Level]:
    """Every level a file holds: each board of a pack file, or the one level of any other file."""
    p = Path(path)
    if fmt is None:
        fmt = detect_format(p)
    if fmt in PACK_READERS:
        return PACK_READERS[fmt](p, geometry)
    return [load_level(p, fmt, geometry)]


def detect_format(path: Path) -> str:
    fmt = EXTENSIONS.get(path.suffix.lower())
    if fmt is None and looks_like_flood99(path):
        fmt = "flood99"
    if fmt is None and not (path.exists() or path.is_symlink()):
        raise FormatError("no such file", source=str(path))  # (a typo first: its type is no question yet)
    if fmt is None:
        hint = NUMBERS_HINT if path.suffix.lower() in (".csv", ".tsv") else ""
        raise FormatError(
            f"unknown file type {path.suffix or '(no extension)'!r}: give --format "
            f"({', '.join(sorted(READERS))}){hint}",
            source=str(path),
        )
    return fmt


def load_level(path: str | Path, fmt: str | None = None, geometry: str | None = None) -> Level:
    """Read a level file in any supported format; `FILE#K` is board K of a pack file (`--format
    floodpack`, assumed for a selection)."""
    p, k = split_selection(path)
    if fmt is None:
        fmt = PACK_FORMAT if k is not None else detect_format(p)
    if fmt in PACK_READERS:
        return _pick(PACK_READERS[fmt](p, geometry), k, p)
    if k is not None:
        raise FormatError(f"#{k} names a board of a pack file, and this is a {fmt} file", source=str(p))
    reader = READERS.get(fmt)
    if reader is None:
        raise FormatError(f"unknown format {fmt!r} (expected one of {', '.join(sorted(READERS))})", source=str(p))
    return reader(p, geometry)


__all__ = ["load_level", "load_levels", "split_selection", "read_pars", "write_json", "register", "READERS",
           "PACK_READERS", "EXTENSIONS", "detect_format"]
