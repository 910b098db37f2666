"""A fixed engine workload for counting instructions, which any build of meeple since the
compiled fast path can run (older builds have no `meeple bench --count`): N random games
through `step`, or N ISMCTS iterations of the opening position at the default level, 3 players.

Run it under valgrind on each tree and subtract the count of N from that of 2N, so start-up
and imports drop out (docs/performance.md, "The whole issue against 27d68ab"):

    PYTHONHASHSEED=0 PYTHONPATH=TREE/src valgrind --tool=callgrind python docs/count_workload.py playouts triqueta 200
"""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import Any


def playouts(game: Any, players: int, count: int) -> int:
    from meeple.core.rng import Rng

    actions = 0
    for g in range(count):
        state = game.new_game(players, seed=g)
        rng = Rng(g)
        while not state.is_terminal:
            legal = state.legal_actions()
            state.step(legal[rng.below(len(legal))])
            actions += 1
    return actions


def search(game: Any, players: int, count: int) -> int:
    from meeple.ai.ismcts import ISMCTSBot, parse_level
    from meeple.core.rng import Rng

    config = replace(parse_level(None, game.search), iterations=count, seconds=None)
    return int(ISMCTSBot(config, name="ismcts").search(game.new_game(players, seed=0), Rng(0)).iterations)


def main() -> None:
    import meeple._native as native
    from meeple.core.registry import load

    kind, name, count = sys.argv[1], sys.argv[2], int(sys.argv[3])
    done = (playouts if kind == "playouts" else search)(load(name), 3, count)
    print(f"{native.MODE} build: {kind} {name} {count}: {done}", file=sys.stderr)


if __name__ == "__main__":
    main()
