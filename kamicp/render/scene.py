"""Pictures as plain data: a board (or a solution strip) becomes a Scene of polygons, circles, lines and
text in drawing coordinates, which the SVG and PNG back ends draw the same way.

Grid levels are drawn as the games draw them (Kami 2: triangles pointing left and right; Kami 1:
squares), holes left empty. Graph levels are drawn as node-link diagrams with a fixed-seed layout.
A step picture shows the board after a move, the tapped cell marked with a ring, and a caption with the
move number, the tapped cell and the new colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from functools import lru_cache

from kamicp.board.lattice import lattice
from kamicp.board.level import Level, Move
from kamicp.board.rules import Board, replay
from kamicp.render.colours import hex_of, luminance, rgb_of
from kamicp.render.layout import crowding, graph_layout

Point = tuple[float, float]

CELL = 24.0  # side of a triangle or a square, in drawing units (pixels at scale 1)
PAD = 10.0  # empty border around a board
CAPTION = 28.0  # height of the caption band under a board
GAP = 10.0  # space between the pictures of a strip
MIN_WIDTH = 190.0  # panels are at least this wide, so captions fit
BACKGROUND = "#faf9f6"
INK = "#222222"
EDGE = "#9a9a9a"
NODE_RADIUS = 13.0
NODE_GAP = 4.0  # drawn space at least between a node and an edge it is not an end of, or another node
MAX_GROWTH = 8.0  # a graph drawn at most this many times its usual side to keep NODE_GAP
FONT_SIZE = 12.0
TITLE = 30.0  # height of the title band above a written picture
TITLE_SIZE = 15.0
STRIP_WIDTH = 1000.0  # a solution strip wraps into rows at most this wide (2,000 px in a PNG)


@dataclass(frozen=True)
class Polygon:
    points: tuple[Point, ...]
    fill: str
    cell: int | None = None  # the cell this polygon draws
    key: str = ""  # the colour key it shows
    seam: float = 0.8  # width of the outline in the fill colour that hides hairline seams


@dataclass(frozen=True)
class Circle:
    center: Point
    radius: float
    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    role: str = "node"  # node | mark
    cell: int | None = None
    key: str = ""


@dataclass(frozen=True)
class Line:
    a: Point
    b: Point
    stroke: str
    width: float


@dataclass(frozen=True)
class Rect:
    x: float
    y: float
    w: float
    h: float
    fill: str
    stroke: str | None = None
    width: float = 0.0


@dataclass(frozen=True)
class Label:
    """Text whose baseline starts (anchor 'start') or is centred (anchor 'middle') at `pos`."""

    pos: Point
    text: str
    size: float = FONT_SIZE
    fill: str = INK
    anchor: str = "start"
    bold: bool = False
    role: str = "caption"
    cell: int | None = None  # the node a node label names


Shape = Polygon | Circle | Line | Rect | Label


@dataclass(frozen=True)
class Group:
    """Shapes drawn shifted by (dx, dy): one picture of a strip."""

    dx: float
    dy: float
    items: tuple[Shape, ...]
    role: str = "panel"


@dataclass(frozen=True)
class Scene:
    width: float
    height: float
    items: tuple[Shape | Group, ...]
    background: str = BACKGROUND
    title: str = ""


# --- boards -----------------------------------------------------------------------------------------
def centroid(points: Sequence[Point]) -> Point:
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def cell_polygons(level: Level, cell: float = CELL, origin: Point = (0.0, 0.0)) -> list[tuple[Point, ...]]:
    """The corner points of every cell of a grid level (index order), shifted by `origin`."""
    lat = lattice(level.geometry)
    ox, oy = origin
    out = []
    for r, c in level.labels:  # type: ignore[misc]
        out.append(tuple((x + ox, y + oy) for x, y in lat.polygon(r, c, cell)))
    return out


def board_extent(level: Level, cell: float = CELL) -> Point:
    """Width and height of the board itself (no padding, no caption)."""
    if level.geometry == "graph":
        side = graph_drawing(level)[0]
        return (side, side)
    assert level.shape is not None
    return lattice(level.geometry).extent(*level.shape, cell)


def _graph_side(n: int) -> float:
    return max(220.0, 62.0 * n**0.5)


@lru_cache(maxsize=32)
def graph_drawing(level: Level) -> tuple[float, tuple[Point, ...]]:
    """A graph level's drawn side and its nodes' centres (from (0, 0)). No edge passes nearer than
    NODE_GAP to a node that is not one of its ends, and no two nodes are nearer than NODE_GAP (a player
    would read them as adjacent): where the layout cannot keep that, the graph is drawn bigger, up to
    MAX_GROWTH times (which region graphs of boards never need; dense random graphs might)."""
    margin = NODE_RADIUS + 6
    inner = _graph_side(level.size) - 2 * margin
    clearance, spacing = NODE_RADIUS + 1.0 + NODE_GAP, 2 * NODE_RADIUS + NODE_GAP  # (the edge: 2 wide)
    pos = graph_layout(level, clearance / inner, spacing / inner)
    grow = crowding(level, pos, clearance / inner, spacing / inner)
    inner *= 1.0 if grow <= 1.0 else min(MAX_GROWTH, grow * 1.001)  # (1.001: rounding)
    return inner + 2 * margin, tuple((margin + x * inner, margin + y * inner) for x, y in pos)


def _mark(center: Point, radius: float, cell: int) -> list[Shape]:
    """A ring visible on any colour: white over a dark outline, with a dark dot in the middle."""
    return [
        Circle(center, radius, stroke=INK, width=radius * 0.55, role="mark", cell=cell),
        Circle(center, radius, stroke="#ffffff", width=radius * 0.25, role="mark-inner", cell=cell),
        Circle(center, radius * 0.22, fill=INK, role="mark-dot", cell=cell),
    ]


def _grid_shapes(board: Board, mark: int | None, origin: Point, cell: float) -> list[Shape]:
    level = board.level
    shapes: list[Shape] = []
    polys = cell_polygons(level, cell, origin)
    for i, pts in enumerate(polys):
        key = board.colours[i]
        shapes.append(Polygon(pts, hex_of(level, key), cell=i, key=key))
    if mark is not None:
        shapes.extend(_mark(centroid(polys[mark]), cell * 0.3, mark))
    return shapes


def _graph_shapes(board: Board, mark: int | None, origin: Point) -> list[Shape]:
    level = board.level
    pos = [(origin[0] + x, origin[1] + y) for x, y in graph_drawing(level)[1]]
    shapes: list[Shape] = [Line(pos[i], pos[j], EDGE, 2.0) for i, j in level.edges]
    for i, p in enumerate(pos):
        key = board.colours[i]
        shapes.append(Circle(p, NODE_RADIUS, fill=hex_of(level, key), stroke=INK, width=1.0, role="node",
                             cell=i, key=key))
    for i, p in enumerate(pos):
        text_fill = INK if luminance(rgb_of(level, board.colours[i])) > 0.3 else "#ffffff"
        shapes.append(Label((p[0], p[1] + 4.0), str(level.labels[i]), size=11.0, fill=text_fill,
                            anchor="middle", role="node-label", cell=i))
    if mark is not None:
        shapes.extend(_mark(pos[mark], NODE_RADIUS + 5.0, mark)[:2])
    return shapes


def _caption_shapes(level: Level, caption: str, swatch: str | None, y: float) -> list[Shape]:
    shapes: list[Shape] = []
    x = PAD
    if swatch is not None:
        shapes.append(Rect(x, y - 11.0, 13.0, 13.0, hex_of(level, swatch), stroke=INK, width=1.0))
        x += 19.0
    shapes.append(Label((x, y), caption, size=FONT_SIZE, fill=INK))
    return shapes


def _panel(board: Board, mark: int | None, caption: str | None, swatch: str | None,
           cell: float) -> tuple[float, float, list[Shape]]:
    bw, bh = board_extent(board.level, cell)
    width = max(bw + 2 * PAD, MIN_WIDTH if caption else 0.0)
    origin = ((width - bw) / 2, PAD)
    if board.level.geometry == "graph":
        shapes = _graph_shapes(board, mark, origin)
    else:
        shapes = _grid_shapes(board, mark, origin, cell)
    height = bh + 2 * PAD
    if caption:
        shapes += _caption_shapes(board.level, caption, swatch, height + FONT_SIZE)
        height += CAPTION
    return width, height, shapes


def board_scene(board: Board, mark: int | None = None, caption: str | None = None, *,
                swatch: str | None = None, cell: float = CELL) -> Scene:
    """One board; `mark` (a cell index) ringed as the tapped cell; `caption` (with an optional colour
    `swatch`, a colour key) written under it."""
    width, height, shapes = _panel(board, mark, caption, swatch, cell)
    return Scene(width, height, tuple(shapes), title=board.level.name)


def move_caption(level: Level, step: int, move: Move) -> str:
    name = level.display_colour(move.colour)
    colour = move.colour if not name or name.startswith("#") or name == move.colour else f"{move.colour} ({name})"
    return f"{step}. tap {level.format_label(move.cell)}, paint {colour}"


def steps_scenes(level: Level, moves: Sequence[Move], *, cell: float = CELL) -> list[Scene]:
    """One picture per move: the board after the move, the tapped cell marked, the move captioned."""
    boards = replay(level, moves)
    return [
        board_scene(board, mark=move.cell, caption=move_caption(level, k, move), swatch=move.colour, cell=cell)
        for k, (move, board) in enumerate(zip(moves, boards[1:], strict=True), start=1)
    ]


def start_scene(level: Level, *, cell: float = CELL) -> Scene:
    return board_scene(Board.start(level), caption="start", cell=cell)


def strip_scene(level: Level, moves: Sequence[Move], *, cell: float = CELL, max_width: float = STRIP_WIDTH
                ) -> Scene:
    """The start board, then every step picture, left to right in rows at most `max_width` wide (at least
    one picture a row), as a page of text wraps."""
    panels = [start_scene(level, cell=cell), *steps_scenes(level, moves, cell=cell)]
    rows: list[list[Scene]] = [[]]
    for panel in panels:
        row = rows[-1]
        if row and sum(p.width + GAP for p in row) + panel.width > max_width:
            rows.append(row := [])
        row.append(panel)
    groups, width, y = [], 0.0, 0.0
    for row in rows:
        x = 0.0
        for panel in row:
            groups.append(Group(x, y, tuple(panel.items)))  # type: ignore[arg-type]
            x += panel.width + GAP
        width = max(width, x - GAP)
        y += max(p.height for p in row) + GAP
    return Scene(width, y - GAP, tuple(groups), title=f"{level.name} solution".strip())


def picture_title(level: Level, moves: Sequence[Move] | None = None) -> str:
    """A written picture's title: the level's name and par, and for a solution its length."""
    text = level.name or "level"
    if level.par is not None:
        text += f" (par {level.par})"
    if moves is not None:
        text += f": solution in {len(moves)} move{'' if len(moves) == 1 else 's'}"
    return text


def titled(scene: Scene, title: str) -> Scene:
    """`scene` under a title band (bold, left-aligned), widened when the title needs it; the SVG's <title>
    says the same."""
    width = max(scene.width, len(title) * TITLE_SIZE * 0.62 + 2 * PAD)  # (a generous average glyph width)
    label = Label((PAD, PAD + TITLE_SIZE), title, size=TITLE_SIZE, bold=True, role="title")
    moved = [replace(item, dy=item.dy + TITLE) if isinstance(item, Group) else shifted(item, 0.0, TITLE)
             for item in scene.items]
    return Scene(width, scene.height + TITLE, (label, *moved), scene.background, title)


def shifted(shape: Shape, dx: float, dy: float) -> Shape:
    """`shape` moved by (dx, dy)."""
    if isinstance(shape, Polygon):
        return replace(shape, points=tuple((x + dx, y + dy) for x, y in shape.points))
    if isinstance(shape, Circle):
        return replace(shape, center=(shape.center[0] + dx, shape.center[1] + dy))
    if isinstance(shape, Line):
        return replace(shape, a=(shape.a[0] + dx, shape.a[1] + dy), b=(shape.b[0] + dx, shape.b[1] + dy))
    if isinstance(shape, Rect):
        return replace(shape, x=shape.x + dx, y=shape.y + dy)
    return replace(shape, pos=(shape.pos[0] + dx, shape.pos[1] + dy))


def flat_items(scene: Scene) -> list[Shape]:
    """Every shape of a scene in drawing order, groups resolved to absolute coordinates."""
    out: list[Shape] = []
    for item in scene.items:
        if isinstance(item, Group):
            out.extend(shifted(s, item.dx, item.dy) for s in item.items)
        else:
            out.append(item)
    return out
