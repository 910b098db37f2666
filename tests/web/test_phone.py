"""The pages on a phone (390×844, touch) and a laptop (1366×768): a short header, no sideways
scrolling, controls a finger can tap (40×40 CSS px at least), readable text (14 px at least),
the board as wide as the page allows, and names that never run out of their boxes."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.api_tables import CJK_NAME, LONG_NAME, create, join, open_as, play
from tests.web.conftest import PHONE

LAPTOP = {"width": 1366, "height": 768}
GAMES = ("triqueta", "triominos", "celtica", "castell")

#: Controls outside the drawings smaller than 40×40 (the board engineers size their SVG targets).
SMALL_CONTROLS = """() => [...document.querySelectorAll("button, select, input, a, [role=button]")]
  .filter((el) => !el.closest("svg") && el.getClientRects().length && getComputedStyle(el).visibility !== "hidden")
  .map((el) => ({ el: el.outerHTML.slice(0, 90), box: el.getBoundingClientRect() }))
  .filter(({ box }) => box.width < 40 || box.height < 40)
  .map(({ el, box }) => `${Math.round(box.width)}×${Math.round(box.height)} ${el}`)"""
#: Visible text outside the drawings set smaller than 14 px.
SMALL_TEXT = """() => {
  const small = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || el.closest("svg, script, template, option")) continue;
    if (!el.getClientRects().length) continue;  // not shown
    const size = parseFloat(getComputedStyle(el).fontSize);
    if (size < 14) small.push(`${size}px ${node.textContent.trim().slice(0, 40)}`);
  }
  return small;
}"""
#: Name boxes outside the drawings that run out of their container (or are cut with no title).
OVERFLOWING_NAMES = """(selectors) => {
  const bad = [];
  for (const el of document.querySelectorAll(selectors)) {
    if (!el.getClientRects().length) continue;
    const box = el.getBoundingClientRect(), outer = el.parentElement.getBoundingClientRect();
    const cut = el.scrollWidth > el.clientWidth + 1;
    const html = el.outerHTML.slice(0, 120);
    if (box.left < outer.left - 1 || box.right > outer.right + 1) bad.push(`outside its box: ${html}`);
    if (el.parentElement.scrollWidth > el.parentElement.clientWidth + 1) bad.push(`its box scrolls: ${html}`);
    if (cut && !el.title) bad.push(`cut without a title: ${html}`);
    if (box.height > 2.2 * parseFloat(getComputedStyle(el).fontSize)) bad.push(`more than one line: ${html}`);
  }
  return bad;
}"""
NAME_BOXES = ".tables .chip, #players .name, table.scores .name"
#: Boxes that may wrap a name over lines but never let it run out sideways.
SCROLLING_BOXES = """(selectors) => [...document.querySelectorAll(selectors)]
  .filter((el) => el.getClientRects().length && el.scrollWidth > el.clientWidth + 1)
  .map((el) => el.outerHTML.slice(0, 120))"""



def _fits_a_phone(page: Any) -> None:
    header = page.locator("header.top").bounding_box()
    assert header["height"] <= 64, f"the header is {header['height']} px high"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], "the page scrolls sideways"
    assert page.evaluate(SMALL_CONTROLS) == []
    assert page.evaluate(SMALL_TEXT) == []


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_the_lobby_fits_a_phone(phone, server, lang):
    phone.context.add_cookies([{"name": "lang", "value": lang, "url": server.url}])
    create(server, "castell", players=3, name=LONG_NAME, open_seats=1, public=True)
    phone.goto(server.url)
    phone.wait_for_selector("ul.tables li")
    for game in GAMES:  # every game's options in turn (checkboxes, selects, numbers)
        phone.locator(f".game-choice:has(input[value={game}]) .game-title").click()
        _fits_a_phone(phone)


@pytest.mark.parametrize("game", GAMES)
def test_a_table_of_each_game_fits_a_phone_with_the_board_full_width(phone, server, game):
    me = create(server, game, players=3 if game != "triominos" else 2, name=LONG_NAME, bot="greedy", clock="300+5")
    play(server, [me], moves=2)
    open_as(phone, server, me)
    phone.wait_for_selector("#moves [data-action-id]")
    _fits_a_phone(phone)
    board = phone.locator("#board").bounding_box()
    assert board["width"] >= PHONE["width"] - 20, f"the board is {board['width']} px wide on a phone"
    side = phone.locator("aside.side").bounding_box()
    assert side["y"] >= board["y"] + board["height"] - 1  # the panels, moves, log and chat follow the board


def test_on_a_laptop_the_board_takes_the_width_and_the_side_panels_stand_beside_it(page, server):
    page.set_viewport_size(LAPTOP)
    open_as(page, server, create(server, "triqueta", players=3))
    board = page.locator("#board").bounding_box()
    side = page.locator("aside.side").bounding_box()
    assert board["width"] >= 0.6 * LAPTOP["width"]
    assert side["x"] >= board["x"] + board["width"] and side["x"] + side["width"] <= LAPTOP["width"]


@pytest.mark.parametrize("size", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_long_names_never_run_out_of_their_boxes(browser, server, size):
    """A 40-character name and a 20-character CJK one: in the lobby's list, the seat panels and
    the result table each is one line, cut with an ellipsis, the whole name in its title."""
    waiting = create(server, "triqueta", players=3, name=LONG_NAME, open_seats=1, public=True)
    create(server, "celtica", players=2, name=CJK_NAME, open_seats=1, public=True)
    first = create(server, "triqueta", players=2, name=LONG_NAME, open_seats=1)
    second = join(server, first, CJK_NAME)
    play(server, [first, second])
    context = browser.new_context(viewport=size, has_touch=size is PHONE)
    try:
        page = context.new_page()
        page.goto(server.url)
        page.wait_for_selector("ul.tables li")
        assert page.evaluate(OVERFLOWING_NAMES, NAME_BOXES) == []
        assert {LONG_NAME, CJK_NAME} <= set(page.locator(".tables .chip").evaluate_all("els => els.map(e => e.title)"))
        open_as(page, server, waiting)
        page.wait_for_selector("#invite:not([hidden])")
        assert page.evaluate(OVERFLOWING_NAMES, NAME_BOXES) == []
        assert page.evaluate(SCROLLING_BOXES, "#invite, #invite p, .status-bar, #status") == []
        page.goto(f"{server.url}/tables/{first['table_id']}")  # a spectator: both names shown
        page.wait_for_selector("[data-testid=scores]")
        assert page.evaluate(OVERFLOWING_NAMES, NAME_BOXES) == []
        assert page.evaluate(SCROLLING_BOXES, "#result, .winners, .status-bar, #log") == []
        titles = "els => els.map(e => e.title)"
        assert page.locator("#players .name").evaluate_all(titles) == [LONG_NAME, CJK_NAME]
        assert page.locator("table.scores thead .name").evaluate_all(titles) == [LONG_NAME, CJK_NAME]
        assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]
    finally:
        context.close()
