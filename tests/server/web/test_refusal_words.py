"""A page says a refusal in its own language: every refusal code the server can send has words
in both catalogs (`refusal.<code>`), and the pages hand them to their scripts (which used to show
the server's English message, and "Guest" as a name)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from meeple.core.i18n import Catalog
from tests.server.conftest import create

SERVER = Path(__file__).resolve().parents[3] / "src" / "meeple" / "server"


def _codes() -> set[str]:
    source = "".join(path.read_text(encoding="utf-8") for path in SERVER.glob("*.py"))
    return set(re.findall(r'(?:Refused|Limited)\(\s*"([a-z_]+)"', source))


def _found(pattern: str, page: str) -> str:
    match = re.search(pattern, page)
    assert match is not None, pattern
    return match.group(1)


@pytest.mark.parametrize("lang", ["en", "zh-Hant"])
def test_every_refusal_code_has_words_in_both_languages(lang):
    cat = Catalog(["meeple.server.web"], lang)
    codes = _codes()
    assert {"stale", "illegal", "too_many"} <= codes  # the scan finds the server's codes
    assert not [code for code in codes if f"refusal.{code}" not in cat.messages]
    assert cat.has("refusal.other") and cat.has("refusal.guest")


def test_the_pages_give_their_scripts_the_refusals_in_the_page_language(client):
    client.cookies.set("lang", "zh-Hant")
    table = create(client, "triqueta", 2)["table_id"]
    page = client.get(f"/tables/{table}").text
    labels = json.loads(_found(r"data-labels='([^']*)'", page).replace("&#34;", '"'))
    assert labels["refusals"]["illegal"] == "現在不能這樣走。"
    lobby = client.get("/").text
    lobby_labels = json.loads(_found(r'<script type="application/json" id="labels">(.*?)</script>', lobby))
    assert lobby_labels["refusals"]["too_many"] == Catalog(["meeple.server.web"], "zh-Hant").text("refusal.too_many")
