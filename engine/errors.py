"""User-facing errors: each carries one clear line for the CLI (exit 2) or a TUI notification."""


class GameError(Exception):
    """A command that cannot run in the current state (e.g. approving before the worker has shipped)."""


class InputError(GameError):
    """Bad input from the player: empty pitch, unknown archetype, malformed path, unknown stage."""


class SaveError(GameError):
    """The save file is missing, corrupt, foreign or from a newer version; it is never overwritten."""


class SaveReadOnly(SaveError):
    """The save dir cannot be written (a read-only mount, no permission): writers are refused in
    one line; commands that only look open the save read-only."""
