"""Castell tests: rules by ruling id, actions, views, saved states, properties, bots, rendering,
components, scoring, and the towers' rules, solver and tiles."""
