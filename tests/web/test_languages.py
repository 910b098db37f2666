"""The Traditional Chinese sweep: with the `lang` cookie set to zh-Hant, every page a person sees
(the lobby, a waiting table, each game mid-game and after the end) says nothing in English.

Everything is read: each frame's visible text, the page title, the drawings' SVG text and
tooltips, every `title`, `aria-label`, `placeholder` and `alt`, every `<option>` and each button's
`value`. Any Latin word of two or more letters fails, unless it is a player's name or on the short
allowlist below; the failure lists the strings holding such words, with where each was seen."""

from __future__ import annotations

import re
from typing import Any

import pytest
from tests.server.live import Server
from tests.web.api_tables import create, open_as, play

GAMES = ("triqueta", "triominos", "celtica", "castell")
#: The only Latin words a Chinese page may show, each for a reason:
ALLOWED = {
    "meeple",   # the product's name, the same in every language (the header's brand, the page titles)
    "English",  # the language switch names each language in itself, so its readers find it
}
#: The person's name in these tests: a player's name is theirs, in whatever script they chose.
PLAYER = "Ana Lee"
LATIN_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ɏ][A-Za-zÀ-ÖØ-öø-ɏ'’_-]*[A-Za-zÀ-ÖØ-öø-ɏ]")  # accented letters too
#: A template's blank ("{n}"), which the page script fills with a number or a name.
PLACEHOLDER = re.compile(r"\{[a-z_]+\}")

#: Every string a person can read or hear from a page, per frame (see the module docstring).
READ_PAGE = r"""() => {
  const seen = [["title", document.title], ["text", document.body.innerText]];
  for (const el of document.querySelectorAll("svg text, svg title, option")) seen.push([el.tagName, el.textContent]);
  for (const el of document.querySelectorAll("template")) {  // words the script shows later
    let words;
    try { words = Object.values(JSON.parse(el.innerHTML)).join("\n"); } catch { words = el.content.textContent; }
    seen.push(["template", words]);
  }
  for (const name of ["title", "aria-label", "placeholder", "alt"]) {
    for (const el of document.querySelectorAll(`[${name}]`)) seen.push([name, el.getAttribute(name)]);
  }
  for (const el of document.querySelectorAll("button[value], input[type=button], input[type=submit]")) {
    seen.push(["value", el.value]);
  }
  return seen;
}"""


def _untranslated(page: Any, place: str, found: dict[str, str]) -> None:
    """Add to `found` each string of every frame of `page` that holds a Latin word not allowed
    and not already reported in an earlier string, with the place it was seen in."""
    reported = {word for string in found for word in LATIN_WORD.findall(string)}
    for frame in page.frames:
        for where, content in frame.evaluate(READ_PAGE):
            for line in PLACEHOLDER.sub("", (content or "").replace(PLAYER, "")).splitlines():
                new = {word for word in LATIN_WORD.findall(line) if word not in ALLOWED} - reported
                if new:
                    found[line.strip()[:160]] = f"{place} [{where.lower()}]"
                    reported |= new


def _chinese(page: Any, server: Server) -> None:
    page.context.add_cookies([{"name": "lang", "value": "zh-Hant", "url": server.url}])


def _report(found: dict[str, str]) -> str:
    return f"{len(found)} strings with English words on the zh-Hant pages (each new word once):\n" + "\n".join(
        f"{seen}: {string}" for string, seen in found.items())


def test_the_lobby_and_a_waiting_table_say_nothing_in_english(page, server):
    _chinese(page, server)
    waiting = create(server, "triqueta", players=3, name=PLAYER, bot="ismcts:hard", open_seats=1, public=True,
                     clock="300+5")
    create(server, "celtica", players=2, name=PLAYER, open_seats=1, public=True)
    page.goto(server.url)
    page.wait_for_selector("ul.tables li")
    found: dict[str, str] = {}
    for game in GAMES:  # each game's options (hidden until the game is chosen)
        page.locator(f".game-choice:has(input[value={game}]) .game-title").click()
        _untranslated(page, f"lobby, {game} chosen", found)
    open_as(page, server, waiting)
    page.wait_for_selector("#invite:not([hidden])")
    _untranslated(page, "waiting table", found)
    assert not found, _report(found)


@pytest.mark.parametrize("game", GAMES)
def test_a_game_mid_way_and_over_says_nothing_in_english(page, server, game):
    _chinese(page, server)
    me = create(server, game, players=3 if game != "triominos" else 2, name=PLAYER, clock="900+10")
    play(server, [me], moves=3)
    open_as(page, server, me)
    page.wait_for_selector("#players li")
    found: dict[str, str] = {}
    _untranslated(page, f"{game} mid-game", found)
    play(server, [me])
    page.wait_for_selector("[data-testid=game-over]")
    page.wait_for_selector("#replay-board svg")
    _untranslated(page, f"{game} over", found)
    assert not found, _report(found)
