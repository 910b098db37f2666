"""The lobby and the seat panels in words, in both languages: option names, bot levels, clocks,
statuses and seat names come from the catalogs, never from a spec or a literal."""

from __future__ import annotations

import re
from typing import Any, get_args

import pytest
from fastapi.testclient import TestClient

from meeple.core.i18n import LANGUAGES, Catalog
from meeple.core.registry import load
from meeple.server.bots import OFFERED
from meeple.server.models import TableInfo
from meeple.server.web.pages import CLOCKS, _option, clock_words
from meeple.server.web.render import _players, catalog, seat_name

STATUSES = get_args(TableInfo.model_fields["status"].annotation)


def _zh(client: TestClient, path: str = "/") -> str:
    client.cookies.set("lang", "zh-Hant")
    return str(client.get(path).text)


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_offered_bot_level_has_a_word_and_a_hint_in_each_language(lang):
    cat = Catalog(["meeple.server.web"], lang)
    for level in OFFERED:
        assert cat.has(f"level.{level}") and cat.has(f"level_hint.{level}"), level
        assert cat.name("level", level) != level  # a word, not the bot spec
    assert len({cat.name("level", level) for level in OFFERED}) == len(OFFERED)  # told apart


def test_the_zh_lobby_offers_bot_levels_and_clocks_in_words(client):
    page = _zh(client)
    assert "簡單電腦：只看眼前最好的一步" in page and "專家電腦" in page
    assert "5 分鐘，每步加 5 秒" in page and "15 分鐘，每步加 10 秒" in page
    assert "greedy<" not in page and "ismcts:hard<" not in page and " min" not in page


@pytest.mark.parametrize(("rule", "lang", "words"), [
    ("300+5", "en", "5 min, +5 s a move"), ("900+10", "en", "15 min, +10 s a move"),
    ("90+2", "en", "1.5 min, +2 s a move"), ("300+5", "zh-Hant", "5 分鐘，每步加 5 秒"), ("none", "en", "No clock"),
])
def test_a_clock_rule_is_said_in_words(rule, lang, words):
    assert clock_words(rule, Catalog(["meeple.server.web"], lang)) == words


def test_the_lobby_offers_every_clock_choice_once(client):
    page = client.get("/").text
    assert re.findall(r'<option value="(none|\d+\+\d+)"', page) == list(CLOCKS)


def test_an_option_takes_its_name_help_and_choices_from_the_game_catalog():
    spec = next(s for s in load("castell").option_specs if s.name == "refill")
    cat = catalog("castell", "zh-Hant")
    cat.messages.update({"option.refill.name": "補充", "option.refill.help": "第 3、5、7、9 輪補人",
                         "option.refill.choice.top_up": "補滿", "option.refill.choice.add": "加上"})
    shown = _option(spec, list(spec.choices or ()), cat)
    assert (shown["label"], shown["help"]) == ("補充", "第 3、5、7、9 輪補人")
    assert shown["choices"] == [("top_up", "補滿"), ("add", "加上")]


def test_an_option_without_catalog_words_falls_back_to_the_specs_own_text():
    spec = next(s for s in load("castell").option_specs if s.name == "refill")
    cat = Catalog(["meeple.server.web"], "zh-Hant")  # no game catalog: none of its option keys
    shown = _option(spec, list(spec.choices or ()), cat)
    assert (shown["label"], shown["help"]) == ("refill", spec.help)
    assert shown["choices"] == [("top_up", "top_up"), ("add", "add")]
    assert _option(spec, ["", "printed"], cat)["choices"][0] == ("", "內建資料")  # "" is the shipped data


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_table_status_has_words_in_each_language(lang):
    cat = Catalog(["meeple.server.web"], lang)
    for status in STATUSES:
        assert cat.has(f"web.status.{status}"), status


def test_the_zh_lobby_lists_a_table_with_its_status_count_and_seat_names_in_words(client):
    client.post("/api/tables", json={"game": "triqueta", "players": 3, "public": True, "name": "阿明",
                                     "seats": [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"}]})
    page = _zh(client)
    listed = page[page.index('class="tables"'):]
    assert "3 人 · 等待玩家" in listed
    assert ">簡單電腦 3<" in listed and ">阿明<" in listed and "greedy 3" not in listed
    assert 'title="阿明"' in listed  # the whole name, for a name cut short


def test_a_bot_seat_is_named_by_its_level_and_a_person_by_their_name():
    cat = Catalog(["meeple.server.web"], "en")
    assert seat_name({"kind": "bot", "bot": "ismcts:hard", "name": "ismcts:hard 2"}, 1, cat) == "Expert bot 2"
    assert seat_name({"kind": "human", "bot": "greedy", "name": "Ana"}, 0, cat) == "Ana"  # left: still Ana
    assert seat_name({"kind": "human", "name": ""}, 2, cat) == "Seat 3"


def _seat(k: int, name: str, **extra: Any) -> dict[str, Any]:
    return {"seat": k, "kind": "human", "bot": None, "name": name, "taken": True, "connected": 1, **extra}


def test_a_seat_panel_says_who_stands_in_for_a_person_who_left_and_keeps_the_whole_name_in_a_title():
    long = "Bartholomew-Maximilian Fitzgerald-Smythe"
    cat = Catalog(["meeple.server.web"], "zh-Hant")
    html = _players([_seat(0, long, bot="ismcts:normal", left=True), _seat(1, "x", kind="bot", bot="random")],
                    None, None, cat, {"remaining_ms": [1000, 2000], "running": 0})
    assert f'title="{long}"' in html
    assert "由強電腦代打" in html  # the person who left, now played by the "strong" bot
    assert "新手電腦 2" in html and "random" not in html
    assert 'title="剩餘時間"' in html


def test_an_event_names_the_stand_in_bots_level_in_words():
    cat = Catalog(["meeple.server.web"], "zh-Hant")
    cat.player_names = ["阿明"]
    assert cat.text("event.seat_replaced", player=0, bot="greedy") == "阿明 改由簡單電腦接手。"


def test_the_table_page_title_is_the_games_title_in_the_pages_language(client):
    created = client.post("/api/tables", json={"game": "castell", "players": 2}).json()
    page = _zh(client, f"/tables/{created['table_id']}")
    title = catalog("castell", "zh-Hant").text("title")
    assert f"<title>{title} · meeple</title>" in page and f"<h1>{title}</h1>" in page
    assert 'aria-label="遊戲盤面"' in page
