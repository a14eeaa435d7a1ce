"""Which files a pack is: files as named, folders searched recursively, glob patterns expanded."""

from __future__ import annotations

import glob
from collections.abc import Iterable
from pathlib import Path

from kamicp.formats import EXTENSIONS
from kamicp.formats.json_format import other_command

SCREENSHOT_SUFFIXES = (".png", ".jpg", ".jpeg", ".webp", ".bmp")


def level_suffixes() -> tuple[str, ...]:
    """Every extension kamicp reads (formats may register more readers, so this is asked late)."""
    return tuple(sorted({*EXTENSIONS, *SCREENSHOT_SUFFIXES}))


LEVEL_SUFFIXES = level_suffixes()


def _is_pattern(text: str) -> bool:
    return any(ch in text for ch in "*?[")


def _in_folder(folder: Path, skipped: list[tuple[Path, str]]) -> list[Path]:
    """A folder's level files; files clearly another command's (a Katamino book) go to `skipped`, with
    that command, so that `validate puzzles` checks the levels beside them (a file named on its own is
    still read, and its row says what it is)."""
    suffixes = level_suffixes()
    files = sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in suffixes
                   and not any(part.startswith(".") for part in p.relative_to(folder).parts))
    found = []
    for p in files:
        command = other_command(p)
        if command is None:
            found.append(p)
        else:
            skipped.append((p, command))
    return found


def discover(paths: Iterable[str | Path], skipped: list[tuple[Path, str]] | None = None) -> list[Path]:
    """The level files named by `paths`, in order, each once; (file, command) of every file a folder held
    that is clearly another command's goes to `skipped`.

    A file is taken as named (whatever its extension: reading it says if it is not a level). A folder
    gives its level files (by extension, recursively, hidden ones skipped, sorted). A glob pattern
    (`levels/*.json`, `pack/**/*.puz`) gives the files it matches; one matching nothing, or a path that
    does not exist, is kept as is, so that loading it reports the problem as a row of the pack.
    """
    found: list[Path] = []
    skipped = [] if skipped is None else skipped
    for raw in paths:
        text = str(raw)
        path = Path(text)
        if path.is_dir():
            found.extend(_in_folder(path, skipped))
        elif not path.exists() and _is_pattern(text):
            matches = sorted(glob.glob(text, recursive=True))
            files = [Path(m) for m in matches if Path(m).is_file()]
            for folder in (Path(m) for m in matches if Path(m).is_dir()):
                files.extend(_in_folder(folder, skipped))
            found.extend(files or [path])
        else:
            found.append(path)
    seen: set[Path] = set()
    unique = []
    for p in found:
        key = p.resolve()
        if key not in seen:
            seen.add(key)
            unique.append(p)
    return unique
