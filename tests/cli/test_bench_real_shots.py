"""benchmarks/real_shots.py scores a folder of screenshots against a truth file: run here on synthetic game
screenshots of our own (the real ones are never read by a test), it finds every board and par and counts
a wrong truth as wrong."""

from __future__ import annotations

import json

from kamicp import load_level
from tests.helpers import LEVELS, bench_script
from tests.helpers.shots import game_palette, game_shot, with_holes


def truth_rows(level, palette: dict[str, str]) -> list[str]:
    """The board in the truth file's keys: A the first swatch, B the second, ..., '.' a hole."""
    key = {k: "ABCDEFGHIJ"[n] for n, k in enumerate(palette)}
    colour = dict(zip(level.labels, level.colours, strict=True))
    return ["".join(key[colour[(r, c)]] if (r, c) in colour else "." for c in range(10)) for r in range(29)]


def test_real_shots_benchmark_scores_a_folder_against_its_truth(tmp_path):
    shots = []
    for k, name in enumerate(["tri-8b3c-s100", "tri-20b4c-s103"]):
        level = with_holes(load_level(LEVELS / f"{name}.json"), k)
        palette = game_palette(level, k)
        game_shot(level, palette, par=4 + k, seed=k, jpeg=90).save(tmp_path / f"shot-{k}.jpg")
        shots.append({"file": f"shot-{k}.jpg", "par": 4 + k, "colours": len(palette),
                      "rows": truth_rows(level, palette)})
    shots[1]["rows"][3] = "." * 10  # a truth the picture does not show: not exact
    (tmp_path / "truth.json").write_text(json.dumps({"shots": shots}))
    out = tmp_path / "real"
    bench_script("real_shots").app([str(tmp_path), "--out", str(out)], standalone_mode=False)
    rows = json.loads(out.with_suffix(".json").read_text())["rows"]
    assert [r["exact"] for r in rows] == [True, False] and rows[1]["right"] < 290
    assert [r["colours"] for r in rows] == [r["colours_true"] for r in rows]
    assert "1/2 exact boards" in out.with_suffix(".md").read_text()
