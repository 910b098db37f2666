"""Reviews of finished games and hints at tables of bots, through the HTTP API: a review only
after the end, worked out in the workers, stored (a second request and a restart read it),
the same every time; one per table, a cap on the server; hints only to the seat to move at a
table where every other seat is a bot, noted in the record and shown in the review."""

from __future__ import annotations

import random
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from meeple.ai.review import LABELS, ReviewSettings, review_record
from meeple.core.record import GameRecord
from meeple.core.registry import load
from meeple.server.app import create_app
from meeple.server.botpool import BotPool
from meeple.server.commands import secret_hash
from meeple.server.config import ServerConfig
from meeple.server.sqlite_store import SQLiteStore
from meeple.server.store import SeatRow, TableRow
from meeple.server.web.review import review_html
from tests.server.conftest import bearer, create, hub_of, lifted_config, state

#: What the tests' reviews spend: enough to label every move, little enough for seconds.
TINY = {"samples": 2, "screening": 1}
GAMES = ("triqueta", "triominos", "celtica", "castell")
#: How long a test waits for a review (a deadline, never a timing assertion).
DEADLINE = 120.0


def app_over(path: Path, executor: ThreadPoolExecutor | None = None, **settings: Any) -> TestClient:
    """A test client of an application over the SQLite file `path`, reviewing with TINY."""
    config = lifted_config(**{"review": TINY, **settings})
    pool = BotPool(workers=2, executor=executor or ThreadPoolExecutor(2))
    return TestClient(create_app(SQLiteStore(path), pool, config=config))


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with app_over(tmp_path / "meeple.db") as test_client:
        yield test_client


def finished_table(client: TestClient, game: str, players: int, seed: int = 7,
                   table_id: str = "done-table") -> list[str]:
    """Store a table whose game random moves finished, every seat a person's: their credentials."""
    state_now = load(game).new_game(players, seed=seed)
    rng = random.Random(seed)
    actions = []
    while not state_now.is_terminal:
        action = rng.choice(state_now.legal_actions())
        actions.append(action.to_json())
        state_now.apply(action)
    credentials = [f"credential-{seat}-of-{table_id}" for seat in range(players)]
    seats = [SeatRow(seat, "human", None, f"Friend {seat}", secret_hash(credentials[seat])) for seat in range(players)]
    hub_of(client).store.create_table(TableRow(
        id=table_id, game=game, num_players=players, seed=seed, options=dict(state_now.options), seats=seats,
        join_code_hash="", created=time.time(), actions=actions))
    hub_of(client).store.set_finished(table_id, True)
    return credentials


def reviewed(client: TestClient, table: str, **headers: str) -> dict[str, Any]:
    """Ask for the table's review and poll until it is done: the answer with the review."""
    started = client.post(f"/api/tables/{table}/review", headers=headers)
    assert started.status_code == 200, started.text
    deadline = time.monotonic() + DEADLINE
    while True:
        answer = client.get(f"/api/tables/{table}/review", headers=headers)
        assert answer.status_code == 200, answer.text
        found: dict[str, Any] = answer.json()
        assert found["status"] in ("running", "done"), found
        if found["status"] == "done":
            return found
        assert 0 <= found["done"] <= found["total"]
        assert time.monotonic() < deadline, "the review did not finish"
        time.sleep(0.05)


def check_review(review: dict[str, Any], record: dict[str, Any]) -> None:
    assert [move["index"] for move in review["moves"]] == list(range(len(record["actions"])))
    assert [move["action"] for move in review["moves"]] == record["actions"]
    assert {move["label"] for move in review["moves"]} <= set(LABELS)
    assert all(0.0 <= chance <= 1.0 for move in review["moves"] for chance in move["chances"])
    assert 1 <= len(review["turning_points"]) <= 3
    assert [seat["seat"] for seat in review["seats"]] == list(range(record["num_players"]))
    for point in review["turning_points"]:
        assert set(point["words"]) == {"en", "zh-Hant"}


@pytest.mark.parametrize(("game", "players"), [(game, n) for game in GAMES
                                               for n in range(load(game).min_players, load(game).max_players + 1)])
def test_every_game_at_every_player_count_is_reviewed_and_a_second_request_reads_the_store(client, game, players):
    finished_table(client, game, players)
    found = reviewed(client, "done-table")
    record = client.get("/api/tables/done-table/record").json()
    check_review(found["review"], record)
    assert found["done"] == found["total"] == len(record["actions"])
    assert hub_of(client).reviews.jobs == {}  # nothing runs any more: the store answers
    again = client.post("/api/tables/done-table/review")
    assert again.status_code == 200
    assert again.json() == found
    for lang, label in (("en", "Turning points"), ("zh-Hant", "轉捩點")):  # the page's review, in its language
        client.cookies.set("lang", lang)
        page = client.get("/tables/done-table/review")
        assert page.status_code == 200, page.text
        assert page.text.count('class="hit"') == len(record["actions"])  # every move a column of the chart
        assert page.text.count('class="turn"') == len(found["review"]["turning_points"])
        assert page.text.count("data-label=") == len(record["actions"])  # every move labelled in the list
        assert label in page.text and "Friend 1" in page.text


def test_a_review_survives_a_restart_and_the_same_game_gives_the_same_review(tmp_path):
    with app_over(tmp_path / "first.db") as first:
        finished_table(first, "triqueta", 3)
        review = reviewed(first, "done-table")["review"]
    with app_over(tmp_path / "first.db") as restarted:
        answer = restarted.get("/api/tables/done-table/review")
        assert answer.json() == {"status": "done", "done": len(review["moves"]), "total": len(review["moves"]),
                                 "review": review}
        assert hub_of(restarted).reviews.jobs == {}
    with app_over(tmp_path / "second.db") as other:  # the same table stored elsewhere: worked out again
        finished_table(other, "triqueta", 3)
        assert reviewed(other, "done-table")["review"] == review


def test_a_review_is_refused_while_the_game_runs_and_changes_nothing(client):
    created = create(client, "triqueta", 2)
    table = created["table_id"]
    for method in ("post", "get"):
        answer = client.request(method, f"/api/tables/{table}/review", headers=bearer(created["credential"]))
        assert answer.status_code == 409
        assert answer.json()["code"] == "not_over"
    assert hub_of(client).reviews.jobs == {}
    assert client.get(f"/tables/{table}/review").status_code == 409


def test_seats_and_spectators_may_read_a_review_and_a_wrong_credential_may_not(client):
    credentials = finished_table(client, "triqueta", 2)
    spectator = reviewed(client, "done-table")
    seat = client.get("/api/tables/done-table/review", headers=bearer(credentials[1]))
    assert seat.status_code == 200 and seat.json() == spectator
    for method in ("post", "get"):
        wrong = client.request(method, "/api/tables/done-table/review", headers=bearer("not-a-credential"))
        assert wrong.status_code == 401
        assert wrong.json()["code"] == "bad_credential"
    assert client.get("/api/tables/no-such-table/review").json()["code"] == "no_table"
    assert client.get("/api/tables/a%20b/review").status_code == 404


def test_one_review_per_table_and_the_server_wide_cap_refuses_more(tmp_path):
    """While the workers are held, a review stays running: asking again joins it, and another
    table's review is refused (429, reviews_busy) until it is done."""
    held = threading.Event()
    workers = ThreadPoolExecutor(1)
    workers.submit(held.wait)  # the only worker is busy until released
    with app_over(tmp_path / "meeple.db", workers, reviews_running=1) as client:
        finished_table(client, "triqueta", 2, table_id="first")
        finished_table(client, "triqueta", 2, table_id="second")
        try:
            first = client.post("/api/tables/first/review").json()
            assert first["status"] == "running"
            assert client.post("/api/tables/first/review").json()["status"] == "running"
            assert list(hub_of(client).reviews.jobs) == ["first"]
            busy = client.post("/api/tables/second/review")
            assert busy.status_code == 429
            assert busy.json()["code"] == "reviews_busy"
            assert "retry-after" in busy.headers
            assert client.get("/api/tables/second/review").json()["status"] == "none"
        finally:
            held.set()
        reviewed(client, "first")
        reviewed(client, "second")


def test_review_and_hint_requests_are_rate_limited_per_client(tmp_path):
    with app_over(tmp_path / "meeple.db", review_requests_per_minute=2) as client:
        finished_table(client, "triqueta", 2)
        for _ in range(2):
            assert client.post("/api/tables/done-table/review").status_code == 200
        limited = client.post("/api/tables/done-table/review")
        assert limited.status_code == 429
        assert limited.json()["code"] == "too_many"
        assert client.get("/api/tables/done-table/review").status_code == 200  # reading is not limited


def test_the_review_page_fragment_waits_for_the_review(client):
    finished_table(client, "triqueta", 2)
    missing = client.get("/tables/done-table/review")
    assert missing.status_code == 404
    assert missing.json()["code"] == "no_review"
    reviewed(client, "done-table")
    page = client.get("/tables/done-table/review")
    assert page.status_code == 200
    assert "<svg" in page.text and 'data-testid="review-chart"' in page.text


def test_a_review_that_names_no_turning_point_says_so_in_words(client):
    """Short games reviewed with few samples may have no decision that cost anything and no luck
    beyond the noise: the page says so instead of an empty list."""
    finished_table(client, "triqueta", 2)
    review = reviewed(client, "done-table")["review"]
    record = GameRecord.from_json(client.get("/api/tables/done-table/record").json())
    before: list[Any] = []
    record.replay(lambda step, action, now: before.append(now.view(None)))
    before.insert(0, record.new_state().view(None))
    seats = [{"seat": seat, "kind": "human", "name": f"Friend {seat}"} for seat in range(2)]
    named = review_html("triqueta", review, before, seats, "en")
    assert 'data-testid="turning-points"' in named and 'data-testid="no-turning-points"' not in named
    quiet = review_html("triqueta", {**review, "turning_points": []}, before, seats, "en")
    assert 'data-testid="turning-points"' not in quiet and 'data-testid="turning-point-1"' not in quiet
    assert "no decision cost a share of the win" in quiet
    assert "沒有一手失去勝率" in review_html("triqueta", {**review, "turning_points": []}, before, seats, "zh-Hant")


# -- hints ------------------------------------------------------------------------------------------


def against_a_bot(client: TestClient, game: str = "triqueta", players: int = 2) -> tuple[str, str]:
    bots = [{"kind": "bot", "bot": "random"}] * (players - 1)
    created = create(client, game, players, seats=[{"kind": "human"}, *bots])
    return created["table_id"], created["credential"]


def my_turn(client: TestClient, table: str, credential: str) -> dict[str, Any]:
    """The seat's state once it is to move (the bots have moved), or once the game is over."""
    deadline = time.monotonic() + DEADLINE
    while True:
        seen = state(client, table, credential)
        if seen["over"] or seen["to_move"] == seen["seat"]:
            return seen
        assert time.monotonic() < deadline, "the bots did not move"
        time.sleep(0.02)


def ask(client: TestClient, table: str, credential: str | None, body: Any) -> Any:
    return client.post(f"/api/tables/{table}/hint", json=body, headers=bearer(credential) if credential else {})


@pytest.mark.parametrize("game", GAMES)
def test_a_hint_at_a_table_of_bots_is_noted_in_the_record_and_marked_in_the_review(client, game):
    table, me = against_a_bot(client, game)
    seen = my_turn(client, table, me)
    answer = ask(client, table, me, {"version": seen["version"]})
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    assert hint["index"] == seen["version"]
    assert 0.0 <= hint["best_chance"] <= 1.0
    assert hint["best_action_id"] in [move["id"] for move in seen["legal"]]
    assert ask(client, table, me, {"version": seen["version"]}).json() == hint  # asked again: the same, once
    asked_at = seen["version"]
    while not seen["over"]:
        client.post(f"/api/tables/{table}/actions", headers=bearer(me),
                    json={"version": seen["version"], "action_id": seen["legal"][0]["id"]})
        seen = my_turn(client, table, me)
    record = client.get(f"/api/tables/{table}/record").json()
    assert record["hints"] == [asked_at]
    assert GameRecord.from_json(record).hints == [asked_at]
    review = reviewed(client, table)["review"]
    assert [move["index"] for move in review["moves"] if move["hint"]] == [asked_at]
    assert [seat["hints"] for seat in review["seats"]] == [1, 0]


def test_hints_are_refused_against_people_to_spectators_out_of_turn_and_after_the_end(client):
    created = create(client, "triqueta", 2, seats=[{"kind": "human"}, {"kind": "human"}])
    table, first = created["table_id"], created["credential"]
    second = client.post(f"/api/tables/{table}/join", json={"join_code": created["join_code"], "name": "B"}).json()
    seen = state(client, table, first)
    against_people = ask(client, table, first, {"version": seen["version"]})
    assert (against_people.status_code, against_people.json()["code"]) == (403, "no_hints")
    assert ask(client, table, None, {"version": 0}).json()["code"] == "bad_credential"
    assert ask(client, table, second["credential"], {"version": 0}).json()["code"] == "no_hints"

    table, me = against_a_bot(client, "triqueta", 3)
    seen = my_turn(client, table, me)
    stale = ask(client, table, me, {"version": seen["version"] + 1})
    assert (stale.status_code, stale.json()["code"]) == (409, "stale")
    assert hub_of(client).tables[table].row.hints == []
    client.post(f"/api/tables/{table}/actions", headers=bearer(me),
                json={"version": seen["version"], "action_id": seen["legal"][0]["id"]})
    after = state(client, table, me)
    if after["to_move"] != after["seat"] and not after["over"]:
        assert ask(client, table, me, {"version": after["version"]}).json()["code"] in ("not_your_turn", "stale")
    assert hub_of(client).tables[table].row.hints == []

    credentials = finished_table(client, "triqueta", 2)
    over = ask(client, "done-table", credentials[0], {"version": 0})
    assert over.json()["code"] == "over"


@pytest.mark.parametrize("body", [{"version": "3"}, {"version": -1}, {"version": 1.0}, {"version": 2**70},
                                  {"version": 0, "seat": 1}, {}, [], "hint", {"version": None}])
def test_a_hostile_hint_request_is_one_error_and_notes_nothing(client, body):
    table, me = against_a_bot(client)
    answer = ask(client, table, me, body)
    assert answer.status_code == 422
    assert answer.json()["type"] == "error" and answer.json()["code"] == "bad_request"
    assert hub_of(client).tables[table].row.hints == []
    assert hub_of(client).store.load_table(table).hints == []


def test_review_settings_that_are_not_settings_refuse_to_start(tmp_path):
    from meeple.core.errors import OptionError

    for review in ({"samples": 1}, {"sample": 4}, {"playout": "half"}):
        with pytest.raises(OptionError):
            create_app(SQLiteStore(tmp_path / "meeple.db"), BotPool(executor=ThreadPoolExecutor(1)),
                       config=ServerConfig(review=review))


@pytest.mark.parametrize(("flags", "expected"), [
    ([], ReviewSettings.default()),
    (["--review", "quick"], ReviewSettings.quick()),
    (["--review", "quick", "--review-seconds-per-move", "2.5"], replace(ReviewSettings.quick(), seconds_per_move=2.5)),
])
def test_serve_hands_its_review_flags_to_the_server(monkeypatch, flags, expected):
    import uvicorn
    from typer.testing import CliRunner

    from meeple.cli.app import app
    from meeple.server.config import CONFIG_VARIABLE, REVIEW_VARIABLE
    from meeple.server.reviews import review_settings

    started: list[ServerConfig] = []
    monkeypatch.delenv(REVIEW_VARIABLE, raising=False)
    monkeypatch.setenv(CONFIG_VARIABLE, "")  # serve sets it; monkeypatch restores it
    monkeypatch.setattr(uvicorn, "run", lambda *a, **k: started.append(ServerConfig.from_environment()))
    done = CliRunner().invoke(app, ["serve", "--reviews-running", "3", "--review-requests", "7", *flags])
    assert done.exit_code == 0, done.output
    (config,) = started
    assert review_settings(config) == expected
    assert (config.reviews_running, config.review_requests_per_minute) == (3, 7)


def test_a_review_that_fails_says_so_and_a_new_request_starts_it_again(client, monkeypatch):
    from meeple.server import reviews

    finished_table(client, "triqueta", 2)

    def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("the workers broke")

    monkeypatch.setattr(reviews, "review_record", broken)
    assert client.post("/api/tables/done-table/review").json()["status"] in ("running", "failed")
    deadline = time.monotonic() + DEADLINE
    while (found := client.get("/api/tables/done-table/review").json())["status"] != "failed":
        assert time.monotonic() < deadline, found
        time.sleep(0.02)
    assert hub_of(client).store.load_review("done-table") is None
    monkeypatch.setattr(reviews, "review_record", review_record)
    check_review(reviewed(client, "done-table")["review"], client.get("/api/tables/done-table/record").json())


# -- several processes over one database ------------------------------------------------------------


def test_two_processes_over_one_database_work_a_review_out_once(tmp_path, monkeypatch):
    """The second process reports the first one's progress instead of reviewing the game again,
    and reads the review from the store once it is there."""
    from meeple.server import reviews

    go = threading.Event()
    calls: list[int] = []

    def held(*args: Any, **kwargs: Any) -> Any:  # the review waits until the test lets it go
        calls.append(1)
        assert go.wait(DEADLINE)
        return review_record(*args, **kwargs)

    monkeypatch.setattr(reviews, "review_record", held)
    with app_over(tmp_path / "meeple.db") as first, app_over(tmp_path / "meeple.db") as second:
        finished_table(first, "triqueta", 2)
        assert first.post("/api/tables/done-table/review").json()["status"] == "running"
        answer = second.post("/api/tables/done-table/review").json()
        assert answer["status"] == "running" and answer["total"] > 0, answer
        assert second.get("/api/tables/done-table/review").json()["status"] == "running"
        assert hub_of(second).reviews.jobs == {}  # nothing worked out in the second process
        go.set()
        review = reviewed(second, "done-table")["review"]
        assert review == reviewed(first, "done-table")["review"]
        assert calls == [1]
        deadline = time.monotonic() + DEADLINE
        while hub_of(second).store.review_claim("done-table") is not None:  # released just after it is stored
            assert time.monotonic() < deadline, "the claim was not released"
            time.sleep(0.02)


def test_a_claim_its_process_stopped_renewing_is_taken_over(client):
    from meeple.server.reviews import CLAIM_STALE_SECONDS

    finished_table(client, "triqueta", 2)
    store = hub_of(client).store
    store.claim_review("done-table", "a stopped process", 9, now=time.time() - CLAIM_STALE_SECONDS - 1,
                       stale_after=CLAIM_STALE_SECONDS)
    assert client.get("/api/tables/done-table/review").json()["status"] == "none"  # nobody works on it
    check_review(reviewed(client, "done-table")["review"], client.get("/api/tables/done-table/record").json())


def test_a_claim_another_process_renews_is_reported_not_worked_out_again(client):
    finished_table(client, "triqueta", 2)
    hub_of(client).store.claim_review("done-table", "a live process", 40, now=time.time(), stale_after=60.0)
    hub_of(client).store.note_review_progress("done-table", "a live process", 17, now=time.time())
    for answer in (client.post("/api/tables/done-table/review"), client.get("/api/tables/done-table/review")):
        assert answer.json() == {"status": "running", "done": 17, "total": 40}
    assert hub_of(client).reviews.jobs == {}
