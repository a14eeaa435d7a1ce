"""Pars under the Flood-It rules: validate_pivot against the exhaustive oracle, islands, and the store key
apart from the free rules'."""

from __future__ import annotations

import json
import random

import pytest

from kamicp.board.level import Level
from kamicp.errors import UsageError
from kamicp.floodit import parse_pivot, validate_pivot
from kamicp.packs import PackSettings
from tests.helpers.boards import flood_square as square
from tests.helpers.oracle import bfs_pivot_optimum


@pytest.mark.parametrize("seed", range(6))
def test_verdicts_follow_the_oracle_optimum(seed):
    level = square(4 + seed % 2, 3 + seed % 2, seed)
    cell = random.Random(seed).randrange(level.size)
    optimum = bfs_pivot_optimum(level, cell, limit=14)[0]
    label = level.labels[cell]
    expect = {optimum: "correct", optimum + 1: "not-minimal", optimum - 1: "unachievable"}
    for par, verdict in expect.items():
        check = validate_pivot(level, par, label, engine="search")
        assert check.verdict == verdict and check.par == par
        if verdict != "unachievable":
            assert check.optimum == optimum


def test_islands_of_two_colours_are_unachievable_and_errors():
    level = Level.from_rows(["AB.A", "BA.B"], "square", par=3)
    assert validate_pivot(level).verdict == "unachievable"
    with pytest.raises(UsageError, match="no par"):
        validate_pivot(square(3, 3, 0))
    with pytest.raises(UsageError, match="ROW,COL"):
        parse_pivot(level, "1;1")
    with pytest.raises(UsageError, match="not a cell"):
        parse_pivot(level, "0,2")  # a hole
    assert parse_pivot(level, " 1, 3") == (1, 3)


def test_store_key_depends_on_the_rules():
    free, pivot = PackSettings(), PackSettings(rules="pivot")
    assert free.key() != pivot.key() != PackSettings(rules="pivot", pivot="1,1").key()
    assert "rules" not in json.loads(free.key())  # free keys are those of stores made before the setting
