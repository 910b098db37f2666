"""Files are the operator's, never a client's: a rule option naming a file or a directory takes
only a data set the operator offers (`meeple serve --data`), by name; nothing a client reads
holds a server path; and building or replaying a game never blocks the event loop."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from meeple.core.errors import DataError
from meeple.core.protocol import Game
from meeple.core.record import GameRecord
from meeple.core.registry import load
from meeple.games.castell.components import DATA_DIR, load_components
from meeple.server.app import create_app
from meeple.server.botpool import BotPool
from meeple.server.datasets import DataSets
from meeple.server.sqlite_store import SQLiteStore
from tests.server.conftest import bearer, lifted_config, state
from tests.server.live import Server
from tests.server.services import free_port
from tests.server.test_api import _play_to_the_end, _two_people

#: A request that must be answered promptly is given this long (a hang guard, not a speed test).
PROMPT = 10.0
SHORT_BOARD = """provenance = "printed"
location = [
    { kind = "start" },
    { kind = "ruin", number = 1 },
    { kind = "cult" },
    { kind = "monastery", number = 2 },
    { kind = "goal", number = 1 },
]
"""
#: What a game's or the OS's answer about a file would say; no refusal may say it.
FILE_SYSTEM_WORDS = ("No such file", "Is a directory", "TOML", "Permission", "line 1", "FIFO", "pipe")


def make_data(folder: Path) -> Path:
    """An operator's data directory: a Castell component set "printed" (its calendar; the other
    files fall back to the shipped ones) and a Celtica board "printed" (five locations)."""
    data = folder / "data"
    box = data / "castell" / "components" / "printed"
    box.mkdir(parents=True)
    shutil.copy(DATA_DIR / "calendar.toml", box / "calendar.toml")
    boards = data / "celtica" / "board"
    boards.mkdir(parents=True)
    (boards / "printed.toml").write_text(SHORT_BOARD, encoding="utf-8")
    return data


@contextmanager
def served(db: Path, data: Path | None) -> Iterator[TestClient]:
    """The application over the SQLite file `db`, offering the sets in `data`."""
    config = lifted_config(data_dir=None if data is None else str(data))
    app = create_app(SQLiteStore(db), BotPool(executor=ThreadPoolExecutor(2)), config=config)
    with TestClient(app) as client:
        yield client


@pytest.fixture
def data(tmp_path: Path) -> Path:
    return make_data(tmp_path)


@pytest.fixture
def offering(tmp_path: Path, data: Path) -> Iterator[TestClient]:
    with served(tmp_path / "meeple.db", data) as client:
        yield client


def _refusal(client: TestClient, game: str, option: str, value: str) -> dict[str, Any]:
    response = client.post("/api/tables", json={"game": game, "players": 2, "options": {option: value}})
    assert response.status_code == 422, response.text
    body: dict[str, Any] = response.json()
    assert body["type"] == "error" and body["code"] == "bad_table", body
    return body


# -- the door: a path from a client is refused, and the refusal reveals nothing ----------------

@pytest.mark.parametrize("game, option, path", [
    ("castell", "components", "/etc"),
    ("castell", "components", "/nonexistent/x"),
    ("celtica", "board", "/etc/hostname"),
    ("celtica", "board", "/nonexistent/x"),
    ("celtica", "board", "/root"),
])
def test_a_path_in_a_file_option_is_refused_and_the_answer_reveals_nothing(client, game, option, path):
    body = _refusal(client, game, option, path)
    # The same answer as for a name the server does not offer: whether the path exists, is a
    # directory or holds TOML makes no difference a client can see.
    assert body == _refusal(client, game, option, "no-such-set")
    text = json.dumps(body)
    for part in [path, *(p for p in path.split("/") if len(p) > 1)]:
        assert part not in text, (part, text)
    assert not any(word in text for word in FILE_SYSTEM_WORDS), text
    assert client.get("/api/tables").json() == []  # nothing was created


def test_a_fifo_named_as_a_board_is_answered_at_once_and_blocks_no_other_request(client, tmp_path):
    fifo = tmp_path / "board.fifo"
    os.mkfifo(fifo)
    answers: dict[str, httpx.Response] = {}
    create = _in_thread(answers, "create", lambda: client.post(
        "/api/tables", json={"game": "celtica", "players": 2, "options": {"board": str(fifo)}}))
    other = _in_thread(answers, "games", lambda: client.get("/api/games"))
    answered = _all_done([create, other], PROMPT)
    _release(fifo)  # a reader stuck on the FIFO (as before the fix) gets its end of file
    create.join(PROMPT)
    other.join(PROMPT)
    assert answered, "a FIFO named as a board held the server"
    assert answers["create"].status_code == 422 and answers["create"].json()["code"] == "bad_table"
    assert str(fifo) not in answers["create"].text
    assert answers["games"].status_code == 200


def _served_while_held(client: TestClient, hold: Callable[[threading.Event], None],
                       slow: Callable[[], httpx.Response]) -> tuple[bool, dict[str, httpx.Response]]:
    """Start the `slow` request, held at the gate `hold` sets up, and ask for the games meanwhile:
    whether that other request was answered while the slow one waited, and both answers."""
    gate = threading.Event()
    hold(gate)
    answers: dict[str, httpx.Response] = {}
    waiting = _in_thread(answers, "slow", slow)
    try:
        assert _waits_at(gate)
        other = _in_thread(answers, "games", lambda: client.get("/api/games"))
        served = _all_done([other], PROMPT / 2)  # while the slow request is still held
    finally:
        gate.set()
    _all_done([waiting, other], PROMPT)
    return served, answers


def test_building_a_new_game_does_not_block_the_event_loop(client, monkeypatch):
    served, answers = _served_while_held(
        client, lambda gate: _hold(monkeypatch, load("celtica"), "new_game", gate),
        lambda: client.post("/api/tables", json={"game": "celtica", "players": 2}))
    assert served, "building a game held the event loop"
    assert answers["games"].status_code == 200
    assert answers["slow"].status_code == 201, answers["slow"].text


def test_replaying_a_table_on_load_does_not_block_the_event_loop(client, monkeypatch):
    table, _ = _two_people(client, "celtica")
    client.app.state.hub.tables.clear()  # as after a restart: the next request loads it
    served, answers = _served_while_held(
        client, lambda gate: _hold(monkeypatch, GameRecord, "replay", gate),
        lambda: client.get(f"/api/tables/{table}/state"))
    assert served, "replaying a table held the event loop"
    assert answers["games"].status_code == 200
    assert answers["slow"].status_code == 200 and answers["slow"].json()["version"] == 0


def test_pages_do_not_look_at_their_template_files_again_once_loaded(client, monkeypatch):
    assert client.get("/").status_code == 200  # the lobby's templates are loaded now

    def looked(path: Any) -> float:
        raise AssertionError(f"a page looked at {path} on the event loop")

    monkeypatch.setattr(os.path, "getmtime", looked)
    assert client.get("/").status_code == 200


# -- the operator's sets, by name --------------------------------------------------------------

def test_the_operators_sets_are_offered_by_name_in_the_api_and_the_lobby(offering, data):
    options = {(g["name"], o["name"]): o for g in offering.get("/api/games").json() for o in g["options"]}
    assert options["castell", "components"]["choices"] == ["", "printed"]
    assert options["celtica", "board"]["choices"] == ["", "printed"]
    assert options["castell", "wheel"]["choices"] == ["standard", "advanced"]  # other options as they were
    lobby = offering.get("/").text
    assert '<select name="opt-components">' in lobby and '<select name="opt-board">' in lobby
    assert '<option value="printed">printed</option>' in lobby
    assert str(data) not in lobby


def test_without_data_sets_only_the_shipped_data_is_offered(client):
    options = {(g["name"], o["name"]): o for g in client.get("/api/games").json() for o in g["options"]}
    assert options["castell", "components"]["choices"] == [""]
    assert 'name="opt-components"' not in client.get("/").text  # nothing to choose in the lobby
    message = _refusal(client, "castell", "components", "printed")["message"]
    assert "(none)" in message


def test_a_castell_table_on_a_set_plays_and_its_record_names_the_set_and_no_path(offering, data, tmp_path,
                                                                                 monkeypatch):
    table, credentials = _two_people(offering, "castell", options={"components": "printed"})
    final = _play_to_the_end(offering, table, credentials)
    response = offering.get(f"/api/tables/{table}/record")
    record = GameRecord.from_json(response.json())
    pin = load_components(str(data / "castell" / "components" / "printed")).sha256
    assert record.options["components"] == f"printed#sha256={pin}"
    replay_page = offering.get(f"/tables/{table}/replay/3")
    assert replay_page.status_code == 200
    seen = state(offering, table, credentials[0])
    for text in (response.text, json.dumps(final), json.dumps(seen), replay_page.text):
        assert str(tmp_path) not in text
    # Replayed where the set's directory stands under its name, the record gives the same game.
    monkeypatch.chdir(data / "castell" / "components")
    replayed = record.replay()
    assert replayed.scores() == final["result"]["scores"]


def test_a_celtica_table_on_a_set_has_its_board_and_keeps_it_inline(offering, data):
    table, credentials = _two_people(offering, "celtica", options={"board": "printed"})
    seen = state(offering, table, credentials[0])
    assert [spot["kind"] for spot in seen["view"]["board"]] == ["start", "ruin", "cult", "monastery", "goal"]
    stored = offering.app.state.hub.tables[table].row.options["board"]
    assert stored == "layout:printed:start,ruin 1,cult,monastery 2,goal 1"  # no path, and no file needed to replay
    assert str(data) not in json.dumps(seen)


def test_a_set_spoiled_after_start_up_is_refused_by_its_name_not_its_path(offering, data, tmp_path):
    (data / "celtica" / "board" / "printed.toml").write_text("location = [", encoding="utf-8")
    message = _refusal(offering, "celtica", "board", "printed")["message"]
    assert "data set 'printed'" in message and "not valid TOML" in message
    assert str(tmp_path) not in message


def test_a_table_on_a_set_loads_again_after_a_restart_wherever_the_sets_now_live(tmp_path, data):
    db = tmp_path / "meeple.db"
    with served(db, data) as before:
        table, credentials = _two_people(before, "castell", options={"components": "printed"})
        for _ in range(3):
            mine = state(before, table, credentials[state(before, table)["to_move"]])
            seat = mine["seat"]
            moved = before.post(f"/api/tables/{table}/actions", headers=bearer(credentials[seat]),
                                json={"version": mine["version"], "action_id": mine["legal"][0]["id"]})
            assert moved.status_code == 200, moved.text
        seen = state(before, table)
    moved_data = tmp_path / "elsewhere"
    data.rename(moved_data)
    with served(db, moved_data) as after:
        assert state(after, table) == seen


def test_a_table_whose_set_is_gone_or_changed_is_refused_by_name_and_the_others_are_served(tmp_path, data):
    db = tmp_path / "meeple.db"
    with served(db, data) as before:
        table, _ = _two_people(before, "castell", options={"components": "printed"})
        other, _ = _two_people(before, "triqueta")
    with served(db, None) as without:
        refused = without.get(f"/api/tables/{table}/state")
        assert refused.status_code == 503 and refused.json()["code"] == "unplayable"
        assert "'printed'" in refused.json()["message"] and str(tmp_path) not in refused.text
        assert without.get("/api/tables").status_code == 200
        assert without.get(f"/api/tables/{other}/state").status_code == 200
    calendar = data / "castell" / "components" / "printed" / "calendar.toml"
    text = calendar.read_text(encoding="utf-8")
    assert "size_tokens = 3" in text
    calendar.write_text(text.replace("size_tokens = 3", "size_tokens = 2", 1), encoding="utf-8")
    with served(db, data) as changed:  # a valid set still, but not the one the game was played with
        refused = changed.get(f"/api/tables/{table}/state")
        assert refused.status_code == 503 and "changed since the game was recorded" in refused.json()["message"]
        assert "data set 'printed'" in refused.json()["message"] and str(tmp_path) not in refused.text


# -- the operator's side: sets checked at start-up ---------------------------------------------

def _bad_board(data: Path) -> None:
    (data / "celtica" / "board" / "broken.toml").write_text("location = [", encoding="utf-8")


def _bad_components(data: Path) -> None:
    (data / "castell" / "components" / "broken").mkdir()
    (data / "castell" / "components" / "broken" / "wheel.toml").write_text("[standard]\n", encoding="utf-8")


@pytest.mark.parametrize("spoil, message", [
    (_bad_board, r"celtica/board/broken\.toml: board file .*broken\.toml: not valid TOML"),
    (_bad_components, r"castell/components/broken: castell components, wheel\.toml: \[standard\] segments"),
    (lambda d: (d / "celtica" / "board" / "my board.toml").write_text(SHORT_BOARD), r"'my board\.toml': a set's name"),
    (lambda d: (d / "celtica" / "board" / "printed.txt").write_text(SHORT_BOARD), "two sets are named 'printed'"),
    (lambda d: (d / "celtica" / "board" / "dir.toml").mkdir(), "dir.toml is not a file"),
    (lambda d: (d / "castell" / "components" / "file").write_text(""), "file is not a directory"),
    (lambda d: (d / "castell" / "wheel").mkdir(), "castell/wheel is not an option's directory"),
    (lambda d: (d / "chess").mkdir(), "chess is not a game's directory"),
])
def test_a_bad_set_is_refused_at_start_up_with_one_line(data, spoil, message):
    spoil(data)
    with pytest.raises(DataError, match=message) as refused:
        DataSets.open(str(data))
    assert "\n" not in str(refused.value)


def test_a_data_directory_that_is_not_one_is_refused(tmp_path):
    with pytest.raises(DataError, match="not a directory"):
        DataSets.open(str(tmp_path / "absent"))


@pytest.mark.slow
def test_meeple_serve_with_a_bad_set_stops_with_one_line(tmp_path, data):
    _bad_board(data)
    done = subprocess.run(
        [sys.executable, "-m", "meeple", "serve", "--port", str(free_port()), "--db", str(tmp_path / "m.db"),
         "--data", str(data)], capture_output=True, text=True, timeout=120, cwd=tmp_path,
    )
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    assert lines[0].startswith(f"meeple: error: --data {data}: celtica/board/broken.toml: ")


@pytest.mark.slow
def test_meeple_serve_offers_the_sets_of_its_data_flag(tmp_path, data):
    server = Server(tmp_path, args=("--data", str(data)))
    server.start()
    try:
        games = httpx.get(f"{server.url}/api/games", timeout=30).json()
        created = httpx.post(f"{server.url}/api/tables", timeout=30,
                             json={"game": "castell", "players": 2, "options": {"components": "printed"}})
    finally:
        log = server.stop()
    assert "Traceback" not in log, log
    board = next(o for g in games if g["name"] == "celtica" for o in g["options"] if o["name"] == "board")
    assert board["choices"] == ["", "printed"]
    assert created.status_code == 201, created.text


# -- helpers -----------------------------------------------------------------------------------

def _in_thread(answers: dict[str, Any], key: str, call: Callable[[], Any]) -> threading.Thread:
    def run() -> None:
        answers[key] = call()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def _all_done(threads: list[threading.Thread], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    for thread in threads:
        thread.join(max(0.0, deadline - time.monotonic()))
    return not any(thread.is_alive() for thread in threads)


def _release(fifo: Path) -> None:
    """Give a reader blocked on `fifo` its end of file (nothing to do if none is there)."""
    with contextlib.suppress(OSError):  # no reader: nobody is stuck
        os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))


_WAITING = threading.Event()


def _hold(monkeypatch: pytest.MonkeyPatch, owner: Game[Any, Any] | type, name: str, gate: threading.Event) -> None:
    """Make `owner.name` wait at `gate` (at most PROMPT seconds) before doing its work."""
    original = getattr(owner, name)
    _WAITING.clear()

    def held(*args: Any, **kwargs: Any) -> Any:
        _WAITING.set()
        gate.wait(PROMPT)
        return original(*args, **kwargs)

    monkeypatch.setattr(owner, name, held)


def _waits_at(gate: threading.Event) -> bool:
    """Whether the held call has started (and waits at `gate`)."""
    return _WAITING.wait(PROMPT) and not gate.is_set()
