"""The Content-Security-Policy in a real browser: the lobby, the language switch, a table, its
end and replay run with no violation reported, every response of the server carries the policy,
and a script slipped into the page is refused. The game between is played over the API with the
page away: the whole games played by clicking in test_pages.py fail on any violation already."""

from __future__ import annotations

from typing import Any

from tests.server.live import Server
from tests.web.api_tables import credentials, play
from tests.web.test_pages import _create_from_lobby

CSP = "Content Security Policy"


def test_a_game_plays_with_no_policy_violation_and_inline_script_is_refused(browser: Any, server: Server):
    context = browser.new_context()  # not the `page` fixture: this test provokes a violation on purpose
    context.add_init_script("localStorage.setItem('meeple:pace', 'instant')")  # the bot's moves at once
    page = context.new_page()
    console: list[str] = []
    responses: list[Any] = []
    page.on("console", lambda message: console.append(message.text))
    page.on("response", lambda response: responses.append(response))
    page.goto(server.url)
    page.select_option("[data-testid=language]", "zh-Hant")
    page.wait_for_selector("text=開新桌")
    page.select_option("[data-testid=language]", "en")
    page.wait_for_selector("text=New table")
    table = _create_from_lobby(page, server, "castell", players=2)
    (seat, credential), = credentials(page, table).items()
    page.goto("about:blank")
    play(server, [{"table_id": table, "seat": seat, "credential": credential}])
    page.goto(f"{server.url}/tables/{table}")
    page.wait_for_selector("[data-testid=game-over]")
    page.click("#replay-next")
    page.wait_for_selector("#replay-board svg")

    assert [text for text in console if CSP in text] == []
    ours = [r for r in responses if r.url.startswith(server.url)]
    assert {r.url.rsplit("/", 1)[-1].split("?")[0] for r in ours} >= {"", "style.css", "table.js", "lobby.js"}
    for response in ours:
        assert "script-src 'self'" in response.headers.get("content-security-policy", ""), response.url
        assert response.headers.get("x-content-type-options") == "nosniff", response.url

    with page.expect_console_message(lambda message: CSP in message.text):
        page.evaluate("""() => { const s = document.createElement('script');
                                 s.textContent = 'window.slipped = true'; document.body.append(s); }""")
    assert page.evaluate("() => window.slipped === true") is False
    context.close()
