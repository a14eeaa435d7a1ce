"""The package's wings (docs/architecture.md): import-linter's contracts in pyproject.toml hold (no arrow
from a lower wing to a higher one, nothing at the root outside the wings, no import circle inside a wing),
and no module imports another module's private name."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from importlinter.cli import lint_imports

ROOT = Path(__file__).resolve().parents[2]


def lint(config: Path) -> int:
    return lint_imports(config_filename=str(config), no_cache=True, no_logo=True)


def test_the_wings_contracts_hold():
    assert lint(ROOT / "pyproject.toml") == 0


def test_the_checker_sees_an_arrow_against_the_grain(tmp_path, monkeypatch):
    # the same graph with two wings swapped must break: the contract reads the real imports
    config = tmp_path / "swapped.toml"
    config.write_text('[tool.importlinter]\nroot_package = "kamicp"\n\n[[tool.importlinter.contracts]]\n'
                      'name = "swapped"\ntype = "layers"\ncontainers = ["kamicp"]\nlayers = ["errors", "cli"]\n')
    monkeypatch.chdir(tmp_path)
    assert lint(config) == 1


def test_the_packs_skip_flood_it_and_katamino_skips_the_prover():
    """Two arrows the wings alone allow are forbidden: the packs name their rules through the rulebook, and
    Katamino takes its clock and its interrupt from the runtime (issue 34)."""
    import tomllib

    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    forbidden = {(c["source_modules"][0], c["forbidden_modules"][0]) for c in contracts if c["type"] == "forbidden"}
    assert {("kamicp.packs", "kamicp.floodit"), ("kamicp.katamino", "kamicp.prover")} <= forbidden


def test_a_forbidden_contract_sees_a_real_arrow(tmp_path, monkeypatch):
    config = tmp_path / "forbidden.toml"
    config.write_text('[tool.importlinter]\nroot_package = "kamicp"\n\n[[tool.importlinter.contracts]]\n'
                      'name = "no rulebook"\ntype = "forbidden"\nsource_modules = ["kamicp.packs"]\n'
                      'forbidden_modules = ["kamicp.rulebook"]\n')
    monkeypatch.chdir(tmp_path)
    assert lint(config) == 1


def private_imports(path: Path) -> list[str]:
    """`from kamicp.x import _name` lines: a private name used outside its module (the compiled core,
    `kamicp._fastsearch`, is the package's own extension module)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("kamicp"):
            for alias in node.names:
                if alias.name.startswith("_") and not alias.name.startswith("__") and alias.name != "_fastsearch":
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.module}.{alias.name}")
    return found


@pytest.mark.parametrize("folder", ["kamicp", "tests", "benchmarks"])
def test_no_private_name_is_imported(folder):
    found = [hit for path in sorted((ROOT / folder).rglob("*.py")) if ".venv" not in path.parts
             for hit in private_imports(path)]
    assert found == []
