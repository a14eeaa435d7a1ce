"""The optional extras (pyproject.toml's optional-dependencies): what each needs, and the one-line error,
with both install commands, when one is missing."""

from __future__ import annotations

from importlib import import_module

from kamicp.errors import UsageError

EXTRAS = {
    "dask": ("dask", "distributed"),  # validate --dask, solve --dask
    "play": ("starlette", "uvicorn"),  # kamicp play
}


class MissingExtra(UsageError):
    """An optional extra is not installed; the message says how to install it."""


def missing_extra(extra: str, what: str) -> MissingExtra:
    return MissingExtra(f"{what} needs the optional extra '{extra}': pip install 'kamicp[{extra}]' (in a checkout "
                        f"of kamicp: pip install -e '.[{extra}]')")


def require(extra: str, what: str) -> None:
    """Import the modules of `extra`, or raise MissingExtra naming `what` needs them."""
    for module in EXTRAS[extra]:
        try:
            import_module(module)
        except ImportError:
            raise missing_extra(extra, what) from None
