"""The table follows the game at a pace a person can follow: others' and bots' moves are shown
one at a time, each for the pace chosen (about a second by default), the seat's own moves at
once, nothing skipped; the pace control is remembered; and a reload shows the same log, the
server's own notices (a join, an undo) included."""

from __future__ import annotations

import re
from typing import Any

from tests.web.test_pages import _create_from_lobby

#: Records in the page when each state message arrived and when each version was first shown.
RECORDER = """
window.__arrived = []; window.__shown = [];
const Base = window.WebSocket;
window.WebSocket = class extends Base {
  constructor(...args) {
    super(...args);
    this.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "state") window.__arrived.push([message.version, performance.now()]);
    });
  }
};
document.addEventListener("DOMContentLoaded", () => {
  const table = document.getElementById("table");
  if (!table) return;
  new MutationObserver(() => {
    const version = table.dataset.version;
    const last = window.__shown.at(-1);
    const changed = version !== undefined && (!last || last[0] !== Number(version));
    if (changed) window.__shown.push([Number(version), performance.now()]);
  }).observe(table, { attributes: true, attributeFilter: ["data-version"] });
});
"""


def _against_bots(page: Any, server: Any, pace: str) -> tuple[int, list[tuple[int, float]], dict[int, float]]:
    """Triqueta with two bots: draw and place a token, then watch the bots until my turn again.
    Returns my last version, the versions shown (with when) and when each version arrived."""
    page.add_init_script(f"localStorage.setItem('meeple:pace', '{pace}');" + RECORDER)
    _create_from_lobby(page, server, "triqueta", players=3)
    mine = 0
    for label in ("draw", ""):  # draw, then place or keep what was drawn (my own two moves)
        page.wait_for_selector("#moves [data-action-id]")
        mine = int(page.locator("#table").get_attribute("data-version"))
        page.locator("#moves [data-action-id]").filter(has_text=label).first.click()
        page.wait_for_function("v => Number(document.getElementById('table').dataset.version) > v", arg=mine)
    mine += 1
    page.wait_for_selector("#moves [data-action-id]", timeout=60_000)  # the bots have moved
    shown = [(int(v), t) for v, t in page.evaluate("() => window.__shown")]
    arrived: dict[int, float] = {}
    for version, at in page.evaluate("() => window.__arrived"):
        arrived.setdefault(int(version), at)
    return mine, shown, arrived


def test_bots_moves_are_shown_one_at_a_time_each_for_the_pace(page, server):
    mine, shown, arrived = _against_bots(page, server, "normal")
    versions = [v for v, _ in shown]
    assert versions == list(range(versions[0], versions[-1] + 1))  # every version, in order, none skipped
    assert versions[-1] >= mine + 2, versions  # both bots moved
    at = dict(shown)
    assert at[mine] < arrived[mine + 1]  # my own move at once: drawn before the next message came
    for version in range(mine + 1, versions[-1] + 1):  # each bot move waits for the last to be seen
        assert at[version] - at[version - 1] >= 950, (version, mine, shown, arrived)


def test_instant_pace_shows_every_move_as_it_comes(page, server):
    mine, shown, arrived = _against_bots(page, server, "instant")
    versions = [v for v, _ in shown]
    assert versions == list(range(versions[0], versions[-1] + 1))
    assert versions[-1] >= mine + 2
    # Each version is drawn as its message is read, before the next message (a later task) comes.
    assert all(arrived[version] <= at < arrived.get(version + 1, float("inf")) for version, at in shown), (
        shown, arrived)


def test_the_pace_control_is_remembered_and_normal_by_default(browser, server):
    context = browser.new_context()  # no test pace: the page's own default
    page = context.new_page()
    try:
        _create_from_lobby(page, server, "castell", players=2)
        assert page.locator("#pace").input_value() == "normal"
        page.select_option("#pace", "slow")
        page.reload()
        page.wait_for_selector("#board svg")
        assert page.locator("#pace").input_value() == "slow"
        assert page.evaluate("() => localStorage.getItem('meeple:pace')") == "slow"
    finally:
        context.close()


def _log(page: Any) -> list[str]:
    return [line.strip() for line in page.locator("#log li").all_text_contents()]


def test_a_reload_shows_the_same_log_with_the_join_and_the_undo(browser, server):
    first, second = browser.new_context(), browser.new_context()
    ana, ben = first.new_page(), second.new_page()
    try:
        _create_from_lobby(ana, server, "castell", players=2, seats={1: "human"})
        link = ana.locator("#invite-link").input_value()
        ben.on("dialog", lambda dialog: dialog.accept("Ben"))
        ben.goto(link)
        ana.wait_for_selector("#moves [data-action-id]")
        first_move = re.compile("^(move to|place your pawn)", re.I)  # K4: placing the pawn reveals nothing
        ana.locator("#moves [data-action-id]").filter(has_text=first_move).first.click()
        ana.wait_for_selector("#undo:not([hidden])")  # a move that revealed nothing
        ana.click("#undo")
        ana.wait_for_function("() => document.getElementById('log').textContent.includes('took back 1 move')")
        before = _log(ana)
        assert any(line == "Ben joined the table." for line in before), before
        ana.reload()
        ana.wait_for_selector("#log li")
        ana.wait_for_function("n => document.querySelectorAll('#log li').length >= n", arg=len(before))
        assert _log(ana) == before
    finally:
        first.close()
        second.close()
