"""The simulation tier: seeded workers that write every role's artifact, their phrase banks, and redos after a rejection."""
