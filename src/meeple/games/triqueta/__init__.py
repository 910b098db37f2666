"""Triqueta: draw animal tokens, build rows, collect exactly three of a kind."""
