"""Terminal renderers, one module per game (board(view, catalog, seat), action_label(...))."""
