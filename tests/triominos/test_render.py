"""Catalogs, the terminal drawing, move labels and the SVG picture (rendered to PNG by cairosvg)."""

from __future__ import annotations

import io
import re
import tomllib
from importlib import resources

import cairosvg
import pytest
from PIL import Image
from rich.console import Console

from meeple.cli.render import triominos as render
from meeple.core.i18n import Catalog
from meeple.core.rng import Rng
from meeple.games.triominos import heuristics
from meeple.games.triominos.actions import DRAW, PASS, STOP
from meeple.games.triominos.components import NAME
from meeple.games.triominos.describe import corners
from meeple.games.triominos.scoring import BONUS_NAME, PARTS
from tests.triominos.helpers import FIG_I_TRIPLE, GAME, figure_state, place

LANGS = ("en", "zh-Hant")


def catalog(lang: str) -> Catalog:
    return Catalog(["meeple.games.triominos"], lang)


def played(seed: int = 2, moves: int = 25, players: int = 3):
    state = GAME.new_game(players, seed=seed)
    rng = Rng(seed)
    events = []
    for _ in range(moves):
        if state.is_terminal:
            break
        events += state.apply(heuristics.choose(state, rng))
    return state, events


def _keys(lang: str) -> set[str]:
    """Dotted keys of one catalog file on its own (no fallback to English); a plural message is one key."""
    text = resources.files("meeple.games.triominos").joinpath("locale", f"{lang}.toml").read_text("utf-8")

    def flat(table: dict, prefix: str = "") -> set[str]:
        out: set[str] = set()
        for key, value in table.items():
            plural = isinstance(value, dict) and "other" in value  # one message in its plural forms
            out |= flat(value, f"{prefix}{key}.") if isinstance(value, dict) and not plural else {prefix + key}
        return out

    return flat(tomllib.loads(text))


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_has_every_key(lang):
    keys = _keys(lang)
    needed = {f"score.{p}" for p in PARTS} | {"score.total", "score.rounds", "rules.summary"}
    needed |= {f"action.{k}" for k in ("place", "draw", "pass", "stop")}
    events = {"round_start", "opening_draw", "opener", "place", "draw", "pass", "stop", "went_out", "blocked",
              "round_end", "game_end"} | {b for b in BONUS_NAME if b}
    needed |= {f"event.{e}" for e in events}
    assert needed <= keys
    assert _keys("en") == _keys("zh-Hant")


def test_every_emitted_event_has_a_message():
    cat = catalog("en")
    for seed in range(6):
        state = GAME.new_game(2, seed=seed, match=True, target=60)
        rng = Rng(seed)
        while not state.is_terminal:
            acts = state.legal_actions()
            for event in state.apply(acts[rng.below(len(acts))]):
                assert cat.has(f"event.{event.key}")
                for seat in (None, 0, 1):
                    shown = event.for_seat(seat)
                    if not shown.get("hidden"):
                        cat.text(f"event.{event.key}", **shown["params"])


@pytest.mark.parametrize("lang", LANGS)
def test_action_labels_are_short(lang):
    cat = catalog(lang)
    state, _ = played()
    for action in state.legal_actions() + [DRAW, PASS, STOP]:
        label = render.action_label(action.to_json(), cat)
        assert "action." not in label and len(label) < 40
    assert render.action_label({"type": "place", "tile": "1-3-4", "x": 2, "y": -1, "dir": "up", "rot": 2},
                               catalog("en")) == "Place 1-3-4"
    assert render.action_label({"type": "draw"}, catalog("en")) == "Draw a tile (−5 points)"


def test_terminal_drawing_shows_corner_numbers_and_last_move():
    state = figure_state(FIG_I_TRIPLE)
    place(state, *FIG_I_TRIPLE[1])
    view = state.view(0)
    grid = render.ascii_board(view)
    text = "\n".join("".join(ch for ch, _ in row) for row in grid)
    assert text.count("*") == 1
    digits = sum(ch.isdigit() for ch in text)
    points = {(x, y) for t in view["board"] for x, y in corners(t["x"], t["y"], t["dir"] == "up")}
    assert digits == len(points) == 12
    console = Console(width=100, record=True)
    console.print(render.board(view, catalog("en"), 0))
    out = console.export_text()
    assert "Your rack" in out and "*" in out and "Round 1" in out


def test_board_hides_other_racks():
    state, _ = played()
    console = Console(width=120, record=True)
    console.print(render.board(state.view(None), catalog("zh-Hant"), None))
    out = console.export_text()
    assert "牌架" in out
    for t in state.racks[0]:
        assert NAME[t] not in out


def test_svg_renders_to_a_non_blank_png():
    state, _ = played(moves=40)
    svg = render.svg(state.view(None), catalog("en"))
    assert svg.count("<polygon") == len(state.board.history)
    assert "#ffd34d" in svg  # the last tile is highlighted
    png = cairosvg.svg2png(bytestring=svg.encode("utf-8"))
    image = Image.open(io.BytesIO(png)).convert("RGB")
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50
    non_background = sum(n for n, rgb in colours if rgb != (0x2F, 0x6B, 0x3A))
    assert non_background > image.width * image.height // 10
    numbers = re.findall(r">([0-5])</text>", svg)
    assert len(numbers) == 3 * len(state.board.history)


def test_svg_of_an_empty_board_is_valid():
    state = GAME.new_game(2, seed=1)
    png = cairosvg.svg2png(bytestring=render.svg(state.view(0), catalog("en")).encode())
    assert Image.open(io.BytesIO(png)).size[0] >= 400


def test_open_cells_have_letters_matching_the_move_labels():
    state, _ = played(moves=12)
    view = state.view(state.current_player)
    keys = render.open_keys(view)
    assert keys and len(set(keys.values())) == len(keys)
    assert {(c["x"], c["y"], c["dir"]) for c in view["open"]} == set(keys)
    drawing = "".join(ch for row in render.ascii_board(view) for ch, _ in row)
    for action in state.legal_actions():
        data = action.to_json()
        if data["type"] != "place":
            continue
        key = keys[(data["x"], data["y"], data["dir"])]
        assert render.action_label(data, catalog("en"), view=view).startswith(f"Place {data['tile']} on cell {key},")
        assert key in drawing
