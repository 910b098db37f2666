"""The terminal renderer and the message catalogs."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

from meeple.cli.render.castell import action_label, board, pyramid
from meeple.core.i18n import Catalog
from meeple.core.text import event_text
from meeple.games.castell import actions as A
from tests.castell.helpers import placed, play

LANGS = ("en", "zh-Hant")


@pytest.mark.parametrize("lang", LANGS)
def test_board_renders_for_every_seat(lang):
    cat = Catalog(["meeple.games.castell"], lang)
    s, _ = play(3, 5, {0, 1, 2})
    for view_seat in (None, 0, 2):
        console = Console(width=140, record=True)
        console.print(board(s.view(view_seat), cat, view_seat))
        text = console.export_text()
        assert cat.name("region", "vilafranca") in text
        assert cat.text("ui.calendar") in text
    mid = placed(where="valls")
    console = Console(width=140, record=True)
    console.print(board(mid.view(1), cat, 1))
    assert "♟" in console.export_text()


def test_pyramid_draws_levels_top_first():
    lines = pyramid(((9, 9, 9), (7, 7), (5,))).plain.splitlines()
    assert lines == ["    [5]", "  [7] [7]", "[9] [9] [9]"]


@pytest.mark.parametrize("lang", LANGS)
def test_catalogs_cover_actions_events_scores(lang):
    cat = Catalog(["meeple.games.castell"], lang)
    _, events = play(4, 2, {0, 1, 2, 3})
    keys = {e.key for e in events}
    assert {"place_pawn", "recruit", "end_turn", "round_start", "refill", "game_over"} <= keys
    everything = keys | {"move", "train", "train_special", "single_recruit", "extra_move", "perform", "enter",
                         "decline", "festival_score", "size_tokens_discarded"}
    for key in everything:
        assert cat.has(f"event.{key}"), key
    cat.player_names = ["Ana", "Biel", "Carla", "Dídac"]
    for e in events:
        text = event_text(e, None, cat)
        assert "{" not in text and not text.startswith("event.")
        if e.player is not None:
            assert cat.player_names[e.player] in text
    for action in A.BY_ID:
        label = action_label(action.to_json(), cat)
        assert not label.startswith("action.") and "{" not in label
    for key in ("best_tower", "region_variety", "prizes", "size_tokens", "stars", "total"):
        assert cat.has(f"score.{key}")
    assert cat.has("rules.summary") and len(cat.text("rules.summary").splitlines()) >= 8
    for name in ("barcelona", "mataro", "tarragona", "terrassa", "valls", "vilafranca", "vilanova"):
        assert cat.has(f"region.{name}")


def test_zh_hant_catalog_has_every_english_key():
    en = Catalog(["meeple.games.castell"], "en").messages
    from meeple.core.i18n import _load

    zh = _load("meeple.games.castell", "zh-Hant")
    # Chinese has only the `other` plural form; every other key is in both catalogs
    assert {k for k in en if not k.endswith(".one")} == set(zh)
    assert any(re.search(r"[\u4e00-\u9fff]", v) for v in zh.values())
