"""Binding memory: the SQLite save file, write guards, recall, budget, lifecycle, audit, scrubbing."""
