"""The game engine: models, rules, economy, world, rubric, the game session, events, agents, routing."""
