"""Colour science for pictures: sRGB to CIE Lab and colour differences."""

from __future__ import annotations

import numpy as np

SHADE_RANGE = (0.8, 1.25)  # shade_distance allows a colour this much darker or lighter (see there)

_LINEAR = np.arange(256) / 255.0
_LINEAR = np.where(_LINEAR <= 0.04045, _LINEAR / 12.92, ((_LINEAR + 0.055) / 1.055) ** 2.4).astype(np.float32)


CHUNK_ROWS = 256  # a picture is converted this many rows at a time (bounded temporary memory)


def rgb_to_lab(rgb: np.ndarray) -> np.ndarray:
    """sRGB (0..255, last axis RGB) to CIE Lab (D65). Whole pictures (uint8) go through a lookup table in
    single precision, which is plenty for colour differences of a unit or more, a band of rows at a time."""
    if isinstance(rgb, np.ndarray) and rgb.dtype == np.uint8 and rgb.ndim == 3 and len(rgb) > CHUNK_ROWS:
        out = np.empty(rgb.shape, dtype=np.float32)
        for y in range(0, len(rgb), CHUNK_ROWS):
            out[y:y + CHUNK_ROWS] = _to_lab(rgb[y:y + CHUNK_ROWS])
        return out
    return _to_lab(rgb)


def _to_lab(rgb: np.ndarray) -> np.ndarray:
    if isinstance(rgb, np.ndarray) and rgb.dtype == np.uint8:
        c = _LINEAR[rgb]
    else:
        c = np.asarray(rgb, dtype=np.float64) / 255.0
        c = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    m = np.array([[0.4124564, 0.3575761, 0.1804375],
                  [0.2126729, 0.7151522, 0.0721750],
                  [0.0193339, 0.1191920, 0.9503041]], dtype=c.dtype)
    xyz = c @ m.T / np.array([0.95047, 1.0, 1.08883], dtype=c.dtype)
    f = np.where(xyz > (6 / 29) ** 3, np.cbrt(xyz), xyz / (3 * (6 / 29) ** 2) + 4 / 29)
    lab = np.empty_like(f)
    lab[..., 0] = 116 * f[..., 1] - 16
    lab[..., 1] = 500 * (f[..., 0] - f[..., 1])
    lab[..., 2] = 200 * (f[..., 1] - f[..., 2])
    return lab


def delta_e(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """CIE76 colour difference (Euclidean in Lab); about 2.3 is just noticeable."""
    return np.sqrt(((np.asarray(a) - np.asarray(b)) ** 2).sum(axis=-1))


def shade_distance(a: np.ndarray, b: np.ndarray, shade: tuple[float, float] = SHADE_RANGE) -> np.ndarray:
    """How far colour `a` is from the nearest shade of colour `b` (ΔE). Shading multiplies the light (XYZ)
    by a factor k, which multiplies (L* + 16, a*, b*) by m = k^(1/3) (above the darkest tones): so the
    sample is compared with m x `b` for the best m in `shade`, about 0.75-1.35 x in sRGB, as a fold's
    shade goes, but not as far as another colour of the same hue twice as dark."""
    va = np.asarray(a, dtype=float) + np.array([16.0, 0.0, 0.0])
    vb = np.asarray(b, dtype=float) + np.array([16.0, 0.0, 0.0])
    m = np.clip((va * vb).sum(axis=-1) / np.maximum((vb * vb).sum(axis=-1), 1e-9), *shade)
    return np.sqrt(((va - m[..., None] * vb) ** 2).sum(axis=-1))


def hex_colour(rgb: np.ndarray) -> str:
    return "#{:02x}{:02x}{:02x}".format(*(round(float(v)) for v in rgb))
