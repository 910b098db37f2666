"""Celtica on a phone and a laptop, in a real browser: a whole game made only by tapping the
drawing (never the move buttons under it), every control big enough for a finger, the second tap
of a two-tap move close to the first, the drawings using the laptop's width, and long names that
never run into other text."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.web.conftest import PHONE
from tests.web.test_pages import _create_from_lobby, _totals

from meeple.core.record import GameRecord

LAPTOP = {"width": 1366, "height": 768}
#: The smallest side of anything a finger taps, in CSS px.
FINGER = 40
#: How far below or above the first tap of a two-tap move its second taps may be (centre to
#: centre, CSS px): on the same phone screen, never a scroll away.
NEAR = 300

#: The boxes of every visible control in the drawing, and whether each is a first tap (a pick).
CONTROLS = """() => [...document.querySelectorAll('#board [data-action-id], #board [data-pick]')]
  .filter(e => e.getBoundingClientRect().width > 0)
  .map(e => { const r = e.getBoundingClientRect();
              return {w: r.width, h: r.height, x: r.x + r.width / 2, y: r.y + r.height / 2,
                      pick: e.dataset.pick || null, needs: e.dataset.needs || null,
                      label: e.getAttribute('aria-label')}; })"""



def _controls(page: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate(CONTROLS)
    for box in found:
        assert box["w"] >= FINGER and box["h"] >= FINGER, box
    return found


def _tap_and_wait(page: Any, selector: str) -> None:
    version = page.locator("#table").get_attribute("data-version")
    page.locator(selector).first.tap()
    page.wait_for_function(
        "v => document.getElementById('table').dataset.version !== v"
        " || document.querySelector('[data-testid=game-over]')", arg=version, timeout=30_000)


def _tap_one_move(page: Any, turn: int) -> None:
    """Make one move by tapping the drawing: a one-tap move, or a pick and then its second tap
    (which must have appeared near the first); `turn` varies which move is made."""
    controls = _controls(page)
    assert controls, "the drawing offers the seat's moves"
    choices = [c for c in controls if not c["needs"]]
    chosen = choices[turn % len(choices)]
    if not chosen["pick"]:
        _tap_and_wait(page, f'#board [aria-label="{chosen["label"]}"]:not([data-needs])')
        return
    page.locator(f'#board [data-pick="{chosen["pick"]}"]').first.tap()
    second = [c for c in _controls(page) if c["needs"] == chosen["pick"]]
    assert second, chosen
    for box in second:
        assert abs(box["y"] - chosen["y"]) <= NEAR, (chosen, box)
    target = second[turn % len(second)]
    _tap_and_wait(page, f'#board [data-needs="{chosen["pick"]}"][aria-label="{target["label"]}"]')


def test_a_whole_game_on_a_phone_by_tapping_the_drawing(phone, server):
    table = _create_from_lobby(phone, server, "celtica", players=2)
    for turn in range(3000):
        phone.wait_for_selector("#board [data-action-id], #board [data-pick], [data-testid=game-over]")
        if phone.locator("[data-testid=game-over]").count():
            break
        _tap_one_move(phone, turn)
    else:
        raise AssertionError("the game did not end")
    record = GameRecord.from_json(phone.request.get(f"{server.url}/api/tables/{table}/record").json())
    assert _totals(phone) == record.replay().scores()


def test_the_drawings_fit_a_phone_and_use_a_laptops_width(browser, server):
    """On a phone the drawings stack at the screen's width and the path with the seat's cards
    fits the screen; on a laptop they stand side by side in the board's width."""
    for viewport, columns in ((PHONE, 1), (LAPTOP, 2)):
        context = browser.new_context(viewport=viewport, has_touch=viewport is PHONE)
        page = context.new_page()
        _create_from_lobby(page, server, "celtica", players=3)
        boxes = page.evaluate("""() => [...document.querySelectorAll('#board svg')].map(e => {
            const r = e.getBoundingClientRect(); return {x: r.x, y: r.y, w: r.width, h: r.height}; })""")
        area = page.evaluate("() => document.getElementById('board').getBoundingClientRect().width")
        assert len(boxes) == 2
        assert len({round(b["y"]) for b in boxes}) == (2 if columns == 1 else 1)
        assert min(b["w"] for b in boxes) >= 0.9 * area / columns  # each fills its share of the width
        assert boxes[0]["h"] <= viewport["height"] * 0.9  # the path and the cards fit one screen
        context.close()


LONG_NAMES = ["Maximilian Alexander von Hohenzollern-Si", "歐陽皇甫司馬上官諸葛東方獨孤南宮長孫宇文"]


@pytest.mark.parametrize("name", LONG_NAMES)
def test_long_names_do_not_run_into_other_text(browser, server, name):
    for viewport in (LAPTOP, PHONE):
        context = browser.new_context(viewport=viewport)
        page = context.new_page()
        page.goto(server.url)
        page.get_by_text("Celtica", exact=True).click()
        page.fill("input[name=name]", name)
        page.get_by_test_id("create-table").click()
        page.wait_for_url(re.compile(r"/tables/"))
        page.wait_for_selector("#board text[data-name]")
        clashes = page.evaluate("""() => {
            const overlap = (a, b) => a.left < b.right - 1 && b.left < a.right - 1
                                   && a.top < b.bottom - 1 && b.top < a.bottom - 1;
            const out = [];
            for (const label of document.querySelectorAll('#board text[data-name]')) {
              const box = label.getBoundingClientRect();
              for (const other of label.ownerSVGElement.querySelectorAll('text')) {
                if (other !== label && overlap(box, other.getBoundingClientRect()))
                  out.push([label.textContent, other.textContent]);
              }
            }
            return out; }""")
        assert clashes == []
        shown = page.locator("#board text[data-name]").all_text_contents()
        assert any(name in text for text in shown)  # the whole name, in the tooltip at least
        context.close()
