"""The game's own Textual theme (registered next to the built-in ones; the palette can switch)."""

from __future__ import annotations

from textual.theme import Theme

WORLDFORGE_DARK = Theme(
    name="worldforge",
    primary="#5FA8D3",
    secondary="#C9A227",
    accent="#B48EAD",
    foreground="#E6E6E6",
    background="#14171C",
    surface="#1B1F26",
    panel="#242A33",
    success="#7FB77E",
    warning="#E0A458",
    error="#E06C75",
    dark=True,
)
"""Dark, calm panels; gold secondary for workers; green/amber/red carry the meter tones."""

THEMES: tuple[Theme, ...] = (WORLDFORGE_DARK,)
DEFAULT_THEME = WORLDFORGE_DARK.name
