"""Seeded games, searches and bad input whose every result is printed, to compare the compiled
fast path with the pure-Python code: `MEEPLE_PURE=1 python -m tests.core.twin_run` and without
must print the same (after the first line, which says which code ran)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import Any

from meeple import _native
from meeple.ai.bots import make_bot
from meeple.ai.ismcts import SearchConfig, parse_level
from meeple.ai.match import play_game
from meeple.core.memo import Memo
from meeple.core.registry import game_names, load
from meeple.core.rng import Rng
from meeple.games.castell.towers.rules import check_skills, validate
from meeple.games.castell.towers.solver import team_counts

#: Bad input to compiled functions: the same outcome (answer or error) from both builds.
BAD_INPUT: list[tuple[str, Callable[[], Any]]] = [
    *[(f"validate {tower!r}", lambda tower=tower: validate(tower, (5, 5, 5, 5, 5)))
      for tower in [((0,),), ((11,),), (("3",),), ((3.0,),), [(3,)], ((3,), [2]), None, ((True,),), ((2**70,),)]],
    *[(f"team_counts {team!r}", lambda team=team: team_counts(team))
      for team in [(1, 2, 3), {11: 1}, {0: 2}, (0, -1) + (0,) * 9, {3: 1.5}, {"3": 1}, "abc", {3: None}]],
    *[(f"check_skills {skills!r}", lambda skills=skills: check_skills(skills))
      for skills in [(1, 2), (1, 2, 3, 4, 6), (1.0, 2, 3, 4, 5), "12345"]],
    *[(f"parse_level {text!r}", lambda text=text: parse_level(text))
      for text in ["", "0", "-3", "1.5", "0s", "normal,c=x", "normal,rollout=nope", "easy,cutoff=1.5", "hard,foo=1"]],
    ("SearchConfig iterations=0", lambda: SearchConfig(iterations=0)),
    ("SearchConfig rollout='x'", lambda: SearchConfig(iterations=5, rollout="x")),
    ("Memo max_bytes=0", lambda: type(Memo("twin", max_bytes=0)).__name__),
]


def bad_calls(state: Any) -> list[tuple[str, Callable[[], Any]]]:
    """A state's public entries given what a player, a client or a test might wrongly pass: the
    compiled states check these by value, as the pure ones do."""
    wrong: list[Any] = [None, "0", True, 1.5, -1, 99, {"type": "draw"}]
    return [
        *[(f"action_id {v!r}", lambda v=v: state.action_id(v)) for v in wrong],
        *[(f"action_from_id {v!r}", lambda v=v: state.action_from_id(v)) for v in wrong],
        *[(f"apply {v!r}", lambda v=v: state.apply(v)) for v in wrong],
        *[(f"view {v!r}", lambda v=v: state.view(v)) for v in wrong],
        *[(f"determinize {v!r}", lambda v=v: state.determinize(v, Rng(1))) for v in wrong],
    ]


def outcome(call: Callable[[], Any]) -> str:
    try:
        return f"= {call()!r}"
    except Exception as exc:  # what is compared is which error, with which words
        return f"! {type(exc).__name__}: {exc}"


def main() -> None:
    print(_native.MODE, len(_native.compiled_modules()))
    for label, call in BAD_INPUT:
        print(label, outcome(call))
    for name in game_names():
        game = load(name)
        for seed in (1, 2):
            players = game.min_players + seed - 1
            bots = [make_bot(spec) for spec in ("ismcts:30", "greedy", "random", "greedy")[:players]]
            state, result = play_game(game, bots, seed)
            record = hashlib.sha256(json.dumps(state.to_json(), sort_keys=True).encode()).hexdigest()
            print(name, seed, result.actions, list(result.scores), record)
        fresh = game.new_game(game.min_players, seed=3)
        for label, call in bad_calls(fresh):
            print(name, label, outcome(call))
        assert fresh.to_json() == game.new_game(game.min_players, seed=3).to_json()
        searcher = make_bot("ismcts:60")
        position = game.new_game(game.min_players, seed=5)
        stats = searcher.search(position, Rng(9))  # type: ignore[attr-defined]
        print(name, "visits", sorted(stats.visits.items()), sorted((k, round(v, 12)) for k, v in stats.values.items()))


if __name__ == "__main__":
    main()
