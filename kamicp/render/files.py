"""Writing pictures to files: the only place kamicp writes SVG and PNG.

Nothing is overwritten unless `force` is given: every target is checked before the first byte is
written, so a refused run leaves the user's files as they were.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from kamicp.board.level import Level, Move
from kamicp.board.rules import Board
from kamicp.errors import FormatError, UsageError
from kamicp.render.scene import (
    Scene,
    board_scene,
    picture_title,
    start_scene,
    steps_scenes,
    strip_scene,
    titled,
)
from kamicp.render.svg import scene_svg
from kamicp.runtime.atomic import check_target, write_atomic

PNG_SCALE = 2.0  # PNGs are drawn at twice the SVG's size, crisp on high-density screens
KINDS = ("svg", "png")


def picture_kind(path: str | Path) -> str:
    """'svg' or 'png' from a file name's extension."""
    kind = Path(path).suffix.lower().lstrip(".")
    if kind not in KINDS:
        raise FormatError("unknown picture type (expected a .svg or .png file name)", source=str(path))
    return kind


def check_writable(paths: Sequence[str | Path], *, force: bool = False, new_folder: bool = False) -> None:
    """Refuse (FormatError) if any target exists and `force` is not given, is a directory, or its folder
    does not exist (checked before any work, so a long solve does not end in a failed write; `new_folder`:
    the caller makes it)."""
    for path in paths:
        p = Path(path)
        folder = p.parent if str(p.parent) else Path(".")
        if not folder.is_dir() and not (new_folder and not folder.exists()):
            what = "is not a folder" if folder.exists() else "does not exist"
            raise FormatError(f"cannot write: the folder {folder} {what}", source=str(p))
        if new_folder and not folder.exists() and not (above := _nearest_existing(folder)).is_dir():
            raise FormatError(f"cannot create the folder {folder}: {above} is not a folder", source=str(p))
        if p.is_dir():
            raise FormatError("is a directory, not a picture file", source=str(p))
        check_target(p, overwrite=force, what="pictures")  # (a link, even dangling, is there: never followed)
    same = _same_paths(paths)
    if same:
        raise FormatError("is named twice: each picture needs its own file", source=str(same))


def _same_paths(paths: Sequence[str | Path]) -> Path | None:
    """The first target named twice (the second write would replace the first), if any."""
    seen: set[Path] = set()
    for path in paths:
        key = Path(os.path.abspath(path))
        if key in seen:
            return Path(path)
        seen.add(key)
    return None


def encode(scene: Scene, kind: str, *, scale: float = PNG_SCALE) -> bytes:
    """A scene as SVG or PNG bytes."""
    if kind == "svg":
        return scene_svg(scene).encode("utf-8")
    try:
        from kamicp.render.png import scene_png
    except ImportError:  # pragma: no cover - Pillow missing
        raise UsageError("PNG output needs Pillow (pip install pillow)") from None
    return scene_png(scene, scale)


def write_bytes(path: str | Path, data: bytes) -> None:
    """Write a picture's bytes (after `check_writable`); a failed write is a FormatError naming the file."""
    write_atomic(path, data, overwrite=True, what="pictures")  # (check_writable refused what must not go)


def picture_scene(level: Level, moves: Sequence[Move] | None = None) -> Scene:
    """The start board, or with `moves` the strip of every step, under a title (name, par)."""
    scene = board_scene(Board.start(level)) if moves is None else strip_scene(level, moves)
    return titled(scene, picture_title(level, moves))


def write_scene(path: str | Path, scene: Scene, *, kind: str | None = None, force: bool = False,
                scale: float = PNG_SCALE) -> Path:
    """Write any scene (e.g. a Katamino solution, kamicp.katamino.picture) as SVG or PNG (by `kind` or
    extension), refusing to overwrite without `force`."""
    p = Path(path)
    kind = kind or picture_kind(p)
    check_writable([p], force=force)
    write_bytes(p, encode(scene, kind, scale=scale))
    return p


def write_picture(path: str | Path, level: Level, moves: Sequence[Move] | None = None, *,
                  kind: str | None = None, force: bool = False, scale: float = PNG_SCALE) -> Path:
    """Write the board (or, given `moves`, the solution strip) as SVG or PNG (by `kind` or extension)."""
    p = Path(path)
    kind = kind or picture_kind(p)
    check_writable([p], force=force)
    write_bytes(p, encode(picture_scene(level, moves), kind, scale=scale))
    return p


def step_files(directory: str | Path, count: int) -> list[Path]:
    """The files write_steps writes: step-01.svg, step-01.png, ..., strip.svg, strip.png."""
    d = Path(directory)
    digits = max(2, len(str(count)))
    names = [f"step-{k:0{digits}d}.{kind}" for k in range(1, count + 1) for kind in KINDS]
    return [d / name for name in [*names, "start.svg", "start.png", "strip.svg", "strip.png"]]


def write_steps(directory: str | Path, level: Level, moves: Sequence[Move], *, force: bool = False,
                scale: float = PNG_SCALE) -> list[Path]:
    """One SVG and one PNG per move (step-01.svg, ...), the start board and the strip of all steps.

    Refuses before writing anything if one of these files exists (unless `force`)."""
    d = Path(directory)
    check_steps_dir(d, force=True)
    paths = step_files(d, len(moves))
    check_writable(paths, force=force, new_folder=True)
    try:
        d.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise FormatError(f"cannot create the directory: {e.strerror or e}", source=str(d)) from None
    title = picture_title(level)
    scenes = [*(titled(s, title) for s in steps_scenes(level, moves)), titled(start_scene(level), title),
              titled(strip_scene(level, moves), picture_title(level, moves))]
    for k, scene in enumerate(scenes):
        for j, kind in enumerate(KINDS):
            write_bytes(paths[2 * k + j], encode(scene, kind, scale=scale))
    return paths


def existing_step_files(directory: str | Path) -> list[Path]:
    """Files in `directory` that write_steps might overwrite (any step-*, start.* or strip.* picture),
    to refuse before a long solve whose move count is not known yet."""
    d = Path(directory)
    if not d.is_dir():
        return []
    pattern = [*(f"step-*.{k}" for k in KINDS), *(f"start.{k}" for k in KINDS), *(f"strip.{k}" for k in KINDS)]
    return sorted({p for pat in pattern for p in d.glob(pat)})


def _nearest_existing(path: Path) -> Path:
    """`path` itself or its nearest ancestor that exists (the current folder for a relative name)."""
    for candidate in (path, *path.parents):
        if candidate.exists():
            return candidate
    return Path(".")


def check_steps_dir(directory: str | Path, *, force: bool = False) -> None:
    """Refuse (FormatError) a steps directory that is a file, or holds step pictures (unless `force`)."""
    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise FormatError("exists and is not a directory", source=str(d))
    above = _nearest_existing(d)  # where the folder will be made: checked before the work, not after it
    if not above.is_dir():
        raise FormatError(f"cannot create the directory: {above} is not a folder", source=str(d))
    if not os.access(above, os.W_OK | os.X_OK):
        raise FormatError(f"cannot create or write the directory: {above} is not writable", source=str(d))
    found = existing_step_files(d)
    if found and not force:
        raise FormatError("exists already (pass --force to overwrite the step pictures)", source=str(found[0]))
