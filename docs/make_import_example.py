"""Make docs/import-example.jpg: OUR synthetic game-style screenshot (tests/helpers/shots.py, never a real game
screenshot) beside the `--overlay` check picture kamicp draws for it.

    .venv/bin/python docs/make_import_example.py
"""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))  # the checkout's packages: kamicp, tests.helpers

from kamicp.formats import load_level  # noqa: E402
from kamicp.formats.screenshot import level_from_image  # noqa: E402
from kamicp.render.overlay import overlay_image  # noqa: E402
from tests.helpers.shots import game_palette, game_shot, with_holes  # noqa: E402


def main() -> None:
    level = with_holes(load_level(HERE.parent / "tests" / "data" / "levels" / "tri-20b4c-s103.json"), 0)
    shot = game_shot(level, game_palette(level, 0), par=6, size=(1242, 2208), out_size=(665, 1182), jpeg=85)
    report = level_from_image(shot).report
    check = overlay_image(shot, report.box, report.overlay_cells())
    height = 520
    pair = [im.resize((round(im.width * height / im.height), height), Image.Resampling.LANCZOS) for im in (shot, check)]
    out = Image.new("RGB", (pair[0].width * 2 + 12, height), (255, 255, 255))
    out.paste(pair[0], (0, 0))
    out.paste(pair[1], (pair[0].width + 12, 0))
    out.save(HERE / "import-example.jpg", quality=80)


if __name__ == "__main__":
    main()
