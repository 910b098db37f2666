"""Triominos on a phone, in a real browser: a whole game played by tapping the board (a rack
tile, then the cell; or the draw / pass / stop button under the rack), every tap target at least
40×40 CSS px on the way, the final scores those of the engine's replay of the record; and long
names that never run into other text, on a phone and on a laptop."""

from __future__ import annotations

from typing import Any

import pytest
from tests.server.live import Server
from tests.web.conftest import PHONE
from tests.web.test_pages import _create_from_lobby, _totals

from meeple.core.record import GameRecord

LAPTOP = {"width": 1366, "height": 768}
#: The smallest tap target (CSS px) a finger can hit reliably.
TAP = 40.0
LONG = "Bartholomew Featherstonehaugh-Worthingto"  # 40 characters, the longest name the lobby takes



def _sizes(page: Any, selector: str) -> list[tuple[float, float]]:
    """The width and height of every displayed element matching `selector`."""
    boxes = [e.bounding_box() for e in page.locator(selector).element_handles()]
    return [(b["width"], b["height"]) for b in boxes if b is not None and b["width"] > 0]


def _assert_tappable(page: Any, selector: str) -> int:
    sizes = _sizes(page, selector)
    small = [s for s in sizes if s[0] < TAP or s[1] < TAP]
    assert not small, (selector, small)
    return len(sizes)


def _take_turn(page: Any) -> str:
    """One move made on the board by tapping: a placement when a rack tile fits (tile, then the
    first cell it fits), else the button under the rack. Returns the kind of move."""
    _assert_tappable(page, "#board [data-pick]")
    _assert_tappable(page, "#board [data-action-id]:not([data-needs])")
    picks = page.locator("#board [data-pick]")
    if picks.count():
        picks.first.tap()
        page.wait_for_selector("#board [data-needs].armed")
        assert _assert_tappable(page, "#board [data-needs].armed") >= 1
        page.locator("#board [data-needs].armed").first.tap()
        return "place"
    page.locator("#board [data-action-id]:not([data-needs])").first.tap()
    return "button"


def test_a_whole_game_on_a_phone_by_tapping_the_board(phone, server: Server):
    table = _create_from_lobby(phone, server, "triominos", players=2)
    made: list[str] = []
    for _ in range(400):
        phone.wait_for_selector("#moves [data-action-id], [data-testid=game-over]")
        if phone.locator("[data-testid=game-over]").count():
            break
        version = phone.locator("#table").get_attribute("data-version")
        made.append(_take_turn(phone))
        phone.wait_for_function(
            "v => document.getElementById('table').dataset.version !== v"
            " || document.querySelector('[data-testid=game-over]')", arg=version)
    else:
        raise AssertionError("the game did not end")
    assert "place" in made
    record = GameRecord.from_json(phone.request.get(f"{server.url}/api/tables/{table}/record").json())
    assert _totals(phone) == record.replay().scores()


def _overlaps(page: Any) -> list[tuple[str, str]]:
    """Pairs (name, other text) whose boxes overlap within one drawing of the board."""
    return list(page.evaluate("""() => {
      const out = [];
      for (const drawing of document.querySelectorAll('#board svg')) {
        const texts = [...drawing.querySelectorAll('text')];
        for (const name of texts.filter(t => t.dataset.name !== undefined)) {
          const a = name.getBoundingClientRect();
          for (const other of texts) {
            if (other === name) continue;
            const b = other.getBoundingClientRect();
            const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (x > 0.5 && y > 0.5) out.push([name.textContent, other.textContent]);
          }
        }
      }
      return out;
    }"""))


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["laptop", "phone"])
def test_a_long_name_runs_into_no_other_text(browser, server: Server, viewport):
    context = browser.new_context(viewport=viewport)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(server.url)
    page.get_by_text("Triominos", exact=True).click()
    page.select_option("#players", "4")
    page.fill("input[name=name]", LONG)
    page.get_by_test_id("create-table").click()
    page.wait_for_selector("#board svg text[data-name]")
    names = page.locator("#board svg text[data-name]")
    assert LONG in [names.nth(k).get_attribute("data-name") for k in range(names.count())]
    assert _overlaps(page) == []
    for language in ("zh-Hant", "en"):
        context.add_cookies([{"name": "lang", "value": language, "url": server.url}])
        page.reload()
        page.wait_for_selector("#board svg text[data-name]")
        assert _overlaps(page) == []
    context.close()
