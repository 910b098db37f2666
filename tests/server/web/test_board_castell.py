"""The Castell browser board: well-formed, only legal moves on it, nothing a seat may not see,
both languages, and the shared move labels."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache
from typing import Any

import pytest

from meeple.core.i18n import Catalog
from meeple.core.rng import Rng
from meeple.games.castell.describe import action_label
from meeple.games.castell.game import CastellGame
from meeple.games.castell.state import CastellState
from meeple.server.web.boards import board_for
from meeple.server.web.boards.castell import board
from meeple.server.wire import legal_moves

GAME = CastellGame()
LANGS = ("en", "zh-Hant")


def walk(n: int, seed: int, moves: int) -> CastellState:
    """A position after up to `moves` random moves that lean towards entering festivals and
    doing things (a uniform walk mostly ends turns and declines, leaving festivals unseen)."""
    state = GAME.new_game(n, seed=seed)
    rng = Rng(seed * 7919 + moves)
    for _ in range(moves):
        if state.is_terminal:
            break
        legal = state.legal_actions()
        enter = [a for a in legal if a.to_json()["type"] == "enter"]
        busy = [a for a in legal if a.to_json()["type"] not in ("end_turn", "decline")]
        pool = enter or (busy if busy and rng.below(4) else legal)
        state.apply(pool[rng.below(len(pool))])
    return state


def at_festival(n: int, seed: int, after: int = 0) -> CastellState:
    """The first position where a seat may enter a festival (then `after` more moves)."""
    state = GAME.new_game(n, seed=seed)
    rng = Rng(seed)
    while not any(a.to_json()["type"] == "enter" for a in state.legal_actions()):
        legal = state.legal_actions()
        busy = [a for a in legal if a.to_json()["type"] not in ("end_turn", "decline")]
        pool = busy if busy and rng.below(4) else legal
        state.apply(pool[rng.below(len(pool))])
    for _ in range(after):
        if not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[0])
    return state


@cache
def positions() -> list[CastellState]:
    walks = [walk(n, seed, moves) for n in (2, 3, 4) for seed in (1, 2, 3) for moves in (0, 3, 25, 80, 200, 2000)]
    festivals = [at_festival(n, seed, after) for n, seed in ((2, 5), (3, 4), (4, 1)) for after in (0, 1)]
    return walks + festivals


def catalog(lang: str) -> Catalog:
    cat = Catalog(["meeple.games.castell"], lang)
    cat.player_names = ["Ana", "Biel", "Carla", "Dídac"]
    return cat


def seats(state: CastellState) -> list[int | None]:
    return [None, *range(state.num_players)]


def parse(html: str) -> ET.Element:
    return ET.fromstring(f"<root>{html}</root>")


def test_the_board_is_found_by_name():
    assert board_for("castell") is board


def test_well_formed_with_only_legal_moves_and_matched_picks():
    cat = catalog("en")
    kinds: set[str] = set()
    picked = 0
    for state in positions():
        for seat in seats(state):
            legal = legal_moves(state, seat)
            by_id = {entry["id"]: entry["action"]["type"] for entry in legal}
            root = parse(board(state.view(seat), seat, legal, cat))
            picks = {e.get("data-pick") for e in root.iter() if e.get("data-pick")}
            picked += len(picks)
            for element in root.iter():
                action = element.get("data-action-id")
                if action is not None:
                    assert int(action) in by_id, (action, by_id)
                    kinds.add(by_id[int(action)])
                    assert element.get("role") == "button" and element.get("aria-label")
                needs = element.get("data-needs")
                if needs is not None:
                    assert needs in picks
    # the natural moves are on the board somewhere in these positions
    assert {"move", "recruit", "train", "end_turn", "enter", "decline"} <= kinds, kinds
    assert picked, "a Practice tile (two clicks: the tile, then the skill) was never offered"


def test_no_leak_from_the_hidden_bag_order():
    cat = catalog("en")
    for state in positions()[::2]:
        if state.is_terminal:
            continue
        for seat in range(state.num_players):
            legal = legal_moves(state, seat)
            shown = board(state.view(seat), seat, legal, cat)
            for k in range(3):
                other = state.determinize(seat, Rng(100 + k))
                assert board(other.view(seat), seat, legal, cat) == shown


@pytest.mark.parametrize("lang", LANGS)
def test_both_languages_render_without_missing_keys(lang):
    cat = catalog(lang)
    for state in positions()[::3]:
        for seat in seats(state):
            html = board(state.view(seat), seat, legal_moves(state, seat), cat)
            assert not re.search(r"\b(ui|web|region|skill|segment|tile|wheel|phase|score|prize|action)\.[a-z_]+",
                                 html), html
            assert "{" not in re.sub(r"<[^>]*>", "", html)
            if lang == "zh-Hant":
                assert re.search(r"[\u4e00-\u9fff]", html)


def test_names_are_escaped():
    cat = catalog("en")
    cat.player_names = ["<script>alert(1)</script>", "B&B", "\"q\"", "x"]
    state = positions()[10]
    html = board(state.view(0), 0, legal_moves(state, 0), cat)
    assert "<script>" not in html and "&lt;script&gt;" in html
    parse(html)


@pytest.mark.parametrize("lang", LANGS)
def test_every_legal_action_has_a_label(lang):
    cat = catalog(lang)
    for state in positions():
        if state.is_terminal:
            continue
        for action in state.legal_actions():
            label = action_label(action.to_json(), cat)
            assert label and not label.startswith("action.") and "{" not in label
    tower: dict[str, Any] = {"type": "enter", "slot": 0, "tower": [[9, 9], [7]]}
    assert "[9][9] / [7]" in action_label(tower, cat)
