"""Read models for front ends: the session snapshot, artifacts rendered for people, the report card."""
