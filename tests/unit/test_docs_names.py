"""Every name the architecture and library pages give resolves to something that exists: a dotted name
(`kamicp.prover.solver.solve`), a name of a file ("`prover/request.py`'s `Request`"), and the names listed
after a module ("`kamicp.packs` (`run_pack`, `PackStore`)"). The docs describe only what exists (issue 34)."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import kamicp

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "docs" / "architecture.md", ROOT / "docs" / "library.md"]

DOTTED = re.compile(r"`(kamicp(?:\.\w+)+)")  # `kamicp.a.b...`, maybe followed by (arguments) in the backticks
SHORT = re.compile(r"`([a-z_]+(?:\.[A-Za-z_]\w*)+)[`(]")  # `horizons.HorizonLoop(...)`: a module's last parts
FILES = {"py", "toml", "md", "json", "puz", "xml", "hpp", "cpp", "txt"}  # `setup.py`, `.puz`: files, not names
MODULES = ["kamicp", *(m.name for m in pkgutil.walk_packages(kamicp.__path__, "kamicp."))]
OF_FILE = re.compile(r"`(?:kamicp/)?([\w/]+)\.py`'s `(\w+)")  # `wing/module.py`'s `Name...` (or `module.py`'s)
LISTED = re.compile(r"`(kamicp(?:\.\w+)*)` \(((?:`\w+`(?:, )?)+)\)")  # `kamicp.module` (`a`, `b`)


def resolve(dotted: str) -> object:
    """The object a dotted name names: the longest importable module, then attributes (or submodules)."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ModuleNotFoundError:
            continue
        for k, name in enumerate(parts[cut:], start=cut):  # (a submodule not loaded yet: imported)
            obj = getattr(obj, name) if hasattr(obj, name) else importlib.import_module(".".join(parts[: k + 1]))
        return obj
    raise ModuleNotFoundError(dotted)


def resolve_short(short: str) -> object:
    """A name given from its module's last parts (`horizons.prepare`, `floodit.solver.PivotEngines`): the
    first module of the package it resolves in."""
    parts = short.split(".")
    for k in range(len(parts) - 1, 0, -1):
        head = ".".join(parts[:k])
        for module in (m for m in MODULES if m == f"kamicp.{head}" or m.endswith(f".{head}")):
            try:
                return resolve(".".join([module, *parts[k:]]))
            except (ImportError, AttributeError):
                continue
    raise AttributeError(short)


def names(page: Path) -> list[str]:
    text = page.read_text()
    found = [m.group(1) for m in DOTTED.finditer(text)]
    found += [f"{m.group(1).replace('/', '.')}.{m.group(2)}" for m in OF_FILE.finditer(text)]  # (a wing's path)
    for m in LISTED.finditer(text):
        found += [f"{m.group(1)}.{name}" for name in re.findall(r"`(\w+)`", m.group(2))]
    found += [m.group(1) for m in SHORT.finditer(text)
              if m.group(1).split(".")[-1] not in FILES and not m.group(1).startswith("kamicp.")]
    return sorted(set(found))


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_name_the_docs_give_exists(page: Path) -> None:
    given = names(page)
    assert len(given) >= 10  # (the patterns still find the page's names)
    missing = []
    for name in given:
        try:
            resolve(name) if name.startswith("kamicp.") else resolve_short(name)
        except (ImportError, AttributeError):
            missing.append(name)
    assert not missing, f"{page.name} names what does not exist: {missing}"


def test_a_name_that_does_not_exist_is_found_missing() -> None:
    assert resolve("kamicp.prover.request.Request") and resolve_short("horizons.HorizonLoop")
    with pytest.raises(AttributeError):
        resolve_short("horizons.NoSuchLoop")
    with pytest.raises((ImportError, AttributeError)):
        resolve("kamicp.prover.request.NoSuchThing")
    with pytest.raises((ImportError, AttributeError)):
        resolve("kamicp.prover.no_such_module.Name")
