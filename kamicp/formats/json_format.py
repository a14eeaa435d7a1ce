"""kamicp's native JSON level format (README.md, Level formats): reader and writer."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

from kamicp.board.level import HOLE, Level, Move
from kamicp.errors import FormatError, KamiError
from kamicp.formats.common import check_cells, check_range, load_json, read_text_file
from kamicp.limits import ENV, MAX_PLAYED, limits, too_many_played
from kamicp.runtime.atomic import write_atomic
from kamicp.runtime.text import short


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _par(value: Any, source: str) -> int | None:
    if value is None:
        return None
    if not _is_int(value) or value < 0:
        raise FormatError(f"must be a non-negative integer, got {short(value)}", source=source,
                          where="field 'par'")
    return check_range(value, source=source, where="field 'par'")


def _palette(value: Any, source: str) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
        raise FormatError("must be an object mapping colour keys to colour strings", source=source,
                          where="field 'palette'")
    for key, colour in value.items():
        if not is_colour(colour):
            raise FormatError(f"{short(colour)} is not a colour (expected '#rrggbb', '#rgb' or a CSS colour name "
                              "such as 'red'; docs/formats.md)", source=source,
                              where=f"field 'palette', key {short(key)}")
    return dict(value)


HEX_COLOUR = re.compile(r"#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})")


def is_colour(text: str) -> bool:
    """A palette value the pictures and the terminal can show: the same rule as kamicp.render.colours'
    parse_color (a hex code, one of the 148 CSS colour names, or a colour name rich knows)."""
    from PIL import ImageColor
    from rich.color import Color, ColorParseError

    s = text.strip()
    if HEX_COLOUR.fullmatch(s) or s.lower().replace(" ", "").replace("_", "") in ImageColor.colormap:
        return True
    try:
        Color.parse(s.lower())
    except ColorParseError:
        return False
    return True


def _medals(value: Any, source: str) -> tuple[tuple[str, int], ...]:
    if value is None:
        return ()
    if not isinstance(value, dict) or not all(_is_int(v) and v >= 0 for v in value.values()):
        raise FormatError("must be an object mapping medal names to non-negative move counts", source=source,
                          where="field 'medals'")
    for v in value.values():
        check_range(v, source=source, where="field 'medals'")
    return tuple(value.items())


def _official(value: Any, level: Level, source: str) -> tuple[Move, ...] | None:
    """The official solution: a list of {"tap": [row, col] or node id, "colour": key} ("color", the older
    spelling, is read too)."""
    if value is None:
        return None
    where = "field 'official'"
    if not isinstance(value, list):
        raise FormatError('must be a list of {"tap": ..., "colour": ...} moves', source=source, where=where)
    if len(value) > MAX_PLAYED:
        raise FormatError(too_many_played(), source=source, where=where)
    moves = []
    for k, item in enumerate(value, start=1):
        colour = item.get("colour", item.get("color")) if isinstance(item, dict) else None
        if not isinstance(colour, str) or "tap" not in item:
            raise FormatError(f'move {k}: must be {{"tap": ..., "colour": "<key>"}}, got {short(item)}',
                              source=source, where=where)
        tap = item["tap"]
        if level.geometry == "graph":
            ok = isinstance(tap, str) or _is_int(tap)
            label: Any = str(tap) if ok else None
        else:
            ok = (isinstance(tap, list) and len(tap) == 2
                  and all(_is_int(x) for x in tap))
            label = tuple(tap) if ok else None
        if not ok or not level.has_cell(label):
            raise FormatError(f"move {k}: tap {short(tap)} is not a cell of the level", source=source,
                              where=where)
        moves.append(Move(level.index(label), colour))
    return tuple(moves)


def _proof(value: Any, source: str) -> None:
    """The optional proof a generated level carries (`kamicp generate`): kept in the file, not in the Level."""
    if value is not None and not isinstance(value, dict):
        raise FormatError("must be an object (the proof of the par)", source=source, where="field 'proof'")


def level_from_data(data: Any, source: str, default_name: str = "") -> Level:
    """Build a level from parsed JSON data; every problem names the field."""
    level = _level_from_data(data, source, default_name)
    _proof(data.get("proof"), source)
    medals = _medals(data.get("medals"), source)
    official = _official(data.get("official"), level, source)
    if medals or official is not None:
        level = replace(level, medals=medals, official=official)
    return level


def _is_katamino(data: Any) -> bool:
    """JSON data of a Katamino puzzle or book (`kamicp katamino FILE`), not a Kami level."""
    return isinstance(data, dict) and data.get("geometry") is None and ("pieces" in data or "challenges" in data)


def other_command(path: str | Path) -> str | None:
    """The command a JSON file is clearly for when it is not a Kami level ('katamino'), else None (a level,
    or a file whose reading will say what is wrong with it)."""
    if Path(path).suffix.lower() != ".json":
        return None
    try:
        data = load_json(read_text_file(path), source=str(path))
    except (KamiError, OSError):
        return None
    return "katamino" if _is_katamino(data) else None


def _level_from_data(data: Any, source: str, default_name: str = "") -> Level:
    """Build a level from parsed JSON data; every problem names the field."""
    if not isinstance(data, dict):
        raise FormatError("the top level must be a JSON object", source=source)
    geometry = data.get("geometry")
    if _is_katamino(data):  # a walk over a folder meets these
        raise FormatError("a Katamino puzzle or book, not a Kami level (run `kamicp katamino FILE`)",
                          source=source)
    if geometry is None:
        raise FormatError("missing (expected triangle, square or graph)", source=source, where="field 'geometry'")
    if geometry not in ("triangle", "square", "graph"):
        raise FormatError(f"unknown geometry {short(geometry)} (expected triangle, square or graph)",
                          source=source, where="field 'geometry'")
    name = data.get("name", default_name)
    if not isinstance(name, str):
        raise FormatError("must be a string", source=source, where="field 'name'")
    par = _par(data.get("par"), source)
    palette = _palette(data.get("palette"), source)
    try:
        if geometry == "graph":
            return _graph_level(data, source, name, par, palette)
        return _grid_level(data, geometry, source, name, par, palette)
    except FormatError as e:
        if e.source:
            raise
        raise FormatError(e.message, source=source, where=e.where) from None


def _grid_level(data: dict, geometry: str, source: str, name: str, par: int | None,
                palette: dict[str, str]) -> Level:
    rows = data.get("rows")
    where = "field 'rows'"
    if rows is None:
        raise FormatError(f"missing (a {geometry} level needs rows)", source=source, where=where)
    if not isinstance(rows, list) or not all(isinstance(r, str) for r in rows):
        raise FormatError("must be a list of strings", source=source, where=where)
    if not rows:
        raise FormatError("is empty: the level has no cells", source=source, where=where)
    check_cells(len(rows) * max(map(len, rows)), source=source, where=where)
    for r, row in enumerate(rows, start=1):
        for c, ch in enumerate(row, start=1):
            if ch.isspace():
                raise FormatError(f"row {r}, column {c}: whitespace is not a colour key (use '{HOLE}' for a hole)",
                                  source=source, where=where)
            if not ch.isprintable():
                raise FormatError(f"row {r}, column {c}: the control character U+{ord(ch):04X} is not a colour key",
                                  source=source, where=where)
    try:
        return Level.from_rows(rows, geometry, name=name, par=par, palette=palette)
    except FormatError as e:
        raise FormatError(e.message, source=source, where=where) from None


def _graph_level(data: dict, source: str, name: str, par: int | None, palette: dict[str, str]) -> Level:
    nodes = data.get("nodes")
    if nodes is None:
        raise FormatError("missing (a graph level needs nodes)", source=source, where="field 'nodes'")
    if not isinstance(nodes, dict):
        raise FormatError("must be an object mapping node ids to colours", source=source, where="field 'nodes'")
    if not nodes:
        raise FormatError("is empty: the level has no cells", source=source, where="field 'nodes'")
    check_cells(len(nodes), source=source, where="field 'nodes'", what="nodes")
    for node, colour in nodes.items():
        if not isinstance(colour, str) or not colour:
            raise FormatError(f"node {short(node)}: colour must be a non-empty string, got {short(colour)}",
                              source=source, where="field 'nodes'")
    edges = data.get("edges", [])
    if not isinstance(edges, list):
        raise FormatError("must be a list of [a, b] pairs", source=source, where="field 'edges'")
    if len(edges) > limits().max_edges:
        raise FormatError(f"{len(edges)} edges is over the limit of {limits().max_edges} (raise it with "
                          f"{ENV['max_edges']})", source=source, where="field 'edges'")
    pairs = []
    for k, edge in enumerate(edges, start=1):
        if (not isinstance(edge, list) or len(edge) != 2
                or not all(isinstance(x, str) or _is_int(x) for x in edge)):
            raise FormatError(f"edge {k}: must be a pair of node ids, got {short(edge)}",
                              source=source, where="field 'edges'")
        pairs.append((str(edge[0]), str(edge[1])))
    try:
        return Level.from_graph(nodes, pairs, name=name, par=par, palette=palette)
    except FormatError as e:
        raise FormatError(e.message, source=source, where="field 'edges'") from None


def read_json(path: str | Path) -> Level:
    text = read_text_file(path)
    data = load_json(text, source=str(path))
    return level_from_data(data, str(path), default_name=Path(path).stem)


def level_to_data(level: Level, proof: dict | None = None) -> dict:
    """The JSON object of a level (grid levels as rows, graph levels as nodes and edges), with `proof`
    (the proof of its par, from `kamicp generate`) when given."""
    out: dict[str, Any] = {"name": level.name, "geometry": level.geometry}
    if level.geometry == "graph":
        out["nodes"] = dict(zip(level.labels, level.colours, strict=True))
        out["edges"] = [[level.labels[i], level.labels[j]] for i, j in level.edges]
    else:
        assert level.shape is not None
        rows, cols = level.shape
        grid = [[HOLE] * cols for _ in range(rows)]
        for (r, c), colour in zip(level.labels, level.colours, strict=True):  # type: ignore[misc]
            grid[r][c] = colour
        out["rows"] = ["".join(row) for row in grid]
    if level.palette:
        out["palette"] = dict(level.palette)
    if level.par is not None:
        out["par"] = level.par
    if level.medals:
        out["medals"] = dict(level.medals)
    if level.official is not None:
        out["official"] = [move_data(level, m) for m in level.official]
    if proof is not None:
        out["proof"] = proof
    return out


def move_data(level: Level, move: Move) -> dict:
    """A move as JSON data: {"tap": [row, col] or node id, "colour": key}."""
    return {"tap": level.tap_data(move.cell), "colour": move.colour}


def write_json(level: Level, path: str | Path, *, overwrite: bool = False, proof: dict | None = None) -> None:
    """Write a level as kamicp JSON, at once or not at all (kamicp.runtime.atomic: never through a link)."""
    data = (json.dumps(level_to_data(level, proof), indent=1) + "\n").encode("utf-8")
    write_atomic(path, data, overwrite=overwrite, what="levels")
