"""Display colours as '#rrggbb' for pictures: palette hex codes, CSS colour names, or a fixed fallback.

The terminal may show colours SVG does not know (rich's 'bright_red', 'grey50', ...); pictures resolve
every colour key to a hex code, so SVG and PNG output agree and are always valid.
"""

from __future__ import annotations

import re
from functools import lru_cache

from PIL import ImageColor
from rich.color import Color, ColorParseError

from kamicp.board.level import Level

RGB = tuple[int, int, int]

# Colours for keys that name no colour (in the order the keys first appear on the board).
FALLBACK = ["#e76f51", "#2a9d8f", "#e9c46a", "#264653", "#f4a261", "#8ab17d", "#b5838d", "#6d597a"]

_HEX = re.compile(r"#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})")

# The 148 CSS / SVG colour keywords, as Pillow ships them (name -> '#rrggbb').
CSS_COLOURS: dict[str, str] = {name: hexcode.lower() for name, hexcode in ImageColor.colormap.items()}


@lru_cache(maxsize=1024)  # (the same few palette codes, fallbacks and CSS names, asked per colour)
def parse_colour(text: str) -> RGB | None:
    """'#rgb', '#rrggbb', a CSS colour name or a colour rich knows, as RGB; None if it is none of these."""
    s = text.strip()
    m = _HEX.fullmatch(s)
    if m:
        h = m.group(1)
        if len(h) == 3:
            h = "".join(ch * 2 for ch in h)
        return (int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16))
    css = CSS_COLOURS.get(s.lower().replace(" ", "").replace("_", ""))
    if css is not None:
        return parse_colour(css)
    try:
        t = Color.parse(s.lower()).get_truecolor()
    except ColorParseError:
        return None
    return (t.red, t.green, t.blue)


def to_hex(rgb: RGB) -> str:
    return "#{:02x}{:02x}{:02x}".format(*rgb)


def rgb_of(level: Level, key: str) -> RGB:
    """The display colour of a colour key: its palette entry, else the key as a colour name, else the
    terminal's fallback colour for the key (so pictures and terminal agree on unnamed keys)."""
    for candidate in (level.display_colour(key), key):
        if candidate:
            rgb = parse_colour(candidate)
            if rgb is not None:
                return rgb
    position = level.key_position(key)
    if position is not None:
        return parse_colour(FALLBACK[position % len(FALLBACK)]) or (255, 255, 255)
    return (255, 255, 255)


def hex_of(level: Level, key: str) -> str:
    return to_hex(rgb_of(level, key))


def luminance(rgb: RGB) -> float:
    """Relative luminance (0 black .. 1 white), to pick readable text on a colour."""

    def lin(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (lin(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
