"""Castell in a real browser on a phone: a whole game played by tapping the board itself (regions,
castellers, wheel tiles, festivals; the end-turn and skip buttons of the board's own status
line), every tap target at least 40 × 40 CSS px on the way, and long names that never run into
other text on a phone or a laptop."""

from __future__ import annotations

from typing import Any

import pytest
from tests.web.conftest import PHONE
from tests.web.test_pages import _create_from_lobby, _totals

from meeple.core.record import GameRecord

LAPTOP = {"width": 1366, "height": 768}
#: A player's tap reaches for these first (doing things), the status line's buttons last.
PREFERENCE = ("[data-pick]", "g[data-action-id]", "button[data-action-id]")
LONG_NAME = "Montserrat Puig i Ferrater de Vallbona i"  # 40 characters, the lobby's limit



def _targets(page: Any) -> list[Any]:
    """The board's visible tap targets, in the order a player reaches for them."""
    found = []
    for selector in PREFERENCE:
        items = page.locator(f"#board {selector}")
        found += [items.nth(k) for k in range(items.count()) if items.nth(k).is_visible()]
    return found


def _assert_big_enough(targets: list[Any]) -> None:
    for target in targets:
        box = target.bounding_box()
        assert box and box["width"] >= 40 and box["height"] >= 40, (target.get_attribute("aria-label"), box)


def _tap_and_wait(page: Any, target: Any) -> None:
    version = page.locator("#table").get_attribute("data-version")
    target.tap()
    page.wait_for_function(
        "v => document.getElementById('table').dataset.version !== v"
        " || document.querySelector('[data-testid=game-over]')", arg=version, timeout=30_000)


def _take_turn_step(page: Any) -> None:
    """One move made by tapping the board: a Practice tile then its skill, or anything else."""
    targets = _targets(page)
    _assert_big_enough(targets)
    first = targets[0]
    if first.get_attribute("data-pick"):
        first.tap()
        choices = page.locator(f"#board [data-needs='{first.get_attribute('data-pick')}']")
        choices.first.wait_for(state="visible")
        shown = [choices.nth(k) for k in range(choices.count())]
        _assert_big_enough(shown)
        _tap_and_wait(page, shown[0])
        return
    _tap_and_wait(page, first)


def test_a_whole_game_on_a_phone_by_tapping_the_board(phone, server):
    table = _create_from_lobby(phone, server, "castell", players=2)
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]  # no sideways scrolling
    kinds: set[str] = set()
    for _ in range(600):
        phone.wait_for_selector("#board [data-action-id], [data-testid=game-over]")
        if phone.locator("[data-testid=game-over]").count():
            break
        kinds |= {label.split(" ")[0] for label in
                  phone.locator("#board g[data-action-id]").evaluate_all("els => els.map(e => e.ariaLabel)")}
        _take_turn_step(phone)
    else:
        raise AssertionError("the game did not end")
    assert {"Place", "Move", "Recruit", "Train"} <= kinds, kinds  # the board offered them where they are
    record = GameRecord.from_json(phone.request.get(f"{server.url}/api/tables/{table}/record").json())
    assert _totals(phone) == record.replay().scores()


def _overlaps(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["x"] < b["x"] + b["width"] - 0.5 and b["x"] < a["x"] + a["width"] - 0.5
            and a["y"] < b["y"] + b["height"] - 0.5 and b["y"] < a["y"] + a["height"] - 0.5)


@pytest.mark.parametrize("size", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_a_long_name_never_runs_into_other_text(browser, server, size):
    context = browser.new_context(viewport=size)
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(server.url)
    page.get_by_text("Castell", exact=True).click()
    page.fill("input[name=name]", LONG_NAME)
    page.select_option("#players", "3")
    page.get_by_test_id("create-table").click()
    page.wait_for_selector("#board svg [data-name]")
    boxes = page.locator("#board svg").evaluate_all("""svgs => svgs.flatMap(svg => {
        const texts = [...svg.querySelectorAll('text')].map(t => {
            const r = t.getBoundingClientRect();
            return {name: t.dataset.name || null, x: r.x, y: r.y, width: r.width, height: r.height,
                    text: t.textContent};
        });
        return texts.filter(t => t.name).map(n => ({name: n, others: texts.filter(t => !t.name)}));
    })""")
    # the drawings fill the board's width: no wide empty margin beside them on a laptop
    room = page.locator("#board").bounding_box()
    right = max(box["x"] + box["width"] for box in page.locator("#board svg").evaluate_all(
        "svgs => svgs.map(s => { const r = s.getBoundingClientRect(); return {x: r.x, width: r.width}; })"))
    context.close()
    assert room and right >= room["x"] + room["width"] - 40, (right, room)
    assert any(LONG_NAME in found["name"]["name"] for found in boxes), [f["name"] for f in boxes]
    for found in boxes:
        name = found["name"]
        for other in found["others"]:
            assert not _overlaps(name, other), (name["text"], other["text"])
