"""The command line starts light: importing it loads none of the heavy third-party packages that only
some commands need (OR-Tools and with it pandas, Dask, Playwright, Starlette, numpy); they are imported
where they are used (benchmarks/startup.py measures what that saves)."""

import subprocess
import sys

from tests.helpers import ROOT

HEAVY = ("ortools", "pandas", "numpy", "dask", "distributed", "playwright", "starlette", "uvicorn")


def loaded_after(statement: str) -> list[str]:
    code = f"import sys\n{statement}\nprint(' '.join(m for m in {HEAVY!r} if m in sys.modules))"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120,
                          check=True)
    return proc.stdout.split()


def test_importing_the_cli_loads_no_heavy_package() -> None:
    assert loaded_after("import kamicp.cli") == []


def test_the_heavy_packages_are_still_found_where_they_are_used() -> None:
    # the check above can fail: the engines' own imports load them
    assert "ortools" in loaded_after("import kamicp.prover.model")
    assert "starlette" in loaded_after("import kamicp.play.server")


def test_python_dash_m_runs_the_cli() -> None:
    proc = subprocess.run([sys.executable, "-m", "kamicp", "--help"], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0
    assert "solve" in proc.stdout and "katamino" in proc.stdout
