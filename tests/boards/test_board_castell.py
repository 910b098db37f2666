"""The Castell browser board: well-formed, only legal moves on it, nothing a seat may not see,
both languages, and the shared move labels."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from functools import cache
from typing import Any

import pytest

from meeple.boards import board_for
from meeple.boards.castell import board, prompt, standings
from meeple.core.i18n import Catalog
from meeple.core.rng import Rng
from meeple.games.castell.describe import action_label
from meeple.games.castell.game import CastellGame
from meeple.games.castell.state import CastellState
from meeple.server.wire import legal_moves

GAME = CastellGame()
LANGS = ("en", "zh-Hant")


def walk(n: int, seed: int, moves: int) -> CastellState:
    """A position after up to `moves` random moves that lean towards entering festivals and
    doing things (a uniform walk mostly ends turns and declines, leaving festivals unseen)."""
    state = GAME.new_game(n, seed=seed)
    rng = Rng(seed * 7919 + moves)
    for _ in range(moves):
        if state.is_terminal:
            break
        state.apply(busy_move(state, rng))
    return state


def busy_move(state: CastellState, rng: Rng) -> Any:
    """A random legal move, leaning towards entering festivals and doing things."""
    legal = state.legal_actions()
    enter = [a for a in legal if a.to_json()["type"] == "enter"]
    busy = [a for a in legal if a.to_json()["type"] not in ("end_turn", "decline")]
    pool = enter or (busy if busy and rng.below(4) else legal)
    return pool[rng.below(len(pool))]


def at_festival(n: int, seed: int, after: int = 0) -> CastellState:
    """The first position where a seat may enter a festival (then `after` more moves)."""
    state = GAME.new_game(n, seed=seed)
    rng = Rng(seed)
    while not any(a.to_json()["type"] == "enter" for a in state.legal_actions()):
        legal = state.legal_actions()
        busy = [a for a in legal if a.to_json()["type"] not in ("end_turn", "decline")]
        pool = busy if busy and rng.below(4) else legal
        state.apply(pool[rng.below(len(pool))])
    for _ in range(after):
        if not state.is_terminal:
            legal = state.legal_actions()
            state.apply(legal[0])
    return state


@cache
def positions() -> list[CastellState]:
    walks = [walk(n, seed, moves) for n in (2, 3, 4) for seed in (1, 2, 3) for moves in (0, 3, 25, 80, 200, 2000)]
    festivals = [at_festival(n, seed, after) for n, seed in ((2, 5), (3, 4), (4, 1)) for after in (0, 1)]
    return walks + festivals


def catalog(lang: str) -> Catalog:
    cat = Catalog(["meeple.games.castell"], lang)
    cat.player_names = ["Ana", "Biel", "Carla", "Dídac"]
    return cat


def seats(state: CastellState) -> list[int | None]:
    return [None, *range(state.num_players)]


def parse(html: str) -> ET.Element:
    """The drawing as a tree, tags without the SVG namespace ("g", not "{http://…}g")."""
    plain = html.replace(' xmlns="http://www.w3.org/2000/svg"', "")
    return ET.fromstring(f"<root>{plain}</root>")


def test_the_board_is_found_by_name():
    assert board_for("castell") is board


def test_well_formed_with_only_legal_moves_and_matched_picks():
    cat = catalog("en")
    kinds: set[str] = set()
    picked = 0
    for state in positions():
        for seat in seats(state):
            legal = legal_moves(state, seat)
            by_id = {entry["id"]: entry["action"]["type"] for entry in legal}
            root = parse(board(state.view(seat), seat, legal, cat))
            picks = {e.get("data-pick") for e in root.iter() if e.get("data-pick")}
            picked += len(picks)
            for element in root.iter():
                action = element.get("data-action-id")
                if action is not None:
                    assert int(action) in by_id, (action, by_id)
                    kinds.add(by_id[int(action)])
                    assert element.get("role") == "button" and element.get("aria-label")
                needs = element.get("data-needs")
                if needs is not None:
                    assert needs in picks
    # the natural moves are on the board somewhere in these positions
    assert {"move", "recruit", "train", "end_turn", "enter", "decline"} <= kinds, kinds
    assert picked, "a Practice tile (two clicks: the tile, then the skill) was never offered"


def test_no_leak_from_the_hidden_bag_order():
    cat = catalog("en")
    for state in positions()[::2]:
        if state.is_terminal:
            continue
        for seat in range(state.num_players):
            legal = legal_moves(state, seat)
            shown = board(state.view(seat), seat, legal, cat)
            for k in range(3):
                other = state.determinize(seat, Rng(100 + k))
                assert board(other.view(seat), seat, legal, cat) == shown


@pytest.mark.parametrize("lang", LANGS)
def test_both_languages_render_without_missing_keys(lang):
    cat = catalog(lang)
    for state in positions()[::3]:
        for seat in seats(state):
            html = board(state.view(seat), seat, legal_moves(state, seat), cat)
            assert not re.search(r"\b(ui|web|region|skill|segment|tile|wheel|phase|score|prize|action)\.[a-z_]+",
                                 html), html
            assert "{" not in re.sub(r"<[^>]*>", "", html)
            if lang == "zh-Hant":
                assert re.search(r"[\u4e00-\u9fff]", html)


def test_names_are_escaped():
    cat = catalog("en")
    cat.player_names = ["<script>alert(1)</script>", "B&B", "\"q\"", "x"]
    state = positions()[10]
    html = board(state.view(0), 0, legal_moves(state, 0), cat)
    assert "<script>" not in html and "&lt;script&gt;" in html
    parse(html)


@pytest.mark.parametrize("lang", LANGS)
def test_every_legal_action_has_a_label(lang):
    cat = catalog(lang)
    for state in positions():
        if state.is_terminal:
            continue
        for action in state.legal_actions():
            label = action_label(action.to_json(), cat)
            assert label and not label.startswith("action.") and "{" not in label
    tower: dict[str, Any] = {"type": "enter", "slot": 0, "tower": [[9, 9], [7]]}
    assert "[9][9] / [7]" in action_label(tower, cat)


# --- the pieces, the marks of the last step, the prompt and the standings ---------------------


def played(n: int, seed: int, moves: int = 4000) -> list[tuple[CastellState, list[dict[str, Any]]]]:
    """Every position of a leaning-busy random game (as `walk`), each with the events (JSON) of
    the step that led to it."""
    state = GAME.new_game(n, seed=seed)
    rng = Rng(seed * 31 + 7)
    out: list[tuple[CastellState, list[dict[str, Any]]]] = [(state.clone(), [])]
    for _ in range(moves):
        if state.is_terminal:
            break
        events = state.apply(busy_move(state, rng))
        out.append((state.clone(), [e.for_seat(None) for e in events]))
    return out


@cache
def games() -> list[tuple[CastellState, list[dict[str, Any]]]]:
    return played(2, 11) + played(3, 12) + played(4, 13)


def texts(root: ET.Element) -> list[str]:
    """Every word a drawing shows or says: text, tooltips and labels for screen readers."""
    out = ["".join(e.itertext()) for e in root.iter() if e.tag in ("text", "title", "p", "button")]
    return out + [e.get("aria-label", "") for e in root.iter() if e.get("aria-label")]


def test_castellers_are_figures_with_their_size_and_regions_and_skills_have_their_own_emblems():
    cat = catalog("en")
    state = walk(3, 2, 80)
    root = parse(board(state.view(0), 0, legal_moves(state, 0), cat))
    figures = [e for e in root.iter("g") if e.get("data-size")]
    assert len(figures) >= 20
    for figure in figures:  # a head, a body and the size on the shirt: not a bare disc
        assert [c.tag for c in figure] == ["circle", "path", "rect", "text"]
        assert "".join(figure.itertext()) == figure.get("data-size")
    emblems = {e.get("data-emblem"): e.get("d") for e in root.iter("path") if e.get("data-emblem")}
    assert set(emblems) == {r["id"] for r in state.view(0)["regions"]}
    assert len(set(emblems.values())) == 7  # each region its own drawing
    symbols = {e.get("data-symbol"): e.get("d") for e in root.iter("path") if e.get("data-symbol")}
    assert {"balance", "base", "mix", "strength", "width", "practice", "special"} <= set(symbols)
    assert len(set(symbols.values())) == len(symbols)
    region_names = {"".join(t.itertext()) for g in root.iter("g") if g.get("data-region") for t in g.iter("text")}
    assert not region_names & {"V", "C", "R"}


def test_colours_a_colour_blind_player_confuses_differ_by_shape_or_symbol_too():
    from meeple.boards.castell_art import SEATS, SHADES, SKILL_COLOURS
    from tests.web.colourblind import confusable_pairs

    state = walk(4, 3, 80)
    root = parse(board(state.view(0), 0, legal_moves(state, 0), catalog("en")))
    shapes: dict[str, set[str]] = {}
    for e in root.iter("g"):
        if e.get("data-seat") is not None:
            shapes.setdefault(e.get("data-seat", ""), set()).add(e.get("data-shape", ""))
    seat_pairs = confusable_pairs({str(k): c for k, c in enumerate(SEATS)})
    assert seat_pairs, "red and green are confusable: the test would prove nothing"
    for a, b in map(tuple, seat_pairs):
        assert len(shapes[a]) == len(shapes[b]) == 1 and shapes[a] != shapes[b], (a, b, shapes)
    symbols = {e.get("data-skill"): {s.get("d") for s in e.iter("path") if s.get("data-symbol")}
               for e in root.iter("g") if e.get("data-skill")}
    for a, b in map(tuple, confusable_pairs(SKILL_COLOURS)):
        assert symbols[a] and symbols[b] and symbols[a] != symbols[b], (a, b)
    shirts = confusable_pairs({str(k + 1): c for k, c in enumerate(SHADES)})
    assert shirts
    sizes = {e.get("data-size"): "".join(e.itertext()) for e in root.iter("g") if e.get("data-size")}
    for a, b in map(tuple, shirts):  # neighbouring shades: the size written on the shirt tells them apart
        if a in sizes and b in sizes:
            assert sizes[a] != sizes[b]


def _marked(root: ET.Element) -> list[ET.Element]:
    marked = [e for e in root.iter("g") if "last-change" in (e.get("class") or "").split()]
    for group in marked:  # a visible outline drawn in SVG, not only a class
        assert any(c.get("stroke") == "#e8590c" for c in group.iter()), ET.tostring(group)
    return marked


@pytest.mark.slow
def test_what_the_last_step_changed_is_outlined():
    cat = catalog("en")
    seen: set[str] = set()
    for state, events in games()[::3] + games()[1::3]:
        for seat in (0, None):
            root = parse(board(state.view(seat), seat, legal_moves(state, seat), cat, events=events))
            marked = _marked(root)
            for event in events:
                key, who, params = event["key"], event["player"], event["params"]
                if key in ("place_pawn", "move", "extra_move"):
                    assert any(g.find(f"g[@data-seat='{who}']") is not None for g in marked
                               if g in {x for r in root.iter("g") if r.get("data-region") == params["region"]
                                        for x in r.iter("g")}), event
                elif key in ("recruit", "single_recruit"):
                    assert any(g.find(f"g[@data-size='{params['size']}']") is not None for g in marked), event
                elif key == "train":
                    skill_groups = [g for g in root.iter("g") if g.get("data-skill") == params["skill"]]
                    assert any(m in list(g) for g in skill_groups for m in marked), event
                elif key == "enter":
                    assert any(g.find(f"g[@data-seat='{who}']") is not None for g in marked), event
                elif key == "refill":
                    assert any(g.find(f"g[@data-castellers='{params['region']}']") is not None for g in marked)
                elif key == "perform":  # the stars on the performer's card
                    assert any("★" in "".join(g.itertext()) for g in marked), event
                elif key == "festival_score":
                    assert any(g.find(f"text[@data-standing='{who}']") is not None for g in marked), event
                else:
                    continue
                seen.add(key)
    assert {"place_pawn", "move", "recruit", "train", "enter", "refill", "festival_score"} <= seen, seen
    state = walk(3, 1, 25)
    assert _marked(parse(board(state.view(0), 0, legal_moves(state, 0), cat))) == []  # no events: no marks


@pytest.mark.parametrize("lang", LANGS)
def test_the_prompt_says_what_to_do_in_every_phase_and_nothing_out_of_turn(lang):
    cat = catalog(lang)
    said: set[str] = set()
    for state, _ in games():
        mover = state.current_player
        if mover is None:
            continue
        view = state.view(mover)
        legal = legal_moves(state, mover)
        words = prompt(view, mover, legal, cat)
        assert words and "{" not in words and not words.startswith("prompt.")
        kinds = {m["action"]["type"] for m in legal}
        if view["players"][mover]["pawn"] is None:
            assert words == cat.text("prompt.place")  # K4: round 1 places the pawn first
            said.add("place")
        elif "decline" in kinds:
            festival = view["tower_preview"]["region"]
            assert words == cat.text("prompt.festival_none") or cat.name("region", festival) in words
            said.add("festival")
        else:
            if "move" in kinds:
                assert cat.text("doing.move") in words
            if "train" in kinds:
                assert cat.text("doing.train") in words
            said.add("turn" if kinds - {"end_turn"} else "nothing_left")
        for other in range(state.num_players):
            if other != state.current_player:
                assert prompt(state.view(other), other, legal_moves(state, other), cat) == ""
    assert {"place", "festival", "turn", "nothing_left"} <= said, said


def test_standings_are_the_engines_scores_so_far_and_the_cards_and_tower_lines_agree():
    cat = catalog("en")
    for state, _ in games()[::5]:
        view = state.view(0)
        lines = standings(view, cat)
        assert len(lines) == state.num_players
        for p, line in enumerate(lines):  # K11 points so far, K8 best festival tower
            points = re.match(r"\d+", line)
            assert points and int(points.group()) == state.scores()[p], (line, state.scores())
            if state.best[p]:
                assert f"best tower {state.best[p]}" in line
        root = parse(board(view, 0, legal_moves(state, 0), cat))
        shown = {int(e.get("data-standing", "")): "".join(e.itertext())
                 for e in root.iter("text") if e.get("data-standing")}
        assert shown == dict(enumerate(lines))
        heading = next(e for e in root.iter("text") if e.get("data-tower-levels") is not None)
        tower = view["tower_preview"]["tower"] or []
        assert int(heading.get("data-tower-levels", "")) == len(tower)
        best = next(e for e in root.iter("text") if e.get("data-best") is not None)
        assert "".join(best.itertext()) == cat.text("ui.best_festival_tower", best=state.best[0])
    final = games()[-1][0]
    assert final.is_terminal and any(final.best)


@pytest.mark.parametrize("names", [["Montserrat Puig i Ferrater de la Vall d'Aran", "Biel"],
                                   ["蒙特塞拉特．普伊格．費拉特．德拉瓦爾．阿蘭", "畢爾"]])
def test_long_player_names_are_cut_to_their_room_with_the_whole_name_in_a_tooltip(names):
    from meeple.boards.svg import text_width

    cat = catalog("zh-Hant")
    cat.player_names = [names[0], names[1], names[0] + "3", names[1] + "4"]
    assert len(names[0]) >= 20
    for state in positions()[::4]:
        for seat in seats(state):
            root = parse(board(state.view(seat), seat, legal_moves(state, seat), cat))
            labels = [e for e in root.iter("text") if e.get("data-name")]
            assert len(labels) == state.num_players
            for e in labels:
                tooltip = e.find("title")
                shown = (tooltip.tail if tooltip is not None else e.text) or ""
                assert text_width(shown, float(e.get("font-size", ""))) <= float(e.get("data-room", "")), shown
                if shown != e.get("data-name"):
                    assert shown.endswith("…") and tooltip is not None and tooltip.text == e.get("data-name")


def test_chinese_pages_have_no_english_words():
    """Everything a zh-Hant player reads of a whole game: the drawing (text, tooltips, labels for
    screen readers), the prompt, the standings, the move labels and every event. The only Latin
    letters allowed are in the player names (which are removed first); the game needs no Latin
    notation (towers are written with digits: [9][9] / [7])."""
    from meeple.core.text import event_json_text

    cat = catalog("zh-Hant")
    cat.player_names = ["Ana", "Biel", "Carla", "Dídac"]
    found: list[str] = []
    for state, events in games()[::2]:
        seat = state.current_player if state.current_player is not None else 0
        view, legal = state.view(seat), legal_moves(state, seat)
        words = texts(parse(board(view, seat, legal, cat, events=events)))
        words += [prompt(view, seat, legal, cat), *standings(view, cat)]
        words += [action_label(m["action"], cat, view) for m in legal]
        words += [event_json_text(e, cat, you=seat) for e in events]
        for line in words:
            for name in cat.player_names:
                line = line.replace(name, "")
            found += re.findall(r"[A-Za-z]{2,}", line)
    assert found == []


def test_english_events_say_you_for_the_seats_own_moves_and_count_in_proper_plurals():
    from meeple.core.text import event_json_text

    cat = catalog("en")
    lines = []
    for _, events in games():
        for event in events:
            if event["player"] is not None and event["key"] not in ("refill", "size_tokens_discarded", "game_over"):
                mine = event_json_text(event, cat, you=event["player"])
                assert mine.startswith(("You ", "Round ")) and cat.player(event["player"]) not in mine, mine
            lines.append(event_json_text(event, cat, you=None))
    lines += [cat.text("ui.bag", count=1), cat.text("ui.tokens", count=1), cat.text("standing.points", count=1)]
    for line in lines:
        assert "(s)" not in line and not re.search(r"\b1 [a-z ]*(castellers|tokens|points|stars|levels)\b", line), line
        assert not re.search(r"\ban? [aeiouAEIOU]", line.replace("an ", "")), line


def test_move_labels_read_as_sentences_naming_what_a_slot_stands_for():
    cat = catalog("en")
    state = at_festival(3, 4)
    seat = state.current
    view = state.view(seat)
    labels = {m["action"]["type"]: action_label(m["action"], cat, view) for m in legal_moves(state, seat)}
    region = cat.name("region", view["tower_preview"]["region"] or view["players"][seat]["pawn"])
    assert labels["enter"] == f"Enter the festival in {region} with your best tower"
    assert labels["decline"] == "Skip the festival"
    start = GAME.new_game(2, seed=1)
    first = legal_moves(start, 0)[0]["action"]
    assert action_label(first, cat, start.view(0)).startswith("Place your pawn in ")
    assert action_label({"type": "recruit", "size": 8}, cat) == "Recruit a size-8 casteller"
    assert action_label({"type": "train", "source": "region", "skill": "balance"}, cat) == \
        "Train Balance from the tile facing your region"


def test_every_rule_option_has_a_name_help_and_its_choices_in_both_languages():
    for lang in LANGS:
        cat = catalog(lang)
        for spec in GAME.option_specs:
            for key in (f"option.{spec.name}.name", f"option.{spec.name}.help"):
                assert cat.has(key) and cat.text(key) != key
            for choice in spec.choices or ():
                assert cat.has(f"option.{spec.name}.choice.{choice}"), (spec.name, choice)
