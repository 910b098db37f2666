"""Celtica tests: rules by ruling id, actions, views, the codec, properties, bots, rendering,
the board file, the command."""
