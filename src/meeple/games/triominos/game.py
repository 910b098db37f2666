"""The Triominos game definition: players, options, action space, how bots should search it."""

from __future__ import annotations

from typing import Any

from meeple.core.errors import OptionError
from meeple.core.plugin import GameInfo
from meeple.core.protocol import Game, OptionSpec, SearchTuning
from meeple.games.triominos.actions import NUM_ACTIONS, Action, action_from_json
from meeple.games.triominos.state import TriominosState


class TriominosGame(Game[TriominosState, Action]):
    """Triominos, Goliath Deluxe edition, 2-4 players (rulings M1-M10)."""

    info = GameInfo(
        name="triominos",
        title="Triominos",
        min_players=2,
        max_players=4,
        num_actions=NUM_ACTIONS,
        # One round took at most 118 actions in 1,000 random games per player count and option; a
        # match (M10) to the default target at most 756. A larger target can make a match longer.
        max_game_length=2000,
        chance="sampled",
        information="imperfect",
        rules_version="1",
        options=(
            OptionSpec("drawn_tile_only", False, "M6 variant: after a draw only the drawn tile may be placed"),
            OptionSpec("match", False, "M10: play rounds until a total exceeds the target (default: one round)"),
            OptionSpec("target", 400, "M10: the match ends after the round in which a total exceeds this"),
        ),
    )
    state_class = TriominosState
    #: Greedy rollouts cut off after 16 plies; many placements per move, so more iterations
    #: per level (docs/games/triominos.md, docs/ai.md).
    search = SearchTuning(rollout="greedy", cutoff=16, iteration_scale=2.5)

    def resolve_options(self, options: Any) -> dict[str, Any]:
        resolved = super().resolve_options(options)
        if resolved["target"] < 1:
            raise OptionError(f"option 'target' must be at least 1, not {resolved['target']}")
        return resolved

    def action_from_json(self, obj: Any) -> Action:
        return action_from_json(obj)
