"""Protocol conformance checks shared by every game's tests.

`check_random_game` plays one random game and asserts, after every action, the invariants the
protocol promises: JSON round-trip, cheap clone equal to the original, views JSON-safe, holding
the shared envelope (meeple.core.views) and unchanged by re-sampling what the viewer cannot see,
illegal actions rejected without change, and determinism from the seed. A game adds its own invariants through `extra`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from itertools import islice
from typing import Any

from meeple.core.errors import IllegalAction
from meeple.core.events import Recorder
from meeple.core.protocol import Game, StateT
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.core.views import View


def canonical(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def check_state(state: State[Any], rng: Rng, views: bool = True) -> None:
    """Invariants of one position."""
    game = state.game
    data = state.to_json()
    text = canonical(data)
    restored = game.from_json(json.loads(text))
    assert canonical(restored.to_json()) == text, "to_json/from_json does not round-trip"
    copy = state.clone()
    assert canonical(copy.to_json()) == text, "clone differs from the original"
    if views:
        seats: list[int | None] = [None, *range(state.num_players)]
        for seat in seats:
            view = state.view(seat)
            canonical(view)  # JSON-safe
            check_envelope(state, seat, view)
            if seat is not None:
                sample = state.determinize(seat, rng)
                assert canonical(sample.view(seat)) == canonical(view), (
                    f"determinize({seat}) changed what seat {seat} sees"
                )
                assert canonical(state.to_json()) == text, "determinize changed the state"
    if not state.is_terminal:
        legal = state.legal_actions()
        assert legal, "a running game must offer a legal action"
        ids = state.legal_action_ids()
        assert len(set(ids)) == len(ids), "two legal actions share an id"
        n = game.info.num_actions
        assert all(0 <= i < n for i in ids), "action id out of range"
        for action, action_id in zip(legal, ids):
            assert state.action_id(action) == action_id
        legal_ids = set(ids)
        illegal = list(islice((i for i in range(n) if i not in legal_ids), 3))
        for action_id in illegal:
            try:
                action = state.action_from_id(action_id)
            except IllegalAction:
                continue
            try:
                state.apply(action)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"illegal action id {action_id} was accepted")
            assert canonical(state.to_json()) == text, "a rejected action changed the state"


def check_envelope(state: State[Any], seat: int | None, view: View) -> None:
    """The part every view shares (meeple.core.views) says who looks and how the game stands."""
    expected: View = {"game": state.game.name, "seat": seat, "current_player": state.current_player,
                      "over": state.is_terminal, "scores": state.scores(), "winners": state.winners()}
    shown = {key: view.get(key) for key in expected}
    assert shown == expected, f"view({seat}) says {shown}, the state {expected}"


def check_random_game(
    game: Game[StateT, Any],
    num_players: int,
    seed: int,
    options: dict[str, Any] | None = None,
    extra: Callable[[StateT], None] | None = None,
    views_every: int = 1,
    max_actions: int = 100_000,
) -> StateT:
    """Play one random game checking every invariant; returns the final state."""
    options = options or {}
    rng = Rng(seed ^ 0x5EED)
    state = game.new_game(num_players, seed=seed, **options)
    actions = []
    step = 0
    while not state.is_terminal:
        check_state(state, rng, views=step % views_every == 0)
        if extra is not None:
            extra(state)
        action = rng.choice(state.legal_actions())
        round_trip = game.action_from_json(json.loads(canonical(action.to_json())))
        assert round_trip == action, "action JSON does not round-trip"
        assert state.action_from_id(state.action_id(action)) is not None
        events = state.apply(action)
        for event in events:
            for seat in [None, *range(num_players)]:
                canonical(event.for_seat(seat))
        actions.append(action)
        step += 1
        assert step < max_actions, "game did not end"
    check_state(state, rng)
    if extra is not None:
        extra(state)
    assert state.legal_actions() == [] or state.is_terminal
    winners = state.winners()
    assert winners and all(0 <= w < num_players for w in winners)
    assert len(state.scores()) == num_players
    assert len(state.score_breakdown()) == num_players
    again = game.new_game(num_players, seed=seed, **options)
    for action in actions:
        again.step(action)
    assert canonical(again.to_json()) == canonical(state.to_json()), "same seed and actions, different state"
    return state


def check_quiet_sink(recording: type[Recorder], quiet: Recorder) -> None:
    """A game's quiet event sink (meeple.core.events) overrides every event method its
    recording class declares and holds nothing, so the search path never builds an event."""
    assert isinstance(quiet, recording) and type(quiet) is not recording, "the quiet sink is not a subclass"
    below = recording.__mro__[: recording.__mro__.index(Recorder)]
    kinds = {name for cls in below for name, value in vars(cls).items() if not name.startswith("_") and callable(value)}
    assert kinds, "the recording class declares no event"
    missing = sorted(kinds - set(vars(type(quiet))))
    assert not missing, f"the quiet sink would record {missing}"
    assert not hasattr(quiet, "log") and not getattr(quiet, "__dict__", None), "the quiet sink holds state"


def random_position(
    game: Game[StateT, Any], num_players: int, seed: int, moves: int, walk_seed: int = 2, **options: Any
) -> StateT:
    """The position after up to `moves` uniformly random legal moves (drawn from `walk_seed`)
    from a new game with `seed`: the test positions of every game's codec and bot tests."""
    state = game.new_game(num_players, seed=seed, **options)
    rng = Rng(walk_seed)
    for _ in range(moves):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        state.apply(legal[rng.below(len(legal))])
    return state


def set_path(data: Any, path: Sequence[Any], value: Any) -> None:
    """Set `data[path[0]][path[1]]...` to `value`: for tampering with a saved state in tests."""
    for key in path[:-1]:
        data = data[key]
    data[path[-1]] = value


def check_ids_round_trip(state: State[Any], num_actions: int, walk_seed: int) -> None:
    """Along random play from `state`: legal ids are distinct, in [0, num_actions), and map
    back to the legal actions in order."""
    rng = Rng(walk_seed)
    while not state.is_terminal:
        legal = state.legal_actions()
        ids = state.legal_action_ids()
        assert len(set(ids)) == len(ids) and all(0 <= i < num_actions for i in ids)
        assert [state.action_from_id(i) for i in ids] == legal
        state.step(legal[rng.below(len(legal))])
