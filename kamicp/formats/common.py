"""What every reader shares: reading a file as text with a clear error when it cannot be read."""

from __future__ import annotations

from pathlib import Path

from kamicp.errors import FormatError


def read_text_file(path: str | Path) -> str:
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise FormatError("no such file", source=str(path)) from None
    except IsADirectoryError:
        raise FormatError("is a directory, not a level file", source=str(path)) from None
    except OSError as e:
        raise FormatError(f"cannot read: {e.strerror or e}", source=str(path)) from None
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise FormatError(f"not UTF-8 text (byte {e.start})", source=str(path)) from None
