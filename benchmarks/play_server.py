"""The play server under load, measured on the real `kamicp play` (a subprocess, as users start it):

1. the latency of a plain request (GET /api/level, every 50 ms) with nothing else running, and while
   heavy requests are in flight: hints on a hard level (more than the queue takes), hints whose clients
   leave after a second, a replay of 1000 moves on a 200 x 200 board, and the upload of a graph level of
   about 3000 nodes (its layout);
2. the server's peak memory (VmHWM) reading a maximal screenshot upload (6300 x 6300 pixels), one alone
   and four at once (the server reads one upload at a time).

    .venv/bin/python benchmarks/play_server.py [--out benchmarks/results/play-server] [--seconds 20]

Writes OUT.md (the tables and the command) and OUT.json.
"""

from __future__ import annotations

import functools
import io
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Annotated

import httpx
import typer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.report import RESULTS, Out, command_line, write  # noqa: E402
from kamicp.board.level import Level  # noqa: E402
from kamicp.board.regions import region_graph  # noqa: E402
from kamicp.formats import write_json  # noqa: E402

app = typer.Typer(add_completion=False)
UPLOAD = {"Content-Type": "application/octet-stream"}


def start_server(level: Path, time_limit: float) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-c", "from kamicp.cli import app; app()", "play", str(level),
                             "--no-browser", "--time-limit", str(time_limit)],
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = proc.stdout.readline()
    if " at " not in line:
        proc.kill()
        raise SystemExit(f"the server did not start: {line!r}")
    return proc, line.split(" at ")[1].split()[0]


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    try:
        proc.wait(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait()


def peak_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def square(side: int, colours: str, seed: int, name: str) -> Level:
    rng = random.Random(seed)
    return Level.from_rows(["".join(rng.choice(colours) for _ in range(side)) for _ in range(side)], "square",
                           name=name)


def graph_level(side: int) -> Level:
    g = region_graph(square(side, "ABCD", 3, "board"))
    name = {v: str(i) for i, v in enumerate(g.nodes)}
    return Level.from_graph({name[v]: "ABCD"[i % 4] for i, v in enumerate(g.nodes)},
                            [(name[a], name[b]) for a, b in g.edges], name=f"graph-{len(g)}")


def probe(url: str, stop: threading.Event, out: list[float], failures: list[str]) -> None:
    """GET /api/level every 50 ms until `stop`: the seconds each took (a failure counts as inf, its
    reason goes to `failures`)."""
    with httpx.Client(timeout=60) as client:
        while not stop.is_set():
            start = time.monotonic()
            try:
                reply = client.get(url + "api/level")
                ok = reply.status_code == 200
                if not ok:
                    failures.append(f"{reply.status_code} {reply.text[:80]}")
            except httpx.HTTPError as e:
                ok = False
                failures.append(f"{type(e).__name__}: {e}")
            out.append(time.monotonic() - start if ok else float("inf"))
            stop.wait(0.05)


def timed(record: list[dict], what: str, call) -> None:
    start = time.monotonic()
    try:
        status = str(call().status_code)
    except httpx.TimeoutException:
        status = "client left"
    except httpx.HTTPError as e:
        status = type(e).__name__
    record.append({"request": what, "status": status, "seconds": round(time.monotonic() - start, 2)})


def heavy_load(url: str, token: str, files: dict, hints: int) -> list[threading.Thread]:
    """The heavy requests, each in its own thread; their outcomes go to `heavy_load.records`: four hints
    that leave after a second, then `hints` that stay (the solve's place and the queue's 3 take four;
    the others are refused at once), a replay of 1000 moves and a graph upload."""
    records: list[dict] = []
    heavy_load.records = records  # type: ignore[attr-defined]
    jobs = []
    for _ in range(4):  # (first: they take the queue's places, then leave them to the hints that stay)
        jobs.append(("hint (leaves after 1 s)", lambda: httpx.post(url + "api/hint", json={
            "token": token, "moves": []}, timeout=1)))
    for _ in range(hints):
        jobs.append(("hint (stays)", lambda: httpx.post(url + "api/hint", json={"token": token, "moves": []},
                                                        timeout=120)))
    flood_token = files["flood_token"]
    jobs.append(("replay of 1000 moves on 200 x 200", lambda: httpx.post(url + "api/move", json={
        "token": flood_token, "moves": files["flood_moves"]}, timeout=120)))
    jobs.append(("graph upload (layout)", lambda: httpx.post(url + "api/open?name=graph.json",
                                                             content=files["graph"].read_bytes(), headers=UPLOAD,
                                                             timeout=120)))
    threads = [threading.Thread(target=timed, args=(records, what, call), daemon=True) for what, call in jobs]
    for k, t in enumerate(threads):
        t.start()
        time.sleep(1.5 if k == 3 else 0.05)  # (the hints that stay come when those that leave have left)
    return threads


def latency_row(label: str, samples: list[float]) -> dict:
    finite = sorted(s for s in samples if s != float("inf"))
    p95 = finite[int(0.95 * (len(finite) - 1))] if finite else float("nan")
    return {"scenario": label, "requests": len(samples), "failed": len(samples) - len(finite),
            "median_ms": round(1000 * statistics.median(finite), 1) if finite else None,
            "p95_ms": round(1000 * p95, 1), "max_ms": round(1000 * max(finite), 1) if finite else None}


def measure_latency(tmp: Path, seconds: float, time_limit: float, hints: int) -> tuple[list[dict], list[dict]]:
    hard = tmp / "hard.json"
    write_json(square(24, "ABCDEF", 5, "hard-24x24"), hard)
    flood_level = square(200, "ABCD", 1, "flood-200")
    cycle = "ABCD".replace(flood_level.colours[0], "") + flood_level.colours[0]
    write_json(flood_level, tmp / "flood.json")
    write_json(graph_level(95), tmp / "graph.json")
    proc, url = start_server(hard, time_limit)
    try:
        token = httpx.get(url + "api/level", timeout=30).json()["token"]
        idle: list[float] = []
        failures: list[str] = []
        stop = threading.Event()
        prober = threading.Thread(target=probe, args=(url, stop, idle, failures))
        prober.start()
        time.sleep(min(seconds, 10))
        stop.set()
        prober.join()
        flood_token = httpx.post(url + "api/open?name=flood.json", content=(tmp / "flood.json").read_bytes(),
                                 headers=UPLOAD, timeout=120).json()["token"]
        files = {"flood": tmp / "flood.json", "graph": tmp / "graph.json", "flood_token": flood_token,
                 "flood_moves": [{"tap": [0, 0], "color": cycle[k % 4]} for k in range(1000)]}
        busy: list[float] = []
        stop = threading.Event()
        prober = threading.Thread(target=probe, args=(url, stop, busy, failures))
        prober.start()
        threads = heavy_load(url, token, files, hints)
        time.sleep(seconds)
        stop.set()
        prober.join()
        for t in threads:
            t.join(timeout=0.1)  # (a request still running at the end is not in the table)
        records = list(heavy_load.records)  # type: ignore[attr-defined]
    finally:
        stop_server(proc)
    rows = [latency_row("idle", idle), latency_row("heavy requests in flight", busy)]
    rows[-1]["failures"] = "; ".join(sorted(set(failures))) or "-"
    rows[0]["failures"] = "-"
    return rows, records


def big_png(side: int) -> bytes:
    """A PNG of `side` x `side` pixels that compresses like a screenshot (large flat areas)."""
    from PIL import Image

    image = Image.new("RGB", (side, side), (239, 233, 220))
    rng = random.Random(0)
    cell = side // 30
    for r in range(30):
        for c in range(30):
            image.paste(tuple(rng.randrange(256) for _ in range(3)), (c * cell, r * cell, (c + 1) * cell,
                                                                      (r + 1) * cell))
    buffer = io.BytesIO()
    image.save(buffer, "PNG", optimize=True)
    return buffer.getvalue()


def measure_memory(tmp: Path, side: int) -> list[dict]:
    data = big_png(side)
    level = tmp / "small.json"
    write_json(square(6, "AB", 0, "small"), level)
    rows = []
    for uploads in (1, 4):
        proc, url = start_server(level, 5)
        try:
            before = peak_mb(proc.pid)
            records: list[dict] = []
            send = functools.partial(httpx.post, url + "api/open?name=shot.png", content=data, headers=UPLOAD,
                                     timeout=300)
            threads = [threading.Thread(target=timed, args=(records, "upload", send)) for _ in range(uploads)]
            start = time.monotonic()
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            rows.append({"uploads at once": uploads, "png_kb": round(len(data) / 1024), "pixels": f"{side} x {side}",
                         "statuses": " ".join(sorted(r["status"] for r in records)),
                         "seconds": round(time.monotonic() - start, 1), "peak_before_mb": round(before),
                         "peak_after_mb": round(peak_mb(proc.pid))})
        finally:
            stop_server(proc)
    return rows


def table(rows: list[dict]) -> str:
    keys = list(rows[0])
    lines = ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
    lines += ["| " + " | ".join(str(r[k]) for k in keys) + " |" for r in rows]
    return "\n".join(lines)


@app.command()
def main(out: Out = RESULTS / "play-server",
         seconds: Annotated[float, typer.Option(help="Seconds of load.")] = 20.0,
         time_limit: Annotated[float, typer.Option(help="The server's --time-limit.")] = 8.0,
         hints: Annotated[int, typer.Option(help="Hints that stay (the queue takes 1 + 3).")] = 8,
         png_side: Annotated[int, typer.Option(help="Pixels per side of the uploaded PNG.")] = 6300) -> None:
    with tempfile.TemporaryDirectory(prefix="kamicp-bench-play-") as d:
        latency, heavy = measure_latency(Path(d), seconds, time_limit, hints)
        memory = measure_memory(Path(d), png_side)
    text = "\n\n".join(["Latency of GET /api/level (ms):", table(latency),
                        f"The heavy requests ({seconds:.0f} s of load; --time-limit {time_limit:g}):", table(heavy),
                        "Peak memory of the server process reading a maximal screenshot upload:", table(memory)])
    write(out, command_line(__file__), text, {"latency": latency, "heavy": heavy, "memory": memory})


if __name__ == "__main__":
    app()
