"""Celtica tests: rules by ruling id, actions, views, saved states, properties, bots, rendering,
the board file, the command."""
