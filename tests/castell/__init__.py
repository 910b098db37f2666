"""Castell tests: rules by ruling id, actions, views, the codec, properties, bots, rendering, components, scoring and the tower rules, solver and tiles."""
