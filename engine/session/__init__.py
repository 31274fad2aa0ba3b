"""The game session and everything it owns: commands and their steps, saves, the run lease, events, founding, memory wiring, replay."""
