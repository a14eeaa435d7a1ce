"""The pack report as data and text: the summary, the pack's outcome, and JSON / CSV / Markdown tables."""

from __future__ import annotations

import csv
import io
import json
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from kamicp.packs.rows import WRONG, Row
from kamicp.prover.outcome import Verdict
from kamicp.runtime.text import cut

COLUMNS = ("level", "file", "par", "rules", "optimum", "bounds", "verdict", "seconds", "proof", "settings", "error")


class PackOutcome(StrEnum):
    """The pack's outcome (not a horizon's `outcome.Outcome`); the worst row wins, in this order: bad input,
    unknown, par wrong, all correct.
    (An unknown or crashed level leaves the pack unchecked, which matters more than a par found wrong:
    the run must be repeated; a par found wrong is reported either way in the table.)"""

    CORRECT = "correct"
    WRONG = "wrong"
    UNKNOWN = "unknown"
    BAD_INPUT = "bad-input"


@dataclass(frozen=True)
class Summary:
    levels: int
    correct: int
    beatable: int  # not-minimal: a shorter solution exists
    unachievable: int
    unknown: int
    errors: int  # crashed, out of memory, overran
    bad_input: int
    skipped: int = 0  # answered by the store (--resume)

    def line(self) -> str:
        """'412 levels: 398 par correct, 9 par beatable, 5 unknown' (zero counts left out)."""
        parts = [f"{self.correct} par correct"]
        for count, words in ((self.beatable, "par beatable"), (self.unachievable, "par unachievable"),
                             (self.unknown, "unknown"), (self.errors, "failed"), (self.bad_input, "bad input")):
            if count:
                parts.append(f"{count} {words}")
        tail = f" ({self.skipped} answered before, from the store)" if self.skipped else ""
        return f"{self.levels} level{'s' if self.levels != 1 else ''}: {', '.join(parts)}{tail}"


def summarize(rows: Sequence[Row], skipped: int = 0) -> Summary:
    n = Counter(r.verdict for r in rows)
    return Summary(len(rows), n[Verdict.CORRECT], n[Verdict.NOT_MINIMAL], n[Verdict.UNACHIEVABLE],
                   n[Verdict.UNKNOWN], n[Verdict.ERROR], n[Verdict.BAD_INPUT], skipped)


def pack_outcome(rows: Sequence[Row]) -> PackOutcome:
    verdicts = {r.verdict for r in rows}
    if Verdict.BAD_INPUT in verdicts:
        return PackOutcome.BAD_INPUT
    if verdicts & {Verdict.UNKNOWN, Verdict.ERROR}:
        return PackOutcome.UNKNOWN
    if verdicts & set(WRONG):
        return PackOutcome.WRONG
    return PackOutcome.CORRECT


def _span(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}-{hi}"


def proof_text(row: Row) -> str:
    """The engine of each proof step, runs of horizons grouped: '≤3 bound, 4-5 search, 6 greedy'.
    Refuted horizons name the engine that refuted them; the solved one (marked ✓) the engine that solved it;
    a '?' marks a horizon left unknown."""
    parts: list[str] = []
    groups: list[list] = []  # [first, last, outcome kind, engine]
    for steps, outcome_, engine in row.proof:
        kind = {"feasible": "✓", "unknown": "?"}.get(outcome_, "")
        if outcome_ == "bound":
            engine = "bound"
        if groups and groups[-1][2:] == [kind, engine] and groups[-1][1] == steps - 1 and not kind:
            groups[-1][1] = steps
        else:
            groups.append([steps, steps, kind, engine])
    for lo, hi, kind, engine in groups:
        span = f"≤{hi}" if engine == "bound" else _span(lo, hi)
        parts.append(f"{span} {engine}{kind}")
    return ", ".join(parts)


def rules_text(row: Row) -> str:
    """'free' (Kami), or 'pivot (2, 3)' (Flood-It) with the pivot cell used ('pivot 2,3' as given when the
    level was not solved, 'pivot top-left' for the default)."""
    settings = json.loads(row.settings) if row.settings else {}
    if settings.get("rules", "free") == "free":
        return "free"
    used = (row.result or {}).get("pivot")
    if isinstance(used, list):
        return f"pivot ({used[0]}, {used[1]})"
    if used is not None:
        return f"pivot {used}"
    return f"pivot {cut(str(settings.get('pivot') or 'top-left'), 20)}"


def _number(value: float) -> str:
    return f"{value:g}"


def settings_text(row: Row) -> str:
    """The settings that produced a row, briefly: the engine and the time limit ('auto, 30 s', 'cpsat, no
    limit'), then what differs from validate's defaults ('--par 5', 'slack 3', 'seed 7', '4 workers')."""
    try:
        data = json.loads(row.settings) if row.settings else {}
    except ValueError:
        return cut(row.settings, 40)
    if not isinstance(data, dict):
        return ""
    limit = data.get("time_limit")
    parts = [str(data.get("engine", "auto")), "no limit" if limit is None else f"{_number(limit)} s"]
    if data.get("par") is not None:
        parts.append(f"--par {data['par']}")
    for key, default, label in (("slack", 2, "slack {}"), ("seed", 0, "seed {}"), ("workers", 1, "{} workers")):
        if data.get(key, default) not in (default, None):
            parts.append(label.format(data[key]))
    return ", ".join(parts)


def optimum_text(row: Row) -> str:
    if row.optimum is not None:
        return str(row.optimum)
    if _none_within_steps(row):
        return f"> {row.max_steps}"
    return "?" if row.verdict.answered else ""


def bounds_text(row: Row) -> str:
    return "" if row.lower is None else _interval(row.lower, row.upper)


def range_text(row: Row) -> str:
    """The optimum, or where it lies when it is not proven, for the terminal table: '6'; '5..7' (an
    unknown's bounds); '3..3' or '5..' when no solution is within par + slack (at least one move more);
    '> 4' when nothing else is known."""
    if row.optimum is not None or row.lower is None:
        return optimum_text(row)
    lower = row.lower
    if _none_within_steps(row) and row.max_steps is not None:
        lower = max(lower, row.max_steps + 1)
    return _interval(lower, row.upper)


def _none_within_steps(row: Row) -> bool:
    """The run found no solution within its step limit (par + slack)."""
    return row.result is not None and row.result.get("status") == "no-solution"


def _interval(lower: int, upper: int | None) -> str:
    return f"{lower}..{'' if upper is None else upper}"


def table_rows(rows: Sequence[Row]) -> list[dict[str, str]]:
    """Each row as the report's text cells, by COLUMNS."""
    return [{"level": r.level, "file": r.path, "par": "" if r.par is None else str(r.par),
             "rules": rules_text(r), "optimum": optimum_text(r), "bounds": bounds_text(r), "verdict": str(r.verdict),
             "seconds": f"{r.seconds:.2f}", "proof": proof_text(r), "settings": settings_text(r), "error": r.error}
            for r in rows]


def json_rows(rows: Sequence[Row]) -> list[dict]:
    """A dict per level (Row.to_json: level, path, par, verdict, optimum, bounds, ..., result)."""
    return [r.to_json() for r in rows]


def to_json(rows: Sequence[Row]) -> str:
    """The list of `json_rows`, as text."""
    return json.dumps(json_rows(rows), indent=2)


def to_csv(rows: Sequence[Row]) -> str:
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=COLUMNS, lineterminator="\n")
    writer.writeheader()
    writer.writerows({k: _csv_cell(v) for k, v in cells.items()} for cells in table_rows(rows))
    return buf.getvalue()


FORMULA_START = ("=", "+", "-", "@", "\t", "\r")  # what a spreadsheet runs as a formula (OWASP's CSV list)


def _csv_cell(cell: str) -> str:
    """A cell a spreadsheet shows as text, never runs: a level name `=HYPERLINK(...)` gets a leading '."""
    return "'" + cell if cell.startswith(FORMULA_START) else cell


def _md(cell: str) -> str:
    return cell.replace("|", "\\|").replace("\n", " ")


def to_markdown(rows: Sequence[Row]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "|".join("---:" if c in ("par", "optimum", "seconds")
                                                              else "---" for c in COLUMNS) + "|"]
    lines += ["| " + " | ".join(_md(cells[c]) for c in COLUMNS) + " |" for cells in table_rows(rows)]
    return "\n".join([*lines, "", summarize(rows).line()]) + "\n"
