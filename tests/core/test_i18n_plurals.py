"""Plural forms in the catalogs: a message with a number says "1 move" and "2 moves" in English and
never "move(s)" (the table issue's finding 10); Chinese has one form."""

from __future__ import annotations

import pytest

from meeple.core.i18n import Catalog


def _catalog(lang: str, **messages: str) -> Catalog:
    cat = Catalog([], lang)
    cat.messages.update(messages)
    return cat


@pytest.mark.parametrize(("count", "said"), [(0, "0 moves"), (1, "1 move"), (2, "2 moves"), (21, "21 moves")])
def test_english_picks_one_or_other_by_the_count(count, said):
    cat = _catalog("en", **{"m.one": "{count} move", "m.other": "{count} moves"})
    assert cat.text("m", count=count) == said
    assert cat.has("m")


def test_a_message_names_its_count_in_by():
    cat = _catalog("en", **{"m.by": "n", "m.one": "{who} took back {n} move", "m.other": "{who} took back {n} moves"})
    assert cat.text("m", who=1, n=1) == "1 took back 1 move"
    assert cat.text("m", who=1, n=3) == "1 took back 3 moves"


def test_chinese_has_only_the_other_form():
    cat = _catalog("zh-Hant", **{"m.one": "wrong", "m.other": "{count} 步"})
    assert cat.text("m", count=1) == "1 步"


def test_a_plural_message_without_a_count_is_a_programming_error():
    cat = _catalog("en", **{"m.one": "{a}", "m.other": "{a}"})
    with pytest.raises(TypeError, match="whole-number count"):
        cat.text("m", a=1)


def test_the_web_catalogs_write_no_parenthesised_plurals():
    for lang in ("en", "zh-Hant"):
        cat = Catalog(["meeple.server.web"], lang)
        assert not [key for key, message in cat.messages.items() if "(s)" in message]
        undo = Catalog(["meeple.server.web"], "en").text("event.undo", player=0, actions=1)
        assert undo.endswith("1 move.")
