"""Batched simulators: N games of one kind held as arrays and stepped at once (issue #32)."""
