"""Pictures: SVG structure, PNG pixels, graph drawings."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from kamicp import load_level
from kamicp.board.level import Level, Move
from kamicp.board.rules import Board, replay
from kamicp.render.colours import hex_of, parse_colour
from kamicp.render.files import step_files, write_picture, write_steps
from kamicp.render.png import board_png, scene_image, scene_png
from kamicp.render.scene import board_scene, centroid, flat_items, steps_scenes, strip_scene
from kamicp.render.svg import board_svg, scene_svg
from tests.helpers.pictures import NS, cells, open_png

TRI = Level.from_rows(["ABBA", "ACCA", "A.CB", "BBCA", "AACB"], "triangle",
                      palette={"A": "#e9d8a6", "B": "navy", "C": "Dark Orange"})

SQU = Level.from_rows(["AAB.", "CABB", "CCBB"], "square", palette={"A": "#ff0000"})

TRI_MOVES = [Move(TRI.index((1, 1)), "B"), Move(TRI.index((0, 0)), "B")]


def steps_svgs(level: Level, moves: list[Move]) -> list[str]:
    """One SVG per move, drawn the way `write_steps` draws them (without the title)."""
    return [scene_svg(scene) for scene in steps_scenes(level, moves)]


def marks(svg: str) -> list[ET.Element]:
    return ET.fromstring(svg).findall(".//s:circle[@class='mark']", NS)


def points(poly: ET.Element) -> list[tuple[float, float]]:
    return [tuple(float(v) for v in p.split(",")) for p in poly.get("points", "").split()]  # type: ignore[misc]


def inside(pt: tuple[float, float], poly: list[tuple[float, float]]) -> bool:
    x, y = pt
    hit = False
    for (x1, y1), (x2, y2) in zip(poly, poly[1:] + poly[:1], strict=True):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


@pytest.mark.parametrize("level", [TRI, SQU], ids=["triangle", "square"])
def test_svg_has_one_polygon_per_cell_in_palette_colours(level):
    svg = board_svg(Board.start(level))
    polys = cells(svg)
    assert len(polys) == level.size
    for poly in polys:
        i = int(poly.get("data-cell"))
        assert poly.get("data-color") == level.colours[i]
        assert poly.get("fill") == hex_of(level, level.colours[i])
        assert poly.get("stroke") == poly.get("fill")  # same-colour seams hidden
    assert not marks(svg)


def test_colour_names_become_valid_svg_colours():
    assert hex_of(TRI, "A") == "#e9d8a6"
    assert hex_of(TRI, "B") == "#000080"
    assert hex_of(TRI, "C") == "#ff8c00"
    unnamed = Level.from_rows(["XY"], "square")
    assert all(parse_colour(hex_of(unnamed, k)) for k in "XY")
    assert hex_of(unnamed, "X") != hex_of(unnamed, "Y")


def test_triangles_point_left_and_right():
    polys = {int(p.get("data-cell")): points(p) for p in cells(board_svg(Board.start(TRI)))}
    right = polys[TRI.index((0, 0))]
    left = polys[TRI.index((0, 1))]
    assert len(right) == len(left) == 3
    assert right[0][0] == right[2][0] < right[1][0]  # vertical side on the left, apex right
    assert left[0][0] == left[2][0] > left[1][0]


def test_holes_are_left_empty():
    svg = board_svg(Board.start(TRI))
    assert TRI.shape == (5, 4) and len(cells(svg)) == 19


def test_step_pictures_mark_the_tapped_cell_and_name_the_move():
    svgs = steps_svgs(TRI, TRI_MOVES)
    boards = replay(TRI, TRI_MOVES)
    assert len(svgs) == 2
    for k, (svg, move) in enumerate(zip(svgs, TRI_MOVES, strict=True), start=1):
        polys = {int(p.get("data-cell")): p for p in cells(svg)}
        (mark,) = marks(svg)
        assert int(mark.get("data-cell")) == move.cell
        centre = (float(mark.get("cx")), float(mark.get("cy")))
        assert inside(centre, points(polys[move.cell]))
        caption = "".join(ET.fromstring(svg).find(".//s:text[@class='caption']", NS).itertext())
        assert caption.startswith(f"{k}. tap {TRI.format_label(move.cell)}") and move.colour in caption
        swatch = ET.fromstring(svg).find(".//s:rect[@class='swatch']", NS)
        assert swatch.get("fill") == hex_of(TRI, move.colour)
        # the picture shows the board after the move
        assert [p.get("data-color") for _, p in sorted(polys.items())] == list(boards[k].colours)


def test_strip_holds_the_start_board_and_every_step():
    root = ET.fromstring(scene_svg(strip_scene(TRI, TRI_MOVES)))
    panels = root.findall("s:g[@class='panel']", NS)
    assert len(panels) == len(TRI_MOVES) + 1
    assert all(len(p.findall("s:polygon", NS)) == TRI.size for p in panels)
    assert not panels[0].findall("s:circle[@class='mark']", NS)
    for panel, move in zip(panels[1:], TRI_MOVES, strict=True):
        (mark,) = panel.findall("s:circle[@class='mark']", NS)
        assert int(mark.get("data-cell")) == move.cell
    offsets = [p.get("transform") for p in panels]
    assert len(set(offsets)) == len(offsets)  # side by side
    assert float(root.get("width")) > 2 * float(ET.fromstring(board_svg(Board.start(TRI))).get("width"))


def test_graph_level_is_drawn_as_nodes_and_edges(blog_path):
    level = load_level(blog_path)
    moves = [Move(level.index("10"), "Purple")]
    root = ET.fromstring(steps_svgs(level, moves)[0])
    nodes = root.findall(".//s:circle[@class='node']", NS)
    assert len(nodes) == level.size
    assert len(root.findall(".//s:line[@class='edge']", NS)) == len(level.edges)
    assert {n.get("fill") for n in nodes} == {hex_of(level, k) for k in level.colour_keys}
    (mark,) = root.findall(".//s:circle[@class='mark']", NS)
    node = next(n for n in nodes if n.get("data-cell") == str(moves[0].cell))
    assert (mark.get("cx"), mark.get("cy")) == (node.get("cx"), node.get("cy"))
    assert board_svg(Board.start(level)) == board_svg(Board.start(level))  # fixed layout


@pytest.mark.parametrize("level", [TRI, SQU], ids=["triangle", "square"])
@pytest.mark.parametrize("scale", [1.0, 2.0])
def test_png_matches_the_scene(level, scale):
    board = Board.start(level)
    scene = board_scene(board)
    img = open_png(board_png(board, scale=scale))
    assert img.size == (round(scene.width * scale), round(scene.height * scale))
    for shape in flat_items(scene):
        x, y = centroid(shape.points)
        got = img.getpixel((int(x * scale), int(y * scale)))
        want = parse_colour(shape.fill)
        assert max(abs(a - b) for a, b in zip(got, want, strict=True)) <= 3, (shape.cell, got, want)
    assert img.getpixel((0, 0)) == parse_colour(scene.background)


def test_png_of_a_graph_level_and_a_strip(blog_path):
    level = load_level(blog_path)
    img = open_png(scene_png(strip_scene(level, [Move(level.index("10"), "Purple")]), 1.0))
    assert img.size[0] > 2 * img.size[1] - 200
    colours = {c for _, c in img.getcolors(1 << 20)}
    for key in level.colour_keys:
        assert parse_colour(hex_of(level, key)) in colours


def test_scene_image_is_antialiased():
    img = scene_image(board_scene(Board.start(TRI)), supersample=3)
    assert len(img.getcolors(1 << 20)) > 6  # blended edge pixels, not only the 3 colours + background


def test_writers_refuse_to_overwrite(tmp_path):
    target = tmp_path / "board.svg"
    target.write_text("mine")
    with pytest.raises(Exception, match="exists already"):
        write_picture(target, TRI)
    assert target.read_text() == "mine"
    write_picture(target, TRI, force=True)
    assert cells(target.read_text())
    with pytest.raises(Exception, match="unknown picture type"):
        write_picture(tmp_path / "board.gif", TRI)
    paths = write_steps(tmp_path / "steps", TRI, TRI_MOVES)
    assert paths == step_files(tmp_path / "steps", 2) and all(p.exists() for p in paths)
    assert [p.name for p in paths][:4] == ["step-01.svg", "step-01.png", "step-02.svg", "step-02.png"]
    with pytest.raises(Exception, match="exists already"):
        write_steps(tmp_path / "steps", TRI, TRI_MOVES)
