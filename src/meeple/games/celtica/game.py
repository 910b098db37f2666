"""The Celtica game definition: players, options, action space, serialization."""

from __future__ import annotations

from typing import Any

from meeple.core.protocol import Game, OptionSpec, SearchTuning

from .actions import NUM_ACTIONS, action_from_json
from .board import load_board
from .state import CelticaState


class CelticaGame(Game):
    name = "celtica"
    title = "Celtica"
    min_players = 2
    max_players = 5
    option_specs = (
        OptionSpec(
            "board",
            "",
            "board file (TOML, see docs/games/celtica.md) or inline 'layout:...'; empty: the shipped "
            "reconstructed board (C3)",
        ),
    )
    heuristics_module = "meeple.games.celtica.heuristics"
    #: Greedy rollouts cut off after 20 plies, then `heuristics.evaluate`, with a lower
    #: exploration constant (docs/ai.md has the trials).
    search = SearchTuning(rollout="greedy", cutoff=20, exploration=0.3)

    def _new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> CelticaState:
        return CelticaState.setup(self, num_players, seed, options)

    def resolve_options(self, options: Any) -> dict[str, Any]:
        resolved = super().resolve_options(options)
        load_board(resolved["board"])  # DataError now rather than at the first move
        return resolved

    def num_actions(self, num_players: int, **options: Any) -> int:
        return NUM_ACTIONS

    def action_from_json(self, obj: Any) -> Any:
        return action_from_json(obj)

    def _state_from_json(self, obj: dict[str, Any]) -> CelticaState:
        return CelticaState.from_json(self, obj)
