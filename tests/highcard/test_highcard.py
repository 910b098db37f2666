"""The fifth game plays everywhere the four do, with no line of meeple naming it: found through its
entry point, in the terminal, on the server (API and WebSocket) and in the browser, as PettingZoo,
Gymnasium and OpenSpiel environments, and in the arena's worker processes."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

import meeple
from meeple.ai.arena import run_arena
from meeple.batch import simulator_class
from meeple.cli.app import app
from meeple.core.conformance import check_random_game
from meeple.core.errors import OptionError
from meeple.core.record import GameRecord
from tests.server.clients import api, new_table, state_at, watch
from tests.server.live import Server


def test_it_is_found_through_its_entry_point_and_keeps_the_protocol():
    assert "highcard" in meeple.game_names()
    plugin = meeple.game_plugin("highcard")
    assert plugin.info.num_actions == 2 and plugin.info.information == "imperfect"
    for players in (2, 3, 4):
        for deck in (8, 12):
            final = check_random_game(meeple.load("highcard"), players, seed=players * deck, options={"deck": deck})
            assert final.winners() == [max(range(players), key=lambda k: final.cards[k])]


def test_a_game_without_a_batched_simulator_says_so():
    with pytest.raises(OptionError, match="no batched simulator"):
        simulator_class(meeple.load("highcard"))
    missing = CliRunner().invoke(app, ["bench", "highcard", "--batch", "64"])
    assert isinstance(missing.exception, OptionError) and "no batched simulator" in str(missing.exception)


def test_it_plays_in_the_terminal(tmp_path: Path):
    done = subprocess.run(
        [sys.executable, "-m", "meeple", "play", "highcard", "--players", "3", "--bots", "greedy,ismcts:easy",
         "--seed", "4", "--save-dir", str(tmp_path)],
        input="2\n", capture_output=True, text=True, timeout=120,
        env={**os.environ, "COLUMNS": "120", "PYTHONIOENCODING": "utf-8"},
    )
    assert done.returncode == 0, done.stderr
    assert "Swap your card" in done.stdout
    (saved,) = tmp_path.glob("highcard-*.json")
    record = GameRecord.load(saved)
    assert record.actions[0] == {"type": "swap"} and record.replay().is_terminal
    assert json.loads(saved.read_text(encoding="utf-8"))["rules_version"] == "1"


def test_it_plays_on_the_server_over_the_api_and_a_websocket(server: Server):
    table, (credential,) = new_table(server, "highcard", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    with watch(server, table, credential) as ws:
        mine = api(server, "GET", f"/api/tables/{table}/state", credential).json()
        assert mine["view"]["cards"][1] is None and isinstance(mine["view"]["cards"][0], int)
        ws.send(json.dumps({"type": "act", "version": mine["version"], "action_id": mine["legal"][0]["id"]}))
        final = state_at(ws, 2)
    assert final["over"] and sorted(final["result"]["scores"]) == sorted(c for c in final["view"]["cards"])


def test_it_plays_in_the_browser(page: Any, server: Server):
    page.goto(server.url)
    page.locator(".game-choice:has(input[value=highcard]) .game-title").click()
    page.get_by_test_id("create-table").click()
    page.wait_for_url(re.compile(r"/tables/"))
    page.wait_for_selector("#board svg")
    page.locator("#moves [data-action-id]").first.click()
    page.wait_for_selector("[data-testid=game-over]")
    assert "Card" in page.get_by_test_id("scores").inner_text()


def test_it_is_a_pettingzoo_gymnasium_and_openspiel_environment():
    import gymnasium
    import pettingzoo.test
    import pyspiel
    from gymnasium.utils.env_checker import check_env

    import meeple.envs.gymnasium
    import meeple.envs.openspiel
    from meeple.envs.pettingzoo import env

    pettingzoo.test.api_test(env("highcard", num_players=3), num_cycles=20, verbose_progress=False)
    meeple.envs.gymnasium.register()  # the adapters register the games installed when they are imported
    check_env(gymnasium.make("meeple/Highcard-v0", opponents="random").unwrapped, skip_render_check=True)
    meeple.envs.openspiel.register()
    game = pyspiel.load_game("python_meeple_highcard", {"players": 3})
    assert game.max_game_length() == 4 and game.num_distinct_actions() == 2
    state = game.new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[0])
    assert sum(state.returns()) == 1.0


def test_it_plays_in_the_arena_across_worker_processes():
    result = run_arena("highcard", ["greedy", "random", "ismcts:easy"], players=3, games=6, seed=1, workers=2)
    assert len(result.outcomes) == 6 and result.workers == 2
