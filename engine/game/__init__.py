"""The game itself, pure and deterministic: state models, the rules with their dilemmas, economy, archetypes, rival, events, endings, the rubric and the gate's check of an artifact against its directions."""

# The founder archetypes (models.Archetype's values), here so the CLI's parser names them without
# loading the game's records (dataclasses) for `--help`.
ARCHETYPES: tuple[str, ...] = ("builder", "seller", "designer", "operator")
