"""Make the README's example files (ours: levels kamicp generated, a synthetic screenshot drawn by the
tests' helper; never a publisher's level or screenshot). Run from the checkout:

    .venv/bin/python examples/make_examples.py

level.xml, level.puz     Kami 1 / Kami 2 game files (tests/data/games, made by tests/data/make_data.py)
bad.puz                  a corrupt .puz (a tile that is not two digits)
flood.txt                a square text grid for the Flood-It example
shot.jpg                 a synthetic game-style screenshot (tests/helpers/shots.py) of a tests/data level
pack/                    three small levels for `kamicp validate examples/pack/`
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))  # the checkout's packages: kamicp, tests.helpers

from kamicp.formats import load_level  # noqa: E402
from tests.helpers.shots import game_palette, game_shot, with_holes  # noqa: E402

FLOOD = """\
AABBCCAB
ABBCCAAB
CABBACCA
CCAABBAC
BCCAABBC
BBCCAACC
"""


def main() -> None:
    games = ROOT / "tests" / "data" / "games"
    shutil.copyfile(games / "squ-14b4c-s301.xml", HERE / "level.xml")
    shutil.copyfile(games / "tri-12b3c-s101.puz", HERE / "level.puz")
    good = (games / "tri-12b3c-s101.puz").read_text().split("|")
    tiles = next(k for k, field in enumerate(good) if field.startswith("0X"))
    good[tiles] = "0Xa1" + good[tiles][4:]  # the first tile: 'X' must be followed by two digits
    (HERE / "bad.puz").write_text("|".join(good))
    (HERE / "flood.txt").write_text(FLOOD)
    level = with_holes(load_level(ROOT / "tests" / "data" / "levels" / "tri-20b4c-s103.json"), 0)
    shot = game_shot(level, game_palette(level, 0), par=6, size=(1242, 2208), out_size=(665, 1182), jpeg=85)
    shot.save(HERE / "shot.jpg", quality=85)
    pack = HERE / "pack"
    pack.mkdir(exist_ok=True)
    for name in ("tri-8b3c-s100.json", "squ-8b3c-s300.json", "tri-20b4c-s103.json"):
        shutil.copyfile(ROOT / "tests" / "data" / "levels" / name, pack / name)


if __name__ == "__main__":
    main()
