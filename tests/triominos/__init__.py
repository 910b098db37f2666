"""Triominos tests: rules by ruling id, actions, views, the codec, properties, bots, rendering, geometry."""
