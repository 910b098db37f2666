"""Triqueta's table in a real browser: a whole game on a phone made only by tapping the board,
every tap target big enough for a finger, long names that overlap nothing, and a board that uses
a laptop's width."""

from __future__ import annotations

import random
from typing import Any

import pytest
from tests.server.live import Server
from tests.web.conftest import PHONE
from tests.web.test_pages import _create_from_lobby, _totals

from meeple.core.record import GameRecord

LAPTOP = {"width": 1366, "height": 768}
#: Taking row 0-4 are the move ids 0-4 (games/triqueta/actions.py: part of the protocol).
TAKE_IDS = 5
#: The smallest tap target a finger hits reliably, in CSS px.
FINGER = 40

#: The board's tap targets now shown (a `data-needs` target shows once its token is picked).
TARGETS = """() => [...document.querySelectorAll('#board [data-action-id], #board [data-pick]')]
  .filter((e) => e.getClientRects().length && !e.closest('[style*="display: none"]'))
  .map((e) => { const r = e.getBoundingClientRect();
    return {id: e.dataset.actionId || null, pick: e.dataset.pick || null, needs: e.dataset.needs || null,
            width: r.width, height: r.height}; })"""

#: Pairs of overlapping text boxes in each drawing where one is a player's name.
NAME_OVERLAPS = """() => {
  const found = [];
  for (const drawing of document.querySelectorAll('#board svg')) {
    const texts = [...drawing.querySelectorAll('text')].map((e) => [e, e.getBoundingClientRect()]);
    for (const [name, a] of texts.filter(([e]) => e.dataset.name !== undefined)) {
      for (const [other, b] of texts) {
        if (other === name) continue;
        const overlap = Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0
          && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0;
        if (overlap) found.push([name.textContent, other.textContent]);
      }
    }
  }
  return found;
}"""



def _tap_targets(page: Any) -> list[dict[str, Any]]:
    """The board's visible tap targets, each asserted at least a finger wide and high."""
    found: list[dict[str, Any]] = page.evaluate(TARGETS)
    for target in found:
        assert target["width"] >= FINGER and target["height"] >= FINGER, target
    return found


def _wait_for_a_turn(page: Any) -> bool:
    """Wait until the board offers a move or the game is over; True while the game goes on."""
    page.wait_for_function("() => document.querySelector('[data-testid=game-over]')"
                           " || document.querySelector('#board [data-action-id], #board [data-pick]')",
                           timeout=30_000)
    return not page.locator("[data-testid=game-over]").count()


def _tap_a_move(page: Any, rng: random.Random) -> bool:
    """Tap one of the board's moves (a drawn token first when two are drawn, T9); True when a
    token was picked first."""
    targets = _tap_targets(page)
    picks = [t for t in targets if t["pick"]]
    moves = [t for t in targets if t["id"] and not t["needs"]]
    picked = bool(picks and not moves)
    if picked:
        pick = rng.choice(picks)["pick"]
        page.locator(f'#board [data-pick="{pick}"]').tap()
        targets = _tap_targets(page)
        moves = [t for t in targets if t["id"] and t["needs"] == pick]
    assert moves, targets
    takes = [t for t in moves if int(t["id"]) < TAKE_IDS]
    others = [t for t in moves if int(t["id"]) >= TAKE_IDS] or takes
    choice = rng.choice(takes if takes and rng.random() < 0.2 else others)
    version = page.locator("#table").get_attribute("data-version")
    page.locator(f'#board [data-action-id="{choice["id"]}"]').tap()
    page.wait_for_function("v => document.getElementById('table').dataset.version !== v"
                           " || document.querySelector('[data-testid=game-over]')", arg=version, timeout=20_000)
    return picked


@pytest.mark.parametrize("duo", [False, True])
def test_a_whole_game_on_a_phone_by_tapping_the_board(phone: Any, server: Server, duo: bool) -> None:
    """Items 6: at 390×844 with touch, every tap target on the way is at least 40×40 CSS px,
    each move is a tap on the board (the move buttons are never used), and the final scores are
    the engine's replay of the downloaded record. The duo variant (T9) taps a token, then where
    it goes."""
    phone.goto(server.url)
    phone.get_by_text("Triqueta", exact=True).click()
    phone.select_option("#players", "2")
    if duo:
        phone.locator("input[name=opt-duo]").check()
    phone.get_by_test_id("create-table").click()
    phone.wait_for_url("**/tables/**")
    table = phone.url.rsplit("/", 1)[-1].split("?")[0]
    rng = random.Random(7)
    picks = 0
    for _ in range(400):
        if not _wait_for_a_turn(phone):
            break
        picks += _tap_a_move(phone, rng)
    else:
        raise AssertionError("the game did not end")
    assert (picks > 0) is duo  # two drawn tokens: the token is tapped, then where it goes
    record = GameRecord.from_json(phone.request.get(f"{server.url}/api/tables/{table}/record").json())
    assert record.options.get("duo", False) is duo
    assert _totals(phone) == record.replay().scores()


LONG_NAMES = ["Bartholomew Fitzgerald-Wolstenholme III.", "歐陽雲飛龍騰虎躍鳳舞九天之上萬里長城在此"]


@pytest.mark.parametrize("name", LONG_NAMES)
def test_a_long_name_overlaps_no_other_text(browser: Any, server: Server, name: str) -> None:
    """Item 5: a 40-character name (and a 20-character CJK one) is cut to its room: at 1366×768
    and 390×844 its box overlaps no other text of the drawing."""
    context = browser.new_context(viewport=LAPTOP)
    page = context.new_page()
    page.goto(server.url)
    page.get_by_text("Triqueta", exact=True).click()
    page.fill("input[name=name]", name)
    page.get_by_test_id("create-table").click()
    page.wait_for_selector("#board svg text[data-name]")
    for size in (LAPTOP, PHONE):
        page.set_viewport_size(size)
        page.wait_for_timeout(200)
        assert page.locator("#board svg text[data-name]").count() >= 3
        assert page.evaluate(NAME_OVERLAPS) == []
    context.close()


def test_the_board_uses_a_laptops_width(page: Any, server: Server) -> None:
    """Item 6: at 1366×768 the drawings fill the board's area (two columns, not a phone-wide
    strip), and no drawing is taller than it needs to be for its width."""
    page.set_viewport_size(LAPTOP)
    _create_from_lobby(page, server, "triqueta", players=3)
    area = page.locator("#board").bounding_box()
    drawings = [page.locator("#board svg").nth(k).bounding_box() for k in range(page.locator("#board svg").count())]
    assert area is not None and all(d is not None for d in drawings)
    right = max(d["x"] + d["width"] for d in drawings)
    left = min(d["x"] for d in drawings)
    assert right - left >= 0.9 * (area["width"] - 20)  # the padding aside
    assert len({round(d["x"]) for d in drawings}) == 2  # rows beside the tokens and players
