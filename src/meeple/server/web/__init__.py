"""The browser pages of `meeple serve`: a lobby and a table page per game, drawn on the server as
SVG from `view(seat)` only, with a small ES module for clicks and live updates."""
