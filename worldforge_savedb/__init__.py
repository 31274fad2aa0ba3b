"""The save file: one SQLite database per save dir (`db`: connect, check, migrate, stamp, transactions,
busy handling) and its stamp and health check (`stamp`). Every package that keeps tables in it (the
engine's session, the memory store, the Cosmos failover, Foundry) registers them with
`db.register_schema`; this package imports none of them."""
