"""Seeded games and searches whose every result is printed, to compare the compiled generator
with the pure one: `MEEPLE_PURE=1 python -m tests.core.twin_run` and without must print the same
(after the first line, which says which generator ran)."""

from __future__ import annotations

import hashlib
import json

from meeple.ai.bots import make_bot
from meeple.ai.match import play_game
from meeple.core.registry import games, load
from meeple.core.rng import RNG_KIND, Rng


def main() -> None:
    print(RNG_KIND)
    for name in games():
        game = load(name)
        for seed in (1, 2):
            players = game.min_players + seed - 1
            bots = [make_bot(spec) for spec in ("ismcts:30", "greedy", "random", "greedy")[:players]]
            state, result = play_game(game, bots, seed)
            record = hashlib.sha256(json.dumps(state.to_json(), sort_keys=True).encode()).hexdigest()
            print(name, seed, result.actions, list(result.scores), record)
        searcher = make_bot("ismcts:60")
        position = game.new_game(game.min_players, seed=5)
        stats = searcher.search(position, Rng(9))  # type: ignore[attr-defined]
        print(name, "visits", sorted(stats.visits.items()), sorted((k, round(v, 12)) for k, v in stats.values.items()))


if __name__ == "__main__":
    main()
