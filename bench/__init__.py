"""Benchmarks that print JSON (run with `python -m bench.<name>`)."""
