"""The embedded store: the memory tables in the save file (`schema`, registered with `worldforge_savedb`) and the local memory store with its FTS5 recall (`store`)."""
