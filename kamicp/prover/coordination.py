"""What the horizon loop and the CP-SAT engine may ask of the processes around them, and the no-op answer.

The horizon loop (kamicp.prover.horizons) knows nothing of processes: it asks a `Coordinator` whether another
engine has proven a horizon, publishes its own proofs, and shares first-move cubes through it. Alone
(`Solo`), nobody else proves anything and the cubes are taken in turn; in the `auto` race the shared
`race.Ledger` implements the same protocol across processes.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol

from kamicp.prover.outcome import Horizon
from kamicp.runtime import interrupt


class SharedProofs(Protocol):
    """What the horizon loop asks: the other engines' proofs, its own to publish, and the race's hand-over
    (see race.Ledger for the race's meaning)."""

    racing: bool  # another engine works on the same level (the loop may go top-down, hand over, ...)

    def proven(self, steps: int) -> Horizon | None: ...
    def proven_from(self, steps: int) -> Horizon | None: ...
    def publish(self, horizon: Horizon) -> None: ...
    def stopper(self, steps: int) -> Callable[[], bool] | None: ...
    def attach(self, search: object) -> None: ...
    def search_started(self, steps: int) -> None: ...
    def halted(self, steps: int) -> bool: ...
    def cubing_above(self, steps: int) -> int | None: ...
    def any_solved(self, steps: int, parts: int) -> bool: ...


class SharedCubes(Protocol):
    """What the CP-SAT engine asks: the first-move cubes of a horizon, claimed, answered and helped with."""

    def helps(self, regions: int) -> bool: ...
    def nudge(self, steps: int, below: bool = False) -> None: ...
    def cubing(self, steps: int) -> bool: ...
    def claim(self, steps: int, parts: int) -> int | None: ...
    def refuted(self, steps: int, part: int) -> None: ...
    def solved(self, steps: int, part: int) -> None: ...
    def finished(self, steps: int, part: int) -> bool: ...
    def unfinished(self, steps: int, parts: int, after: int = -1) -> int | None: ...
    def any_solved(self, steps: int, parts: int) -> bool: ...
    def all_refuted(self, steps: int, parts: int) -> bool: ...


class Coordinator(SharedProofs, SharedCubes, Protocol):
    """Both sides: what `Solo` and the race's ledger implement."""


class Solo:
    """One engine alone: no other proofs, nothing to stop, cubes handed out in turn."""

    racing = False

    def __init__(self) -> None:
        self._parts: dict[tuple[int, int], str] = {}  # (horizon, part) -> "taken" / "refuted" / "solved"

    def proven(self, steps: int) -> Horizon | None:
        return None

    def proven_from(self, steps: int) -> Horizon | None:
        return None

    def publish(self, horizon: Horizon) -> None:
        pass

    def stopper(self, steps: int) -> Callable[[], bool] | None:
        return None

    def attach(self, search: object) -> None:
        """Let the interrupt stop the compiled search (kamicp.runtime.interrupt.attach)."""
        interrupt.attach(search)

    def search_started(self, steps: int) -> None:
        pass

    def halted(self, steps: int) -> bool:
        return False

    def helps(self, regions: int) -> bool:
        return False

    def nudge(self, steps: int, below: bool = False) -> None:
        pass

    def cubing(self, steps: int) -> bool:
        return False  # (alone, a horizon is never met again with its cubes started)

    def cubing_above(self, steps: int) -> int | None:
        return None

    def claim(self, steps: int, parts: int) -> int | None:
        part = next((p for p in range(parts) if (steps, p) not in self._parts), None)
        if part is not None:
            self._parts[steps, part] = "taken"
        return part

    def refuted(self, steps: int, part: int) -> None:
        self._parts[steps, part] = "refuted"

    def solved(self, steps: int, part: int) -> None:
        self._parts[steps, part] = "solved"

    def finished(self, steps: int, part: int) -> bool:
        return self._parts.get((steps, part)) in ("refuted", "solved")

    def unfinished(self, steps: int, parts: int, after: int = -1) -> int | None:
        return None  # (alone, a taken part is always being solved by this engine)

    def any_solved(self, steps: int, parts: int) -> bool:
        return any(self._parts.get((steps, p)) == "solved" for p in range(parts))

    def all_refuted(self, steps: int, parts: int) -> bool:
        return all(self._parts.get((steps, p)) == "refuted" for p in range(parts))
