"""PNG pictures of boards and solutions, drawn directly with Pillow's ImageDraw from the same scene the
SVG back end writes (no system libraries needed, unlike cairosvg).

Shapes are drawn at SUPERSAMPLE times the output size and scaled down with a Lanczos filter, which
antialiases the edges. Functions return PNG bytes (or Pillow images); nothing is written here.
"""

from __future__ import annotations

import io
import math
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from kamicp.board.rules import Board
from kamicp.limits import limits
from kamicp.render.colours import parse_colour
from kamicp.render.safe import printable
from kamicp.render.scene import (
    CELL,
    Circle,
    Label,
    Line,
    Polygon,
    Rect,
    Scene,
    board_scene,
    flat_items,
)

SUPERSAMPLE = 3
CANVAS_FACTOR = 3  # the supersampled canvas has at most this many times the output's pixel limit


@lru_cache(maxsize=16)
def _font(px: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.load_default(size=px)
    except (TypeError, OSError):  # pragma: no cover - Pillow built without FreeType
        return ImageFont.load_default()


def _rgb(colour: str) -> tuple[int, int, int]:
    rgb = parse_colour(colour)
    assert rgb is not None, colour
    return rgb


def fit_scale(width: float, height: float, scale: float, supersample: int,
              max_pixels: int) -> tuple[float, int]:
    """(scale, supersample) for a picture of at most `max_pixels` pixels, drawn on a canvas of at most
    CANVAS_FACTOR times as many: a huge board is drawn smaller and with less antialiasing, so memory
    stays bounded (a 120 x 120 board at full size would need gigabytes)."""
    area = max(width * height, 1.0)
    if area * scale * scale > max_pixels:
        scale = math.sqrt(max_pixels / area)
    room = CANVAS_FACTOR * max_pixels / (area * scale * scale)
    return scale, max(1, min(supersample, math.isqrt(max(1, int(room)))))


def scene_image(scene: Scene, scale: float = 1.0, supersample: int = SUPERSAMPLE) -> Image.Image:
    """The scene drawn as an RGB image of size (width * scale, height * scale), smaller if that is over
    the pixel limit (kamicp.limits: KAMICP_MAX_PIXELS)."""
    scale, supersample = fit_scale(scene.width, scene.height, scale, supersample, limits().max_pixels)
    out_w, out_h = max(1, round(scene.width * scale)), max(1, round(scene.height * scale))
    k = scale * supersample
    img = Image.new("RGB", (max(1, round(scene.width * k)), max(1, round(scene.height * k))),
                    _rgb(scene.background))
    draw = ImageDraw.Draw(img)

    def pt(p: tuple[float, float]) -> tuple[float, float]:
        return (p[0] * k, p[1] * k)

    for shape in flat_items(scene):
        if isinstance(shape, Polygon):
            fill = _rgb(shape.fill)
            draw.polygon([pt(p) for p in shape.points], fill=fill, outline=fill,
                         width=max(1, round(shape.seam * k)))
        elif isinstance(shape, Circle):
            cx, cy = pt(shape.center)
            r = shape.radius * k
            if shape.fill:
                draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=_rgb(shape.fill))
            if shape.stroke and shape.width > 0:
                w = shape.width * k
                ro = r + w / 2  # SVG strokes are centred on the outline; Pillow's go inwards
                draw.ellipse((cx - ro, cy - ro, cx + ro, cy + ro), outline=_rgb(shape.stroke),
                             width=max(1, round(w)))
        elif isinstance(shape, Line):
            draw.line([pt(shape.a), pt(shape.b)], fill=_rgb(shape.stroke), width=max(1, round(shape.width * k)))
        elif isinstance(shape, Rect):
            box = (shape.x * k, shape.y * k, (shape.x + shape.w) * k, (shape.y + shape.h) * k)
            draw.rectangle(box, fill=_rgb(shape.fill))
            if shape.stroke and shape.width > 0:
                draw.rectangle(box, outline=_rgb(shape.stroke), width=max(1, round(shape.width * k)))
        elif isinstance(shape, Label):
            anchor = "ms" if shape.anchor == "middle" else "ls"
            draw.text(pt(shape.pos), printable(shape.text), fill=_rgb(shape.fill), font=_font(round(shape.size * k)),
                      anchor=anchor)
    if img.size != (out_w, out_h):
        img = img.resize((out_w, out_h), Image.Resampling.LANCZOS)
    return img


def image_png(img: Image.Image) -> bytes:
    buf = io.BytesIO()
    img.save(buf, format="PNG", optimize=True)
    return buf.getvalue()


def scene_png(scene: Scene, scale: float = 1.0) -> bytes:
    return image_png(scene_image(scene, scale))


def board_png(board: Board, mark: int | None = None, caption: str | None = None, *,
              swatch: str | None = None, cell: float = CELL, scale: float = 1.0) -> bytes:
    """The board as PNG bytes, drawn like board_svg."""
    return scene_png(board_scene(board, mark, caption, swatch=swatch, cell=cell), scale)
