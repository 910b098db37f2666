"""The pages in a real browser: a person plays whole games by clicking, two people at one table
see only their own hidden things, a reload restores the page, the language switch works, and a
bad click changes nothing."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from tests.server.live import Server
from tests.server.test_datasets import make_data

from meeple.core.record import GameRecord

TITLES = {"triqueta": "Triqueta", "triominos": "Triominos", "celtica": "Celtica", "castell": "Castell"}


def _create_from_lobby(page: Any, server: Server, game: str | None = None, players: int | None = None,
                       seats: dict[int, str] | None = None) -> str:
    page.goto(server.url)
    if game is not None:
        page.locator(f".game-choice:has(input[value={game}]) .game-title").click()  # its title in any language
    if players is not None:
        page.select_option("#players", str(players))
    for seat, kind in (seats or {}).items():
        page.locator(".seat-kind").nth(seat).select_option(kind)
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/tables/"))
    page.wait_for_selector("#board svg, #pass:not([hidden])")
    return str(page.url.rsplit("/", 1)[-1].split("?")[0])


def _play_by_clicking(page: Any, limit: int = 3000) -> None:
    """Click a move whenever one is offered, until the game-over banner shows."""
    for _ in range(limit):
        page.wait_for_selector("#moves [data-action-id], [data-testid=game-over]")
        if page.locator("[data-testid=game-over]").count():
            return
        version = page.locator("#table").get_attribute("data-version")
        page.locator("#moves [data-action-id]").first.click()
        page.wait_for_function(
            "v => document.getElementById('table').dataset.version !== v"
            " || document.querySelector('[data-testid=game-over]')", arg=version, timeout=20_000)
    raise AssertionError("the game did not end")


def _totals(page: Any) -> list[int]:
    row = page.locator("[data-testid=scores] tr.total td")
    return [int(row.nth(k).inner_text()) for k in range(row.count())]


@pytest.mark.parametrize("game", list(TITLES))
def test_a_whole_game_from_the_lobby_to_the_end_by_clicking(page, server, game):
    table = _create_from_lobby(page, server, game, players=2)
    _play_by_clicking(page)
    assert page.get_by_test_id("game-over").is_visible()
    record = GameRecord.from_json(page.request.get(f"{server.url}/api/tables/{table}/record").json())
    final = record.replay()
    assert _totals(page) == final.scores()


def test_the_lobby_default_is_one_click_to_triqueta_against_two_bots(page, server):
    table = _create_from_lobby(page, server)
    info = page.request.get(f"{server.url}/api/tables/{table}").json()
    assert info["game"] == "triqueta" and [s["kind"] for s in info["seats"]] == ["human", "bot", "bot"]
    assert page.locator("#board svg").count() >= 1


def _frames(page: Any) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []

    def opened(ws: Any) -> None:
        ws.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", opened)
    return frames


def test_two_people_at_one_table_each_see_only_their_own_rack(browser, server):
    """Triominos tiles are unique: a tile in one rack (and not shown in the public opening draw)
    may never appear in the other person's page or in any WebSocket frame that person received."""
    first, second = browser.new_context(), browser.new_context()
    ana, ben = first.new_page(), second.new_page()
    ana_frames, ben_frames = _frames(ana), _frames(ben)
    table = _create_from_lobby(ana, server, "triominos", players=2, seats={1: "human"})
    link = ana.locator("#invite-link").input_value()
    ben.on("dialog", lambda dialog: dialog.accept("Ben"))
    ben.goto(link)
    ben.wait_for_selector("#board svg")
    for _ in range(6):
        for me in (ana, ben):
            if me.locator("#moves [data-action-id]").count():
                me.locator("#moves [data-action-id]").first.click()
                me.wait_for_timeout(300)
        states = [f for f in ana_frames if f.get("type") == "state" and f.get("seat") == 0]
        rack = states[-1]["view"].get("rack", [])
        assert rack, "Ana sees her own rack"
        # The opening draw is public (M8): a tile shown then and drawn later may be named.
        shown = {draw["tile"] for go in states[-1]["view"]["opening"] for draw in go}
        rack = [tile for tile in rack if tile not in shown]
        seen_by_ben = ben.content() + json.dumps(ben_frames)
        for tile in rack:
            assert f'"{tile}"' not in json.dumps(ben_frames) and f">{tile}<" not in seen_by_ben, tile
    assert any(f.get("type") == "state" and f["version"] > 0 for f in ben_frames)  # moves reached Ben
    first.close()
    second.close()
    assert table


def test_reload_mid_game_restores_the_page(page, server):
    _create_from_lobby(page, server, "castell", players=2)
    for _ in range(3):
        version = page.locator("#table").get_attribute("data-version")
        page.locator("#moves [data-action-id]").first.click()
        page.wait_for_function("v => document.getElementById('table').dataset.version !== v", arg=version)
    page.wait_for_selector("#moves [data-action-id]")  # my turn: nothing changes until I move
    # The board's words and moves come back; the outline of the last step's change does not (a
    # reload's first message tells the whole log, not the last step's events).
    shown = """() => [document.getElementById('board').textContent,
        [...document.querySelectorAll('#board [data-action-id]')].map((e) => e.dataset.actionId).join()]"""
    before = page.evaluate(shown)
    page.reload()
    page.wait_for_selector("#board svg")
    page.wait_for_function(f"b => JSON.stringify(({shown})()) === JSON.stringify(b)", arg=before)


def test_the_language_switch_shows_chinese_and_is_remembered(page, server):
    page.goto(server.url)
    page.select_option("[data-testid=language]", "zh-Hant")
    page.wait_for_selector("text=開新桌")
    page.goto(server.url)
    assert page.locator("text=開新桌").count() == 1
    page.get_by_test_id("create-table").click()
    page.wait_for_selector("#board svg")
    assert "輪到" in page.locator("#status").inner_text() or "遊戲" in page.content()


def test_an_illegal_or_stale_click_shows_a_message_and_changes_nothing(page, server):
    table = _create_from_lobby(page, server, "triqueta", players=2)
    before = page.request.get(f"{server.url}/api/tables/{table}/state").json()
    page.evaluate("""() => {
        const fake = document.createElement('button');
        fake.dataset.actionId = '19'; fake.id = 'fake'; fake.textContent = 'fake';
        document.getElementById('moves').append(fake);
    }""")
    page.click("#fake")
    page.wait_for_function("() => document.getElementById('message').textContent.length > 0")
    after = page.request.get(f"{server.url}/api/tables/{table}/state").json()
    assert after["version"] == before["version"] and after["view"] == before["view"]


def test_hot_seat_shows_a_pass_the_device_screen_with_nothing_of_the_last_seat(page, server):
    _create_from_lobby(page, server, "triqueta", players=2, seats={1: "human-here"})
    for _ in range(4):
        page.wait_for_selector("#pass:not([hidden]), #moves [data-action-id]")
        if page.locator("#pass").is_visible():
            assert page.locator("#board").inner_html() == ""  # nothing of the last person's screen
            assert page.locator("#moves").inner_html() == ""
            page.click("#pass-ready")
        version = page.locator("#table").get_attribute("data-version")
        page.locator("#moves [data-action-id]").first.click()
        page.wait_for_function("v => document.getElementById('table').dataset.version !== v"
                               " || !document.getElementById('pass').hidden", arg=version)
    passes = page.evaluate("() => document.getElementById('pass-text').textContent")
    assert "Pass the device to" in passes


def test_clocks_show_when_the_table_has_them(page, server):
    page.goto(server.url)
    page.select_option("select[name=clock]", "300+5")
    page.get_by_test_id("create-table").click()
    page.wait_for_selector("#players .clock.running")
    shown = page.locator("#players .clock.running").inner_text()
    assert re.fullmatch(r"[45]:\d\d", shown), shown


def test_a_stranger_joins_an_open_seat_from_the_lobby_list(browser, server):
    first, second = browser.new_context(), browser.new_context()
    host, guest = first.new_page(), second.new_page()
    table = _create_from_lobby(host, server, "triqueta", players=2, seats={1: "human-open"})
    guest.on("dialog", lambda dialog: dialog.accept("Mei"))
    guest.goto(server.url)
    guest.click(f"button.join[data-table='{table}']")
    guest.wait_for_url(re.compile(rf"/tables/{table}"))
    guest.wait_for_selector("#board svg")
    info = guest.request.get(f"{server.url}/api/tables/{table}").json()
    assert info["status"] == "playing" and info["seats"][1]["name"] == "Mei"
    host.wait_for_selector("#moves [data-action-id]")  # the game started for the host too
    first.close()
    second.close()


def test_an_invite_only_table_cannot_be_joined_without_its_code(server):
    import httpx

    created = httpx.post(f"{server.url}/api/tables", json={"game": "triqueta", "players": 2,
                                                           "seats": [{"kind": "human"}, {"kind": "human"}]}).json()
    refused = httpx.post(f"{server.url}/api/tables/{created['table_id']}/join", json={"name": "X"})
    assert refused.status_code == 403


def test_choosing_a_game_in_the_lobby_offers_its_player_range_and_options(page, server):
    page.goto(server.url)
    page.get_by_text("Celtica", exact=True).click()
    counts = page.locator("#players option").all_inner_texts()
    assert counts == ["2", "3", "4", "5"]
    page.select_option("#players", "5")
    assert page.locator(".seat-kind").count() == 5
    page.get_by_text("Castell", exact=True).click()
    assert page.locator("#players option").all_inner_texts() == ["2", "3", "4"]
    assert page.locator(".game-options[data-game=castell]").is_visible()
    assert not page.locator(".game-options[data-game=celtica]").is_visible()


def test_the_lobby_offers_the_operators_data_sets_and_a_table_is_made_on_one(browser, tmp_path):
    server = Server(tmp_path, args=("--data", str(make_data(tmp_path))))
    server.start()
    context = browser.new_context(viewport={"width": 1200, "height": 900})
    try:
        page = context.new_page()
        page.goto(server.url)
        page.get_by_text("Celtica", exact=True).click()
        board = page.locator('.game-options[data-game=celtica] select[name="opt-board"]')
        assert board.locator("option").all_inner_texts() == ["the shipped data", "printed"]
        board.select_option("printed")
        page.get_by_test_id("create-table").click()
        page.wait_for_url(re.compile(r"/tables/"))
        table = page.url.rsplit("/", 1)[-1].split("?")[0]
        seen = page.request.get(f"{server.url}/api/tables/{table}/state").json()
        assert [spot["kind"] for spot in seen["view"]["board"]] == ["start", "ruin", "cult", "monastery", "goal"]
    finally:
        context.close()
        log = server.stop()
    assert "Traceback" not in log, log
