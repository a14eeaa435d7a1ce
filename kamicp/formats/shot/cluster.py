"""Clustering sample colours (CIE Lab) into a level's colours: samples closer than LINK_DELTA_E chain
into one colour (a shading gradient drifts slowly from cell to cell, so a colour stays one chain), then
colours whose centres are closer than MERGE_DELTA_E are merged."""

from __future__ import annotations

import numpy as np

from kamicp.formats.shot.colour import delta_e

LINK_DELTA_E = 9.0  # samples closer than this chain into one colour
MERGE_DELTA_E = 16.0  # colours whose centres are closer than this are one colour


def _single_linkage(points: np.ndarray, threshold: float) -> list[int]:
    n = len(points)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    d = delta_e(points[:, None, :], points[None, :, :])
    for i, j in zip(*np.nonzero(np.triu(d < threshold, 1)), strict=True):
        a, b = find(int(i)), find(int(j))
        if a != b:
            parent[max(a, b)] = min(a, b)
    return [find(i) for i in range(n)]


def cluster(samples: np.ndarray) -> np.ndarray:
    """A cluster number per sample: single-linkage chains, then centre merging (see module doc)."""
    roots = _single_linkage(samples, LINK_DELTA_E)
    labels = np.unique(roots, return_inverse=True)[1]
    while True:
        ids = np.unique(labels)
        centres = np.array([np.median(samples[labels == k], axis=0) for k in ids])
        d = delta_e(centres[:, None, :], centres[None, :, :])
        np.fill_diagonal(d, np.inf)
        i, j = np.unravel_index(np.argmin(d), d.shape)
        if len(ids) < 2 or d[i, j] >= MERGE_DELTA_E:
            return np.unique(labels, return_inverse=True)[1]
        labels[labels == ids[j]] = ids[i]
