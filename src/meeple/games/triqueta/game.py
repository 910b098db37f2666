"""The Triqueta game definition: players, options, action space."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.core.errors import OptionError
from meeple.core.plugin import GameInfo
from meeple.core.protocol import Game, OptionSpec, SearchTuning
from meeple.games.triqueta.actions import NUM_ACTIONS, Action, action_from_json
from meeple.games.triqueta.components import MAX_PLAYERS, TOKENS_PER_TOWER, TOWERS
from meeple.games.triqueta.state import TriquetaState


class TriquetaGame(Game[TriquetaState, Action]):
    """Triqueta, 2-5 players (rulings T1-T9)."""

    info = GameInfo(
        name="triqueta",
        title="Triqueta",
        min_players=2,
        max_players=MAX_PLAYERS,
        num_actions=NUM_ACTIONS,
        # Each token is drawn, then placed, kept or discarded (two actions at most; under duo, T9,
        # one draw and two actions for two tokens), and in each round every seat takes one row
        # (T3-T6): 4 rounds x (2 x 15 tokens + one row per seat), reached when the last seat in
        # draws the whole tower (T5): 128, 132, 136, 140 actions at 2-5 players.
        max_game_length=TOWERS * (2 * TOKENS_PER_TOWER + MAX_PLAYERS),
        length_per_seat=TOWERS,
        chance="sampled",
        information="imperfect",
        rules_version="1",
        options=(
            OptionSpec("duo", False, "T9: draw two tokens and do two different things with them (2 players only)"),
        ),
    )
    state_class = TriquetaState
    #: Random playouts cut off after 3 plies per opponent (3 at two players, 9 at four), then
    #: `heuristics.evaluate`: playouts to the end left the search level with greedy at four
    #: players, and random players' row-taking is noise there (docs/ai.md).
    search = SearchTuning(cutoff=3, scale_cutoff=True)

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> None:
        """T9 (amended): the duo variant is for two players only."""
        if options["duo"] and num_players != 2:
            raise OptionError(f"option duo (T9) is for two players, not {num_players}")

    def action_from_json(self, obj: Any) -> Action:
        return action_from_json(obj)
