"""Opening a picture: any format Pillow reads, transparency over white, bounded in pixels and memory.

A picture larger than the import needs is decoded reduced (JPEG decodes at 1/2, 1/4 or 1/8 scale
directly: Image.draft) and then shrunk to at most WORK_SIDE pixels on its long side, so the memory an
import takes is bounded by WORK_SIDE, not by the picture (a phone screenshot is smaller than that and is
read as it is).
"""

from __future__ import annotations

import io
import warnings
from pathlib import Path

from PIL import Image, UnidentifiedImageError

from kamicp.errors import FormatError
from kamicp.formats.common import read_bytes

# 40 megapixels: more than any phone or tablet screenshot (a 4K screen is 8.3 MP), far below what
# would exhaust memory. Pillow refuses (DecompressionBombError) above it; kamicp turns that into a
# FormatError.
MAX_PIXELS = 40_000_000
WORK_SIDE = 2000  # a picture is read at most this many pixels on its long side (plenty for 29 x 10 cells)


def _rgb(img: Image.Image) -> Image.Image:
    if img.mode in ("RGBA", "LA", "PA") or (img.mode == "P" and "transparency" in img.info):
        rgba = img.convert("RGBA")
        out = Image.new("RGB", rgba.size, (255, 255, 255))
        out.paste(rgba, mask=rgba.getchannel("A"))
        return out
    return img.convert("RGB")


def _shrunk(img: Image.Image, max_side: int | None) -> Image.Image:
    """`img` loaded, at most `max_side` on its long side: JPEG decoded reduced where it can be, then
    reduced by whole factors (cheap, no extra copy of the full picture) and resized the rest of the way."""
    if max_side is None or max(img.size) <= max_side:
        img.load()
        return img
    if img.format == "JPEG":
        scale = max_side / max(img.size)
        img.draft(img.mode, (max(1, int(img.width * scale)), max(1, int(img.height * scale))))
    img.load()
    factor = max(img.size) // max_side
    if factor >= 2:
        img = img.reduce(factor)
    if max(img.size) > max_side:
        scale = max_side / max(img.size)
        img = img.resize((max(1, round(img.width * scale)), max(1, round(img.height * scale))),
                         Image.Resampling.BOX)
    return img


def open_image(path: str | Path, max_side: int | None = None) -> Image.Image:
    """The image as RGB (transparency over white), at most `max_side` pixels on its long side when given;
    FormatError for anything that is not a readable, reasonably sized image."""
    return open_reduced(path, max_side)[0]


def open_reduced(path: str | Path, max_side: int | None = WORK_SIDE) -> tuple[Image.Image, tuple[int, int]]:
    """The image as open_image gives it, and the picture's own size (which the reduced copy is a
    scale of)."""
    source = str(path)
    old_limit = Image.MAX_IMAGE_PIXELS
    Image.MAX_IMAGE_PIXELS = MAX_PIXELS
    size = ""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(read_bytes(path, what="image"))) as img:  # regular files, bounded
                w, h = img.size
                size = f"{w} x {h} pixels; "
                if w * h > MAX_PIXELS:
                    raise Image.DecompressionBombError("too many pixels")
                return _rgb(_shrunk(img, max_side)), (w, h)
    except FileNotFoundError:
        raise FormatError("no such file", source=source) from None
    except IsADirectoryError:
        raise FormatError("is a directory, not an image", source=source) from None
    except UnidentifiedImageError:
        raise FormatError("not an image kamicp can read (PNG, JPEG, GIF, BMP, WebP, ...)", source=source) from None
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise FormatError(f"image too large ({size}the limit is {MAX_PIXELS // 1_000_000} megapixels)",
                          source=source) from None
    except (OSError, SyntaxError, ValueError) as e:
        raise FormatError(f"cannot read the image: {e}", source=source) from None
    finally:
        Image.MAX_IMAGE_PIXELS = old_limit

