"""Terminal renderers, one module per game."""
