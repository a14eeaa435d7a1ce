"""The pack on a Dask distributed cluster (the optional extra `kamicp[dask]`); connecting to it is
kamicp.runtime.cluster's.

Each level is one task running `worker.run_isolated` on a Dask worker, which starts the level's own
process there: so Dask workers must be allowed children (`distributed.worker.daemon: False`; set by
kamicp.runtime.cluster for `local`, and with DASK_DISTRIBUTED__WORKER__DAEMON=False when starting `dask
worker` by hand).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from kamicp.packs import worker
from kamicp.packs.rows import PackSettings, Row, error_row
from kamicp.prover.outcome import Verdict
from kamicp.runtime.cluster import connect, lost_scheduler, quiet_logs, scheduler_lost
from kamicp.runtime.extras import require


def run_dask(todo: list[worker.Todo], settings: PackSettings, address: str, jobs: int,
             record: Callable[[int, Row, bool], None]) -> None:
    """Send every level to the cluster and record each row as it completes."""
    require("dask", "--dask")

    with quiet_logs():
        client, cluster = connect(address, jobs)
        try:
            _gather(client, todo, settings, address, record)
        finally:
            client.close()
            if cluster is not None:
                cluster.close()


def _gather(client: Any, todo: list[worker.Todo], settings: PackSettings, address: str,
            record: Callable[[int, Row, bool], None]) -> None:
    from distributed import as_completed

    futures = {}
    try:
        for i, item, key, rules in todo:
            fut = client.submit(worker.run_isolated, item, key, settings, rules, pure=False,
                                key=f"kamicp-level-{i}-{key}")
            futures[fut] = (i, item, key)
        for fut in as_completed(list(futures)):
            i, item, key = futures[fut]
            try:
                row = fut.result()
            except Exception as e:  # noqa: BLE001 - a lost worker or task is that level's row
                if scheduler_lost(client, e):
                    raise lost_scheduler(address) from None
                row = error_row(item, key, Verdict.ERROR, f"the Dask task failed: {e!r}", settings)
            record(i, row, False)
    except BaseException:
        with contextlib.suppress(Exception):  # (a lost scheduler cannot be asked to cancel)
            client.cancel(list(futures))
        raise
