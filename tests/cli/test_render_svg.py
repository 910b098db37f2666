"""`meeple render FILE --svg OUT`: the browser's board of the record's last position, as a
spectator sees it, in one standalone SVG document, for every game."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import xml.etree.ElementTree as ET
from pathlib import Path

import cairosvg
import pytest
from PIL import Image

from meeple.boards.picture import spectator_picture, standalone_svg
from meeple.cli.app import main
from meeple.cli.render import catalog
from meeple.core.i18n import Catalog
from meeple.core.record import GameRecord
from meeple.core.registry import registered
from meeple.core.rng import Rng
from tests.highcard.plugin import PLUGIN as HIGHCARD

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "records"
SVG = "{http://www.w3.org/2000/svg}"
#: One saved record per game (three players where the game allows it: more hidden things).
RECORDS = {"triqueta": "triqueta-3p-seed12", "triominos": "triominos-3p-match=True-seed23",
           "celtica": "celtica-3p-seed32", "castell": "castell-3p-wheel=advanced-seed42"}
#: Highcard as a plugin without a web board.
NO_BOARD = dataclasses.replace(HIGHCARD, board=None)


def saved_record(game: str, folder: Path, moves: int | None = None) -> tuple[GameRecord, Path]:
    """The game's fixture record (its first `moves` actions only, when given), saved as a file."""
    data = json.loads((FIXTURES / f"{RECORDS[game]}.json").read_text(encoding="utf-8"))["record"]
    data["actions"] = data["actions"][:moves]
    record = GameRecord.from_json(data)
    path = folder / f"{game}.json"
    record.save(path)
    return record, path


def run(*argv: str) -> tuple[int, str]:
    """`meeple ARGV` in this process: its exit status and what it wrote to stderr."""
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err), \
            pytest.raises(SystemExit) as exit_:
        main(list(argv))
    return int(exit_.value.code or 0), err.getvalue()


def render(path: Path, out: Path, lang: str = "en") -> str:
    code, err = run("render", str(path), "--svg", str(out), "--lang", lang)
    assert code == 0, err
    return out.read_text(encoding="utf-8")


def named_catalog(record: GameRecord, lang: str = "en") -> Catalog:
    """The catalog `meeple render` draws with: the seats named after the record's players."""
    cat = catalog(record.game, lang)
    cat.player_names = [f"{cat.text('ui.seat', seat=k + 1)} ({name})" for k, name in enumerate(record.players)]
    return cat


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_render_draws_the_final_position_as_one_standalone_svg(tmp_path: Path, game: str) -> None:
    record, path = saved_record(game, tmp_path)
    picture = render(path, tmp_path / "final.svg")
    root = ET.fromstring(picture)
    assert root.tag == f"{SVG}svg"
    _, _, width, height = map(float, root.attrib["viewBox"].split())
    assert width > 300 and height > 150
    tags = {element.tag.removeprefix(SVG) for element in root.iter()}
    assert all(tag.startswith(SVG) for tag in (element.tag for element in root.iter()))  # SVG only, no HTML
    assert not tags & {"script", "style", "foreignObject", "image", "a"}
    assert not any(key.endswith("href") for element in root.iter() for key in element.attrib)
    words = " ".join(root.itertext())
    cat = named_catalog(record)
    state = record.replay()
    assert state.is_terminal
    for seat, score in enumerate(state.scores()):
        assert cat.player(seat) in words
        assert str(round(score)) in words


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_the_picture_looks_right_opened_alone(tmp_path: Path, game: str) -> None:
    _, path = saved_record(game, tmp_path)
    picture = render(path, tmp_path / "final.svg", lang="zh-Hant")
    image = Image.open(io.BytesIO(cairosvg.svg2png(bytestring=picture.encode("utf-8")))).convert("RGB")
    _, _, width, height = map(float, ET.fromstring(picture).attrib["viewBox"].split())
    assert image.size == (round(width), round(height))
    colours = image.getcolors(maxcolors=1 << 20)
    assert colours is not None and len(colours) > 50
    background = max(colours)[0]
    assert background < image.width * image.height * 0.8  # drawn on, not a blank page


@pytest.mark.parametrize("game", sorted(RECORDS))
def test_a_spectators_picture_shows_nothing_hidden(tmp_path: Path, game: str) -> None:
    """Mid-game, every state a seat cannot tell apart from the real one draws the same picture."""
    record, path = saved_record(game, tmp_path, moves=12)
    picture = render(path, tmp_path / "middle.svg")
    state = record.replay()
    assert not state.is_terminal
    cat = named_catalog(record)
    resampled = 0
    for seat in range(state.num_players):
        for seed in (1, 2, 3):
            other = state.determinize(seat, Rng(seed))
            resampled += other.to_json() != state.to_json()
            assert spectator_picture(game, other.view(None), cat) == picture
    assert resampled  # something hidden was drawn differently in the states compared


def test_a_game_without_a_board_is_one_error_line(tmp_path: Path) -> None:
    path = tmp_path / "highcard.json"
    with registered("highcard", "tests.cli.test_render_svg:NO_BOARD"):
        GameRecord(game="highcard", num_players=2, seed=1).save(path)
        code, err = run("render", str(path), "--svg", str(tmp_path / "out.svg"))
    assert code == 2
    assert err.strip().splitlines() == ["meeple: error: Highcard has no web board"]
    assert not (tmp_path / "out.svg").exists()


def test_drawings_and_text_are_laid_out_in_rows() -> None:
    html = ('<div><p>Round 2</p><div><svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 500 100"><rect/></svg>'
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 300 50"><rect/></svg></div>'
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 400 80"><rect/></svg></div>')
    root = ET.fromstring(standalone_svg(html, "Test"))
    assert root.findtext(f"{SVG}title") == "Test"
    assert root.findtext(f"{SVG}text") == "Round 2"
    drawings = [(float(d.attrib["x"]), float(d.attrib["y"])) for d in root.iter(f"{SVG}svg") if d is not root]
    (x1, y1), (x2, y2), (x3, y3) = drawings
    assert y1 == y2 and x2 == x1 + 500 + 8  # side by side while the row has room
    assert x3 == x1 and y3 == y1 + 100 + 8  # then a new row under the tallest
    assert root.attrib["viewBox"] == f"0 0 {x2 + 300 + 8:g} {y3 + 80 + 8:g}"


@pytest.mark.parametrize("html", ["<div><svg></div>", '<svg xmlns="http://www.w3.org/2000/svg"/>'])
def test_a_board_that_is_not_a_picture_is_refused(html: str) -> None:
    with pytest.raises(ValueError):
        standalone_svg(html, "Test")
