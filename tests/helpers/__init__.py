"""The tests' shared helpers, one package imported as `tests.helpers` (pytest puts the repository root on
sys.path through `pythonpath` in pyproject.toml; scripts outside pytest insert the root themselves).

This module holds the paths the tests read and the proven optima of tests/data; the submodules are
boards (random levels), oracle and count_oracle (exhaustive references on the rules engine alone),
boardsets (the strengthening tests' board sets), gamefiles (game-file examples), shots (synthetic game
screenshots) and pictures (pictures drawn and read back)."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent.parent
PUZZLES = ROOT / "puzzles"
DATA = ROOT / "tests" / "data"  # made by tests/data/make_data.py
LEVELS = DATA / "levels"
GAMES = DATA / "games"
HARD = ROOT / "benchmarks" / "levels"  # larger generated levels (benchmarks/generate.py)


def known_optima() -> dict[str, dict]:
    """tests/data/KNOWN.json: per level its regions, colours, optimum and the source that proved it."""
    return json.loads((DATA / "KNOWN.json").read_text())["levels"]


def bench_script(name: str) -> ModuleType:
    """benchmarks/NAME.py loaded as the module `bench_NAME` (registered in sys.modules: a script's worker
    processes find their functions by the module's name), for the tests that run a benchmark small."""
    spec = importlib.util.spec_from_file_location(f"bench_{name}", ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module
