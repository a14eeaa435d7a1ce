"""The packs wing: designers' packs of levels validated in parallel (local processes or Dask), resumably,
and their report.

- `discover(paths)`: level files from files, folders and glob patterns (every format kamicp reads).
- `load_pack(files, ...)`: each file read into a `Loaded` (a level, or the error that stopped it).
- `run_pack(loaded, settings, ...)`: each level validated in its own process; answered rows go to a
  `PackStore` (the SQLite results store of kamicp.runtime.store) one by one, so an interrupted run loses
  nothing already answered.
- `summarize(rows)`, `pack_outcome(rows)` (worst wins), `json_rows(rows)` (dicts),
  `to_json/to_csv/to_markdown(rows)`: the pack report.

May import: the designer tools and everything below them (the prover, the siblings, formats, pictures,
the board, the runtime, the foundations); never the faces (cli, play). What proofs share with packs (the
store, level hashing, connecting to Dask) lives in the runtime and the board, so the prover never
imports packs.
"""

from kamicp.packs.discover import LEVEL_SUFFIXES, discover
from kamicp.packs.report import (
    PackOutcome,
    Summary,
    json_rows,
    pack_outcome,
    proof_text,
    summarize,
    to_csv,
    to_json,
    to_markdown,
)
from kamicp.packs.results import PackStore
from kamicp.packs.rows import Loaded, PackSettings, Row
from kamicp.packs.runner import load_pack, run_pack
from kamicp.prover.outcome import Verdict

__all__ = [
    "LEVEL_SUFFIXES", "Loaded", "PackOutcome", "PackSettings", "PackStore", "Row", "Summary", "Verdict", "discover",
    "json_rows", "load_pack", "pack_outcome", "proof_text", "run_pack", "summarize", "to_csv", "to_json", "to_markdown",
]
