"""Catalogs, the terminal drawing and move labels."""

from __future__ import annotations

import tomllib
from importlib import resources
from typing import Any

import pytest
from rich.console import Console

from meeple.cli.render import triqueta as render
from meeple.core.i18n import Catalog
from meeple.core.rng import Rng
from meeple.core.text import event_text
from meeple.games.triqueta import heuristics
from meeple.games.triqueta.actions import ALL_ACTIONS, KINDS
from meeple.games.triqueta.components import ANIMALS
from meeple.games.triqueta.view_types import TriquetaView
from tests.triqueta.helpers import BEAR, GAME, OWL, draw, keep, new, set_next_draws

LANGS = ("en", "zh-Hant")


def catalog(lang: str) -> Catalog:
    return Catalog(["meeple.games.triqueta"], lang)


def _keys(lang: str) -> set[str]:
    """Dotted keys of one catalog file on its own (no fallback to English)."""
    text = resources.files("meeple.games.triqueta").joinpath("locale", f"{lang}.toml").read_text("utf-8")

    def flat(table: dict[str, Any], prefix: str = "") -> set[str]:
        out: set[str] = set()
        for key, value in table.items():
            plural = isinstance(value, dict) and "other" in value  # one message in plural forms
            out |= flat(value, f"{prefix}{key}.") if isinstance(value, dict) and not plural else {prefix + key}
        return out

    return flat(tomllib.loads(text))


def drawn(view: TriquetaView, seat: int | None, lang: str = "en") -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(render.board(view, catalog(lang), seat))
    return console.export_text()


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_has_every_key(lang):
    keys = _keys(lang)
    needed = {f"action.{k}" for k in KINDS} | {f"animal.{a}" for a in range(len(ANIMALS))}
    needed |= {f"score.{a}" for a in ANIMALS} | {f"score.{p}" for p in ("rock", "trees", "total")}
    needed |= {f"event.{e}" for e in ("draw", "place", "keep", "discard", "take", "round_end", "tree", "reveal",
                                       "game_end")}
    assert needed <= keys
    assert _keys("zh-Hant") <= _keys("en")  # zh-Hant takes the row numbers from English


def test_every_emitted_event_has_a_message():
    cat = catalog("en")
    for seed in range(6):
        duo = seed % 2 == 1
        state = GAME.new_game(2 if duo else 3, seed=seed, duo=duo)  # T9: duo is for two players
        rng = Rng(seed)
        while not state.is_terminal:
            for event in state.apply(heuristics.choose(state, rng)):
                assert cat.has(f"event.{event.key}")
                for seat in (None, 0, 1, 2):
                    assert "event." not in event_text(event, seat, cat)


@pytest.mark.parametrize("lang", LANGS)
def test_board_draws_for_every_seat_and_the_end(lang):
    state = new(3)
    set_next_draws(state, [OWL])
    state.apply(draw)
    text = drawn(state.view(0), 0, lang)
    assert catalog(lang).name("animal", OWL) in text
    state.apply(keep)
    for seat in (None, 0, 1, 2):
        assert drawn(state.view(seat), seat, lang)
    rng = Rng(3)
    while not state.is_terminal:
        state.apply(heuristics.choose(state, rng))
    assert drawn(state.view(None), None, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_action_labels(lang):
    cat = catalog(lang)
    for action in ALL_ACTIONS:
        label = render.action_label(action.to_json(), cat)
        assert "action." not in label and len(label) < 40
    assert render.action_label({"type": "take", "row": 1}, catalog("en")) == "Take row 2"
    state = new(2)
    set_next_draws(state, [OWL])
    state.apply(draw)
    view = state.view(state.current_player)
    assert render.action_label({"type": "keep", "slot": 0}, catalog("en"), view) == "Keep the owl face down"


def test_action_labels_read_as_sentences_naming_the_drawn_animal():
    """A label is what a player would say: capitalised, the drawn animal named (T9: with two
    drawn, "Keep it face down" would not say which), a duo draw draws two."""
    cat = catalog("en")
    state = new(2, duo=True)
    set_next_draws(state, [OWL, BEAR])
    start = state.view(0)
    state.apply(draw)
    two = state.view(0)
    assert two["pending"] == [OWL, BEAR]
    assert render.action_label({"type": "place", "row": 0, "slot": 1}, cat, two) == "Place the bear in row 1"
    assert render.action_label({"type": "discard", "slot": 0}, cat, two) == "Return the owl to the box"
    assert render.action_label({"type": "draw"}, cat, start) == "Draw two tokens"
    last: TriquetaView = {**start, "towers": [1, 15, 15, 15]}
    assert render.action_label({"type": "draw"}, cat, last) == "Draw a token"  # T9: one left, one drawn
    for action in ALL_ACTIONS:
        label = render.action_label(action.to_json(), cat, two)
        assert label[0].isupper() and "(s)" not in label and ":" not in label
