"""A face: the kamicp command line, a thin layer over the library that parses, prints and picks exit codes.

`app` (the one typer app and its error handling), `exits` (the codes), `console` (what commands print,
one-line errors), `pipes`, `signals`, `help` and `options` are shared by the commands; each other module
registers its commands on `app`, and importing them here builds the whole command line. A new command
goes in its own module, added to the list below. May import everything (it is a face); it loads none of
the heavy packages at start-up (tests/unit/test_startup.py).
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
