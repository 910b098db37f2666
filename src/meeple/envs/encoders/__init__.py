"""Observation encoders: one module per game, fixed-shape numpy arrays from view(seat)."""
