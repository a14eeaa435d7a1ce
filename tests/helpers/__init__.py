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


def wait_for_cpu(pid: int, seconds: float, timeout: float = 120.0) -> bool:
    """Wait until process `pid` has used `seconds` of CPU (its threads included; /proc on Linux), so that a
    signal sent next finds it at work, past its imports, however loaded the machine is. False on timeout or
    when the process ended."""
    import os
    import time

    ticks = os.sysconf("SC_CLK_TCK")
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return False
        if (int(fields[11]) + int(fields[12])) / ticks >= seconds:  # utime, stime
            return True
        time.sleep(0.1)
    return False
