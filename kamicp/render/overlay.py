"""The import check picture: the lattice kamicp read and each cell's key drawn over the screenshot.

It takes plain data (the board's box and each cell's outline, centre, key and doubt), not the import's
report (`formats.shot.report.ImportReport.overlay_cells()` gives them), so pictures depend only on the
board."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from kamicp.board.level import HOLE
from kamicp.errors import FormatError
from kamicp.render.files import check_writable, write_bytes
from kamicp.render.png import image_png

Point = tuple[float, float]
Box = tuple[int, int, int, int]  # (left, top, right, bottom) in image pixels
CellDrawing = tuple[tuple[Point, ...], Point, str, bool]  # outline, centre, key (HOLE: a hole), uncertain

LINE = (255, 255, 255, 170)
BOX = (255, 200, 0, 255)
UNCERTAIN = (230, 30, 30, 255)


def overlay_image(img: Image.Image, box: Box, cells: Sequence[CellDrawing]) -> Image.Image:
    """A copy of the screenshot with the board box, every cell's outline and key ('.' a hole), and
    a red ring around each uncertain cell."""
    out = img.convert("RGBA")
    layer = Image.new("RGBA", out.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    width = max(1, round(min(out.size) / 400))
    sizes = [abs(poly[1][1] - poly[0][1]) + abs(poly[1][0] - poly[0][0]) for poly, _, _, _ in cells]
    font = ImageFont.load_default(max(8, round(0.3 * min(sizes)))) if sizes else ImageFont.load_default()
    for polygon, at, key, uncertain in cells:
        draw.polygon(polygon, outline=LINE, width=width)
        x, y = at
        if key == HOLE:  # a hole: a small hollow ring
            r = 0.2 * font.size
            draw.ellipse((x - r, y - r, x + r, y + r), outline=(40, 40, 40, 255), width=2 * width)
        else:
            draw.text(at, key, font=font, anchor="mm", fill=(255, 255, 255, 255), stroke_width=width + 1,
                      stroke_fill=(0, 0, 0, 255))
        if uncertain:
            r = 0.45 * font.size
            draw.ellipse((x - r, y - r, x + r, y + r), outline=UNCERTAIN, width=2 * width)
    inside = Image.new("L", out.size, 0)  # the cut half rows' outlines stop at the board's edge
    ImageDraw.Draw(inside).rectangle(box, fill=255)
    layer.putalpha(Image.composite(layer.getchannel("A"), inside, inside))
    out.alpha_composite(layer)
    ImageDraw.Draw(out).rectangle(box, outline=BOX, width=2 * width)
    return out.convert("RGB")


def write_overlay(path: str | Path, img: Image.Image, box: Box, cells: Sequence[CellDrawing], *,
                  force: bool = False) -> Path:
    """Write the check picture as PNG; refuses another extension, and an existing file without `force`."""
    p = Path(path)
    if p.suffix.lower() != ".png":
        raise FormatError("the overlay is a PNG picture: name it *.png", source=str(p))
    check_writable([p], force=force)
    write_bytes(p, image_png(overlay_image(img, box, cells)))
    return p
