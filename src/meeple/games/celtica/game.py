"""The Celtica game definition: players, the board option, action space, how bots should search it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from meeple.core.plugin import GameInfo
from meeple.core.protocol import Game, OptionSpec, SearchTuning
from meeple.games.celtica.actions import NUM_ACTIONS, Action, action_from_json
from meeple.games.celtica.board_file import load_board
from meeple.games.celtica.components import (
    CULT,
    DRUID_CARDS,
    EXPERIENCE_CARDS,
    FIND,
    HAND_SIZE,
    NUM_COLOURS,
    RUIN,
    Board,
)
from meeple.games.celtica.state import CelticaState

MAX_PLAYERS = 5


def length_bound(board: Board, num_players: int) -> int:
    """The most actions a game on `board` at `num_players` seats can take, from the rules.

    A play that moves a druid (C5) moves it forward to a location it never reached before, so a
    druid makes at most one moving play per location 1..goal, and each such play is followed
    by at most what that location asks: `number` takes at a find site (C6) or give-ups at a
    ruin (C7), one draw-or-pass decision at a cult site (C8). That is 5 x sum(1 + asks) actions.
    A play of a druid already in the goal (C5: no effect) is possible only in the final round
    (C10), and uses at least one druid card of that round: its 5 per seat (C9) plus at most
    one per moving play onto a cult site (5 x cult sites), never more than the 60 cards (C1).
    The end phase (C11) spends the 20 experience cards at least one per action, plus one
    `done` per seat. On the shipped board: 5 x 48 + min(60, 5n + 15) + 20 + n actions."""
    moving = sum(1 + (number if where in (FIND, RUIN) else int(where == CULT))
                 for where, number in zip(board.actions[1:], board.numbers[1:], strict=True))
    cults = sum(1 for where in board.actions[1:board.goal] if where == CULT)
    no_effect = min(DRUID_CARDS, HAND_SIZE * num_players + NUM_COLOURS * cults)
    return NUM_COLOURS * moving + no_effect + EXPERIENCE_CARDS + num_players


class CelticaGame(Game[CelticaState, Action]):
    """Celtica, 2-5 players (rulings C1-C12)."""

    info = GameInfo(
        name="celtica",
        title="Celtica",
        min_players=2,
        max_players=MAX_PLAYERS,
        num_actions=NUM_ACTIONS,
        # From the rules and the shipped board (`length_bound`): 305 actions at five players, 6
        # fewer per seat fewer. The longest of 1,000 random games per player count was 222 actions.
        max_game_length=length_bound(load_board(""), MAX_PLAYERS),
        length_per_seat=HAND_SIZE + 1,
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
    #: The game review's playouts stop after 20 plies too: the fitted evaluation moved a
    #: two-player estimate by 0.03 on average against playing to the end, at a fifth of the time.
    search = SearchTuning(rollout="greedy", cutoff=20, exploration=0.3, greedy_margin=0.05, review_cutoff=20)

    def game_length(self, num_players: int, options: Mapping[str, Any]) -> int:
        """The rule bound on the board the options name (`length_bound`)."""
        return length_bound(load_board(options["board"]), num_players)

    def resolve_options(self, options: Any) -> dict[str, Any]:
        resolved = super().resolve_options(options)
        load_board(resolved["board"])  # DataError now rather than at the first move
        return resolved

    def action_from_json(self, obj: Any) -> Action:
        return action_from_json(obj)
