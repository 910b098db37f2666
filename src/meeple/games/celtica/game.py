"""The Celtica game definition: players, the board option, action space, how bots should search it."""

from __future__ import annotations

from typing import Any

from meeple.core.plugin import GameInfo
from meeple.core.protocol import Game, OptionSpec, SearchTuning
from meeple.games.celtica.actions import NUM_ACTIONS, Action, action_from_json
from meeple.games.celtica.board_file import load_board
from meeple.games.celtica.state import CelticaState


class CelticaGame(Game[CelticaState, Action]):
    """Celtica, 2-5 players (rulings C1-C12)."""

    info = GameInfo(
        name="celtica",
        title="Celtica",
        min_players=2,
        max_players=5,
        num_actions=NUM_ACTIONS,
        # No rule caps the number of turns exactly; the longest of 1,000 random games per player count
        # was 222 actions (four players): this bound leaves room, and the tests check it.
        max_game_length=500,
        chance="sampled",
        information="imperfect",
        rules_version="1",
        options=(
            OptionSpec(
                "board",
                "",
                "board file (TOML, see docs/games/celtica.md) or inline 'layout:...'; empty: the shipped "
                "reconstructed board (C3)",
                names_path="file",
            ),
        ),
    )
    state_class = CelticaState
    #: Greedy rollouts cut off after 20 plies, then `heuristics.evaluate`, with a lower
    #: exploration constant; the greedy move stands unless the search beats it by 0.05 (which
    #: part to take shows only long after the search's horizon). docs/ai.md has the trials.
    search = SearchTuning(rollout="greedy", cutoff=20, exploration=0.3, greedy_margin=0.05)

    def resolve_options(self, options: Any) -> dict[str, Any]:
        resolved = super().resolve_options(options)
        load_board(resolved["board"])  # DataError now rather than at the first move
        return resolved

    def action_from_json(self, obj: Any) -> Action:
        return action_from_json(obj)
