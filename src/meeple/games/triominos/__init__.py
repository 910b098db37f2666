"""Triominos (Goliath Deluxe edition): triangular tiles matched corner to corner on a lattice."""
