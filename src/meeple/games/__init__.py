"""The game packages, one per game: rules only, no I/O. Each announces itself through its
`plugin.py` and the entry point group `meeple.games` (meeple.core.registry)."""
