"""The live progress of solve and prove: one rich line on stderr (a terminal only) and the `--progress-json`
stream, both made from the prover's snapshots (kamicp.prover.watch); the last snapshot goes into `--json`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import IO, Annotated

import typer
from rich.text import Text

from kamicp.cli.console import err
from kamicp.cli.plans import duration
from kamicp.errors import FormatError
from kamicp.prover.watch import Snapshot
from kamicp.render.safe import printable
from kamicp.runtime.atomic import check_target

ProgressJsonOpt = Annotated[Path | None, typer.Option(
    "--progress-json", metavar="FILE", help="Write a JSON snapshot of the progress (proven bounds, the horizon "
    "being refuted, the search's rate) to FILE about once a second and at every change, one per line, the last "
    "when the solve ends (for `tail -f`).")]

STREAM_PERIOD = 1.0  # a stream line in each second of the run, besides those at a change
PROGRESS_KEYS = ("elapsed", "lower", "upper", "horizon", "engine", "nodes", "rate")  # --json's `progress`


def check_stream(path: Path, *, force: bool) -> None:
    """Refuse (FormatError) a `--progress-json` path before any work: a directory, a file that exists (without
    `force`), something not a regular file, or a missing folder."""
    folder = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise FormatError("is a directory, not a file for the progress stream", source=str(path))
    if not folder.is_dir():
        what = "is not a folder" if folder.exists() else "does not exist"
        raise FormatError(f"cannot write: the folder {folder} {what}", source=str(path))
    check_target(path, overwrite=force, what="the progress stream")


def rate_text(rate: float) -> str:
    """1234567 -> '1.2M'."""
    for unit, size in (("G", 1e9), ("M", 1e6), ("k", 1e3)):
        if rate >= size:
            return f"{rate / size:.1f}{unit}"
    return f"{rate:.0f}"


def snapshot_line(snap: Snapshot) -> str:
    """The live line: '12.3 s · bounds 11..13 · refuting 12 (search, 1.2M nodes/s) · best plan 13'."""
    bounds = f"bounds {snap.lower}..{snap.upper}" if snap.upper is not None else f"lower bound {snap.lower}"
    parts = [f"{snap.elapsed:.1f} s", bounds]
    if snap.horizon is not None:
        how = str(snap.engine)
        if snap.rate is not None:
            how += f", {rate_text(snap.rate)} nodes/s"
        if snap.cubes_total:
            answered = f"{snap.cubes_done}/{snap.cubes_total}"
            how = f"cubes {answered}" if how == "cubes" else f"{how}, cubes {answered}"
        parts.append(f"refuting {snap.horizon} ({how})")
    elif snap.phase == "prepare":
        parts.append("bounding")
    elif snap.phase == "cubes":  # (the long proof's own bound and plan, before its first horizon)
        parts.append("preparing the cubes")
    if snap.estimate is not None:  # (before the plan: a narrow terminal cuts the line's end)
        parts.append(f"estimate {duration(snap.estimate.seconds)} for {snap.estimate.horizon} (not a bound)")
    parts.append(f"best plan {snap.upper}" if snap.upper is not None else "no plan yet")
    return " · ".join(parts)


class Follow:
    """What the solve's snapshots go to: the live line, the stream file; `last` is the latest snapshot."""

    def __init__(self, status: object | None, stream: IO[str] | None) -> None:
        self.status, self.stream = status, stream
        self.last: Snapshot | None = None
        self._written: tuple | None = None  # (the facts of the last line written, its elapsed)
        self._last_written: Snapshot | None = None
        self.failed: str | None = None  # why the stream stopped

    def watch(self, snap: Snapshot) -> None:
        self.last = snap
        if self.status is not None:
            self.status.update(Text(printable(snapshot_line(snap))))  # type: ignore[attr-defined]
        if self.stream is not None:
            self._write(snap)

    def progress(self, message: str) -> None:
        """A line of the rules without snapshots (Flood-It), or of the work after the solve (count's): shown
        while no solve is being watched."""
        if self.status is not None and (self.last is None or self.last.phase == "done"):
            self.status.update(Text(printable(message)))  # type: ignore[attr-defined]

    def _write(self, snap: Snapshot, final: bool = False) -> None:
        facts = (snap.phase, snap.lower, snap.upper, snap.horizon, snap.engine)
        if not final and self._written is not None and self._written[0] == facts and (
                snap.elapsed // STREAM_PERIOD == self._written[1] // STREAM_PERIOD):
            return  # (nothing changed, and this second of the run has its line: samples come twice a second)
        assert self.stream is not None
        try:
            self.stream.write(json.dumps(snap.to_dict()) + "\n")
        except OSError as e:  # (a full disk stops the stream, not the solve: said once it ends)
            self.stream, self.failed = None, str(e.strerror or e)
            return
        self._written = (facts, snap.elapsed)
        self._last_written = snap

    def close(self) -> None:
        """The last snapshot into the stream when it was not written (an interrupted solve ends with it)."""
        if self.stream is not None and self.last is not None and self.last is not self._last_written:
            self._write(self.last, final=True)

    def facts(self) -> dict | None:
        """`--json`'s `progress`: the last snapshot's facts (None without one)."""
        if self.last is None:
            return None
        data = self.last.to_dict()
        return {k: data[k] for k in PROGRESS_KEYS}


@contextmanager
def following(live: bool, stream: Path | None, *, force: bool = False) -> Iterator[Follow]:
    """The live line on stderr (when `live` and stderr is a terminal) and the stream file (line-buffered, so
    each snapshot is in the file when written), for one solve. A stream that fails midway is closed and
    said in one line on stderr when the solve ends (its answer is still printed)."""
    with ExitStack() as stack:
        status = stack.enter_context(err.status("solving")) if live and err.is_terminal else None
        handle = None
        if stream is not None:
            try:
                if force and stream.is_symlink():
                    stream.unlink()  # (the link is replaced by the file, never written through: runtime.atomic)
                handle = stack.enter_context(open(stream, "w" if force else "x", buffering=1, encoding="utf-8"))
            except OSError as e:
                raise FormatError(f"cannot write: {e.strerror or e}", source=str(stream)) from None
        follow = Follow(status, handle)
        try:
            yield follow
        finally:
            follow.close()
            if follow.failed is not None:
                err.print(f"warning: {printable(stream)}: the progress stream stopped: {printable(follow.failed)}",
                          markup=False, soft_wrap=True)
