"""The plain data of a pack: its settings, each level as loaded, and each level's answer (a Row)."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, fields
from pathlib import Path

from kamicp.board.level import Level
from kamicp.prover.outcome import Verdict
from kamicp.prover.solver import Validation

WRONG = (Verdict.NOT_MINIMAL, Verdict.UNACHIEVABLE)


@dataclass(frozen=True)
class PackSettings:
    """What each level is validated with. Everything except `memory_mb` changes the answer, so it is
    part of the store's key (`key()`); `memory_mb` caps each level's process (RLIMIT_AS)."""

    par: int | None = None
    slack: int = 2
    time_limit: float | None = None
    engine: str = "auto"
    workers: int | None = 1
    seed: int = 0
    memory_mb: int | None = 2048
    rules: str = "free"  # "free" (Kami) or "pivot" (Flood-It)
    pivot: str | None = None  # --rules pivot: the pivot as given (ROW,COL or a node id; None: top-left)

    def key(self) -> str:
        data = asdict(self)
        del data["memory_mb"]
        if self.rules == "free":  # the key stores made before the rules setting existed
            del data["rules"], data["pivot"]
        return json.dumps(data, sort_keys=True)


# Settings that change how fast an answer comes, never what a proof says (see `question`).
PERFORMANCE = ("time_limit", "engine", "workers", "seed")


def _settings(key: str) -> dict | None:
    try:
        data = json.loads(key)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def question(settings: str) -> str:
    """The question a settings key (`PackSettings.key()`) asks, without what only changes how fast it is
    answered: two runs with the same question have the same proofs."""
    data = _settings(settings)
    if data is None:
        return settings
    return json.dumps({k: v for k, v in data.items() if k not in PERFORMANCE}, sort_keys=True)


def game(settings: str) -> str:
    """The game a settings key plays: 'free' (Kami), or Flood-It's rules with the pivot as given."""
    data = _settings(settings)
    return settings if data is None else json.dumps([data.get("rules", "free"), data.get("pivot")])


@dataclass(frozen=True)
class Loaded:
    """One file of a pack, read: its level, or the one-line error that stopped it."""

    path: str
    level: Level | None
    error: str = ""


@dataclass(frozen=True)
class Row:
    """One level's line of the pack report. `proof` holds (steps, outcome, engine) per horizon, as in
    `Result.proof_by_horizon()`; `result` is `Result.to_dict(level)` (None when there is no answer)."""

    path: str
    level: str  # the level's name
    level_hash: str
    verdict: Verdict
    par: int | None = None
    optimum: int | None = None
    lower: int | None = None
    upper: int | None = None
    max_steps: int | None = None
    seconds: float = 0.0
    proof: tuple[tuple[int, str, str], ...] = ()
    error: str = ""
    result: dict | None = None
    settings: str = ""

    def to_dict(self) -> dict:
        data = {f.name: getattr(self, f.name) for f in fields(self)}  # (shallow: asdict copies every result)
        data["verdict"] = str(self.verdict)
        data["proof"] = [list(p) for p in self.proof]
        return data

    def to_json(self) -> dict:
        """The row as `validate --json` and `report --json` print it: `to_dict` with the proof in the one
        proof-row shape of every output, {steps, outcome, seconds, engine} (seconds from the full result)."""
        full = (self.result or {}).get("proof", [])
        timed = {(p["steps"], p["outcome"], p["engine"]): p["seconds"] for p in full}
        proof = [{"steps": s, "outcome": o, "seconds": timed.get((s, o, e), 0.0), "engine": e}
                 for s, o, e in self.proof]
        return {**self.to_dict(), "proof": proof}

    @classmethod
    def from_dict(cls, data: dict) -> Row:
        """A row from the store (`to_dict`) or from the JSON output (`to_json`: proof rows as dicts)."""
        proof = tuple((p["steps"], p["outcome"], p["engine"]) if isinstance(p, dict) else tuple(p)
                      for p in data["proof"])
        return cls(**{**data, "verdict": Verdict(data["verdict"]), "proof": proof})


def row_from_validation(loaded: Loaded, key: str, check: Validation, settings: PackSettings) -> Row:
    r = check.result
    assert loaded.level is not None
    return Row(
        path=loaded.path, level=check.level or Path(loaded.path).stem, level_hash=key,
        verdict=Verdict(check.verdict), par=check.par, optimum=check.optimum, lower=r.lower_bound,
        upper=r.upper_bound, max_steps=r.max_steps, seconds=r.seconds,
        proof=tuple((h.steps, str(h.outcome), str(h.engine)) for h in r.proof_by_horizon()),
        result=r.to_dict(loaded.level), settings=settings.key(),
    )


def error_row(loaded: Loaded, key: str, verdict: Verdict, error: str, settings: PackSettings,
              seconds: float = 0.0) -> Row:
    level = loaded.level
    name = (level.name if level is not None else "") or Path(loaded.path).stem
    par = settings.par if settings.par is not None else (level.par if level is not None else None)
    return Row(path=loaded.path, level=name, level_hash=key, verdict=verdict, par=par, error=error,
               seconds=seconds, settings=settings.key())
