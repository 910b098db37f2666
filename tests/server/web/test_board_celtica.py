"""The Celtica web board: well-formed, only legal move ids, two-click moves that can finish, no
leak of hidden cards, both languages, escaped names, and labels for every legal move."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from meeple.core.conformance import random_position
from meeple.core.i18n import Catalog
from meeple.core.rng import Rng
from meeple.games.celtica.describe import action_label
from meeple.games.celtica.game import CelticaGame
from meeple.server.web.boards import board_for
from meeple.server.wire import legal_moves

GAME = CelticaGame()
LANGS = ("en", "zh-Hant")
board = board_for("celtica")


def catalog(lang: str) -> Catalog:
    return Catalog(["meeple.games.celtica"], lang)


def positions():
    for players in (2, 3, 5):
        for seed in range(3):
            for moves in (0, 7, 40, 120, 1000):
                yield random_position(GAME, players, seed, moves, walk_seed=seed + moves)
    for moves in (140, 150, 160):  # the end phase: swaps and "done"
        yield random_position(GAME, 2, 1, moves)


def seats(state):
    return [None, *range(state.num_players)]


def parse(html: str) -> ET.Element:
    return ET.fromstring(f"<root>{html}</root>")


def test_boards_parse_and_use_only_legal_ids_and_known_picks():
    cat = catalog("en")
    used = set()
    for state in positions():
        for seat in seats(state):
            legal = legal_moves(state, seat)
            root = parse(board(state.view(seat), seat, legal, cat))
            ids = {entry["id"] for entry in legal}
            picks = {e.get("data-pick") for e in root.iter() if e.get("data-pick")}
            for element in root.iter():
                number = element.get("data-action-id")
                if number is not None:
                    assert int(number) in ids
                    used.add(next(e["action"]["type"] for e in legal if e["id"] == int(number)))
                needs = element.get("data-needs")
                if needs is not None:
                    assert needs in picks
    assert {"play", "take", "give_up", "cult", "swap", "done"} <= used


def test_the_board_reads_nothing_the_seat_may_not_see():
    cat = catalog("en")
    for state in positions():
        for seat in range(state.num_players):
            legal = legal_moves(state, seat)
            drawn = board(state.view(seat), seat, legal, cat)
            for k in range(3):
                other = state.determinize(seat, Rng(k))
                assert board(other.view(seat), seat, legal_moves(other, seat), cat) == drawn


@pytest.mark.parametrize("lang", LANGS)
def test_both_languages_render_without_missing_keys(lang):
    cat = catalog(lang)
    for state in positions():
        for seat in seats(state):
            html = board(state.view(seat), seat, legal_moves(state, seat), cat)
            assert not re.search(r"\b(web|view|action|phase|part|colour|location)\.[a-z_]+", html), html


def test_player_names_are_escaped():
    cat = catalog("en")
    cat.player_names = ["<script>alert(1)</script>", "Bob & <b>"]
    state = random_position(GAME, 2, 1, 150)
    for seat in seats(state):
        html = board(state.view(seat), seat, legal_moves(state, seat), cat)
        assert "<script>" not in html and "<b>" not in html
        assert "&lt;script&gt;" in html
        parse(html)


@pytest.mark.parametrize("lang", LANGS)
def test_every_legal_action_has_a_label(lang):
    cat = catalog(lang)
    for state in positions():
        view = state.view(None)
        for action in state.legal_actions():
            for given in (None, view):
                label = action_label(action.to_json(), cat, given)
                assert label and "action." not in label and "web." not in label and "{" not in label


def test_every_legal_move_is_on_the_board_and_hands_stay_private():
    cat = catalog("en")
    for state in positions():
        for seat in seats(state):
            legal = legal_moves(state, seat)
            root = parse(board(state.view(seat), seat, legal, cat))
            on_board = {int(e.get("data-action-id", "-1")) for e in root.iter() if e.get("data-action-id")}
            assert on_board == {entry["id"] for entry in legal}
            hands = [e for e in root.iter() if e.get("aria-label") == cat.text("view.hand")]
            assert len(hands) == (seat is not None)
