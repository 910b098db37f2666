"""The Castell game definition: players, options, action space, how bots should search it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from meeple.core.plugin import GameInfo
from meeple.core.protocol import Game, OptionSpec, SearchTuning
from meeple.games.castell import towers
from meeple.games.castell.actions import NUM_ACTIONS, Action, action_from_json
from meeple.games.castell.components import (
    DECISIONS_PER_FESTIVAL_ROUND,
    FIRST_FESTIVAL_ROUND,
    LAST_ROUND,
    MOST_STEPS_PER_TURN,
    WHEELS,
)
from meeple.games.castell.state import CastellState

MAX_PLAYERS = 4
#: Actions one seat can take in a whole game (see `CastellGame.info`).
STEPS_PER_SEAT = (LAST_ROUND * MOST_STEPS_PER_TURN
                  + (LAST_ROUND - FIRST_FESTIVAL_ROUND + 1) * DECISIONS_PER_FESTIVAL_ROUND)


class CastellGame(Game[CastellState, Action]):
    """Castell, 2-4 players (rulings K1-K13)."""

    info = GameInfo(
        name="castell",
        title="Castell",
        min_players=2,
        max_players=MAX_PLAYERS,
        num_actions=NUM_ACTIONS,
        # From the rules: 10 rounds (K7's calendar ends with round 10) of one turn per seat, a
        # turn at most 7 steps (K4, K5: move, two recruits, train, the Special tile's free special
        # action, one paid special action, end_turn), then in each festival round (3-10) at most one
        # entry decision per seat (K8): 10 x 7 + 8 = 78 actions per seat, 156-312 at 2-4 players.
        # All chance is at set-up (the one opening chance node). The longest of 1,000 random games
        # per player count and option was 202 actions at four players.
        max_game_length=MAX_PLAYERS * STEPS_PER_SEAT,
        length_per_seat=STEPS_PER_SEAT,
        chance="sampled",
        information="imperfect",
        rules_version="1",
        options=(
            OptionSpec("wheel", "standard", "skill wheel side: standard (All Regions) or advanced (No Regions)",
                       WHEELS),
            OptionSpec(
                "components", "",
                "directory of component data files replacing the shipped ones (DIR, or DIR#sha256=HEX to pin them)",
                names_path="directory",
            ),
            OptionSpec(
                "performance_tokens", "own",
                "tokens a local performance moves to the player board: own (ruling K10) or all (rulebook text)",
                ("own", "all"),
            ),
            OptionSpec(
                "refill", "top_up",
                "rounds 3, 5, 7, 9: top each region up to 5/4/3 castellers (K2) or add 5/4/3 to it (add)",
                ("top_up", "add"),
            ),
            OptionSpec(
                "prize_ties", "lowest",
                "tied festival entrants take the prize of the lowest place their group covers (K9) or "
                "the prize one place below the place they tie for (one_lower)",
                ("lowest", "one_lower"),
            ),
        ),
    )
    state_class = CastellState
    #: Greedy rollouts cut off after 8 plies per opponent (8 at two players, 16 at three, 24 at
    #: four), then `heuristics.evaluate`: with 8 at three players greedy beat the search (docs/ai.md).
    #: The game review's playouts stop after 32 plies per opponent: playing on to the end cost 16
    #: times as long and moved a two-player estimate by 0.03 on average (docs/ai.md, "Game review").
    search = SearchTuning(rollout="greedy", cutoff=8, scale_cutoff=True, review_cutoff=32)

    def benchmarks(self) -> dict[str, Callable[[float, int], dict[str, Any]]]:
        """`meeple bench castell --part towers`: the tower solver on random mid-game teams."""
        return {"towers": _bench_towers}

    def action_from_json(self, obj: Any) -> Action:
        return action_from_json(obj)


def _bench_towers(seconds: float, seed: int) -> dict[str, Any]:
    report = towers.bench_towers(seconds, seed)
    report["summary"] = (
        f"Castell tower solver: median {report['median_ms']} ms, p99 {report['p99_ms']} ms, "
        f"max {report['max_ms']} ms over {report['solves']} festival solves"
    )
    return report
