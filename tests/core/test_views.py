"""Every game's views hold what their declared types say, and the envelope every view shares.

mypy checks the readers against each game's view TypedDict; these tests check the other side:
that the dicts the engines build match those declarations, key by key and value by value, along
random games (casts at the edges, such as a score breakdown built from a name table, are where
a declaration could drift from the data unnoticed).
"""

from __future__ import annotations

import types
from typing import Any, Literal, NotRequired, Union, get_args, get_origin, get_type_hints, is_typeddict

import pytest

import meeple
from meeple.core.conformance import check_envelope, random_position
from meeple.core.views import View
from meeple.games.triqueta.view_types import TriquetaView

SCALARS = (bool, int, float, str)


def problems(value: object, hint: Any, where: str) -> list[str]:
    """Where `value` differs from the type `hint` (a TypedDict, list, dict, union, Literal or
    scalar), as readable paths; [] when it conforms."""
    origin, args = get_origin(hint), get_args(hint)
    if is_typeddict(hint):
        if type(value) is not dict:
            return [f"{where}: {type(value).__name__}, not an object"]
        fields = get_type_hints(hint, include_extras=True)
        required = {k for k, t in fields.items() if get_origin(t) is not NotRequired}
        found = [f"{where}: no {k!r}" for k in sorted(required - value.keys())]
        found += [f"{where}: undeclared {k!r}" for k in sorted(value.keys() - fields.keys())]
        for key in value.keys() & fields.keys():
            declared = fields[key]
            if get_origin(declared) is NotRequired:
                declared = get_args(declared)[0]
            found += problems(value[key], declared, f"{where}.{key}")
        return found
    if origin is list:
        if type(value) is not list:
            return [f"{where}: {type(value).__name__}, not a list"]
        return [p for i, item in enumerate(value) for p in problems(item, args[0], f"{where}[{i}]")]
    if origin is dict:
        if type(value) is not dict:
            return [f"{where}: {type(value).__name__}, not an object"]
        return [p for key, item in value.items()
                for p in problems(key, args[0], f"{where} key") + problems(item, args[1], f"{where}[{key!r}]")]
    if origin in (Union, types.UnionType):
        attempts = [problems(value, arg, where) for arg in args]
        return [] if any(not attempt for attempt in attempts) else [f"{where}: {value!r} is not {hint}"]
    if origin is Literal:
        return [] if value in args and type(value) is type(args[0]) else [f"{where}: {value!r} is not one of {args}"]
    if hint is type(None):
        return [] if value is None else [f"{where}: {value!r}, not None"]
    if hint in SCALARS:
        return [] if type(value) is hint else [f"{where}: {value!r} is not a {hint.__name__}"]
    raise AssertionError(f"{where}: the test has no check for {hint!r}")


def positions(name: str) -> list[Any]:
    """A few positions of every player count: the start, mid-game and a finished game."""
    game = meeple.load(name)
    found = []
    for players in range(game.min_players, game.max_players + 1):
        found += [random_position(game, players, seed=players, moves=moves) for moves in (0, 9)]
        found.append(random_position(game, players, seed=players, moves=100_000))
    return found


@pytest.mark.parametrize("name", meeple.game_names())
def test_views_match_the_type_their_plugin_declares(name):
    declared = meeple.game_plugin(name).view_type
    assert is_typeddict(declared) and declared is not View, "each game declares its own view type"
    checked_over = False
    for state in positions(name):
        checked_over |= state.is_terminal
        for seat in [None, *range(state.num_players)]:
            view = state.view(seat)
            assert problems(view, declared, f"{name} view({seat})") == []
            check_envelope(state, seat, view)
    assert checked_over


def test_the_checker_names_what_differs():
    """The type check finds a missing key, an undeclared one, a wrong scalar and a wrong member."""
    state = random_position(meeple.load("triqueta"), 2, seed=1, moves=0)
    view: dict[str, Any] = dict(state.view(0))
    view.pop("rock")
    view["finished"] = False
    view["round"] = "1"
    view["players"] = [dict(view["players"][0], out=0), view["players"][1]]
    assert sorted(problems(view, TriquetaView, "v")) == [
        "v.players[0].out: 0 is not a bool", "v.round: '1' is not a int", "v: no 'rock'", "v: undeclared 'finished'",
    ]
