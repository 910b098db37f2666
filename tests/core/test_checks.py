"""The shared checks of outside values: every game's actions refuse unknown fields and numbers of
the wrong type, and text from outside is held to one rule and shown safely."""

from __future__ import annotations

import unicodedata
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import meeple
from meeple.core.checks import clean_text, object_kind, printable, shown
from meeple.core.conformance import random_position
from meeple.core.errors import RecordError
from meeple.core.registry import game_names


def _sample_actions(name: str) -> list[dict[str, Any]]:
    """The JSON of a spread of actions of `name`: the legal ones of a few random positions."""
    game = meeple.load(name)
    found: dict[str, dict[str, Any]] = {}
    for seed, moves in ((1, 0), (2, 7), (3, 25), (4, 60)):
        for action in random_position(game, 2, seed, moves).legal_actions():
            found.setdefault(repr(sorted(action.to_json().items())), action.to_json())
    return list(found.values())


@pytest.mark.parametrize("name", game_names())
def test_every_game_refuses_an_unknown_field_inside_an_action(name):
    game = meeple.load(name)
    for raw in _sample_actions(name):
        assert game.action_from_json(raw).to_json() == raw
        extras: list[dict[str, Any]] = [{"extra": {}}, {"Type": raw["type"]}, {"": None}]
        for extra in extras:
            with pytest.raises(RecordError, match="has no field"):
                game.action_from_json({**raw, **extra})


@pytest.mark.parametrize("name", game_names())
def test_every_game_refuses_a_number_of_the_wrong_type_in_an_action(name):
    game = meeple.load(name)
    numbers = [(raw, key) for raw in _sample_actions(name) for key, value in raw.items() if type(value) is int]
    assert numbers, "some action of every game carries a number"
    for raw, key in numbers:
        for wrong in (True, False, float(raw[key]), str(raw[key]), [raw[key]], None):  # True == 1, 1.0 == 1
            with pytest.raises(RecordError):
                game.action_from_json({**raw, key: wrong})


def test_object_kind_names_the_first_problem():
    fields = {"take": ("row",), "draw": ()}
    assert object_kind({"type": "take", "row": 0}, fields, "toy action") == "take"
    assert object_kind({"type": "draw"}, fields, "toy action") == "draw"
    for bad, words in (([], "is a JSON object"), ({"row": 0}, "unknown toy action type None"),
                       ({"type": True}, "unknown toy action type True"),
                       ({"type": "draw", "row": 0}, "has no field 'row'")):
        with pytest.raises(RecordError, match=words):
            object_kind(bad, fields, "toy action")


def _unsafe(character: str) -> bool:
    return unicodedata.category(character) in ("Cc", "Cs")


@settings(max_examples=300)
@given(text=st.text(st.characters(codec=None), max_size=30))
def test_clean_text_refuses_exactly_control_characters_and_lone_surrogates(text):
    if any(_unsafe(c) for c in text):
        with pytest.raises(RecordError, match="control characters and lone surrogates"):
            clean_text(text, "name")
    else:
        assert clean_text(text, "name") == text
        text.encode("utf-8")  # storable anywhere


@settings(max_examples=300)
@given(text=st.text(st.characters(codec=None), max_size=2000), limit=st.integers(10, 400))
def test_printable_text_is_short_encodable_and_free_of_control_characters(text, limit):
    shown_text = printable(text, limit)
    assert len(shown_text) <= limit
    shown_text.encode("utf-8")
    assert not any(_unsafe(c) for c in shown_text)
    if len(text) <= limit and not any(_unsafe(c) for c in text):
        assert shown_text == text


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**200), 2**200) | st.floats() | st.text(st.characters(codec=None)),
    lambda inner: st.lists(inner, max_size=8) | st.dictionaries(st.text(max_size=50), inner, max_size=8),
    max_leaves=20,
)


@settings(max_examples=100)
@given(value=json_values | st.text(st.characters(codec=None), min_size=1000, max_size=20_000))
def test_a_shown_value_is_short_and_encodable(value):
    text = shown(value)
    assert len(text) <= 100
    text.encode("utf-8")
