"""The embedded store: SQLite save file (connection, schema, stamp), FTS5 recall and the local memory store."""
