"""Terminal and picture renderers, one module per game."""
