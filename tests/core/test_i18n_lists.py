"""Lists in event text are written as words, never as Python's list syntax (the table issue's
finding 10: Castell's log said "size tokens [5, 5, 9]" and "scores [0, 51, 42]")."""

from __future__ import annotations

from meeple.core.i18n import Catalog
from meeple.core.protocol import Event
from meeple.core.text import event_text


def test_castell_events_write_their_lists_as_words_in_both_languages():
    for lang, sep in (("en", ", "), ("zh-Hant", "、")):
        cat = Catalog(["meeple.cli", "meeple.games.castell"], lang)
        over = event_text(Event("game_over", None, {"scores": [0, 51, 42]}), None, cat)
        discarded = event_text(Event("size_tokens_discarded", None, {"sizes": [5, 5, 9], "region": 0}), None, cat)
        assert "[" not in over + discarded and "]" not in over + discarded
        assert f"0{sep}51{sep}42" in over and f"5{sep}5{sep}9" in discarded
