"""The JSON Schemas of kamicp's `--json` outputs (and of the proof in generated level files).

One versioned file, `output-v1.json` (JSON Schema 2020-12), holds every command's output under `$defs`
with the shapes they share (a move, a proof row, a solver result, the lower bound); `schema(name)` gives
one command's schema, ready for any validator. Version 1 is the vocabulary of issue 24: British
`colour` in every key, one proof row {steps, outcome, seconds, engine}. A change that removes or renames
a key is a new version (a new file), adding a key is not. A new command's output: add its `$defs` entry
and its name to `OUTPUTS`.

Part of the command line's face: it may import only the standard library.
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

VERSION = 1
__all__ = ["OUTPUTS", "VERSION", "schema"]

OUTPUTS = ("solve", "prove", "hint", "count", "info", "generate", "generated_proof", "validate", "report",
           "katamino", "katamino_book", "progress_line")


@cache
def _document() -> dict:
    return json.loads(files(__package__).joinpath(f"output-v{VERSION}.json").read_text(encoding="utf-8"))


def schema(name: str) -> dict:
    """The schema of one output (`OUTPUTS`): a reference into the document, with its `$defs`."""
    if name not in OUTPUTS:
        raise KeyError(f"no JSON schema for {name!r}; known: {', '.join(OUTPUTS)}")
    document = _document()
    return {"$schema": document["$schema"], "$id": document["$id"].replace(".json", f"/{name}.json"),
            "$defs": document["$defs"],
            "$ref": f"#/$defs/{name}"}
