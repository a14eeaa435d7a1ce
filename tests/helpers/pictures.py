"""Pictures the tests draw and read back: a level rendered and degraded like a real screenshot, colour
keys compared up to renaming, a PNG header of any size, the cells of an SVG."""

from __future__ import annotations

import io
import struct
import xml.etree.ElementTree as ET
import zlib

import networkx as nx
import numpy as np
from PIL import Image

from kamicp.board.level import Level
from kamicp.board.regions import region_graph
from kamicp.board.rules import Board
from kamicp.render.png import board_png

NS = {"s": "http://www.w3.org/2000/svg"}


def cells(svg: str) -> list[ET.Element]:
    return ET.fromstring(svg).findall(".//s:polygon[@class='cell']", NS)


def open_png(data: bytes):
    img = Image.open(io.BytesIO(data))
    img.load()
    return img.convert("RGB")


def render(level: Level, scale: float = 1.0):
    return Image.open(io.BytesIO(board_png(Board.start(level), scale=scale))).convert("RGB")


def degrade(img, *, seed=0, noise=6.0, gradient=(0.85, 1.1), jpeg=70, scale=0.8, margin=(53, 40)):
    """Scale the picture, put it off-centre on a margin, add a brightness gradient and Gaussian noise,
    and pass it through JPEG."""
    rng = np.random.default_rng(seed)
    img = img.resize((round(img.width * scale), round(img.height * scale)), Image.Resampling.BILINEAR)
    canvas = Image.new("RGB", (img.width + margin[0] + 31, img.height + margin[1] + 27), img.getpixel((0, 0)))
    canvas.paste(img, margin)
    a = np.asarray(canvas).astype(float)
    a *= np.linspace(*gradient, a.shape[1])[None, :, None] * np.linspace(1.0, 0.95, a.shape[0])[:, None, None]
    a += rng.normal(0.0, noise, a.shape)
    return jpeg_copy(Image.fromarray(np.clip(a, 0, 255).astype(np.uint8)), jpeg)


def jpeg_copy(img: Image.Image, quality: int) -> Image.Image:
    """The picture passed through JPEG at `quality`, in memory (as a messenger app sends a screenshot)."""
    buf = io.BytesIO()
    img.save(buf, "JPEG", quality=quality)
    buf.seek(0)
    return Image.open(buf).convert("RGB")


def colour_bijection(a: Level, b: Level) -> dict[str, str] | None:
    """The renaming of a's colour keys into b's under which every cell agrees, if there is one."""
    if a.labels != b.labels:
        return None
    m: dict[str, str] = {}
    for x, y in zip(a.colours, b.colours, strict=True):
        if m.setdefault(x, y) != y:
            return None
    return m if len(set(m.values())) == len(m) else None


def assert_same_region_graph(original: Level, imported: Level) -> None:
    rename = colour_bijection(original, imported)
    assert rename is not None, "cell colours do not match up to renaming"
    g, h = region_graph(original), region_graph(imported)
    nx.set_node_attributes(g, {n: rename[c] for n, c in g.nodes(data="color")}, "color")
    assert nx.is_isomorphic(g, h, node_match=lambda x, y: x["color"] == y["color"])


def huge_png(width: int, height: int) -> bytes:
    """A tiny file whose header claims a huge image (a decompression bomb's calling card)."""
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\0" * 64)) + \
        chunk(b"IEND", b"")
