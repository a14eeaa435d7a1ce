"""The cluster plan in words (kamicp/cli/plans.py): durations in a person's units, the plan on one line."""

from __future__ import annotations

import pytest

from kamicp.cli.plans import about, describe_plan, duration
from kamicp.prover.estimate import Estimate
from kamicp.prover.plan import cluster_plan


@pytest.mark.parametrize(("seconds", "words"), [
    (0.4, "0.4 s"), (45, "45 s"), (89, "89 s"), (90, "1.5 min"), (25 * 60, "25 min"), (3 * 3600, "3 h"),
    (3.24 * 3600, "3.2 h"), (47 * 3600, "47 h"), (6 * 86400, "6 days"), (800 * 86400, "2.2 years"),
    (1234 * 365.25 * 86400, "1,200 years"),
])
def test_durations_in_a_persons_units(seconds: float, words: str) -> None:
    assert duration(seconds) == words


def test_about_keeps_two_digits() -> None:
    assert [about(x) for x in (0, 0.0213, 3.24, 40.4, 1234)] == ["0", "0.021", "3.2", "40", "1,200"]


def test_the_plan_on_one_line() -> None:
    estimate = Estimate(horizon=11, nodes=1.44e11, seconds=40 * 3600, rate=1e6, method="test")
    line = describe_plan(cluster_plan(estimate, workers=(2, 16, 100)), here=2, address="tcp://10.0.0.1:8786")
    assert line == ("about 40 core-hours: 20 h on 2 cores here, 2.5 h on 16 workers, 24 min on 100 workers "
                    "(--dask tcp://10.0.0.1:8786)")
    uneven = cluster_plan(estimate, [1.0] * 9 + [11.0], workers=(1000,), overhead=0)
    assert describe_plan(uneven).endswith("(--dask tcp://HOST:PORT); its longest cube alone about 22 h")


def test_the_plan_as_json_fits_the_solve_schema() -> None:
    import jsonschema

    from kamicp.cli.schemas import schema

    estimate = Estimate(horizon=9, nodes=5e6, seconds=120.0, rate=4e4, method="test")
    for plan in (cluster_plan(estimate), cluster_plan(estimate, [0.5, 1.5, 0.25])):
        document = {**schema("solve"), "$ref": "#/$defs/cluster_plan"}
        jsonschema.validate(plan.to_dict(), document, cls=jsonschema.Draft202012Validator)
