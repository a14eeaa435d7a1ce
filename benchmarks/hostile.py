"""Hostile input, measured: each case of the hardening issue run through the installed `kamicp` script,
with its exit code, stderr lines, wall time and peak memory, as a Markdown table and JSON.

    .venv/bin/python benchmarks/hostile.py [--out benchmarks/results/hostile] [--no-unbounded]

The PNG case also runs with the pixel limit lifted (KAMICP_MAX_PIXELS=10^12, the drawing before the
limit) in the same run, so the two compare as a ratio. `--no-unbounded` skips that variant (it needs
about 2 GB).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Annotated

import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import RESULTS, Out, command_line, write  # noqa: E402

SCRIPT = Path(sys.executable).with_name("kamicp")
HUGE = "9" * 5000
TINY_PUZ = "01|Default|0|0|2|8|12201122|{par}||0|1B1C"
TINY_XML = '<PuzzleData name="t" width="{w}" height="2" colours="123111" gold="2"/>'

app = typer.Typer(add_completion=False)


@dataclass(frozen=True)
class Case:
    name: str
    args: list[str]
    env: dict[str, str]


@dataclass(frozen=True)
class Record:
    case: str
    command: str
    exit_code: int
    stderr_lines: int
    first_line: str
    seconds: float
    peak_mb: float


def make_files(d: Path) -> dict[str, Path]:
    """The issue's hostile files, written into `d`."""
    files = {
        "par.json": '{"geometry": "square", "rows": ["AB"], "par": ' + HUGE + "}",
        "par.puz": TINY_PUZ.format(par=HUGE),
        "width.xml": TINY_XML.format(w=HUGE),
        "deep.json": "[" * 100_000 + "]" * 100_000,
        "markup.json": json.dumps({"name": "[/x] \x1b[31mred\x1b[0m", "geometry": "square", "rows": ["AB"]}),
        "bomb.puz": "01|Default|0|0|1|100000|" + "1X99" * 1010 + "1" * 10 + "|3||0|",  # 50000 one-square rows
        "b120.json": json.dumps({"geometry": "square", "rows": ["AB" * 60, "BA" * 60] * 60}),
    }
    paths = {}
    for name, text in files.items():
        paths[name] = d / name
        paths[name].write_text(text)
    big = d / "big.json"  # the 49 MB 7000 x 7000 board
    with big.open("w") as f:
        f.write('{"geometry": "square", "rows": [' + ",".join(['"' + "AB" * 3500 + '"'] * 7000) + "]}")
    paths["big.json"] = big
    fifo = d / "fifo.json"
    os.mkfifo(fifo)
    paths["fifo.json"] = fifo
    zero = d / "zero.json"
    zero.symlink_to("/dev/zero")
    paths["zero.json"] = zero
    return paths


def cases(p: dict[str, Path], d: Path, unbounded: bool) -> list[Case]:
    blog = str(ROOT / "puzzles" / "blog-18.json")
    out = [
        Case("5000-digit par (JSON)", ["info", str(p["par.json"])], {}),
        Case("5000-digit par (.puz)", ["info", str(p["par.puz"])], {}),
        Case("5000-digit width (.xml)", ["info", str(p["width.xml"])], {}),
        Case("100k-deep JSON", ["info", str(p["deep.json"])], {}),
        Case("markup and ESC in the name", ["info", str(p["markup.json"])], {}),
        Case("FIFO", ["info", str(p["fifo.json"])], {}),
        Case("link to /dev/zero", ["info", str(p["zero.json"])], {}),
        Case("49 MB 7000x7000 board", ["info", str(p["big.json"])], {}),
        Case(".puz shear bomb (4 KB)", ["info", str(p["bomb.puz"])], {}),
        Case("--seed 2147483648 --engine cpsat", ["solve", blog, "--engine", "cpsat", "--seed", "2147483648"], {}),
        Case("option error (--max-steps two)", ["solve", blog, "--max-steps", "two"], {}),
        Case("show --png of 120x120", ["show", str(p["b120.json"]), "--png", str(d / "b.png"), "--force"], {}),
    ]
    if unbounded:
        out.append(Case("show --png of 120x120, no pixel limit",
                        ["show", str(p["b120.json"]), "--png", str(d / "u.png"), "--force"],
                        {"KAMICP_MAX_PIXELS": str(10**12)}))
    return out


def run_case(case: Case) -> Record:
    start = time.monotonic()
    proc = subprocess.Popen([str(SCRIPT), *case.args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            env={**os.environ, **case.env}, text=True)
    assert proc.stderr is not None
    err = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    lines = [line for line in err.splitlines() if line.strip()]
    first = lines[0] if lines else ""
    for path in case.args:  # keep the table readable: temporary paths shortened to their names
        if "/" in path:
            first = first.replace(path, Path(path).name)
    return Record(case.name, " ".join(["kamicp", case.args[0], *(Path(a).name if "/" in a else a
                                                                  for a in case.args[1:])]),
                  proc.returncode, len(lines), first[:110], round(time.monotonic() - start, 2),
                  round(usage.ru_maxrss / 1024, 1))


def table(records: list[Record]) -> str:
    rows = ["| case | exit | stderr lines | seconds | peak MB | first stderr line |", "|---|---|---|---|---|---|"]
    for r in records:
        first = r.first_line.replace("|", "\\|")
        rows.append(f"| {r.case} | {r.exit_code} | {r.stderr_lines} | {r.seconds:.2f} | {r.peak_mb:.0f} | "
                    f"`{first}` |")
    png = {r.case: r for r in records if r.case.startswith("show --png")}
    if len(png) == 2:
        bounded, unbounded = png["show --png of 120x120"], png["show --png of 120x120, no pixel limit"]
        rows.append("")
        rows.append(f"PNG pixel limit: {unbounded.peak_mb / bounded.peak_mb:.1f}x less memory and "
                    f"{unbounded.seconds / bounded.seconds:.1f}x less time than without it.")
    return "\n".join(rows) + "\n"


@app.command()
def main(
    out: Out = RESULTS / "hostile",
    unbounded: Annotated[bool, typer.Option("--unbounded/--no-unbounded",
                                            help="Also draw the PNG without the pixel limit.")] = True,
) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        d = Path(tmp)
        records = []
        for case in cases(make_files(d), d, unbounded):
            records.append(run_case(case))
            print(f"{case.name}: exit {records[-1].exit_code}, {records[-1].seconds} s", file=sys.stderr)
    write(out, command_line(__file__), table(records), {"records": [asdict(r) for r in records]})


if __name__ == "__main__":
    app()
