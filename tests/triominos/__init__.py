"""Triominos tests: rules by ruling id, actions, views, saved states, properties, bots, rendering, geometry."""
