"""Katamino solutions as pictures a player reads: each piece filled with its colour, outlined, and
labelled with its letter, in the terminal (box-drawing characters, rich) and as SVG/PNG (a render Scene
written by kamicp.render.files). A challenge line (kamicp.katamino.book) is one picture: a panel per width.

The outlines are the edges between two cells of different pieces (or a piece and a blocked cell or the
board's border): `edges` finds them from the letter grid alone.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rich.text import Text

from kamicp.errors import FormatError
from kamicp.katamino.board import BLOCKED, Grid
from kamicp.render.files import check_writable, write_scene
from kamicp.render.scene import BACKGROUND, FONT_SIZE, INK, PAD, Group, Label, Line, Polygon, Scene

PIECE_COLOURS = {
    "F": "#e63946", "I": "#457b9d", "L": "#f4a261", "N": "#2a9d8f", "P": "#8e44ad", "T": "#e9c46a",
    "U": "#1d3557", "V": "#90be6d", "W": "#f28482", "X": "#6d597a", "Y": "#8d5524", "Z": "#adb5bd",
}
EMPTY = "#e4e2dc"  # a free cell of an unsolved board
CELL = 30.0  # side of a cell in drawing units
OUTLINE = 2.5  # width of a piece's outline
CAPTION = 24.0
GAP = 14.0


def _at(grid: Grid, r: int, c: int) -> str:
    """The cell's letter; outside the board counts as blocked."""
    if 0 <= r < len(grid) and 0 <= c < len(grid[r]):
        return grid[r][c]
    return BLOCKED


def edges(grid: Grid) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """The outline as unit segments between lattice points (row, col): every edge of a piece's cell that
    meets another piece, a blocked cell or the border."""
    rows, cols = len(grid), len(grid[0]) if grid else 0
    out = []
    for r in range(rows + 1):  # horizontal edges: between cell (r - 1, c) and (r, c)
        for c in range(cols):
            a, b = _at(grid, r - 1, c), _at(grid, r, c)
            if a != b:
                out.append(((r, c), (r, c + 1)))
    for r in range(rows):  # vertical edges: between cell (r, c - 1) and (r, c)
        for c in range(cols + 1):
            a, b = _at(grid, r, c - 1), _at(grid, r, c)
            if a != b:
                out.append(((r, c), (r + 1, c)))
    return out


def label_cells(grid: Grid) -> dict[str, tuple[int, int]]:
    """Where each piece's letter goes: its cell nearest the piece's centre."""
    cells: dict[str, list[tuple[int, int]]] = {}
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch != BLOCKED:
                cells.setdefault(ch, []).append((r, c))
    out = {}
    for letter, found in cells.items():
        cr = sum(r for r, _ in found) / len(found)
        cc = sum(c for _, c in found) / len(found)
        out[letter] = min(found, key=lambda rc: ((rc[0] - cr) ** 2 + (rc[1] - cc) ** 2, rc))
    return out


def _ink_on(colour: str) -> str:
    """White or dark text, whichever reads on the fill."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * b < 150 else INK


def _segment(a: tuple[int, int], b: tuple[int, int], ox: float, oy: float) -> Line:
    """An outline edge from lattice point a to b (row, col), drawn a half width longer at both ends so
    that corners close (PNG lines have no caps)."""
    (r0, c0), (r1, c1) = a, b
    dr, dc = (r1 - r0) * OUTLINE / 2, (c1 - c0) * OUTLINE / 2
    return Line((ox + c0 * CELL - dc, oy + r0 * CELL - dr), (ox + c1 * CELL + dc, oy + r1 * CELL + dr), INK, OUTLINE)


def board_shapes(grid: Grid, origin: tuple[float, float] = (0.0, 0.0), *, solved: bool = True) -> list:
    """The cells (filled by piece), the outlines and the letters of one board, its top left at `origin`."""
    ox, oy = origin
    shapes: list = []
    for r, row in enumerate(grid):
        for c, ch in enumerate(row):
            if ch == BLOCKED:
                continue
            x, y = ox + c * CELL, oy + r * CELL
            fill = PIECE_COLOURS.get(ch, EMPTY) if solved else EMPTY
            shapes.append(Polygon(((x, y), (x + CELL, y), (x + CELL, y + CELL), (x, y + CELL)), fill,
                                  cell=r * len(row) + c, key=ch if solved else ""))
    if solved:
        shapes.extend(_segment(a, b, ox, oy) for a, b in edges(grid))
        for letter, (r, c) in sorted(label_cells(grid).items()):
            centre = (ox + (c + 0.5) * CELL, oy + (r + 0.5) * CELL + 0.35 * FONT_SIZE * 1.3)
            shapes.append(Label(centre, letter, size=FONT_SIZE * 1.3, fill=_ink_on(PIECE_COLOURS[letter]),
                                anchor="middle", bold=True, role="letter"))
    else:
        empty = tuple("".join("o" if ch != BLOCKED else ch for ch in row) for row in grid)
        shapes.extend(_segment(a, b, ox, oy) for a, b in edges(empty))
    return shapes


def solution_scene(grid: Grid, caption: str = "", title: str = "") -> Scene:
    """One solution: the board with its pieces outlined and lettered, `caption` under it."""
    return panels_scene([(caption, grid, True)], title=title)


def panels_scene(panels: Sequence[tuple[str, Grid, bool]], title: str = "") -> Scene:
    """Boards stacked top to bottom, each (caption, grid, solved): an unsolved board is drawn empty."""
    groups = []
    y, width = 0.0, 0.0
    for caption, grid, solved in panels:
        w, h = len(grid[0]) * CELL, len(grid) * CELL
        shapes = board_shapes(grid, (PAD, PAD), solved=solved)
        height = h + 2 * PAD
        if caption:
            shapes.append(Label((PAD, height + FONT_SIZE * 0.5), caption, size=FONT_SIZE, fill=INK))
            height += CAPTION
        groups.append(Group(0.0, y, tuple(shapes)))
        y += height + GAP
        width = max(width, w + 2 * PAD, 8.0 * len(caption) + 2 * PAD)
    return Scene(width, max(y - GAP, 1.0), tuple(groups), background=BACKGROUND, title=title)


def write_solution_picture(path: str | Path, grid: Grid, *, caption: str = "", force: bool = False) -> Path:
    """Write the solution as SVG or PNG (by extension); refuses to overwrite without `force`."""
    return write_scene(path, solution_scene(grid, caption, title=caption), force=force)


# --- the terminal ------------------------------------------------------------------------------------
_JOINTS = {  # (up, down, left, right) walls meeting at a lattice point -> box-drawing character
    (0, 0, 0, 0): " ", (1, 1, 0, 0): "│", (0, 0, 1, 1): "─", (0, 1, 0, 1): "┌", (0, 1, 1, 0): "┐",
    (1, 0, 0, 1): "└", (1, 0, 1, 0): "┘", (1, 1, 0, 1): "├", (1, 1, 1, 0): "┤", (0, 1, 1, 1): "┬",
    (1, 0, 1, 1): "┴", (1, 1, 1, 1): "┼", (1, 0, 0, 0): "╵", (0, 1, 0, 0): "╷", (0, 0, 1, 0): "╴",
    (0, 0, 0, 1): "╶",
}


def outline_text(grid: Grid) -> Text:
    """The solution drawn with box-drawing characters: each piece on its colour, outlined, its letter once."""
    walls = set(edges(grid))
    labels = {rc: letter for letter, rc in label_cells(grid).items()}
    rows, cols = len(grid), len(grid[0]) if grid else 0
    text = Text()

    def fill(r: int, c: int) -> str:
        ch = _at(grid, r, c)
        return "" if ch == BLOCKED else f"on {PIECE_COLOURS[ch]}"

    for r in range(rows + 1):
        if r:
            text.append("\n")
        for c in range(cols + 1):  # the line of lattice points and horizontal walls
            key = (int(((r - 1, c), (r, c)) in walls), int(((r, c), (r + 1, c)) in walls),
                   int(((r, c - 1), (r, c)) in walls), int(((r, c), (r, c + 1)) in walls))
            text.append(_JOINTS[key], style="bold" if any(key) else fill(r, c))
            if c < cols:
                wall = ((r, c), (r, c + 1)) in walls
                text.append("───" if wall else "   ", style="bold" if wall else fill(r, c))
        if r == rows:
            break
        text.append("\n")
        for c in range(cols + 1):  # the line of cells and vertical walls
            wall = ((r, c), (r + 1, c)) in walls
            text.append("│" if wall else " ", style="bold" if wall else fill(r, c))
            if c < cols:
                letter = labels.get((r, c), " ")
                style = fill(r, c)
                if style:
                    style = f"bold {_ink_on(PIECE_COLOURS[grid[r][c]])} {style}"
                text.append(f" {letter} ", style=style)
    return text


# --- a book's pictures -----------------------------------------------------------------------------
def slug(text: str) -> str:
    """A file-name-safe form of a challenge's name."""
    out = "".join(ch if ch.isascii() and (ch.isalnum() or ch in "-_") else "-" for ch in text).strip("-")
    return out[:60] or "challenge"


def line_files(directory: str | Path, names: Sequence[str]) -> list[Path]:
    """The files write_line_pictures writes: NN-name.svg and NN-name.png per challenge."""
    d = Path(directory)
    digits = max(2, len(str(len(names))))
    return [d / f"{k:0{digits}d}-{slug(name)}.{kind}"
            for k, name in enumerate(names, start=1) for kind in ("svg", "png")]


def check_line_files(directory: str | Path, names: Sequence[str], *, force: bool = False) -> list[Path]:
    """Refuse (FormatError) before any solving if the directory is a file or a target exists (unless `force`)."""
    d = Path(directory)
    if d.exists() and not d.is_dir():
        raise FormatError("exists and is not a directory", source=str(d))
    paths = line_files(d, names)
    check_writable(paths, force=force, new_folder=True)  # made by write_line_pictures
    return paths


def write_line_pictures(directory: str | Path, lines: Sequence[tuple[str, Sequence[tuple[str, Grid, bool]]]], *,
                        force: bool = False) -> list[Path]:
    """One SVG and one PNG per challenge line (name, panels), into `directory` (made if missing)."""
    paths = check_line_files(directory, [name for name, _ in lines], force=force)
    try:
        Path(directory).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise FormatError(f"cannot create the directory: {e.strerror or e}", source=str(directory)) from None
    for k, (name, panels) in enumerate(lines):
        for j in range(2):
            write_scene(paths[2 * k + j], panels_scene(panels, title=name), force=force)
    return paths
