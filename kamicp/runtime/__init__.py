"""The runtime wing: what every layer above may use while it runs, and nothing about levels or proofs: the
process's interrupt flag (`interrupt`), the optional extras (`extras`), child processes (`processes`), the
SQLite store (`store`), connecting to Dask (`cluster`) and cutting text for one-line messages (`text`), and
writing a user's file at once or not at all (`atomic`). It may import only the foundations (`kamicp.errors`,
`kamicp.limits`) and the standard library (Dask only inside `cluster`'s functions)."""

__all__ = ["atomic", "cluster", "extras", "interrupt", "processes", "store", "text"]  # modules: each loads on use
