"""The import check picture: the lattice kamicp read and each cell's key drawn over the screenshot."""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw, ImageFont

from kamicp.errors import FormatError
from kamicp.formats.screenshot import ImportReport
from kamicp.level import HOLE
from kamicp.render.files import _write, check_writable
from kamicp.render.png import image_png

LINE = (255, 255, 255, 170)
BOX = (255, 200, 0, 255)
UNCERTAIN = (230, 30, 30, 255)


def overlay_image(img: Image.Image, report: ImportReport) -> Image.Image:
    """A copy of the screenshot with the board box, every cell's outline and key ('.' a hole), and
    a red ring around each uncertain cell."""
    out = img.convert("RGBA")
    layer = Image.new("RGBA", out.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    width = max(1, round(min(out.size) / 400))
    sizes = [abs(m.polygon[1][1] - m.polygon[0][1]) + abs(m.polygon[1][0] - m.polygon[0][0]) for m in report.cells]
    font = ImageFont.load_default(max(8, round(0.3 * min(sizes)))) if sizes else ImageFont.load_default()
    doubt = {u.label for u in report.uncertain}
    for mark in report.cells:
        draw.polygon(mark.polygon, outline=LINE, width=width)
        x, y = mark.at
        if mark.key == HOLE:  # a hole: a small hollow ring
            r = 0.2 * font.size
            draw.ellipse((x - r, y - r, x + r, y + r), outline=(40, 40, 40, 255), width=2 * width)
        else:
            draw.text(mark.at, mark.key, font=font, anchor="mm", fill=(255, 255, 255, 255), stroke_width=width + 1,
                      stroke_fill=(0, 0, 0, 255))
        if mark.label in doubt:
            r = 0.45 * font.size
            draw.ellipse((x - r, y - r, x + r, y + r), outline=UNCERTAIN, width=2 * width)
    inside = Image.new("L", out.size, 0)  # the cut half rows' outlines stop at the board's edge
    ImageDraw.Draw(inside).rectangle(report.box, fill=255)
    layer.putalpha(Image.composite(layer.getchannel("A"), inside, inside))
    out.alpha_composite(layer)
    ImageDraw.Draw(out).rectangle(report.box, outline=BOX, width=2 * width)
    return out.convert("RGB")


def write_overlay(path: str | Path, img: Image.Image, report: ImportReport, *, force: bool = False) -> Path:
    """Write the check picture as PNG; refuses another extension, and an existing file without `force`."""
    p = Path(path)
    if p.suffix.lower() != ".png":
        raise FormatError("the overlay is a PNG picture: name it *.png", source=str(p))
    check_writable([p], force=force)
    _write(p, image_png(overlay_image(img, report)))
    return p
