"""The runtime: what every wing may need of the process it runs in (the interrupt flag, the optional extras,
child processes, the store, the connection to Dask). It imports only the foundations (errors, limits)."""
