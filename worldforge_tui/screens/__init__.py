"""Screens and modal dialogs of the game: new venture, load, settings, help, inspector, end."""
