"""The page guides a player: each game's rules summary (the text `meeple rules GAME` prints) is
one click away in the lobby and at the table, in both languages, and a move says what it will do
(its label and the mover's score change) on hover and on keyboard focus, before the click."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.test_pages import TITLES, _create_from_lobby

from meeple.server.web.render import rules

LANGS = ("en", "zh-Hant")


def _in(page: Any, server: Any, lang: str) -> None:
    page.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])


@pytest.mark.parametrize("lang", LANGS)
def test_the_lobby_shows_the_chosen_game_s_rules_summary(page, server, lang):
    _in(page, server, lang)
    page.goto(server.url)
    for game, title in TITLES.items():
        page.locator(f".game-choice:has(input[value={game}])").click()
        assert page.locator(".rules-summary:visible").count() == 1  # the chosen game's only
        summary = page.locator(f".rules-summary[data-game={game}]")
        summary.locator("summary").click()
        shown = summary.locator(".rules-text")
        assert shown.is_visible()
        assert shown.text_content() == rules(game, lang), (game, title)


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_button_at_the_table_opens_the_summary(page, server, lang):
    _in(page, server, lang)
    _create_from_lobby(page, server, "celtica", players=2)
    text = page.get_by_test_id("rules-text")
    assert not text.is_visible()
    page.get_by_test_id("rules-open").click()
    assert text.is_visible()
    assert text.text_content() == rules("celtica", lang)
    page.locator("#rules form button").click()  # closed again, without a script
    assert not text.is_visible()


def test_hovering_or_focusing_a_move_shows_what_it_will_do(page, server):
    _create_from_lobby(page, server, "triqueta", players=2)
    buttons = page.locator("#moves [data-action-id]")
    page.wait_for_selector("#moves [data-action-id]")
    take = buttons.filter(has_text="take row 2")
    take.hover()
    assert page.locator("#preview").inner_text() == "Take row 2: no points"  # an empty row
    buttons.filter(has_text="draw").first.focus()
    assert page.locator("#preview").inner_text().startswith("Draw")
    board_move = page.locator("#board [data-action-id]").first
    board_move.focus()  # a move drawn on the board, reached by keyboard
    label = board_move.get_attribute("aria-label")
    assert page.locator("#preview").inner_text().startswith(label)
    page.mouse.move(1, 1)
    page.locator("#chat-text").focus()
    assert page.locator("#preview").inner_text() == "Point at a move to see what it does."
