"""The Triominos game definition: players, options, action space."""

from __future__ import annotations

from typing import Any

from meeple.core.errors import OptionError
from meeple.core.protocol import Game, OptionSpec

from .actions import Action, action_from_json
from .geometry import NUM_WINDOW
from .codec import state_from_json
from .state import TriominosState
from .tiles import NUM_TILES


class TriominosGame(Game):
    """Triominos, Goliath Deluxe edition, 2-4 players (rulings M1-M10)."""

    name = "triominos"
    title = "Triominos"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec("drawn_tile_only", False, "M6 variant: after a draw only the drawn tile may be placed"),
        OptionSpec("match", False, "M10: play rounds until a total exceeds the target (default: one round)"),
        OptionSpec("target", 400, "M10: the match ends after the round in which a total exceeds this"),
    )
    heuristics_module = "meeple.games.triominos.heuristics"

    def resolve_options(self, options: Any) -> dict[str, Any]:
        resolved = super().resolve_options(options)
        if resolved["target"] < 1:
            raise OptionError(f"option 'target' must be at least 1, not {resolved['target']}")
        return resolved

    def _new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> TriominosState:
        state = TriominosState(self, num_players, options)
        state.rng = seed
        state.start_round(None)
        return state

    def num_actions(self, num_players: int, **options: Any) -> int:
        """A placement per (tile, window cell), then draw, pass, stop (see actions.py)."""
        return NUM_TILES * NUM_WINDOW + 3

    def action_from_json(self, obj: Any) -> Action:
        return action_from_json(obj)

    def _state_from_json(self, obj: dict[str, Any]) -> TriominosState:
        return state_from_json(self, obj)
