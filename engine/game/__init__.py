"""The game itself, pure and deterministic: state models, the rules with their dilemmas, economy, archetypes, rival, events, endings and the rubric."""
