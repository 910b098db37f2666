"""Triominos (Goliath Deluxe edition): triangular tiles matched corner to corner on a lattice.

Modules: geometry (the lattice, the only place that knows it), tiles (the 56 tiles, M1),
scoring (score parts and amounts), codec (loading saved states),
board (incremental placement bookkeeping, M2-M5), actions (moves and ids), state (turns, draws,
rounds and the match, M6-M10), game (options), heuristics (the greedy bot).
"""
