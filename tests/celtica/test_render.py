"""Every word a player reads exists in both catalogs, and the renderer draws every view."""

from __future__ import annotations

import pytest
from rich.console import Console

from meeple.cli.render import catalog
from meeple.cli.render import celtica as render
from meeple.core.i18n import Catalog
from meeple.core.rng import Rng
from meeple.core.text import event_text
from meeple.games.celtica.actions import BY_ID
from tests.celtica.helpers import GAME

LANGS = ("en", "zh-Hant")


def played_events(seed: int, players: int):
    s = GAME.new_game(players, seed=seed)
    rng = Rng(seed)
    events = []
    while not s.is_terminal:
        events += s.apply(rng.choice(s.legal_actions()))
    return s, events


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_action_and_score_has_words(lang):
    cat = catalog("celtica", lang)
    own = Catalog(["meeple.games.celtica"], lang).messages
    keys = set()
    for seed in range(6):
        s, events = played_events(seed, 2 + seed % 4)
        for event in events:
            keys.add(event.key)
            for seat in [None, *range(s.num_players)]:
                text = event_text(event, seat, cat)
                assert not text.startswith("event"), text
                if event.secret and seat in event.visible_to:
                    assert cat.has(f"event.{event.key}_secret")
        for entry in s.score_breakdown():
            for key in entry:
                assert f"score.{key}" in own
    assert {"played", "took", "round_start", "dealt", "game_end", "final"} <= keys
    for action in BY_ID:
        label = render.action_label(action.to_json(), cat)
        assert not label.startswith("action."), label
    assert "rules.summary" in own and len(own["rules.summary"].splitlines()) >= 8


def test_game_catalog_does_not_override_cli_words():
    cli = Catalog(["meeple.cli"], "en").messages
    own = Catalog(["meeple.games.celtica"], "en").messages
    assert not set(cli) & set(own)


def test_both_catalogs_have_the_same_keys():
    import tomllib
    from importlib import resources

    def flat(lang):
        path = resources.files("meeple.games.celtica").joinpath("locale", f"{lang}.toml")
        data = tomllib.loads(path.read_text("utf-8"))
        out = set()

        def walk(table, prefix=""):
            for key, value in table.items():
                if isinstance(value, dict) and "other" in value:
                    out.add(prefix + key)  # a plural message: its forms differ by language
                elif isinstance(value, dict):
                    walk(value, f"{prefix}{key}.")
                else:
                    out.add(prefix + key)
        walk(data)
        return out

    assert flat("en") == flat("zh-Hant")


@pytest.mark.parametrize("lang", LANGS)
def test_renderer_draws_every_seat_and_hides_hands_from_spectators(lang):
    cat = catalog("celtica", lang)
    s = GAME.new_game(3, seed=4)
    rng = Rng(4)
    step = 0
    while True:
        if step % 25 == 0 or s.is_terminal:
            for seat in [None, 0, 1, 2]:
                console = Console(width=120, record=True)
                console.print(render.board(s.view(seat), cat, seat))
                text = console.export_text()
                assert cat.text("view.hand") in text if seat is not None else cat.text("view.hand") not in text
        if s.is_terminal:
            break
        s.apply(rng.choice(s.legal_actions()))
        step += 1
