"""Widgets of the game's main screen: story, receipt, memory, replay log, status bar."""
