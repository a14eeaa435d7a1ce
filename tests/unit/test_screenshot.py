"""Screenshot import: boards we render ourselves, degraded like real screenshots, come back as the same
region graph; files that are not images, or are far too large, fail with one clear error."""

from __future__ import annotations

import pytest
from PIL import Image

from kamicp import load_level
from kamicp.board.level import Level
from kamicp.board.rules import Board
from kamicp.errors import FormatError
from kamicp.formats.screenshot import MAX_PIXELS, level_from_image, read_screenshot
from kamicp.render.png import board_png
from tests.helpers import LEVELS
from tests.helpers.pictures import assert_same_region_graph, colour_bijection, degrade, huge_png, render

TRI = LEVELS / "tri-40b5c-s108.json"

SQU = LEVELS / "squ-32b5c-s304.json"


@pytest.mark.parametrize("path", [TRI, SQU], ids=["triangle", "square"])
def test_clean_render_round_trips_exactly(path):
    level = load_level(path)
    shot = level_from_image(render(level), level.geometry)
    assert_same_region_graph(level, shot.level)
    report = shot.report
    assert report.shape == level.shape and report.colours == len(level.colour_keys)
    assert not report.uncertain and not report.warnings and report.holes == 0
    assert dict(report.palette) == {k: v for k, v in shot.level.palette}
    # colours come back as the palette they were drawn in (to within rounding)
    for key, hexcode in level.palette:
        twin = colour_bijection(level, shot.level)[key]
        want = [int(hexcode[i:i + 2], 16) for i in (1, 3, 5)]
        got = [int(dict(report.palette)[twin][i:i + 2], 16) for i in (1, 3, 5)]
        assert max(abs(a - b) for a, b in zip(want, got, strict=True)) <= 2


@pytest.mark.parametrize("path", [TRI, SQU], ids=["triangle", "square"])
@pytest.mark.parametrize("seed", [0, 1])
def test_noisy_shaded_jpeg_offset_board_gives_the_same_region_graph(path, seed):
    level = load_level(path)
    shot = level_from_image(degrade(render(level), seed=seed), level.geometry)
    assert_same_region_graph(level, shot.level)
    assert shot.report.box[0] > 40 and shot.report.box[1] > 30  # the margin was cropped away


def test_holes_come_back_as_holes():
    level = Level.from_rows(["AB.B", "ABBA", "CCAA", "..CA"], "square", palette={"A": "#aa3333", "B": "#3333aa",
                                                                                "C": "#33aa33"})
    shot = level_from_image(degrade(render(level, scale=2.0)), "square", 4, 4)
    assert shot.report.holes == 3
    assert_same_region_graph(level, shot.level)


def test_uncertain_cells_are_reported():
    level = load_level(SQU)
    img = render(level)
    # smear a cell of row 2 with a colour half-way between two others
    box = board_cell_box(level, 2, 7)
    img.paste((128, 128, 128), box)
    shot = level_from_image(img, "square")
    assert (2, 7) in {u.label for u in shot.report.uncertain}


def board_cell_box(level: Level, r: int, c: int) -> tuple[int, int, int, int]:
    from kamicp.render.scene import CELL, PAD, board_scene

    scene = board_scene(Board.start(level))
    x0 = (scene.width - level.shape[1] * CELL) / 2
    return (round(x0 + c * CELL + 6), round(PAD + r * CELL + 6), round(x0 + (c + 1) * CELL - 6),
            round(PAD + (r + 1) * CELL - 6))


def test_explicit_box_and_grid_size():
    level = Level.from_rows(["ABA", "BAB"], "square", palette={"A": "#ffcc00", "B": "#0044cc"})
    img = render(level, scale=2.0)
    shot = level_from_image(img, "square", 2, 3, box=(20, 20, img.width - 20, img.height - 20))
    assert_same_region_graph(level, shot.level)
    with pytest.raises(FormatError, match="not inside"):
        level_from_image(img, "square", 2, 3, box=(0, 0, img.width + 5, 10))


def test_wrong_grid_size_is_refused():
    # (it was read, with a warning only: a grid spread over a box of another shape is read wrong)
    level = load_level(SQU)
    with pytest.raises(FormatError, match="no board of the grid's shape"):
        level_from_image(render(level), "triangle")


def test_non_images_fail_cleanly(tmp_path):
    text = tmp_path / "level.png"
    text.write_text("not a picture")
    with pytest.raises(FormatError, match="not an image") as e:
        read_screenshot(text)
    assert e.value.source == str(text)
    with pytest.raises(FormatError, match="no such file"):
        read_screenshot(tmp_path / "missing.png")
    truncated = tmp_path / "cut.png"
    truncated.write_bytes(board_png(Board.start(load_level(SQU)))[:300])
    with pytest.raises(FormatError):
        read_screenshot(truncated)


@pytest.mark.parametrize("side", [int((MAX_PIXELS * 1.5) ** 0.5), 100_000])
def test_huge_images_are_refused(tmp_path, side):
    path = tmp_path / "bomb.png"
    path.write_bytes(huge_png(side, side))
    before = Image.MAX_IMAGE_PIXELS
    with pytest.raises(FormatError, match="too large"):
        read_screenshot(path)
    assert before == Image.MAX_IMAGE_PIXELS  # Pillow's global limit is restored


@pytest.mark.parametrize("path", [TRI, SQU], ids=["triangle", "square"])
def test_render_inside_two_nested_frames(path):
    """A screenshot pasted inside another frame: two margins of different colours around our render."""
    level = load_level(path)
    img = degrade(render(level), seed=3)
    for width, colour in ((18, (40, 40, 40)), (30, (225, 225, 230))):
        frame = Image.new("RGB", (img.width + 2 * width, img.height + 2 * width + 9), colour)
        frame.paste(img, (width, width))
        img = frame
    shot = level_from_image(img, level.geometry)
    assert_same_region_graph(level, shot.level)


@pytest.mark.parametrize("path", [TRI, SQU], ids=["triangle", "square"])
def test_without_geometry_the_board_shape_says_which_grid(path):
    """A Kami 1 (square) render imported without a geometry is read as squares, a triangle board as
    triangles: the box inside the margins has the shape of one grid only."""
    level = load_level(path)
    shot = level_from_image(degrade(render(level), seed=2))
    assert shot.report.geometry == level.geometry and shot.report.shape == level.shape
    assert_same_region_graph(level, shot.level)


def test_a_picture_that_is_not_a_board_is_refused_with_a_reason():
    from PIL import ImageDraw

    img = Image.new("RGB", (800, 600), "white")  # a graph drawing: nodes and edges on white
    draw = ImageDraw.Draw(img)
    nodes = [(100 + 97 * (k % 7), 90 + 140 * (k // 7) + 23 * (k % 3)) for k in range(21)]
    for a, b in zip(nodes, nodes[3:], strict=False):
        draw.line([a, b], fill=(70, 70, 70), width=2)
    for k, (x, y) in enumerate(nodes):
        draw.ellipse((x - 14, y - 14, x + 14, y + 14), fill=("#d9534f", "#5cb85c", "#1f3a5f")[k % 3])
    with pytest.raises(FormatError, match="no board found: neither a game screenshot"):
        level_from_image(img)
