"""The Triominos web board: well-formed, moves only from `legal`, nothing hidden leaks, both
languages, escaped names; and the shared move labels cover every legal move."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from meeple.boards import board_for, svg
from meeple.boards import triominos as tri
from meeple.boards.triominos import board, prompt, standings
from meeple.core.conformance import random_position
from meeple.core.i18n import Catalog
from meeple.core.registry import load
from meeple.core.rng import Rng
from meeple.core.text import event_json_text
from meeple.games.triominos import describe
from meeple.games.triominos.components import NAME, SUM
from meeple.server.wire import legal_moves
from tests.web.colourblind import confusable_pairs

GAME = load("triominos")
LANGS = ("en", "zh-Hant")
#: (players, seed, random moves before the position): openings, mid-games and finished games.
POSITIONS = [(p, seed, moves) for p in (2, 3, 4) for seed, moves in ((1, 0), (2, 1), (3, 9), (4, 30), (5, 400))]


def catalog(lang: str = "en") -> Catalog:
    return Catalog(["meeple.games.triominos"], lang)


def seats(state) -> list[int | None]:
    return [None, *range(state.num_players)]


def parse(html: str) -> ET.Element:
    return ET.fromstring(f"<root>{html}</root>")


@pytest.mark.parametrize(("players", "seed", "moves"), POSITIONS)
def test_board_is_xml_with_moves_only_from_legal(players, seed, moves):
    state = random_position(GAME, players, seed, moves)
    cat = catalog()
    for seat in seats(state):
        legal = legal_moves(state, seat)
        root = parse(board(state.view(seat), seat, legal, cat))
        ids = {m["id"] for m in legal}
        shown = [int(e.get("data-action-id", "")) for e in root.iter() if e.get("data-action-id") is not None]
        assert set(shown) <= ids
        picks = {e.get("data-pick") for e in root.iter() if e.get("data-pick") is not None}
        needs = {e.get("data-needs") for e in root.iter() if e.get("data-needs") is not None}
        assert needs <= picks
        if seat is not None:
            assert picks <= set(state.view(seat)["rack"])
        # Every legal move is on the board: placements on their cells, the rest as buttons.
        assert set(shown) == ids
        for e in root.iter():
            if e.get("data-action-id") is not None or e.get("data-pick") is not None:
                assert e.get("role") == "button" and e.get("tabindex") == "0" and e.get("aria-label")


@pytest.mark.parametrize(("players", "seed", "moves"), POSITIONS)
def test_no_leak_under_determinization(players, seed, moves):
    state = random_position(GAME, players, seed, moves)
    cat = catalog()
    for seat in range(players):
        html = board(state.view(seat), seat, legal_moves(state, seat), cat)
        spectator = board(state.view(None), None, [], cat)
        for k in range(3):
            other = state.determinize(seat, Rng(100 + k))
            assert board(other.view(seat), seat, legal_moves(other, seat), cat) == html
            assert board(other.view(None), None, [], cat) == spectator


@pytest.mark.parametrize("lang", LANGS)
def test_both_languages_render_without_missing_keys(lang):
    cat = catalog(lang)
    for players, seed, moves in POSITIONS:
        state = random_position(GAME, players, seed, moves)
        for seat in seats(state):
            html = board(state.view(seat), seat, legal_moves(state, seat), cat)
            assert not re.search(r"\b(web|view|action|component)\.[a-z_]+", html), html
    assert catalog("en").messages.keys() == catalog("zh-Hant").messages.keys()


def test_player_names_are_escaped():
    cat = catalog()
    cat.player_names = ["<script>alert(1)</script>", "Bob & <b>Al</b>", "x\"y", "'z'"]
    state = random_position(GAME, 4, 3, 0)  # the opening draws name every player
    for seat in seats(state):
        html = board(state.view(seat), seat, legal_moves(state, seat), cat)
        assert "<script>" not in html and "<b>" not in html
        root = parse(html)
        assert any("<script>" in (e.text or "") for e in root.iter())


def test_the_page_finds_the_board_by_game_name():
    assert board_for("triominos") is board


def test_opening_move_is_a_pick_then_the_first_cell():
    state = random_position(GAME, 2, 1, 0)
    seat = state.current_player
    legal = legal_moves(state, seat)
    root = parse(board(state.view(seat), seat, legal, catalog()))
    picks = {e.get("data-pick") for e in root.iter() if e.get("data-pick")}
    assert picks == set(state.view(seat)["rack"])
    assert all(e.get("data-needs") in picks for e in root.iter() if e.get("data-action-id"))


@pytest.mark.parametrize("lang", LANGS)
def test_describe_labels_every_legal_action(lang):
    cat = catalog(lang)
    for players, seed, moves in POSITIONS:
        state = random_position(GAME, players, seed, moves)
        seat = state.current_player
        if seat is None:
            continue
        view = state.view(seat)
        for move in legal_moves(state, seat):
            label = describe.action_label(move["action"], cat, view)
            assert label and "action." not in label and "{" not in label
            if move["action"]["type"] == "place" and view["board"]:
                a = move["action"]
                key = describe.open_keys(view)[(a["x"], a["y"], a["dir"])]
                assert f" {key}" in label and "(" + str(a["x"]) + "," not in label  # the cell's letter, no coordinates


# -- a played game, step by step, as the page receives it ------------------------------------------


def steps(players: int, seed: int, start: bool = False, **options: Any) -> Any:
    """Each step of a random game: the state after it and the events of the step (with `start`,
    the dealt game first, with no events)."""
    state = GAME.new_game(players, seed=seed, **options)
    rng = Rng(seed)
    if start:
        yield state, []
    while not state.is_terminal:
        acts = state.legal_actions()
        events = state.apply(acts[rng.below(len(acts))])
        yield state, events


NS = "{http://www.w3.org/2000/svg}"


def tag(e: ET.Element) -> str:
    return e.tag.removeprefix(NS)


def svg_text(root: ET.Element) -> list[str]:
    """Every word a person may read in a drawing: text, titles, aria-labels."""
    out = ["".join(e.itertext()) for e in root.iter() if tag(e) in ("text", "title")]
    return out + [e.get("aria-label", "") for e in root.iter() if e.get("aria-label")]


def test_every_confusable_seat_colour_also_differs_by_shape():
    """Seat colours that some colour blindness cannot tell apart carry different shapes (and
    every seat mark holds the seat's number)."""
    palette = {str(s): colour for s, colour in enumerate(tri.SEAT_COLOURS)}
    pairs = confusable_pairs(palette)
    assert pairs  # the palette has such pairs, so the shapes are what tells them apart
    state = random_position(GAME, 4, 3, 12)
    root = parse(board(state.view(0), 0, legal_moves(state, 0), catalog()))
    marks = {int(e.get("data-seat", "")): e for e in root.iter() if "tri-seat-mark" in (e.get("class") or "")}
    assert set(marks) == {0, 1, 2, 3}
    shapes = {s: e.get("data-shape") for s, e in marks.items()}
    for pair in pairs:
        a, b = sorted(int(k) for k in pair)
        assert shapes[a] != shapes[b], (a, b)
    for s, e in marks.items():
        assert any((t.text or "") == str(s + 1) for t in e.iter(NS + "text"))
        assert {tag(c) for c in e} & {"circle", "rect", "polygon"}


def test_open_cells_where_a_tile_fits_differ_by_line_not_only_by_gold():
    state = random_position(GAME, 2, 4, 6)
    seat = state.current_player
    root = parse(board(state.view(seat), seat, legal_moves(state, seat), catalog()))
    cells = [e for e in root.iter() if e.get("class") == "tri-open"]
    fits = [c for c in cells if c.get("data-fits") == "yes"]
    rest = [c for c in cells if c.get("data-fits") == "no"]
    assert fits and rest
    assert all(c[0].get("stroke-dasharray") is None and tag(c[0]) == "polygon" for c in fits)
    assert all(c[0].get("stroke-dasharray") for c in rest)


def changed(root: ET.Element) -> list[ET.Element]:
    return [e for e in root.iter() if "last-change" in (e.get("class") or "").split()]


def test_what_the_events_changed_is_outlined():
    """From a real game: a placement outlines that tile (with its player's mark), a draw the
    pool, the drawer's rack count and score, and in the drawer's own copy the drawn tile."""
    cat = catalog()
    seen = set()
    for state, events in steps(3, 11):
        if state.is_terminal:
            break
        keys = {e.key for e in events}
        for seat in (0, 1, 2):
            got = [e.for_seat(seat) for e in events]
            root = parse(board(state.view(seat), seat, legal_moves(state, seat), cat, events=got))
            marked = changed(root)
            assert marked, keys
            for e in marked:  # an outline drawn in SVG, not only a class
                assert any(p.get("stroke-dasharray") for p in e.iter() if tag(p) in ("polygon", "rect")), e.attrib
            if "place" in keys:
                placed = next(e for e in events if e.key == "place")
                tiles = [e for e in marked if "tri-tile" in e.get("class", "")]
                assert [t.get("data-tile") for t in tiles] == [placed.params["tile"]]
                assert [m.get("data-seat") for m in tiles[0].iter() if m.get("data-shape")] == [str(placed.player)]
                seen.add("place")
            if "draw" in keys:
                drawer = next(e for e in events if e.key == "draw").player
                assert any("tri-pool" in e.get("class", "") for e in marked)
                assert any("tri-rack-count" in e.get("class", "") for e in marked)
                racks = [e for e in marked if "tri-rack-tile" in e.get("class", "")]
                if seat == drawer:
                    assert [e.get("data-tile") or e.get("data-pick") for e in racks] == [state.view(seat)["rack"][
                        state.view(seat)["rack"].index(NAME[state.racks[seat][-1]])]]
                    seen.add("drawn")
                else:
                    assert racks == []
    assert seen == {"place", "drawn"}


def test_no_events_no_outline():
    state = random_position(GAME, 2, 5, 10)
    assert changed(parse(board(state.view(0), 0, legal_moves(state, 0), catalog()))) == []


def expected_prompt(state) -> tuple[str, dict[str, Any]]:
    """The prompt's message and parameters worked out from the engine's state (not the view),
    phase by phase (M6-M8)."""
    placeable = any(a.to_json()["type"] == "place" for a in state.legal_actions())
    left = {"left": 3 - state.draws}
    if state.board.empty:
        return "open", {}
    if state.draws == 3:
        return ("place_or_stop" if placeable else "stop"), {}
    if not state.pool:
        return ("place_or_pass" if placeable else "pass"), {}
    if state.draws == 0:
        return ("place" if placeable else "draw"), {}
    if not placeable:
        return "draw_again", left
    if state.drawn_tile_only:
        return "place_only_drawn", {"tile": NAME[state.last_drawn], **left}
    return "place_drawn", left


@pytest.mark.parametrize("lang", LANGS)
def test_prompt_says_what_to_do_in_every_phase(lang):
    cat = catalog(lang)
    phases: set[str] = set()
    for seed in range(10):
        for state, _ in steps(2 + seed % 3, seed, start=True, drawn_tile_only=seed % 2 == 1):
            for seat in range(state.num_players):
                said = prompt(state.view(seat), seat, legal_moves(state, seat), cat)
                if seat != state.current_player:
                    assert said == ""
                    continue
                key, params = expected_prompt(state)
                assert said == cat.text(f"prompt.{key}", **params) and "{" not in said
                phases.add(key)
            assert prompt(state.view(None), None, [], cat) == ""
    # Every phase was reached: open, place, draw, draw again, place after a draw (both variants),
    # place or stop and stop after the third draw, place or pass and pass on an empty pool.
    assert phases == {k.split(".")[1] for k in cat.messages if k.startswith("prompt.")}


def test_standings_follow_the_engine_scores_and_racks():
    cat = catalog()
    cases: list[tuple[int, dict[str, Any]]] = [(1, {}), (2, {"match": True, "target": 120})]
    for seed, options in cases:
        rounds = set()
        for state, _ in steps(3, seed, **options):
            view = state.view(None)
            said = standings(view, cat)
            assert len(said) == 3
            for s, line in enumerate(said):
                points = state.scores()[s]
                assert line.startswith(cat.text("standing.points", count=points))
                assert cat.text("standing.tiles", count=len(state.racks[s])) in line
                if options:
                    this_round = sum(state.parts[-1][s])
                    assert cat.text("standing.round", round=state.round,
                                    points=cat.text("standing.points", count=this_round)) in line
                    rounds.add(state.round)
        assert not options or len(rounds) > 1
    zh = standings(GAME.new_game(2, seed=1).view(None), catalog("zh-Hant"))
    assert zh == ["0 分 · 剩 9 塊", "0 分 · 剩 9 塊"]
    one = catalog()
    assert one.text("standing.points", count=1) == "1 point" and one.text("standing.tiles", count=1) == "1 tile left"


LONG = "Bartholomew Featherstonehaugh-Worthingto"  # 40 characters
CJK = "歐陽司馬諸葛長孫慕容上官皇甫夏侯令狐東方"  # 20 characters


def span(line: ET.Element, content: str) -> tuple[float, float]:
    """The estimated left and right ends of an SVG text line (by its anchor)."""
    x, w = float(line.get("x", "")), svg.text_width(content, float(line.get("font-size", "")))
    anchor = line.get("text-anchor", "start")
    left = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
    return left, left + w


@pytest.mark.parametrize("lang", LANGS)
def test_long_names_fit_their_room(lang):
    """Every name text in the drawings is cut to its room: its estimated width stays inside its
    drawing and clear of the other text on its line; the whole name is kept in a tooltip."""
    assert len(LONG) == 40 and len(CJK) == 20
    cat = catalog(lang)
    cat.player_names = [LONG, CJK, LONG, CJK]
    state = random_position(GAME, 4, 2, 30)
    for seat in (0, 1, None):
        root = parse(board(state.view(seat), seat, legal_moves(state, seat), cat))
        names = 0
        for drawing in root.iter(NS + "svg"):
            width = float(drawing.get("viewBox", "").split()[2])
            for line in drawing.iter(NS + "text"):
                if line.get("data-name") is None:
                    continue
                shown = (line.text or "") + "".join((t.tail or "") for t in line)
                left, right = span(line, shown)
                assert left >= 0 and right <= width - 8, (shown, right, width)
                for other in drawing.iter(NS + "text"):
                    if other is not line and other.get("y") == line.get("y"):
                        o_left, o_right = span(other, "".join(other.itertext()))
                        assert right <= o_left or o_right <= left, (shown, "".join(other.itertext()))
                if any(long in line.get("data-name", "") for long in (LONG, CJK)):
                    names += 1  # too long for any room: cut, the whole text in a tooltip
                    assert shown != line.get("data-name")
                    assert "".join(line[0].itertext()) == line.get("data-name") and tag(line[0]) == "title"
        assert names >= 4


#: Latin letters a zh-Hant page may show: player names (chosen by the players; here "Ana" and
#: "Ben" are taken out before the check) and the letters naming open cells, one letter each,
#: that tie the drawing to the move labels and the terminal's keyboard notation. Tiles are named
#: by their digits ("0-4-4").
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")


@pytest.mark.slow
def test_a_game_in_traditional_chinese_shows_no_english_word():
    cat = catalog("zh-Hant")
    cat.player_names = ["Ana", "Ben"]
    seen: list[str] = []
    for seed, options in ((3, {}), (4, {"match": True, "target": 80}), (5, {"drawn_tile_only": True})):
        for state, events in steps(2, seed, **options):
            for seat in (0, 1, None):
                legal = legal_moves(state, seat) if seat is not None else []
                view = state.view(seat)
                got = [e.for_seat(seat) for e in events]
                root = parse(board(view, seat, legal, cat, events=got))
                seen += svg_text(root)
                seen.append(prompt(view, seat, legal, cat))
                seen += standings(view, cat)
                seen += [describe.action_label(m["action"], cat, view) for m in legal]
                seen += [event_json_text(e, cat, you=seat) for e in got]
    text = "\n".join(seen).replace("Ana", "").replace("Ben", "")
    assert LATIN_WORD.findall(text) == []
    assert "分" in text and "輪到" in text


def test_english_wordings_read_as_sentences():
    """Plural forms from the catalog (never "1 points"), "You" for the seat's own moves, and
    move labels without coordinates or rotation numbers."""
    cat = catalog()
    cat.player_names = ["Ana", "Ben"]
    lines: list[str] = []
    for state, events in steps(2, 6):
        for seat in (0, 1):
            lines += [event_json_text(e.for_seat(seat), cat, you=seat) for e in events]
            lines += [describe.action_label(m["action"], cat, state.view(seat)) for m in legal_moves(state, seat)]
    text = "\n".join(lines)
    assert not re.search(r"\b1 (points|tiles|draws)\b", text) and "(s)" not in text
    assert re.search(r"^You (place|draw)", text, re.M) and "You draws" not in text and "You places" not in text
    assert not re.search(r"\(-?\d+,-?\d+\)|rot \d|[▲▼]", text)
    tile = {"type": "place", "tile": "0-0-1", "x": 0, "y": 0, "dir": "up", "rot": 0}
    assert describe.action_label(tile, cat, GAME.new_game(2, seed=1).view(0)) == "Open with 0-0-1: 1 point"


def test_a_placement_label_names_its_neighbours_and_its_points():
    """The label's points are the tile's sum plus the bonus the engine then scores (M3-M5)."""
    cat = catalog()
    checked = 0
    for state, _ in steps(2, 9):
        if state.is_terminal:
            break
        seat = state.current_player
        view = state.view(seat)
        for move in legal_moves(state, seat):
            a = move["action"]
            if a["type"] != "place" or not view["board"]:
                continue
            points, bonus = describe.placement_score(view, a)
            trial = state.clone()
            before = trial.scores()[seat]
            trial.apply(state.action_from_id(move["id"]))
            gained = trial.scores()[seat] - before
            if trial.racks[seat]:  # going out adds M9's bonus on top
                assert gained == points, (a, bonus)
            label = describe.action_label(a, cat, view)
            assert f"{points} points" in label or f"{points} point" in label
            for near in describe.neighbours(view, a["x"], a["y"], a["dir"]):
                assert near in label
            checked += 1
    assert checked > 50


def test_options_have_names_and_help_in_both_languages():
    for lang in LANGS:
        cat = catalog(lang)
        for spec in GAME.option_specs:
            for part in ("name", "help"):
                key = f"option.{spec.name}.{part}"
                assert cat.has(key) and cat.text(key) != key
    assert SUM  # tiles' sums are what a placement label counts


def test_a_picked_tiles_preview_covers_the_cells_letter():
    """Once its tile is picked, a placement's preview is opaque and drawn after the cell letters,
    so its corner numbers never sit on top of a letter (they did on a phone)."""
    state = random_position(GAME, 2, 4, 6)
    seat = state.current_player
    root = parse(board(state.view(seat), seat, legal_moves(state, seat), catalog()))
    order = list(root.iter())
    letters = [k for k, e in enumerate(order) if e.get("class") == "tri-open" and len(e) == 2]
    fits = [k for k, e in enumerate(order) if "tri-fit" in (e.get("class") or "")]
    assert letters and fits and max(letters) < min(fits)
    for k in fits:
        ghost = next(e for e in order[k].iter() if e.get("class") == "tri-ghost")
        assert ghost[0].get("fill") == tri.IVORY and ghost[0].get("fill-opacity") is None
    assert ".tri-fit.armed .tri-ghost,.tri-fit:focus .tri-ghost{opacity:1}" in tri.STYLE
