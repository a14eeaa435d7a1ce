"""What a picture import returns: the level and what the import saw, for the user to check."""

from __future__ import annotations

from dataclasses import dataclass, replace

from kamicp.board.level import Level

Box = tuple[int, int, int, int]


@dataclass(frozen=True)
class UncertainCell:
    """A cell whose colour should be checked by eye; `reason` says why."""

    label: tuple[int, int]
    key: str
    reason: str
    delta_e: float  # distance of its sample to its colour's centre


@dataclass(frozen=True)
class CellMark:
    """Where a cell was read: its outline and sample point in image pixels, and the key it got."""

    label: tuple[int, int]
    polygon: tuple[tuple[float, float], ...]
    at: tuple[float, float]
    key: str  # HOLE for a hole


@dataclass(frozen=True)
class ImportReport:
    source: str
    image_size: tuple[int, int]
    box: Box  # board bounding box (left, top, right, bottom) in image pixels
    geometry: str
    shape: tuple[int, int]
    palette: tuple[tuple[str, str], ...]  # key -> '#rrggbb', in key order
    counts: tuple[tuple[str, int], ...]  # key -> number of cells
    holes: int
    uncertain: tuple[UncertainCell, ...]
    warnings: tuple[str, ...]
    layout: str = "board"  # "game": a Kami 2 screenshot (footer, swatches); "board": a board on a margin
    cells: tuple[CellMark, ...] = ()  # every lattice position, for the overlay
    par: int | None = None  # read from the game's footer
    par_note: str = ""  # how the par was read, or why not

    @property
    def colours(self) -> int:
        return len(self.palette)

    def overlay_cells(self) -> tuple[tuple[tuple[tuple[float, float], ...], tuple[float, float], str, bool], ...]:
        """What the check picture draws (`render.overlay`), as plain data: each cell's outline, centre,
        key and whether it is uncertain."""
        doubt = {u.label for u in self.uncertain}
        return tuple((m.polygon, m.at, m.key, m.label in doubt) for m in self.cells)

    def scaled(self, factor: float, image_size: tuple[int, int]) -> ImportReport:
        """The same report in the pixels of a picture `factor` times as large (the import read a
        reduced copy; the overlay is drawn on the original)."""
        if factor == 1.0:
            return self

        def pt(p: tuple[float, float]) -> tuple[float, float]:
            return (p[0] * factor, p[1] * factor)

        cells = tuple(replace(m, polygon=tuple(pt(p) for p in m.polygon), at=pt(m.at)) for m in self.cells)
        box = tuple(round(v * factor) for v in self.box)
        return replace(self, image_size=image_size, box=box, cells=cells)  # type: ignore[arg-type]


@dataclass(frozen=True)
class Screenshot:
    """An imported level and what the import saw."""

    level: Level
    report: ImportReport
