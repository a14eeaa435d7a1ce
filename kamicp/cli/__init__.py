"""The kamicp command line: a thin layer over the library that prints and picks exit codes.

Each module registers its commands on the one typer `app` (kamicp.cli.app); importing them here
builds the whole command line. A new command goes in its own module, added to the list below.
"""

from kamicp.cli import solving  # noqa: F401, I001 - registers the commands, in the order of --help
from kamicp.cli import packs  # noqa: F401, I001
from kamicp.cli import levels  # noqa: F401, I001
from kamicp.cli import importing  # noqa: F401, I001
from kamicp.cli import play  # noqa: F401, I001
from kamicp.cli import designer  # noqa: F401, I001
from kamicp.cli import katamino  # noqa: F401, I001
from kamicp.cli.app import app

__all__ = ["app", "main"]


def main() -> None:  # pragma: no cover - entry point
    app()
