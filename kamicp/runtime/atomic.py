"""Writing a user's file all at once or not at all (issue 37, hostile 11): the bytes go to a temporary file
in the same folder, which is then renamed onto the target. A full disk or a crash leaves the old file (or
no file) and never a truncated one; a symbolic link at the target is never written through: with
`overwrite` the link itself is replaced by the new file, without it the link counts as an existing file
(dangling or not, so a dangling link's target is never created)."""

from __future__ import annotations

import contextlib
import os
import secrets
from pathlib import Path

from kamicp.errors import FormatError


def occupied(path: Path) -> bool:
    """Something is at `path`: a file, a folder, or a symbolic link (even a dangling one)."""
    return path.is_symlink() or path.exists()


def check_target(path: Path, *, overwrite: bool, what: str = "files") -> None:
    """Refuse (FormatError) a target that exists without `overwrite`, or that is not a regular file or a
    link (a folder, a FIFO, a device would block, swallow or lose the bytes)."""
    if not occupied(path):
        return
    if not overwrite:
        raise FormatError("exists already (pass --force to overwrite it)", source=str(path))
    if not path.is_symlink() and not path.is_file():
        raise FormatError(f"is not a regular file: kamicp writes {what} only to regular files", source=str(path))


def write_atomic(path: str | Path, data: bytes, *, overwrite: bool, what: str = "files") -> None:
    """Write `data` to `path` through a temporary file in its folder and a rename; FormatError naming the
    file when it exists (without `overwrite`), is not a regular file, or cannot be written."""
    p = Path(path)
    check_target(p, overwrite=overwrite, what=what)
    tmp = p.with_name(f".{p.name[:200]}.{secrets.token_hex(4)}.tmp")  # (a long name stays under NAME_MAX)
    try:
        # O_EXCL: never through a link planted at the temporary name; mode 0o666 so the umask decides
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o666)
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            if overwrite and p.is_file() and not p.is_symlink():  # the replaced file's permissions are kept
                os.chmod(tmp, p.stat().st_mode & 0o7777)
            _place(tmp, p, overwrite=overwrite)
        finally:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
    except FileExistsError:
        raise FormatError("exists already (pass --force to overwrite it)", source=str(p)) from None
    except OSError as e:
        raise FormatError(f"cannot write: {e.strerror or e}", source=str(p)) from None


def _place(tmp: Path, target: Path, *, overwrite: bool) -> None:
    """Rename `tmp` onto `target` (replacing a link, not its target); without `overwrite` a hard link
    makes the file appear only if nothing is there yet (FileExistsError), with no window for a race."""
    if overwrite:
        os.replace(tmp, target)
        return
    try:
        os.link(tmp, target, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError:  # a file system without hard links: check, then rename
        if occupied(target):
            raise FileExistsError(str(target)) from None
        os.replace(tmp, target)
