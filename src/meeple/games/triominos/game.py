"""The Triominos game definition: players, options, action space, how bots should search it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.core.errors import OptionError
from meeple.core.plugin import GameInfo
from meeple.core.protocol import Game, OptionSpec, SearchTuning
from meeple.games.triominos.actions import NUM_ACTIONS, Action, action_from_json
from meeple.games.triominos.components import NUM_TILES
from meeple.games.triominos.scoring import MAX_DRAWS
from meeple.games.triominos.state import TriominosState, rack_size

MAX_PLAYERS = 4
#: A match (M10) has no rule bound on its rounds (see `TriominosGame.game_length`); the bound
#: declared for one takes this many rounds per 100 points of the target, plus MATCH_SPARE_ROUNDS.
MATCH_ROUNDS_PER_100 = 3
MATCH_SPARE_ROUNDS = 3


def round_length(num_players: int) -> int:
    """The most actions one round at `num_players` seats can take, from the rules.

    Placements: a rack only empties by placing its last tile, which ends the round (M9), so at
    least n - 1 of the 56 tiles (M1) are never placed: at most 57 - n placements. Draws: at most
    the pool after the deal (M8: 56 - n x rack). Stops: one per three draws of a turn (M6)
    while the pool lasts. Once the pool is empty every turn places or ends idle (`pass`, or
    `stop` after draws that emptied it), and the round is blocked at the n-th idle turn in a row
    (M9): at most n - 1 idle turns before each placement and n at the end. So at most
    P + D + D // 3 + (n - 1) x P + n with P placements and D draws: 162, 211, 253 at 2-4."""
    placements = NUM_TILES + 1 - num_players
    draws = NUM_TILES - num_players * rack_size(num_players)
    return num_players * placements + draws + draws // MAX_DRAWS + num_players


class TriominosGame(Game[TriominosState, Action]):
    """Triominos, Goliath Deluxe edition, 2-4 players (rulings M1-M10)."""

    info = GameInfo(
        name="triominos",
        title="Triominos",
        min_players=2,
        max_players=MAX_PLAYERS,
        num_actions=NUM_ACTIONS,
        # One round (the default game) from the rules: `round_length` (162, 211, 253 actions at
        # 2-4 players; the longest of 1,000 random rounds per player count and option was 118).
        # A match (M10) has no rule bound: `TriominosGame.game_length`.
        max_game_length=round_length(MAX_PLAYERS),
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

    def game_length(self, num_players: int, options: Mapping[str, Any]) -> int:
        """One round: `round_length`, a rule bound. A match (M10) has none: a blocked round
        lowers every total (M9) and nothing makes a seat place rather than draw (M6), so rounds
        can repeat without any total nearing the target, and the engine sets no limit. The bound
        for a match is `round_length` times a number of rounds that grows with the target, at
        least twice the most rounds measured: 7 in 450 random and 90 greedy matches at the
        default target of 400 (2-4 players), 15 in 180 random matches at 1,000."""
        rounds = 1
        if options["match"]:
            rounds = MATCH_ROUNDS_PER_100 * -(-int(options["target"]) // 100) + MATCH_SPARE_ROUNDS
        return round_length(num_players) * rounds

    def resolve_options(self, options: Any) -> dict[str, Any]:
        resolved = super().resolve_options(options)
        if resolved["target"] < 1:
            raise OptionError(f"option 'target' must be at least 1, not {resolved['target']}")
        return resolved

    def action_from_json(self, obj: Any) -> Action:
        return action_from_json(obj)
