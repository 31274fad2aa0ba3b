"""Headless play: the driver behind simulate, balance and the benches, the balance sweep, and the careful CEO policy."""
