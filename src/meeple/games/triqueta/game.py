"""The Triqueta game definition."""

from __future__ import annotations

from typing import Any

from ...core.protocol import Game, OptionSpec
from .actions import ALL_MOVES, Move, move_from_json
from .components import MAX_PLAYERS
from .state import TriquetaState


class TriquetaGame(Game):
    name = "triqueta"
    title = "Triqueta"
    min_players = 2
    max_players = MAX_PLAYERS
    option_specs = (
        OptionSpec("duo", False, "T9: draw two tokens and do two different things with them"),
    )
    heuristics_module = "meeple.games.triqueta.heuristics"

    def _new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> TriquetaState:
        return TriquetaState.new(self, num_players, seed, options)

    def num_actions(self, num_players: int, **options: Any) -> int:
        return len(ALL_MOVES)

    def action_from_json(self, obj: Any) -> Move:
        return move_from_json(obj)

    def _state_from_json(self, obj: dict[str, Any]) -> TriquetaState:
        return TriquetaState.from_json(self, obj)
