"""Castell tests: rules by ruling id, actions, views, the codec, properties, bots, rendering,
components, scoring, and the towers' rules, solver and tiles."""
