"""`meeple rules GAME`: each game's summary (the catalog's `rules.summary`, which the lobby shows
too) states the rulings' defaults as defaults and names every rule option, in both languages.

In-process (typer's runner) so that the summaries of this source tree are the ones checked."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from meeple.cli.app import app
from meeple.core.registry import game_names, load

LANGS = ("en", "zh-Hant")


def rules(game: str, lang: str) -> str:
    result = CliRunner().invoke(app, ["rules", game, "--lang", lang])
    assert result.exit_code == 0, result.output
    return " ".join(result.output.split())  # the summary's line breaks are layout


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("game", game_names())
def test_the_summary_names_every_option_of_the_game(game, lang):
    text = rules(game, lang)
    for spec in load(game).option_specs:
        assert spec.name in text, f"{game} ({lang}) does not name option {spec.name}"
        for choice in spec.choices or ():
            assert str(choice) in text, f"{game} ({lang}) does not name {spec.name}={choice}"


@pytest.mark.parametrize("lang, two_players, last_token", [
    ("en", "two players only", "single last token cannot be boxed"),
    ("zh-Hant", "僅限 2 人", "最後單獨一枚不能放回盒中"),
])
def test_triqueta_states_both_t9_amendments(lang, two_players, last_token):
    """T9 (amended): duo is for two players only; the single last token cannot be boxed."""
    text = rules("triqueta", lang)
    assert "T9" in text and "duo" in text
    assert two_players in text and last_token in text


@pytest.mark.parametrize("lang, default, optional", [
    ("en", "prize of the lowest place their group covers", "one place below the place they tie for"),
    ("zh-Hant", "最低名次的獎勵", "低一等"),
])
def test_castell_states_k9_default_and_the_other_reading_as_the_option(lang, default, optional):
    """K9: ties take the prize of the lowest place covered; `one_lower` is only an option."""
    text = rules("castell", lang)
    assert "平手領低一等" not in text  # the translation's reading, once stated as the rule
    ties = text.index("K9")
    assert default in text[ties:text.index("Options" if lang == "en" else "選項")]
    option = text.index("prize_ties=lowest|one_lower")
    assert optional in text[option:] and optional not in text[:option]


@pytest.mark.parametrize("lang", LANGS)
def test_castell_states_k2_k10_and_k13(lang):
    text = rules("castell", lang)
    for ruling in ("K2", "K9", "K10", "K13"):
        assert ruling in text
    assert "refill=top_up|add" in text and "performance_tokens=own|all" in text
    assert "wheel=standard|advanced" in text


@pytest.mark.parametrize("lang", LANGS)
def test_triominos_states_the_single_round_default_and_its_options(lang):
    text = rules("triominos", lang)
    assert "M10" in text and "M6" in text and "400" in text
