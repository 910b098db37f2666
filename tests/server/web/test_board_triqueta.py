"""The Triqueta browser board: well-formed, moves only from `legal`, nothing hidden, both languages."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from meeple.core.conformance import random_position
from meeple.core.i18n import Catalog
from meeple.core.rng import Rng
from meeple.games.triqueta import describe
from meeple.games.triqueta.game import TriquetaGame
from meeple.games.triqueta.state import TriquetaState
from meeple.server.web.boards import board_for
from meeple.server.web.boards.triqueta import board
from meeple.server.wire import legal_moves

GAME = TriquetaGame()
LANGS = ("en", "zh-Hant")
#: (players, options) of the positions: every player count and the duo variant (T9).
SETUPS: tuple[tuple[int, dict[str, Any]], ...] = ((2, {}), (2, {"duo": True}), (3, {}), (4, {}), (5, {}))
#: Walk lengths from the first turn to past the end of a game (a walk stops at game over).
MOVES = (0, 1, 7, 20, 33, 58, 90, 400)
#: A catalog key shown for want of a message (Catalog.text shows the key itself).
MISSING = re.compile(r"\b(?:web|ui|action|animal|row|score)\.[a-z0-9_.]+")


def catalog(lang: str) -> Catalog:
    return Catalog(["meeple.games.triqueta"], lang)


def positions() -> list[TriquetaState]:
    found = []
    for players, options in SETUPS:
        for seed in (1, 2, 3):
            for moves in MOVES:
                found.append(random_position(GAME, players, seed, moves, walk_seed=seed + moves, **options))
    return found


POSITIONS = positions()


def seats(state: TriquetaState) -> list[int | None]:
    return [*range(state.num_players), None]


def render(state: TriquetaState, seat: int | None, cat: Catalog) -> str:
    return board(state.view(seat), seat, legal_moves(state, seat), cat)


def parse(html: str) -> ET.Element:
    return ET.fromstring(f"<root>{html}</root>")


def test_the_contract_finds_the_board() -> None:
    assert board_for("triqueta") is board


def test_positions_cover_the_game() -> None:
    assert any(s.over for s in POSITIONS) and any(s.pending for s in POSITIONS)
    assert any(len(s.pending) == 2 for s in POSITIONS)  # duo: two tokens drawn at once


@pytest.mark.parametrize("lang", LANGS)
def test_well_formed_and_moves_only_from_legal(lang: str) -> None:
    cat = catalog(lang)
    for state in POSITIONS:
        for seat in seats(state):
            legal = legal_moves(state, seat)
            ids = {str(m["id"]) for m in legal}
            root = parse(board(state.view(seat), seat, legal, cat))
            found = [e.get("data-action-id") for e in root.iter() if e.get("data-action-id") is not None]
            assert set(found) <= ids
            picks = {e.get("data-pick") for e in root.iter() if e.get("data-pick") is not None}
            assert {e.get("data-needs") for e in root.iter() if e.get("data-needs") is not None} <= picks
            for e in root.iter():
                if e.get("data-action-id") is not None:
                    assert e.get("role") == "button" and e.get("aria-label")


def test_the_natural_moves_are_on_the_board() -> None:
    """Take a row, draw, place in a row and keep face down are all clickable where they are made."""
    cat = catalog("en")
    on_board: set[str] = set()
    for state in POSITIONS:
        seat = state.current_player
        if seat is None:
            continue
        legal = legal_moves(state, seat)
        root = parse(board(state.view(seat), seat, legal, cat))
        clickable = {e.get("data-action-id") for e in root.iter()}
        kinds = {str(m["id"]): m["action"]["type"] for m in legal}
        on_board |= {kinds[i] for i in clickable if i in kinds}
        for move in legal:
            if move["action"]["type"] != "discard" or state.duo:
                assert str(move["id"]) in clickable, move
    assert on_board >= {"take", "draw", "place", "keep", "discard"}


def test_no_leak_from_determinized_positions() -> None:
    cat = catalog("en")
    for state in POSITIONS[::2]:
        for seat in range(state.num_players):
            shown = render(state, seat, cat)
            spectator = render(state, None, cat)
            for seed in (1, 2, 3):
                other = state.determinize(seat, Rng(seed))
                assert render(other, seat, cat) == shown
                assert render(other, None, cat) == spectator


@pytest.mark.parametrize("lang", LANGS)
def test_both_languages_render_every_message(lang: str) -> None:
    cat = catalog(lang)
    for state in POSITIONS[::3]:
        for seat in seats(state):
            html = render(state, seat, cat)
            assert not MISSING.search(html), MISSING.search(html)


def test_chinese_board_is_in_chinese() -> None:
    html = render(next(s for s in POSITIONS if not s.over), 0, catalog("zh-Hant"))
    assert "動物列" in html and "Animal rows" not in html


def test_player_names_are_escaped() -> None:
    cat = catalog("en")
    cat.player_names = ["<script>alert(1)</script>", "Ann & Bob"]
    state = POSITIONS[3]
    for seat in seats(state):
        html = render(state, seat, cat)
        assert "<script>" not in html and "&lt;script&gt;" in html
        parse(html)


@pytest.mark.parametrize("lang", LANGS)
def test_describe_labels_every_legal_action(lang: str) -> None:
    cat = catalog(lang)
    for state in POSITIONS:
        seat = state.current_player
        if seat is None:
            continue
        view = state.view(seat)
        labels = [describe.action_label(m["action"], cat, view) for m in legal_moves(state, seat)]
        for label in labels:
            assert label and not MISSING.search(label)
        drawn = view.get("pending", [])
        if len(set(drawn)) == len(drawn):  # two drawn owls (T9) make two moves that are alike
            assert len(set(labels)) == len(labels)
