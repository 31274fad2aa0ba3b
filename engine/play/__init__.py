"""Headless play: the driver behind simulate, balance and the benches, the balance sweep, and the careful CEO policy."""

# The skill ladder's players (engine.play.policies), named here so a front end lists them unloaded.
POLICIES = ("random", "greedy", "lookahead")
