"""The Celtica web board: well-formed, only legal move ids, two-click moves that can finish, no
leak of hidden cards, both languages, escaped names, labels for every legal move; pieces told
apart by more than colour, what a step changed outlined, the prompt and standings, names that
fit, and words (not notation or debug output) in English and Traditional Chinese."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest

from meeple.boards import board_for, prompt_for, standings_for
from meeple.boards.svg import text_width
from meeple.core.conformance import random_position
from meeple.core.i18n import Catalog
from meeple.core.rng import Rng
from meeple.core.text import event_json_text
from meeple.games.celtica.describe import FILL, KIND_FILL, action_label
from meeple.games.celtica.game import CelticaGame
from meeple.server.web.render import catalog as page_catalog
from meeple.server.wire import legal_moves
from tests.web.colourblind import confusable_pairs

GAME = CelticaGame()
LANGS = ("en", "zh-Hant")
board = board_for("celtica")
prompt = prompt_for("celtica")
standings = standings_for("celtica")


def catalog(lang: str) -> Catalog:
    return Catalog(["meeple.games.celtica"], lang)


def positions():
    for players in (2, 3, 5):
        for seed in range(3):
            for moves in (0, 7, 40, 120, 1000):
                yield random_position(GAME, players, seed, moves, walk_seed=seed + moves)
    for moves in (140, 150, 160):  # the end phase: swaps and "done"
        yield random_position(GAME, 2, 1, moves)


def tag(element: ET.Element) -> str:
    """An element's name without its XML namespace."""
    return element.tag.rsplit("}", 1)[-1]


def seats(state):
    return [None, *range(state.num_players)]


def parse(html: str) -> ET.Element:
    return ET.fromstring(f"<root>{html}</root>")


def test_boards_parse_and_use_only_legal_ids_and_known_picks():
    cat = catalog("en")
    used = set()
    for state in positions():
        for seat in seats(state):
            legal = legal_moves(state, seat)
            root = parse(board(state.view(seat), seat, legal, cat))
            ids = {entry["id"] for entry in legal}
            picks = {e.get("data-pick") for e in root.iter() if e.get("data-pick")}
            for element in root.iter():
                number = element.get("data-action-id")
                if number is not None:
                    assert int(number) in ids
                    used.add(next(e["action"]["type"] for e in legal if e["id"] == int(number)))
                needs = element.get("data-needs")
                if needs is not None:
                    assert needs in picks
    assert {"play", "take", "give_up", "cult", "swap", "done"} <= used


def test_the_board_reads_nothing_the_seat_may_not_see():
    cat = catalog("en")
    for state in positions():
        for seat in range(state.num_players):
            legal = legal_moves(state, seat)
            drawn = board(state.view(seat), seat, legal, cat)
            for k in range(3):
                other = state.determinize(seat, Rng(k))
                assert board(other.view(seat), seat, legal_moves(other, seat), cat) == drawn


@pytest.mark.parametrize("lang", LANGS)
def test_both_languages_render_without_missing_keys(lang):
    cat = catalog(lang)
    for state in positions():
        for seat in seats(state):
            html = board(state.view(seat), seat, legal_moves(state, seat), cat)
            assert not re.search(r"\b(web|view|action|phase|part|colour|location)\.[a-z_]+", html), html


def test_player_names_are_escaped():
    cat = catalog("en")
    cat.player_names = ["<script>alert(1)</script>", "Bob & <b>"]
    state = random_position(GAME, 2, 1, 150)
    for seat in seats(state):
        html = board(state.view(seat), seat, legal_moves(state, seat), cat)
        assert "<script>" not in html and "<b>" not in html
        assert "&lt;script&gt;" in html
        parse(html)


@pytest.mark.parametrize("lang", LANGS)
def test_every_legal_action_has_a_label(lang):
    cat = catalog(lang)
    for state in positions():
        view = state.view(None)
        for action in state.legal_actions():
            for given in (None, view):
                label = action_label(action.to_json(), cat, given)
                assert label and "action." not in label and "web." not in label and "{" not in label


def test_every_legal_move_is_on_the_board_and_hands_stay_private():
    cat = catalog("en")
    for state in positions():
        for seat in seats(state):
            legal = legal_moves(state, seat)
            root = parse(board(state.view(seat), seat, legal, cat))
            on_board = {int(e.get("data-action-id", "-1")) for e in root.iter() if e.get("data-action-id")}
            assert on_board == {entry["id"] for entry in legal}
            hands = [e for e in root.iter() if e.get("class") == "hand"]
            assert len(hands) == (seat is not None)


def played_steps(players: int, seed: int):
    """Every step of a random game to its end: the state after it and the events it made."""
    state = GAME.new_game(players, seed=seed)
    rng = Rng(seed)
    while not state.is_terminal:
        events = state.apply(rng.choice(state.legal_actions()))
        yield state, events


def test_colours_a_colour_blind_player_confuses_differ_by_symbol_or_picture():
    """Druid and card colours each carry their own symbol, sites their own picture: for every pair
    of colours that protanopia, deuteranopia or tritanopia merges, the drawn shapes differ."""
    state = random_position(GAME, 3, 1, 40)
    root = parse(board(state.view(0), 0, legal_moves(state, 0), catalog("en")))
    symbols: dict[str, set[str | None]] = {}
    for element in root.iter():
        colour = element.get("data-colour")
        if colour is not None and element.get("class", "").startswith(("druid", "cards", "pick")):
            drawn = {e.get("data-symbol"): e.get("d") for e in element.iter() if e.get("data-symbol")}
            assert set(drawn) == {colour}  # each druid and card column carries its own symbol
            symbols.setdefault(colour, set()).update(drawn.values())
    druid_pairs = confusable_pairs(FILL)
    assert druid_pairs, "the palette has pairs to tell apart (else this test proves nothing)"
    for pair in druid_pairs:
        a, b = sorted(pair)
        assert symbols[a] and symbols[b] and not symbols[a] & symbols[b], pair
    pictures = {e.get("data-kind"): e.get("d") for e in root.iter() if tag(e) == "path" and e.get("data-kind")}
    assert set(pictures) == set(KIND_FILL)  # the shipped board has every kind of site (C3)
    kind_pairs = confusable_pairs(KIND_FILL)
    assert kind_pairs
    for pair in kind_pairs:
        a, b = sorted(pair)
        assert pictures[a] != pictures[b], pair


def _changed(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter() if "last-change" in e.get("class", "").split()]


def _marked(element: ET.Element) -> bool:
    """A changed element draws its outline too, not only a class."""
    return any(e.get("class") == "change-mark" for e in element.iter())


@pytest.mark.slow
def test_what_a_step_changed_is_outlined():
    cat = catalog("en")
    seen = set()
    for players, seed in ((2, 3), (3, 4)):
        for state, events in played_steps(players, seed):
            seat = 0
            told = [event.for_seat(seat) for event in events]
            root = parse(board(state.view(seat), seat, legal_moves(state, seat), cat, events=told))
            changed = _changed(root)
            assert all(_marked(e) for e in changed)
            for event in told:
                key, who, params = event["key"], event["player"], event["params"]
                if key == "played":
                    mine = [e.get("class", "") for e in changed if e.get("data-colour") == params["colour"]]
                    druid = [c for c in mine if "druid" in c]
                    trail = [c for c in mine if "trail" in c]
                    assert druid and trail, event
                elif key in ("took", "gave_up", "bought"):
                    panel = next(e for e in root.iter() if e.get("data-seat") == str(who))
                    assert any(e.get("data-part") == params["part"] for e in _changed(panel)), event
                elif key == "display_refilled":
                    display = next(e for e in root.iter() if e.get("class") == "display")
                    assert {e.get("data-part") for e in _changed(display)} >= set(params["parts"])
                else:
                    continue
                seen.add(key)
            quiet = parse(board(state.view(seat), seat, legal_moves(state, seat), cat))
            assert not _changed(quiet)
    assert {"played", "took", "gave_up", "display_refilled"} <= seen


@pytest.mark.parametrize("lang", LANGS)
def test_the_prompt_says_what_to_do_in_every_phase(lang):
    """C5-C8, C11: each kind of decision has its own words; seats not to move get none."""
    cat = catalog(lang)
    phases: dict[str, set[str]] = {}
    for players, seed in ((2, 1), (3, 2), (5, 3)):
        for state, _ in played_steps(players, seed):
            if state.is_terminal:
                continue
            for seat in seats(state):
                view = state.view(seat)
                said = prompt(view, seat, legal_moves(state, seat), cat)
                if seat != state.current_player:
                    assert said == ""
                    continue
                assert said and "prompt." not in said
                phase = view["phase"]
                phases.setdefault(phase, set()).add(said)
                if phase in ("take", "give_up") and view["pending"] > 1:
                    assert str(view["pending"]) in said
                owed = view["players"][seat].get("must_play")
                if phase == "play" and owed:
                    assert cat.name("colour", owed) in said
    assert set(phases) == {"play", "take", "give_up", "cult", "end"}
    assert len({next(iter(words)) for words in phases.values()}) == len(phases)  # each phase its own words


@pytest.mark.parametrize("lang", LANGS)
def test_standings_follow_the_engines_scores(lang):
    """C2, C12: complete amulets (the engine's score) and the largest incomplete amulet."""
    cat = catalog(lang)
    for players, seed in ((2, 5), (4, 6)):
        for state, _ in played_steps(players, seed):
            shown = standings(state.view(None), cat)
            assert len(shown) == players
            for seat, line in enumerate(shown):
                score = state.scores()[seat]
                incomplete = state.score_breakdown()[seat]["incomplete"]
                if incomplete:
                    expected = cat.text("standing.amulets", complete=score, next=incomplete[0])
                else:
                    expected = cat.text("standing.whole", complete=score)
                assert line == expected and str(score) in line


@pytest.mark.parametrize("names", [
    ["Maximilian Alexander von Hohenzollern-Si", "Bo"],
    ["歐陽皇甫司馬上官諸葛東方獨孤南宮長孫宇文", "Bo"],
])
def test_long_names_are_cut_to_their_room_with_the_whole_name_in_a_tooltip(names):
    assert len(names[0]) in (20, 40)
    cat = catalog("en")
    cat.player_names = names
    for state in (random_position(GAME, 2, 1, 30), random_position(GAME, 2, 1, 2000)):
        for seat in seats(state):
            root = parse(board(state.view(seat), seat, legal_moves(state, seat), cat))
            labels = [e for e in root.iter() if e.get("data-name")]
            assert {e.get("data-name") for e in labels} == set(names)
            for label in labels:
                name, tooltip = label.get("data-name", ""), label.find("{*}title")
                shown = label.text or ""
                if tooltip is not None:
                    shown = tooltip.tail or ""
                    assert shown.endswith("…") and tooltip.text == name
                else:
                    assert shown == name
                assert text_width(shown, float(label.get("font-size", 0))) <= float(label.get("data-room", 0))


def _words(root: ET.Element) -> list[str]:
    """Everything a person reads in a drawing: texts, tooltips and screen-reader labels."""
    out = ["".join(e.itertext()) for e in root.iter() if tag(e) in ("text", "title")]
    return out + [e.get("aria-label", "") for e in root.iter() if e.get("aria-label")]


def _everything_said(lang: str, names: list[str]):
    """Every word of a random 3-player game as each seat reads it in the browser."""
    cat = page_catalog("celtica", lang)
    cat.player_names = names
    for state, events in played_steps(3, 8):
        for seat in seats(state):
            legal = legal_moves(state, seat)
            view = state.view(seat)
            told = [event.for_seat(seat) for event in events]
            root = parse(board(view, seat, legal, cat, events=told))
            yield from _words(root)
            yield prompt(view, seat, legal, cat)
            yield from standings(view, cat)
            yield from (action_label(entry["action"], cat, view) for entry in legal)
            yield from (event_json_text(event, cat, you=seat) for event in told if cat.has(f"event.{event['key']}"))


@pytest.mark.slow
def test_traditional_chinese_shows_no_latin_words():
    """Only player names may be Latin; the notation kept is digits and signs (+2 parts, −1, ×3,
    → 7, 7/9), which read the same in both languages."""
    names = ["Ana", "Ben", "Cleo"]
    for line in _everything_said("zh-Hant", names):
        for name in names:
            line = line.replace(name, "")
        assert not re.search(r"[A-Za-z]{2,}", line), line


@pytest.mark.slow
def test_english_words_have_proper_plurals_and_articles():
    """No "(s)", no "1 cards", no "a" before a vowel sound, no notation such as "1+0"."""
    seen = set()
    for line in _everything_said("en", ["Ana", "Ben", "Cleo"]):
        seen.add(line)
        assert "(s)" not in line and "{" not in line, line
        assert not re.search(r"\b1 (druid |experience |amulet )?(cards|parts|amulets)\b", line), line
        assert not re.search(r"\d\+\d", line), line
        assert not re.search(r"\ba [aeiou]", line), line
    assert any(line.startswith("You ") for line in seen)  # the seat's own moves say "You"
    assert any("1 druid card" in line for line in seen) and any("druid cards" in line for line in seen)


@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_option_has_a_name_and_help(lang):
    cat = catalog(lang)
    for spec in GAME.option_specs:
        for key in (f"option.{spec.name}.name", f"option.{spec.name}.help"):
            assert key in cat.messages and cat.text(key) != key
