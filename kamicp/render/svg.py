"""SVG pictures of boards and solutions (text; nothing is written here, see kamicp.render.files).

Every cell is a <polygon class="cell" data-cell="i" data-color="key"> (graph nodes are
<circle class="node" ...>), the tapped cell of a step picture carries <circle class="mark"
data-cell="i">, and each picture of a strip is a <g class="panel">.
"""

from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from kamicp.board.rules import Board
from kamicp.render.safe import printable
from kamicp.render.scene import (
    CELL,
    Circle,
    Group,
    Line,
    Polygon,
    Rect,
    Scene,
    Shape,
    board_scene,
)

FONT = "DejaVu Sans, Helvetica, Arial, sans-serif"


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _shape(shape: Shape) -> str:
    if isinstance(shape, Polygon):
        pts = " ".join(f"{_n(x)},{_n(y)}" for x, y in shape.points)
        return (f'<polygon class="cell" data-cell="{shape.cell}" data-color={quoteattr(printable(shape.key))} '
                f'points="{pts}" fill="{shape.fill}" stroke="{shape.fill}" stroke-width="{_n(shape.seam)}" '
                f'stroke-linejoin="round"/>')
    if isinstance(shape, Circle):
        attrs = [f'class="{shape.role}"']
        if shape.cell is not None:
            attrs.append(f'data-cell="{shape.cell}"')
        if shape.key:
            attrs.append(f"data-color={quoteattr(printable(shape.key))}")
        attrs.append(f'cx="{_n(shape.center[0])}" cy="{_n(shape.center[1])}" r="{_n(shape.radius)}"')
        attrs.append(f'fill="{shape.fill or "none"}"')
        if shape.stroke:
            attrs.append(f'stroke="{shape.stroke}" stroke-width="{_n(shape.width)}"')
        return f"<circle {' '.join(attrs)}/>"
    if isinstance(shape, Line):
        return (f'<line class="edge" x1="{_n(shape.a[0])}" y1="{_n(shape.a[1])}" x2="{_n(shape.b[0])}" '
                f'y2="{_n(shape.b[1])}" stroke="{shape.stroke}" stroke-width="{_n(shape.width)}" '
                f'stroke-linecap="round"/>')
    if isinstance(shape, Rect):
        stroke = f' stroke="{shape.stroke}" stroke-width="{_n(shape.width)}"' if shape.stroke else ""
        return (f'<rect class="swatch" x="{_n(shape.x)}" y="{_n(shape.y)}" width="{_n(shape.w)}" '
                f'height="{_n(shape.h)}" fill="{shape.fill}"{stroke}/>')
    weight = ' font-weight="bold"' if shape.bold else ""
    return (f'<text class="{shape.role}" x="{_n(shape.pos[0])}" y="{_n(shape.pos[1])}" '
            f'font-size="{_n(shape.size)}" fill="{shape.fill}" text-anchor="{shape.anchor}"{weight}>'
            f"{escape(printable(shape.text))}</text>")


def scene_svg(scene: Scene) -> str:
    """A scene as a standalone SVG document."""
    w, h = _n(scene.width), _n(scene.height)
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        f'font-family="{FONT}">',
    ]
    if scene.title:
        lines.append(f"<title>{escape(printable(scene.title))}</title>")
    lines.append(f'<rect class="background" width="100%" height="100%" fill="{scene.background}"/>')
    for item in scene.items:
        if isinstance(item, Group):
            lines.append(f'<g class="{item.role}" transform="translate({_n(item.dx)},{_n(item.dy)})">')
            lines.extend(_shape(s) for s in item.items)
            lines.append("</g>")
        else:
            lines.append(_shape(item))
    lines.append("</svg>")
    return "\n".join(lines) + "\n"


def board_svg(board: Board, mark: int | None = None, caption: str | None = None, *,
              swatch: str | None = None, cell: float = CELL) -> str:
    """The board as SVG; `mark` (a cell index) ringed; `caption` (with a colour `swatch`) under it."""
    return scene_svg(board_scene(board, mark, caption, swatch=swatch, cell=cell))
