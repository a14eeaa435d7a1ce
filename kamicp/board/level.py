"""Levels and moves as frozen values.

A level is a cell graph with one colour key per cell. Grid levels (triangle, square) address cells by
(row, column) and keep their shape for drawing; graph levels address cells by node id. Cells are
numbered 0..n-1 in reading order (row-major for grids, file order for graphs), so the smallest cell
index of a region is its top-left cell: the cell a player taps.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from kamicp.board.lattice import GEOMETRIES, lattice
from kamicp.errors import FormatError

Label = tuple[int, int] | str

HOLE = "."


def _edges(geometry: str, labels: Sequence[tuple[int, int]]) -> tuple[tuple[int, int], ...]:
    """The pairs (i, j), i < j, of cells of a grid (its cells' labels in reading order) that share an edge."""
    lat = lattice(geometry)
    index = {lab: i for i, lab in enumerate(labels)}
    edges = set()
    for i, (r, c) in enumerate(labels):
        for nb in lat.neighbours(r, c):
            j = index.get(nb)
            if j is not None and i < j:
                edges.add((i, j))
    return tuple(sorted(edges))


@lru_cache(maxsize=16)
def _full_grid(geometry: str, height: int, width: int) -> tuple[tuple[Label, ...], tuple[tuple[int, int], ...]]:
    """The labels and edges of a grid with no holes (kept: a pack's boards share them)."""
    labels = tuple((r, c) for r in range(height) for c in range(width))
    return labels, _edges(geometry, labels)


@dataclass(frozen=True)
class Level:
    """A puzzle: cells, their adjacency, a colour per cell, and optional par, name and palette.

    Levels read from game files may also carry the official solution the file ships with and its medal
    thresholds (Kami 1: gold = par, silver, bronze); `kamicp.designer.official.check_official` replays it.
    """

    geometry: str
    labels: tuple[Label, ...]
    colours: tuple[str, ...]
    edges: tuple[tuple[int, int], ...]
    name: str = ""
    par: int | None = None
    palette: tuple[tuple[str, str], ...] = ()
    shape: tuple[int, int] | None = None  # (rows, cols) of grid levels
    _index: Mapping[Label, int] = field(default=None, compare=False, repr=False)  # type: ignore[assignment]
    official: tuple[Move, ...] | None = None  # the solution a game file ships with, if any
    medals: tuple[tuple[str, int], ...] = ()  # e.g. (("gold", 3), ("silver", 4), ("bronze", 5))
    # colours a move may use though no cell has them: a position keeps the colours gone from its board
    spare_colours: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.geometry not in GEOMETRIES:
            raise FormatError(f"unknown geometry {self.geometry!r} (expected one of {', '.join(GEOMETRIES)})")
        if len(self.labels) != len(self.colours):
            raise FormatError("labels and colours differ in length")
        if not self.labels:
            raise FormatError("the level has no cells")
        object.__setattr__(self, "_index", {lab: i for i, lab in enumerate(self.labels)})

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def from_rows(
        cls,
        rows: Sequence[str],
        geometry: str,
        *,
        name: str = "",
        par: int | None = None,
        palette: Mapping[str, str] | None = None,
        holes: str = HOLE,
    ) -> Level:
        """A grid level from equal-length strings, one character per cell (holes are skipped)."""
        if geometry not in ("triangle", "square"):
            raise FormatError(f"unknown grid geometry {geometry!r} (expected triangle or square)")
        if not rows:
            raise FormatError("no rows")
        width = len(rows[0])
        for r, row in enumerate(rows):
            if len(row) != width:
                raise FormatError(f"row {r + 1} has {len(row)} cells, row 1 has {width} (ragged rows)")
        text = "".join(rows)
        if any(ch in holes or ch.isspace() for ch in set(text)):
            kept = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row)
                    if ch not in holes and not ch.isspace()]
            labels, edges = tuple(kept), _edges(geometry, kept)
            colours = tuple(rows[r][c] for r, c in kept)
        else:  # a full grid: its cells and edges are those of every full grid of its size
            labels, edges = _full_grid(geometry, len(rows), width)
            colours = tuple(text)
        if not labels:
            raise FormatError("the level has no cells (every cell is a hole)")
        return cls(
            geometry=geometry,
            labels=labels,
            colours=colours,
            edges=edges,
            name=name,
            par=par,
            palette=tuple((palette or {}).items()),
            shape=(len(rows), width),
        )

    def position(self, colours: tuple[str, ...], name: str = "") -> Level:
        """A position reached in play as a level of its own: the same cells (so the same indices and labels)
        with `colors`; the level's colours gone from the board stay legal as spare colours, so the position
        has exactly the moves a player has there."""
        present = set(colours)
        spare = tuple(key for key in self.colour_keys if key not in present)
        return Level(geometry=self.geometry, labels=self.labels, colours=colours, edges=self.edges,
                     name=name or self.name, palette=self.palette, shape=self.shape, spare_colours=spare)

    @classmethod
    def from_graph(
        cls,
        nodes: Mapping[str, str] | Iterable[tuple[str, str]],
        edges: Iterable[tuple[str, str]],
        *,
        name: str = "",
        par: int | None = None,
        palette: Mapping[str, str] | None = None,
    ) -> Level:
        """A graph level: node id -> colour, and undirected edges between node ids."""
        items = list(nodes.items() if isinstance(nodes, Mapping) else nodes)
        if not items:
            raise FormatError("the level has no nodes")
        labels = tuple(str(k) for k, _ in items)
        if len(set(labels)) != len(labels):
            raise FormatError("duplicate node id")
        index = {lab: i for i, lab in enumerate(labels)}
        pairs = set()
        for a, b in edges:
            a, b = str(a), str(b)
            for end in (a, b):
                if end not in index:
                    raise FormatError(f"edge {a}-{b} names unknown node {end!r}")
            if a == b:
                raise FormatError(f"edge {a}-{b} is a self-loop")
            i, j = sorted((index[a], index[b]))
            pairs.add((i, j))
        return cls(
            geometry="graph",
            labels=labels,
            colours=tuple(str(c) for _, c in items),
            edges=tuple(sorted(pairs)),
            name=name,
            par=par,
            palette=tuple((palette or {}).items()),
        )

    # --- queries ------------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return len(self.labels)

    @cached_property
    def colour_keys(self) -> tuple[str, ...]:
        """The colours a move may use: those on the board, in first-seen order, then any spare ones (computed
        once: pictures and the terminal look a key up here for every cell)."""
        return tuple(dict.fromkeys((*self.colours, *self.spare_colours)))

    @property
    def display_keys(self) -> tuple[str, ...]:
        """The colours in the order a player is shown them (legend, swatches, the play page's 1-9 keys): the
        file's palette order, then any key the palette does not name in first-seen order."""
        named = tuple(key for key, _ in self.palette if key in self.colour_keys)
        return (*dict.fromkeys(named), *(key for key in self.colour_keys if key not in named))

    @property
    def palette_map(self) -> dict[str, str]:
        return dict(self.palette)

    @cached_property
    def _palette_lookup(self) -> dict[str, str]:
        return dict(self.palette)

    @cached_property
    def _key_positions(self) -> dict[str, int]:
        return {key: k for k, key in enumerate(self.colour_keys)}

    def display_colour(self, key: str) -> str | None:
        """What the palette says about a colour key (a hex code or a name), if anything (a lookup in a dict
        made once: pictures and the terminal ask for every colour, and a level may have 100,000)."""
        return self._palette_lookup.get(key)

    def keys_text(self, most: int = 20) -> str:
        """The colour keys for a message, comma-separated, the first `most` only (a level may have 100,000)."""
        keys = self.colour_keys
        more = f", ... ({len(keys) - most} more)" if len(keys) > most else ""
        return ", ".join(keys[:most]) + more

    def key_position(self, key: str) -> int | None:
        """The index of a colour key in `color_keys`, None if it is not one (constant time)."""
        return self._key_positions.get(key)

    def index(self, label: Label) -> int:
        """The cell index of a label; KeyError if there is no such cell."""
        return self._index[label]

    def has_cell(self, label: Label) -> bool:
        return label in self._index

    def adjacency(self) -> tuple[tuple[int, ...], ...]:
        """Each cell's neighbours (computed once: the rules engine floods with it on every move)."""
        return self._adjacency

    @cached_property
    def _adjacency(self) -> tuple[tuple[int, ...], ...]:
        adj: list[list[int]] = [[] for _ in self.labels]
        for i, j in self.edges:
            adj[i].append(j)
            adj[j].append(i)
        return tuple(tuple(nb) for nb in adj)

    def with_par(self, par: int | None) -> Level:
        return Level(
            geometry=self.geometry,
            labels=self.labels,
            colours=self.colours,
            edges=self.edges,
            name=self.name,
            par=par,
            palette=self.palette,
            shape=self.shape,
            official=self.official,
            medals=self.medals,
            spare_colours=self.spare_colours,
        )

    @property
    def medals_map(self) -> dict[str, int]:
        return dict(self.medals)

    def tap_data(self, cell: int) -> list[int] | str:
        """The cell as JSON data: [row, col] for grids, the node id for graphs."""
        label = self.labels[cell]
        return list(label) if isinstance(label, tuple) else label

    def format_label(self, cell: int) -> str:
        """How a cell is shown to a player: '(row, col)' for grids, the node id for graphs."""
        label = self.labels[cell]
        if isinstance(label, tuple):
            return f"({label[0]}, {label[1]})"
        return label


@dataclass(frozen=True)
class Move:
    """Tap `cell` (a cell index of the level) and paint its region `color` (a colour key)."""

    cell: int
    colour: str
