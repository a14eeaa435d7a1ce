"""Kami 2 game screenshots (synthetic, tests/helpers/shots.py): the import gives back every cell, hole and
the palette in the game's swatch order, on phone sizes, a status-bar phone, a tablet, JPEG, and inside
nested frames."""

from __future__ import annotations

import shutil

import pytest
from PIL import Image

from kamicp import load_level
from kamicp.board.level import HOLE, Level
from kamicp.errors import FormatError
from kamicp.formats.screenshot import level_from_image
from tests.helpers import GAMES, LEVELS
from tests.helpers.shots import SIZES, framed, game_palette, game_shot, with_holes


def assert_read_back(level: Level, palette: dict[str, str], img: Image.Image) -> None:
    shot = level_from_image(img)
    report = shot.report
    assert report.layout == "game" and report.shape == (29, 10)
    got = shot.level
    # the keys are A, B, C, ... in the footer's order, which is the palette's order
    rename = {key: "ABCDEFGHIJ"[n] for n, key in enumerate(palette)}
    assert got.labels == level.labels, f"holes differ: {set(got.labels) ^ set(level.labels)}"
    wrong = [lab for lab, a, b in zip(level.labels, level.colours, got.colours, strict=True) if rename[a] != b]
    assert not wrong, f"cells read wrongly: {wrong}"
    assert [k for k, _ in report.palette] == list(rename.values())
    for (_, want), (_, seen) in zip(palette.items(), report.palette, strict=True):
        diff = [abs(int(want[i:i + 2], 16) - int(seen[i:i + 2], 16)) for i in (1, 3, 5)]
        assert max(diff) <= 6, (want, seen)
    assert report.holes == 290 - level.size


CASES = [("tri-20b4c-s103", 0), ("tri-32b5c-s106", 1), ("tri-28b4c-s105", 2), ("tri-18b4c-s113", 3)]
needs_tesseract = pytest.mark.skipif(shutil.which("tesseract") is None, reason="tesseract-ocr not installed")


@pytest.mark.parametrize("size", list(SIZES))
def test_every_phone_size_reads_back_cells_holes_and_palette(size):
    """Each phone and tablet layout (status bars, home band, Android's tall footer, a selected swatch
    other than the first, JPEG, downscaling) gives back the exact board and palette."""
    name, seed = CASES[list(SIZES).index(size) % len(CASES)]
    level = with_holes(load_level(LEVELS / f"{name}.json"), seed)
    palette = game_palette(level, seed)
    assert_read_back(level, palette, game_shot(level, palette, seed=seed, **SIZES[size]))


@pytest.mark.slow
@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize(("name", "seed"), CASES)
def test_every_level_at_every_size(name, seed, size):
    level = with_holes(load_level(LEVELS / f"{name}.json"), seed + 10)
    palette = game_palette(level, seed + 1)
    assert_read_back(level, palette, game_shot(level, palette, seed=seed + 10, **SIZES[size]))


@pytest.mark.parametrize("size", ["750x1334", "665x1182-jpeg"])
def test_game_screenshot_inside_two_nested_frames(size):
    level = with_holes(load_level(LEVELS / "tri-24b4c-s104.json"), 7)
    palette = game_palette(level, 1)
    img = framed(game_shot(level, palette, seed=7, **SIZES[size]), ((20, (30, 30, 30)), (35, (200, 200, 210))))
    assert_read_back(level, palette, img)


def test_without_holes_every_cell_is_read():
    level = load_level(LEVELS / "tri-40b5c-s108.json")
    palette = game_palette(level, 2)
    assert_read_back(level, palette, game_shot(level, palette, **SIZES["665x1182-jpeg"]))


@needs_tesseract
@pytest.mark.parametrize(("par", "size"), [(3, "665x1182-jpeg"), (9, "750x1334"), (18, "665x1182-jpeg"),
                                           (12, "android-1080x2280"), (1, "640x1136"), (24, "1125x2436-bars")])
def test_par_is_read_from_the_footer(par, size):
    level = load_level(LEVELS / "tri-8b3c-s100.json")
    report = level_from_image(game_shot(level, game_palette(level, 0), par=par, **SIZES[size])).report
    assert report.par == par and "Tesseract" in report.par_note


def test_without_tesseract_the_par_is_declined(monkeypatch):
    monkeypatch.setenv("PATH", "")
    level = load_level(LEVELS / "tri-8b3c-s100.json")
    shot = level_from_image(game_shot(level, game_palette(level, 0), par=4))
    assert shot.report.par is None and "tesseract-ocr is not installed" in shot.report.par_note
    assert shot.level.labels == level.labels


@needs_tesseract
def test_a_smudged_number_is_not_guessed():
    from PIL import ImageDraw

    level = load_level(LEVELS / "tri-8b3c-s100.json")
    img = game_shot(level, game_palette(level, 0), par=7)
    ImageDraw.Draw(img).ellipse((98, 1250, 128, 1290), fill=(235, 235, 235))  # a blot, not a digit
    report = level_from_image(img).report
    assert report.par is None and report.par_note


def test_a_dark_band_without_swatches_is_refused_with_a_reason():
    """The footer's structure (dark band, icon dividers) without telling swatches: refused, not guessed."""
    from PIL import ImageDraw

    level = load_level(LEVELS / "tri-8b3c-s100.json")
    img = game_shot(level, game_palette(level, 0))
    ImageDraw.Draw(img).rectangle((300, 1210, 749, 1333), fill=(34, 25, 13))  # the swatches painted over
    with pytest.raises(FormatError, match="a Kami 2 footer"):
        level_from_image(img)


def test_a_story_puz_and_its_game_style_screenshot_give_the_same_board_cell_for_cell():
    """The .puz reader lays a story level out as the game shows it, so the file and a screenshot of it
    agree on every cell (same labels, same colours once the keys are named by swatch order)."""
    level = load_level(GAMES / "tri-24b4c-s104.puz")
    assert level.shape == (29, 10)
    palette = game_palette(level, 1)
    assert_read_back(level, palette, game_shot(level, palette, seed=5, **SIZES["665x1182-jpeg"]))


def test_a_tall_screenshot_is_read_reduced_and_reported_in_its_own_pixels(tmp_path):
    """A 1440 x 3200 screenshot is read at a bounded size; the board, cells and report (box, cell
    outlines for the overlay) come back in the picture's own pixels."""
    from kamicp.formats.screenshot import read_screenshot

    level = with_holes(load_level(LEVELS / "tri-28b4c-s105.json"), 4)
    palette = game_palette(level, 2)
    path = tmp_path / "tall.png"
    game_shot(level, palette, size=(1440, 3200), status_bar=100, below=30, footer=0.3).save(path)
    shot = read_screenshot(path)
    assert shot.report.image_size == (1440, 3200)
    left, top, right, bottom = shot.report.box
    assert left == 0 and right == 1440 and 300 < top < bottom < 3200 - 0.3 * 1440
    assert max(x for m in shot.report.cells for x, _ in m.polygon) == pytest.approx(1440, abs=2)
    rename = {key: "ABCDEFGHIJ"[n] for n, key in enumerate(palette)}
    assert shot.level.labels == level.labels
    assert [rename[k] for k in level.colours] == list(shot.level.colours)


@pytest.mark.parametrize(("slip", "readable", "size"), [
    (0.3, True, "750x1334"), (0.5, False, "750x1334"), (0.75, False, "750x1334"),
    (1.0, False, "750x1334"), (2.0, False, "750x1334"), (-1.0, False, "750x1334"), (3.0, False, "750x1334"),
    (1.0, False, "android-1080x2280"), (-1.0, False, "android-1080x2280"), (2.0, False, "tablet-1536x2048"),
    (-1.0, False, "665x1182-jpeg"), (2.0, False, "665x1182-jpeg"),
])
def test_a_board_off_the_measured_anchor_is_read_or_refused_never_misread(slip, readable, size):
    """Rows drawn `slip` pitches lower (or higher, when negative) than the game's layout puts them: a
    small slip still samples every triangle inside; a large one puts samples across edges; a whole pitch
    puts them inside triangles pointing the other way (their corners show two colours); two pitches lower
    puts them in the right shapes, but the board's top edge crosses row 2. Refused with the reason, never
    read shifted."""
    level = with_holes(load_level(LEVELS / "tri-32b5c-s106.json"), 2)
    palette = game_palette(level, 1)
    img = game_shot(level, palette, row28=0.026 + slip, **SIZES[size])
    if readable:
        assert_read_back(level, palette, img)
    else:
        with pytest.raises(FormatError, match="triangles could not be placed"):
            level_from_image(img)


def test_a_board_two_pitches_above_the_anchor_is_read_as_the_board_it_shows():
    """The limit of the check above: drawn two pitches higher, rows 0 and 1 lie wholly above the picture
    and background shows below row 26, exactly as a level of that board with its last two rows empty
    would look (real levels have empty edge rows). Nothing in the picture tells the two apart, so it is
    read as the board it shows, cell for cell."""
    level = with_holes(load_level(LEVELS / "tri-32b5c-s106.json"), 2)
    palette = game_palette(level, 1)
    cells = dict(zip(level.labels, level.colours, strict=True))
    rows = ["".join(cells.get((r, c), HOLE) for c in range(10)) for r in range(2, 29)]
    shown = Level.from_rows(rows + [HOLE * 10] * 2, "triangle")
    assert_read_back(shown, palette, game_shot(level, palette, row28=0.026 - 2, **SIZES["750x1334"]))
