"""Designers' packs: validate many levels in parallel (local processes or Dask), resumably.

- `discover(paths)`: level files from files, folders and glob patterns (every format kamicp reads).
- `load_pack(files, ...)`: each file read into a `Loaded` (a level, or the error that stopped it).
- `run_pack(loaded, settings, ...)`: each level validated in its own process; answered rows go to a
  `Store` (SQLite) one by one, so an interrupted run loses nothing already answered.
- `summarize(rows)`, `outcome(rows)` (worst wins), `to_json/to_csv/to_markdown(rows)`: the pack report.
"""

from kamicp.packs.discover import LEVEL_SUFFIXES, discover
from kamicp.packs.report import Outcome, Summary, outcome, proof_text, summarize, to_csv, to_json, to_markdown
from kamicp.packs.rows import Loaded, PackSettings, Row, Verdict, level_hash
from kamicp.packs.runner import load_pack, run_pack
from kamicp.packs.store import Store

__all__ = [
    "LEVEL_SUFFIXES", "Loaded", "Outcome", "PackSettings", "Row", "Store", "Summary", "Verdict", "discover",
    "level_hash", "load_pack", "outcome", "proof_text", "run_pack", "summarize", "to_csv", "to_json", "to_markdown",
]
