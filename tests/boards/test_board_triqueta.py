"""The Triqueta browser board: well-formed, moves only from `legal`, nothing hidden, both languages."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

import pytest

from meeple.boards import board_for, svg, triqueta
from meeple.boards import triqueta_art as art
from meeple.boards.triqueta import board
from meeple.core.conformance import random_position
from meeple.core.i18n import Catalog
from meeple.core.protocol import Event
from meeple.core.rng import Rng
from meeple.core.text import event_text
from meeple.games.triqueta import describe
from meeple.games.triqueta.components import ANIMALS
from meeple.games.triqueta.game import TriquetaGame
from meeple.games.triqueta.state import TriquetaState
from meeple.server.wire import legal_moves
from tests.web.colourblind import confusable_pairs

GAME = TriquetaGame()
LANGS = ("en", "zh-Hant")
#: (players, options) of the positions: every player count and the duo variant (T9).
SETUPS: tuple[tuple[int, dict[str, Any]], ...] = ((2, {}), (2, {"duo": True}), (3, {}), (4, {}), (5, {}))
#: Walk lengths from the first turn to past the end of a game (a walk stops at game over).
MOVES = (0, 1, 7, 20, 33, 58, 90, 400)
#: A catalog key shown for want of a message (Catalog.text shows the key itself).
MISSING = re.compile(r"\b(?:web|ui|action|animal|row|score)\.[a-z0-9_.]+")


def catalog(lang: str) -> Catalog:
    return Catalog(["meeple.games.triqueta"], lang)


def positions() -> list[TriquetaState]:
    found = []
    for players, options in SETUPS:
        for seed in (1, 2, 3):
            for moves in MOVES:
                found.append(random_position(GAME, players, seed, moves, walk_seed=seed + moves, **options))
    return found


POSITIONS = positions()


def seats(state: TriquetaState) -> list[int | None]:
    return [*range(state.num_players), None]


def render(state: TriquetaState, seat: int | None, cat: Catalog) -> str:
    return board(state.view(seat), seat, legal_moves(state, seat), cat)


def parse(html: str) -> ET.Element:
    return ET.fromstring(f"<root>{html}</root>")


def test_the_contract_finds_the_board() -> None:
    assert board_for("triqueta") is board


def test_positions_cover_the_game() -> None:
    assert any(s.over for s in POSITIONS) and any(s.pending for s in POSITIONS)
    assert any(len(s.pending) == 2 for s in POSITIONS)  # duo: two tokens drawn at once


@pytest.mark.parametrize("lang", LANGS)
def test_well_formed_and_moves_only_from_legal(lang: str) -> None:
    cat = catalog(lang)
    for state in POSITIONS:
        for seat in seats(state):
            legal = legal_moves(state, seat)
            ids = {str(m["id"]) for m in legal}
            root = parse(board(state.view(seat), seat, legal, cat))
            found = [e.get("data-action-id") for e in root.iter() if e.get("data-action-id") is not None]
            assert set(found) <= ids
            picks = {e.get("data-pick") for e in root.iter() if e.get("data-pick") is not None}
            assert {e.get("data-needs") for e in root.iter() if e.get("data-needs") is not None} <= picks
            for e in root.iter():
                if e.get("data-action-id") is not None:
                    assert e.get("role") == "button" and e.get("aria-label")


def test_the_natural_moves_are_on_the_board() -> None:
    """Take a row, draw, place in a row and keep face down are all clickable where they are made."""
    cat = catalog("en")
    on_board: set[str] = set()
    for state in POSITIONS:
        seat = state.current_player
        if seat is None:
            continue
        legal = legal_moves(state, seat)
        root = parse(board(state.view(seat), seat, legal, cat))
        clickable = {e.get("data-action-id") for e in root.iter()}
        kinds = {str(m["id"]): m["action"]["type"] for m in legal}
        on_board |= {kinds[i] for i in clickable if i in kinds}
        for move in legal:
            if move["action"]["type"] != "discard" or state.duo:
                assert str(move["id"]) in clickable, move
    assert on_board >= {"take", "draw", "place", "keep", "discard"}


def test_no_leak_from_determinized_positions() -> None:
    cat = catalog("en")
    for state in POSITIONS[::2]:
        for seat in range(state.num_players):
            shown = render(state, seat, cat)
            spectator = render(state, None, cat)
            for seed in (1, 2, 3):
                other = state.determinize(seat, Rng(seed))
                assert render(other, seat, cat) == shown
                assert render(other, None, cat) == spectator


@pytest.mark.parametrize("lang", LANGS)
def test_both_languages_render_every_message(lang: str) -> None:
    cat = catalog(lang)
    for state in POSITIONS[::3]:
        for seat in seats(state):
            html = render(state, seat, cat)
            assert not MISSING.search(html), MISSING.search(html)


def test_chinese_board_is_in_chinese() -> None:
    html = render(next(s for s in POSITIONS if not s.over), 0, catalog("zh-Hant"))
    assert "動物列" in html and "Animal rows" not in html


def test_player_names_are_escaped() -> None:
    cat = catalog("en")
    cat.player_names = ["<script>alert(1)</script>", "Ann & Bob"]
    state = POSITIONS[3]
    for seat in seats(state):
        html = render(state, seat, cat)
        assert "<script>" not in html and "&lt;script&gt;" in html
        parse(html)


@pytest.mark.parametrize("lang", LANGS)
def test_describe_labels_every_legal_action(lang: str) -> None:
    cat = catalog(lang)
    for state in POSITIONS:
        seat = state.current_player
        if seat is None:
            continue
        view = state.view(seat)
        labels = [describe.action_label(m["action"], cat, view) for m in legal_moves(state, seat)]
        for label in labels:
            assert label and not MISSING.search(label)
        drawn = view.get("pending", [])
        if len(set(drawn)) == len(drawn):  # two drawn owls (T9) make two moves that are alike
            assert len(set(labels)) == len(labels)


# -- the session's items: art, last change, prompt, standings, names, words --------------------

CJK_LETTERS = re.compile(r"[A-Za-z]{2,}")


def steps(seed: int, players: int, duo: bool = False) -> Iterator[tuple[TriquetaState, list[Event]]]:
    """A random game, step by step: the position after each move and the move's events. Draws
    are favoured (4 in 5) so towers run empty and the last player in keeps drawing (T5)."""
    state = GAME.new_game(players, seed=seed, duo=duo)
    rng = Rng(seed + 100)
    while not state.is_terminal:
        legal = state.legal_actions()
        draws = [a for a in legal if a.to_json()["type"] == "draw"]
        action = draws[0] if draws and rng.below(5) else legal[rng.below(len(legal))]
        events = state.apply(action)
        yield state, events


GAMES = [(seed, players, duo) for seed, players, duo in ((1, 2, False), (2, 3, False), (3, 2, True), (4, 4, False),
                                                          (5, 2, True), (6, 5, False))]


def tagged(root: ET.Element, tag: str) -> Iterator[ET.Element]:
    """The elements named `tag` under `root`, whatever their namespace (the drawings are SVG)."""
    return (e for e in root.iter() if e.tag.rsplit("}", 1)[-1] == tag)


def shown_texts(root: ET.Element) -> list[str]:
    """Every word a person reads in a drawing: text, tooltips and screen-reader labels."""
    found = ["".join(e.itertext()) for e in root.iter() if e.tag.rsplit("}", 1)[-1] in ("text", "title")]
    found += [e.get("aria-label") or "" for e in root.iter()]
    return [t for t in found if t]


def test_animals_are_drawn_as_heads_never_as_letters() -> None:
    """Item 1: each animal token carries its head (paths of its own) and no text at all."""
    cat = catalog("en")
    shapes: dict[str, set[str]] = {}
    for state in POSITIONS:
        root = parse(render(state, 0, cat))
        for e in tagged(root, "g"):
            kind = e.get("data-kind")
            if kind in ANIMALS and "token" in (e.get("class") or ""):
                assert not list(tagged(e, "text")), "a token is drawn, not lettered"
                heads = [str(p.get("d")) for p in tagged(e, "path")]
                assert len(heads) >= 3
                shapes.setdefault(kind, set()).add("|".join(heads))
                assert e.get("data-shape") == art.SHAPES[ANIMALS.index(kind)]
    assert set(shapes) == set(ANIMALS)
    assert all(len(found) == 1 for found in shapes.values())  # one drawing per animal
    assert len({next(iter(found)) for found in shapes.values()}) == len(ANIMALS)  # all different
    for mark in ("Rb", "Ow", "De", "Bo", "Ra", "Be"):
        assert f">{mark}<" not in render(POSITIONS[20], 0, cat)


def test_colours_a_colour_blind_player_confuses_differ_by_shape_too() -> None:
    """Item 1: every pair of token colours some colour blindness cannot tell apart is drawn
    with different heads; the count badges that differ by colour also differ by their mark."""
    tokens = {ANIMALS[a]: fill for a, (fill, _) in enumerate(art.ANIMAL_COLOURS)} | {"back": art.BACK}
    confused = confusable_pairs(tokens)
    assert confused, "the palette has pairs that need the shapes (rabbit and ram, boar and back…)"
    cat = catalog("en")
    drawn: dict[str, str] = {}
    for state in POSITIONS[::4]:
        for e in tagged(parse(render(state, 0, cat)), "g"):
            if "token" in (e.get("class") or "") and e.get("data-kind"):
                drawn[str(e.get("data-kind"))] = str(e.get("data-shape")) + "".join(
                    str(p.get("d")) for p in tagged(e, "path")) + "".join(str(c.get("r")) for c in tagged(e, "circle"))
    for pair in confused:
        a, b = sorted(pair)
        assert a in drawn and b in drawn and drawn[a] != drawn[b], pair
    badges = {"triqueta": triqueta.GOLD, "too_many": triqueta.WARN, "count": triqueta.INK}
    marks = {"triqueta": "✓", "too_many": "4!", "count": "2"}
    for pair in confusable_pairs(badges):
        a, b = sorted(pair)
        assert marks[a] != marks[b]
    state = next(s for s in POSITIONS if s.over and any(3 in c for c in s.counts))
    badge_text = {"".join(t.itertext()) for t in tagged(parse(render(state, None, cat)), "text")}
    assert "✓" in badge_text


def _changed(root: ET.Element) -> list[ET.Element]:
    found = [e for e in root.iter() if "last-change" in (e.get("class") or "").split()]
    for e in found:  # a drawn outline, not only a class
        assert any("change-ring" in (r.get("class") or "") and r.get("stroke") == triqueta.CHANGE for r in e.iter())
    return found


def _group(root: ET.Element, **attrs: str) -> ET.Element:
    return next(e for e in tagged(root, "g") if all(e.get(k.replace("_", "-")) == v for k, v in attrs.items()))


@pytest.mark.slow
@pytest.mark.parametrize("seed, players, duo", GAMES)
def test_what_each_step_changed_is_outlined(seed: int, players: int, duo: bool) -> None:
    """Item 2: from real events, the token placed (last in its row), the row taken and its
    animals in the taker's collection, the tower drawn from, a kept token, the rock and tree."""
    cat = catalog("en")
    seen: set[str] = set()
    for state, events in steps(seed, players, duo):
        for seat in (0, None):
            told = [e.for_seat(seat) for e in events]
            view = state.view(seat)
            root = parse(board(view, seat, legal_moves(state, seat), cat, told))
            changed = _changed(root)
            assert changed or all(e["key"] == "game_end" for e in told)
            for e in told:
                key, player, params = e["key"], e["player"], e["params"]
                seen.add(key)
                if key == "place":
                    row = _group(root, data_row=str(params["row"]))
                    tokens = [t for t in tagged(row, "g") if "token" in (t.get("class") or "")]
                    assert tokens[-1] in changed and tokens[-1].get("data-kind") == ANIMALS[params["animal"]]
                    assert sum(t in changed for t in tokens) == 1
                elif key == "take":
                    panel = _group(root, data_seat=str(player))
                    kinds = {t.get("data-kind") for t in tagged(panel, "g")
                             if t in changed and "token" in t.get("class", "")}
                    added = [a for r in told if r["player"] == player and r["key"] in ("take", "reveal")
                             for a in r["params"]["animals"]]  # T7: the last take also turns up face-down tokens
                    assert kinds == {ANIMALS[a] for a in added}
                    if not view["over"] and view["rows"][params["row"]] is None:  # the row's place is outlined
                        assert _group(root, data_row=str(params["row"])) in changed
                elif key == "draw" and not view["over"]:
                    assert any("tower" in (c.get("class") or "") for c in changed)
                elif key == "keep":
                    panel = _group(root, data_seat=str(player))
                    assert any(c.get("data-kind") == "back" for c in tagged(panel, "g") if c in changed)
                elif key == "round_end":
                    panel = _group(root, data_seat=str(player))
                    assert any(c.get("data-kind") == "rock" for c in tagged(panel, "g") if c in changed)
                elif key == "tree":
                    panel = _group(root, data_seat=str(player))
                    assert any(c.get("data-kind") == "tree" for c in tagged(panel, "g") if c in changed)
            assert not _changed(parse(board(view, seat, legal_moves(state, seat), cat)))  # no events, no marks
    assert {"draw", "place", "take", "round_end", "tree"} <= seen


def _expected_prompt(state: TriquetaState, cat: Catalog) -> str:
    """What the seat to move must do, worked out from the state (the oracle for `prompt`)."""
    pending = [t for t in state.pending if t >= 0]
    rows = sum(r is not None for r in state.rows)
    tower = state.towers[state.round]
    if not state.pending:
        if not tower:
            return cat.text("prompt.empty", count=rows)  # T5
        two = "_two" if state.duo and len(tower) >= 2 else ""  # T9
        return cat.text(("prompt.last" if rows == 1 else "prompt.choose") + two)
    kinds = {a.to_json()["type"] for a in state.legal_actions()}
    choices = cat.text("prompt.or").join(cat.text(f"prompt.kind.{k}") for k in ("place", "keep", "discard")
                                         if k in kinds)
    if len(pending) == 2:
        return cat.text("prompt.duo_two", first=pending[0], second=pending[1], choices=choices)
    if len(state.pending) == 2:
        return cat.text("prompt.duo_second", animal=pending[0], choices=choices)
    return cat.text("prompt.place_or_keep" if "keep" in kinds else "prompt.place", animal=pending[0])


@pytest.mark.parametrize("lang", LANGS)
def test_the_prompt_says_what_to_do_in_every_phase(lang: str) -> None:
    """Item 3: take or draw (two in the duo variant, T9), the last one in (T5), an empty tower
    (T5), place or keep (T4: place only once two are kept), the duo's two tokens and second one."""
    cat = catalog(lang)
    reached: set[str] = set()
    for seed, players, duo in GAMES:
        for state, _ in steps(seed, players, duo):
            for seat in (*range(state.num_players), None):
                said = triqueta.prompt(state.view(seat), seat, legal_moves(state, seat), cat)
                if seat is None or seat != state.current_player or state.is_terminal:
                    assert said == ""
                    continue
                assert said == _expected_prompt(state, cat) and said and not MISSING.search(said)
                reached.add(next(k for k in ("empty", "last_two", "last", "choose_two", "choose", "place_or_keep",
                                             "place", "duo_two", "duo_second")
                                 if cat.has(f"prompt.{k}") and said == _prompt_of(cat, k, state)))
    assert reached == {"empty", "last", "last_two", "choose", "choose_two", "place_or_keep", "place", "duo_two",
                       "duo_second"}


def _prompt_of(cat: Catalog, key: str, state: TriquetaState) -> str:
    """`key`'s wording for this state, to name the phase a prompt belongs to."""
    pending = [t for t in state.pending if t >= 0]
    kinds = {a.to_json()["type"] for a in state.legal_actions()}
    choices = cat.text("prompt.or").join(cat.text(f"prompt.kind.{k}") for k in ("place", "keep", "discard")
                                         if k in kinds)
    params: dict[str, Any] = {"count": sum(r is not None for r in state.rows), "choices": choices}
    if pending:
        params.update(animal=pending[0], first=pending[0], second=pending[-1])
    return cat.text(f"prompt.{key}", **params)


@pytest.mark.parametrize("lang", LANGS)
def test_standings_are_the_engines_scores_and_hide_face_down_tokens(lang: str) -> None:
    """Item 4: each seat's standing is its score as the engine counts it from the table; another
    seat's face-down tokens are only counted as tokens (T7 adds them at the end), so the
    standing is the same whatever they are."""
    cat = catalog(lang)
    for seed, players, duo in GAMES[:4]:
        for state, _ in steps(seed, players, duo):
            shown = triqueta.standings(state.view(None), cat)
            assert [int(re.match(r"-?\d+", text).group()) for text in shown] == state.scores()  # type: ignore[union-attr]
            for seat, text in enumerate(shown):
                hidden = len(state.face_down[seat]) if not state.is_terminal else 0
                assert (cat.text("standing.face_down", count=hidden) in text) == bool(hidden)
            assert triqueta.standings(state.determinize(0, Rng(seed)).view(None), cat) == shown
    assert catalog("en").text("standing.points", count=1) == "1 point"


LONG_NAMES = ["Bartholomew Fitzgerald-Wolstenholme III.", "歐陽雲飛龍騰虎躍鳳舞九天之上萬里長城在此"]


@pytest.mark.parametrize("lang", LANGS)
def test_long_names_stay_inside_their_room(lang: str) -> None:
    """Item 5: a 40-character name and a 20-character CJK one are cut to their room (with the
    whole name in a tooltip) wherever a drawing names a player."""
    assert len(LONG_NAMES[0]) == 40 and len(LONG_NAMES[1]) == 20
    cat = catalog(lang)
    cat.player_names = LONG_NAMES
    named = 0
    for state in POSITIONS[:len(MOVES) * 2]:
        for seat in seats(state):
            root = parse(render(state, seat, cat))
            for e in tagged(root, "text"):
                if e.get("data-name") is None:
                    assert not any(name[:8] in "".join(e.itertext()) for name in LONG_NAMES)
                    continue
                named += 1
                shown = (e.text or "") + "".join(child.tail or "" for child in e)  # the text beside the <title>
                assert svg.text_width(shown, float(e.get("font-size", 0))) <= float(e.get("data-room", 0))
                assert shown.endswith("…") and next(tagged(e, "title"), None) is not None
    assert named


def test_the_options_have_names_and_help_in_both_languages() -> None:
    """Item 7: the lobby names every rule option from the catalogs."""
    for lang in LANGS:
        cat = catalog(lang)
        for spec in GAME.option_specs:
            for key in (f"option.{spec.name}.name", f"option.{spec.name}.help"):
                assert cat.has(key) and cat.text(key) != key
            for choice in getattr(spec, "choices", None) or ():
                if isinstance(choice, str):
                    assert cat.has(f"option.{spec.name}.choice.{choice}")
    assert catalog("zh-Hant").text("option.duo.name") != catalog("en").text("option.duo.name")


def test_english_sentences_have_articles_and_plurals() -> None:
    """Item 7: "an owl", never "a owl"; "1 token", "2 tokens", never "(s)"; "You" for your moves."""
    cat = catalog("en")
    texts: list[str] = []
    for seed, players, duo in GAMES:
        for _, events in steps(seed, players, duo):
            for seat in (0, None):
                texts += [event_text(e, seat, cat, you=0) for e in events]
    wrong = re.compile(r"\ba [aeiou]|\(s\)|\b1 tokens\b|\bYou (draws|places|takes)")
    assert texts and not [t for t in texts if wrong.search(t)]
    assert any(" an owl" in t for t in texts) and any(t.startswith("You ") for t in texts)


def test_a_duo_draw_still_names_its_animals_once_both_are_dealt_with() -> None:
    """The log is rendered from the events long after they happened: the duo draw (T9) must name
    the two animals drawn, not the used-slot markers ("You draw -1, -1")."""
    cat = catalog("en")
    for seed in (3, 5):
        history = [e for _, events in steps(seed, 2, duo=True) for e in events]
        draws = [e.for_seat(e.player) for e in history if e.key == "draw"]
        assert draws and all(a >= 0 for e in draws for a in e["params"]["animals"])
        assert not [t for e in history if "-1" in (t := event_text(e, e.player, cat, you=0))]


@pytest.mark.slow
def test_a_game_in_chinese_has_no_english_words() -> None:
    """Item 7: board text, tooltips, aria-labels, prompt, standings, move labels and every event
    of random games in zh-Hant have no Latin word. No notation is excepted: row numbers, counts
    and scores are digits, ✓ marks a triqueta; the player names are Chinese here."""
    cat = catalog("zh-Hant")
    cat.player_names = ["小明", "小華", "阿美", "大雄", "靜香"]
    words: list[str] = []
    for seed, players, duo in GAMES:
        for state, events in steps(seed, players, duo):
            for seat in (state.current_player, None):
                view, legal = state.view(seat), legal_moves(state, seat)
                told = [e.for_seat(seat) for e in events]
                words += shown_texts(parse(board(view, seat, legal, cat, told)))
                words += [triqueta.prompt(view, seat, legal, cat), *triqueta.standings(view, cat)]
                words += [describe.action_label(m["action"], cat, view) for m in legal]
                words += [event_text(e, seat, cat, you=0) for e in events]
    english = sorted({w for text in words for w in CJK_LETTERS.findall(text)})
    assert english == []
