"""The review of a finished game in the browser: the Review button, the progress, the chart
beside the replay (a click on a turning point or a column steps the replay there), every move
labelled; the zh-Hant page says nothing in English; a Hint at a table of bots, to that seat
alone, marked in the review. The server reviews with tiny settings (MEEPLE_REVIEW) to stay quick."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.server.live import Server
from tests.web.api_tables import create, open_as, play
from tests.web.conftest import PHONE, _checked_page
from tests.web.test_languages import PLAYER, _report, _untranslated

#: What the reviews of these tests spend: a label for every move within seconds.
TINY = {"samples": 2, "screening": 1}
GAMES = ("triqueta", "triominos", "celtica", "castell")
#: Where a run that sets MEEPLE_REVIEW_SHOTS leaves pictures of the review page to look at.
SHOTS = os.environ.get("MEEPLE_REVIEW_SHOTS")
#: Games played at most until one's review names turning points (see reviewed_with_turning_points).
TRIES = 4


@pytest.fixture
def review_server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Server]:
    """`meeple serve` reviewing with TINY; its log must hold no traceback."""
    monkeypatch.setenv("MEEPLE_REVIEW", json.dumps(TINY))
    running = Server(tmp_path)
    running.start()
    yield running
    log = running.stop()
    assert "Traceback" not in log, log


@pytest.fixture
def laptop(browser: Any, review_server: Server, request: pytest.FixtureRequest) -> Iterator[Any]:
    yield from _checked_page(browser, request, viewport={"width": 1366, "height": 900})


@pytest.fixture
def phone(browser: Any, review_server: Server, request: pytest.FixtureRequest) -> Iterator[Any]:
    yield from _checked_page(browser, request, viewport=PHONE, has_touch=True, is_mobile=True)


def finished(page: Any, server: Server, game: str, players: int = 2) -> dict[str, Any]:
    """A game against bots played to its end through the API, its page open as the person."""
    me = create(server, game, players=players, name=PLAYER)
    play(server, [me])
    open_as(page, server, me)
    page.wait_for_selector("[data-testid=game-over]")
    return me


def open_review(page: Any) -> int:
    """Click Review and wait for the chart: the number of moves it shows."""
    page.get_by_test_id("review-start").click()
    page.wait_for_selector("[data-testid=review-chart]", timeout=120_000)
    return int(page.get_by_test_id("review-chart").get_attribute("data-moves"))


def reviewed_with_turning_points(page: Any, server: Server, game: str, players: int) -> tuple[dict[str, Any], int]:
    """A finished game reviewed on `page` whose review names turning points: its seat and its
    number of moves. With TINY settings about one short game in twenty has no decision that cost
    anything and no luck beyond the noise; its page must say so, and another game is played."""
    for _ in range(TRIES):
        me = finished(page, server, game, players)
        moves = open_review(page)
        if page.get_by_test_id("turning-point-1").count():
            return me, moves
        assert page.get_by_test_id("no-turning-points").is_visible()
        assert page.locator("[data-testid=turning-points]").count() == 0
    raise AssertionError(f"{TRIES} {game} games in a row named no turning point")


def replay_at(page: Any, move: int) -> None:
    page.wait_for_function("n => document.getElementById('replay').dataset.at === String(n)", arg=move)


@pytest.mark.parametrize("game", GAMES)
def test_the_review_shows_the_chart_and_labels_and_the_chart_steps_the_replay(laptop, review_server, game):
    page = laptop
    _, moves = reviewed_with_turning_points(page, review_server, game, players=3 if game != "triominos" else 2)
    record = httpx.get(f"{review_server.url}/api/tables/{page.url.rsplit('/', 1)[1]}/record", timeout=30).json()
    assert moves == len(record["actions"])
    labels = page.locator("[data-testid=review-moves] [data-label]")
    assert labels.count() == moves  # every move labelled in the list
    assert set(labels.evaluate_all("els => els.map(e => e.dataset.label)")) <= {
        "forced", "best", "good", "inaccuracy", "mistake", "blunder"}
    assert page.locator("[data-testid=review-chart] .seat-line").count() == (3 if game != "triominos" else 2)
    assert page.locator("#review-replay #replay").count() == 1  # the replay stands beside the chart
    assert page.locator("[data-testid=review-seats] tbody tr").count() == (3 if game != "triominos" else 2)
    first = page.get_by_test_id("turning-point-1")
    target = int(first.get_attribute("data-move"))
    first.click()
    replay_at(page, target)
    assert page.get_by_test_id("replay-at").inner_text().startswith(f"Move {target} of")
    assert page.locator(f"[data-testid=review-moves] button[data-move='{target}']").get_attribute(
        "aria-current") == "step"
    column = page.locator("[data-testid=review-chart] rect.hit[data-move='1']")
    column.click()
    replay_at(page, 1)
    page.locator("[data-testid=turning-points] button").last.click()  # the words are controls too
    replay_at(page, int(page.locator("[data-testid=turning-points] button").last.get_attribute("data-move")))


def test_a_second_visit_shows_the_stored_review_at_once_and_the_phone_page_fits(laptop, phone, review_server):
    me, _ = reviewed_with_turning_points(laptop, review_server, "triqueta", players=3)
    if SHOTS:
        laptop.get_by_test_id("turning-point-2").click()
        laptop.locator("#review-panel").scroll_into_view_if_needed()
        laptop.screenshot(path=f"{SHOTS}/review-laptop.png", full_page=True)
    open_as(phone, review_server, me)
    phone.wait_for_selector("[data-testid=review-chart]")  # stored: shown without asking again
    assert phone.get_by_test_id("review-start").is_hidden()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= PHONE["width"], f"the page is {width} px wide on a {PHONE['width']} px phone"
    phone.get_by_test_id("turning-point-1").tap()
    replay_at(phone, int(phone.get_by_test_id("turning-point-1").get_attribute("data-move")))
    if SHOTS:
        phone.screenshot(path=f"{SHOTS}/review-phone.png", full_page=True)


def test_the_review_in_traditional_chinese_says_nothing_in_english(laptop, review_server):
    laptop.context.add_cookies([{"name": "lang", "value": "zh-Hant", "url": review_server.url}])
    finished(laptop, review_server, "celtica", players=3)
    open_review(laptop)
    found: dict[str, str] = {}
    _untranslated(laptop, "celtica reviewed", found)
    assert not found, _report(found)
    if SHOTS:
        laptop.screenshot(path=f"{SHOTS}/review-zh-Hant-laptop.png", full_page=True)


def test_a_hint_at_a_table_of_bots_shows_to_that_seat_and_is_marked_in_the_review(laptop, review_server):
    page = laptop
    me = create(review_server, "triqueta", players=2, name=PLAYER)
    open_as(page, review_server, me)
    page.wait_for_selector("#moves [data-action-id]")
    page.get_by_test_id("hint").click()
    answer = page.get_by_test_id("hint-answer")
    page.wait_for_selector("#moves button.hinted")
    hinted = page.locator("#moves button.hinted").inner_text()
    assert answer.inner_text().startswith(f"Hint: {hinted} (chance of winning ")
    version = int(page.locator("#table").get_attribute("data-version"))
    play(review_server, [me])
    page.wait_for_selector("[data-testid=game-over]")
    open_review(page)
    marked = page.locator("[data-testid=review-moves] li:has(.hint-mark)")
    assert marked.count() == 1
    assert marked.get_attribute("data-index") == str(version)


def test_no_hint_button_at_a_table_with_another_person(laptop, review_server):
    table = create(review_server, "triqueta", players=2, name=PLAYER, open_seats=1)
    joined = httpx.post(f"{review_server.url}/api/tables/{table['table_id']}/join",
                        json={"join_code": table["join_code"], "name": "Other"}, timeout=30).json()
    open_as(laptop, review_server, table)
    laptop.wait_for_selector("#moves [data-action-id]")
    assert laptop.get_by_test_id("hint").is_hidden()
    refused = httpx.post(f"{review_server.url}/api/tables/{table['table_id']}/hint", json={"version": 0},
                         headers={"authorization": f"Bearer {table['credential']}"}, timeout=30)
    assert refused.json()["code"] == "no_hints"
    assert joined["seat"] == 1
