"""The Triominos web board: well-formed, moves only from `legal`, nothing hidden leaks, both
languages, escaped names; and the shared move labels cover every legal move."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from meeple.core.conformance import random_position
from meeple.core.i18n import Catalog
from meeple.core.registry import load
from meeple.core.rng import Rng
from meeple.games.triominos import describe
from meeple.server.web.boards import board_for
from meeple.server.web.boards.triominos import board
from meeple.server.wire import legal_moves

GAME = load("triominos")
LANGS = ("en", "zh-Hant")
#: (players, seed, random moves before the position): openings, mid-games and finished games.
POSITIONS = [(p, seed, moves) for p in (2, 3, 4) for seed, moves in ((1, 0), (2, 1), (3, 9), (4, 30), (5, 400))]


def catalog(lang: str = "en") -> Catalog:
    return Catalog(["meeple.games.triominos"], lang)


def seats(state) -> list[int | None]:
    return [None, *range(state.num_players)]


def parse(html: str) -> ET.Element:
    return ET.fromstring(f"<root>{html}</root>")


@pytest.mark.parametrize(("players", "seed", "moves"), POSITIONS)
def test_board_is_xml_with_moves_only_from_legal(players, seed, moves):
    state = random_position(GAME, players, seed, moves)
    cat = catalog()
    for seat in seats(state):
        legal = legal_moves(state, seat)
        root = parse(board(state.view(seat), seat, legal, cat))
        ids = {m["id"] for m in legal}
        shown = [int(e.get("data-action-id", "")) for e in root.iter() if e.get("data-action-id") is not None]
        assert set(shown) <= ids
        picks = {e.get("data-pick") for e in root.iter() if e.get("data-pick") is not None}
        needs = {e.get("data-needs") for e in root.iter() if e.get("data-needs") is not None}
        assert needs <= picks
        if seat is not None:
            assert picks <= set(state.view(seat)["rack"])
        # Every legal move is on the board: placements on their cells, the rest as buttons.
        assert set(shown) == ids
        for e in root.iter():
            if e.get("data-action-id") is not None or e.get("data-pick") is not None:
                assert e.get("role") == "button" and e.get("tabindex") == "0" and e.get("aria-label")


@pytest.mark.parametrize(("players", "seed", "moves"), POSITIONS)
def test_no_leak_under_determinization(players, seed, moves):
    state = random_position(GAME, players, seed, moves)
    cat = catalog()
    for seat in range(players):
        html = board(state.view(seat), seat, legal_moves(state, seat), cat)
        spectator = board(state.view(None), None, [], cat)
        for k in range(3):
            other = state.determinize(seat, Rng(100 + k))
            assert board(other.view(seat), seat, legal_moves(other, seat), cat) == html
            assert board(other.view(None), None, [], cat) == spectator


@pytest.mark.parametrize("lang", LANGS)
def test_both_languages_render_without_missing_keys(lang):
    cat = catalog(lang)
    for players, seed, moves in POSITIONS:
        state = random_position(GAME, players, seed, moves)
        for seat in seats(state):
            html = board(state.view(seat), seat, legal_moves(state, seat), cat)
            assert not re.search(r"\b(web|view|action|component)\.[a-z_]+", html), html
    assert catalog("en").messages.keys() == catalog("zh-Hant").messages.keys()


def test_player_names_are_escaped():
    cat = catalog()
    cat.player_names = ["<script>alert(1)</script>", "Bob & <b>Al</b>", "x\"y", "'z'"]
    state = random_position(GAME, 4, 3, 0)  # the opening draws name every player
    for seat in seats(state):
        html = board(state.view(seat), seat, legal_moves(state, seat), cat)
        assert "<script>" not in html and "<b>" not in html
        root = parse(html)
        assert any("<script>" in (e.text or "") for e in root.iter())


def test_the_page_finds_the_board_by_game_name():
    assert board_for("triominos") is board


def test_opening_move_is_a_pick_then_the_first_cell():
    state = random_position(GAME, 2, 1, 0)
    seat = state.current_player
    legal = legal_moves(state, seat)
    root = parse(board(state.view(seat), seat, legal, catalog()))
    picks = {e.get("data-pick") for e in root.iter() if e.get("data-pick")}
    assert picks == set(state.view(seat)["rack"])
    assert all(e.get("data-needs") in picks for e in root.iter() if e.get("data-action-id"))


@pytest.mark.parametrize("lang", LANGS)
def test_describe_labels_every_legal_action(lang):
    cat = catalog(lang)
    for players, seed, moves in POSITIONS:
        state = random_position(GAME, players, seed, moves)
        seat = state.current_player
        if seat is None:
            continue
        view = state.view(seat)
        for move in legal_moves(state, seat):
            label = describe.action_label(move["action"], cat, view)
            assert label and "action." not in label and "{" not in label
            if move["action"]["type"] == "place" and view["board"]:
                assert label.startswith("[")
