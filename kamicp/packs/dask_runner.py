"""The pack on a Dask distributed cluster (the optional extra `kamicp[dask]`).

Each level is one task running `worker.run_isolated` on a Dask worker, which starts the level's own
process there: so Dask workers must be allowed children (`distributed.worker.daemon: False`; set here
for `local`, and with DASK_DISTRIBUTED__WORKER__DAEMON=False when starting `dask worker` by hand).
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from kamicp.errors import UsageError
from kamicp.packs import worker
from kamicp.packs.rows import Loaded, PackSettings, Row, Verdict, error_row

CONNECT_TIMEOUT = "20s"
LOCAL_DASHBOARD = "127.0.0.1:0"  # the local cluster's HTTP server (dashboard): a free port, this machine only


def dashboard_link(client) -> str | None:
    """The address of the cluster's dashboard, when it has one (it needs bokeh installed)."""
    from importlib.util import find_spec

    return client.dashboard_link if find_spec("bokeh") is not None else None


def connect(address: str, jobs: int):
    """A client of the scheduler at `address`, or of a LocalCluster of `jobs` one-thread workers started here
    for 'local' (returned too, for the caller to close)."""
    try:
        import dask
        from distributed import Client, LocalCluster
    except ImportError:
        raise UsageError("--dask needs Dask distributed: pip install 'kamicp[dask]'") from None
    if address == "local":
        with dask.config.set({"distributed.worker.daemon": False}):
            # its own logs are noise here (e.g. a heartbeat lost while closing); task failures come as rows.
            # The scheduler always serves HTTP (the dashboard, with bokeh installed): on a free port of this
            # machine only, so a second cluster (8787 is taken) is no warning and nothing listens outside
            cluster = LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                   dashboard_address=LOCAL_DASHBOARD, silence_logs=logging.CRITICAL)
        return Client(cluster), cluster
    try:
        return Client(address, timeout=CONNECT_TIMEOUT), None
    except (OSError, TimeoutError, ValueError) as e:
        raise UsageError(f"--dask {address}: cannot reach the scheduler ({e})") from None


def run_dask(todo: list[tuple[int, Loaded, str]], settings: PackSettings, address: str, jobs: int,
             record: Callable[[int, Row, bool], None]) -> None:
    """Send every level to the cluster and record each row as it completes."""
    from distributed import as_completed

    client, cluster = connect(address, jobs)
    futures = {}
    try:
        for i, item, key in todo:
            fut = client.submit(worker.run_isolated, item, key, settings, pure=False, key=f"kamicp-level-{i}-{key}")
            futures[fut] = (i, item, key)
        for fut in as_completed(list(futures)):
            i, item, key = futures[fut]
            try:
                row = fut.result()
            except Exception as e:  # noqa: BLE001 - a lost worker or task is that level's row
                row = error_row(item, key, Verdict.error, f"the Dask task failed: {e!r}", settings)
            record(i, row, False)
    except BaseException:
        client.cancel(list(futures))
        raise
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
