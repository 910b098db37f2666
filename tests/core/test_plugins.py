"""Games as plugins: every installed game's declared metadata holds, its parts have the shapes their
consumers need, a broken plugin is one clear error that hides no other game, and records carry
the rules version."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple.ai.heuristics import Heuristics, heuristics_of
from meeple.boards import WebBoard, web_board
from meeple.cli.render import TerminalRenderer, renderer
from meeple.core import registry
from meeple.core.errors import OptionError, RecordError
from meeple.core.i18n import Catalog
from meeple.core.plugin import GameInfo, Part, PluginError, PluginWarning
from meeple.core.protocol import Game
from meeple.core.record import GameRecord
from meeple.core.rng import Rng
from meeple.envs.spaces import Encoder, encoder
from tests.ai import ai_toygame

ROOT = Path(__file__).resolve().parents[2]
NAMES = registry.game_names()


def option_variants(game: Game[Any, Any]) -> Iterator[dict[str, Any]]:
    """The defaults, then each option's other choices one at a time (both values of a switch)."""
    yield {}
    for spec in game.option_specs:
        others = spec.choices if spec.choices is not None else (True, False) if isinstance(spec.default, bool) else ()
        for value in others:
            if value != spec.default:
                yield {spec.name: value}


def random_length(game: Game[Any, Any], players: int, seed: int, options: dict[str, Any], cap: int) -> int:
    """The number of actions of one random game, stopped once past `cap`."""
    state, rng, moves = game.new_game(players, seed=seed, **options), Rng(seed), 0
    while not state.is_terminal and moves <= cap:
        legal = state.legal_actions()
        state.step(legal[rng.below(len(legal))])
        moves += 1
    return moves


@pytest.mark.parametrize("name", NAMES)
def test_random_games_never_exceed_the_declared_length(name):
    game = meeple.load(name)
    for players in range(game.min_players, game.max_players + 1):
        for options in option_variants(game):
            try:
                game.check_options(players, resolved := game.resolve_options(options))
            except OptionError:
                continue  # a variant not for this many players
            bound = game.game_length(players, resolved)
            for seed in range(3):
                assert random_length(game, players, seed, options, bound) <= bound, (players, options, seed)


@pytest.mark.parametrize("name", NAMES)
def test_each_plugin_declares_its_game_and_parts_of_the_right_shape(name):
    plugin = meeple.game_plugin(name)
    info = plugin.info
    assert isinstance(info, GameInfo) and info.name == name and meeple.load(name).info is info
    assert info.min_players <= info.max_players and info.num_actions > 0 and info.max_game_length > 0
    assert info.chance in ("sampled", "deterministic") and info.information in ("perfect", "imperfect")
    assert info.rules_version
    parts: dict[Part, type] = {"heuristics": Heuristics, "terminal": TerminalRenderer, "board": WebBoard,
                               "encoder": Encoder}
    for kind, protocol in parts.items():
        assert isinstance(plugin.part(kind), protocol), kind
    first = meeple.load(name).new_game(info.min_players, seed=1).legal_actions()[0]
    assert plugin.text().action_label(first.to_json(), Catalog(list(plugin.catalogs)))


def test_playing_a_game_imports_neither_numpy_rich_nor_fastapi():
    code = ("import sys, meeple\n"
            "for name in meeple.game_names():\n"
            "    state = meeple.load(name).new_game(2, seed=1)\n"
            "    state.apply(state.legal_actions()[0])\n"
            "print(sorted(m for m in ('numpy', 'rich', 'fastapi', 'meeple.cli', 'meeple.server') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


@pytest.fixture
def broken_plugins(tmp_path: Path) -> Iterator[Path]:
    """A distribution on the path whose entry points announce four broken games."""
    info = tmp_path / "meeple_broken-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: meeple-broken\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[meeple.games]\n"
        "missing = tests.core.no_such_module:PLUGIN\n"
        "wrongtype = meeple.core.plugin:GameInfo\n"
        "misnamed = meeple.games.triqueta.plugin:PLUGIN\n"
        "triqueta = tests.core.test_plugins:ANOTHER_TRIQUETA\n", encoding="utf-8")
    sys.path.insert(0, str(tmp_path))
    yield tmp_path
    sys.path.remove(str(tmp_path))


ANOTHER_TRIQUETA = meeple.game_plugin("triqueta")


def test_a_broken_plugin_is_one_error_naming_its_entry_point_and_hides_no_other(broken_plugins):
    assert {"missing", "wrongtype", "misnamed"} <= set(meeple.game_names())
    with pytest.raises(PluginError, match=r"entry point meeple.games: missing = tests.core.no_such_module:PLUGIN "
                                          r"cannot be loaded \(ModuleNotFoundError"):
        meeple.load("missing")
    with pytest.raises(PluginError, match=r"wrongtype .* not a meeple.core.plugin.GamePlugin but type"):
        meeple.load("wrongtype")
    with pytest.raises(PluginError, match=r"misnamed .* the plugin's game is called 'triqueta', not 'misnamed'"):
        meeple.load("misnamed")
    with pytest.raises(PluginError, match="game 'triqueta' is claimed by several plugins"):
        meeple.load("triqueta")
    assert meeple.load("castell").name == "castell"
    with pytest.warns(PluginWarning):
        usable = registry.usable_games()
    assert "celtica" in [game.name for game in usable]


def test_meeple_games_lists_the_good_games_and_names_each_broken_one(broken_plugins):
    done = subprocess.run([sys.executable, "-m", "meeple", "games"], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": os.pathsep.join([str(broken_plugins), str(ROOT)])})
    assert done.returncode == 1
    assert "Castell" in done.stdout and "Celtica" in done.stdout
    errors = done.stderr.splitlines()
    assert len(errors) == 4 and all(line.startswith("meeple: error: ") for line in errors), done.stderr
    assert "Traceback" not in done.stderr


def test_a_registered_game_stands_in_for_its_name_until_unregistered():
    assert "toytricks" not in meeple.game_names()
    with registry.registered("toytricks", "tests.ai.ai_toygame:PLUGIN"):
        assert meeple.load("toytricks").title == "Toy Tricks" and registry.registrations() == {
            "toytricks": "tests.ai.ai_toygame:PLUGIN"}
    with pytest.raises(OptionError, match="no game 'toytricks'"):
        meeple.load("toytricks")


#: The toy game with parts that are not what their consumers need.
MISSHAPEN = replace(ai_toygame.PLUGIN, heuristics="meeple.core.errors", terminal="tests.ai.ai_toygame",
                    board="tests.ai.ai_toygame", encoder="tests.core.no_such_module")


def test_a_part_of_the_wrong_shape_is_one_error_naming_the_plugin_and_part():
    with registry.registered("toytricks", "tests.core.test_plugins:MISSHAPEN"):
        game = meeple.load("toytricks")
        with pytest.raises(PluginError, match=r"'toytricks': its heuristics 'meeple.core.errors' does not provide "
                                              r"choose\(state, rng\)"):
            heuristics_of(game)
        with pytest.raises(PluginError, match=r"its terminal 'tests\.ai\.ai_toygame' does not provide board"):
            renderer("toytricks")
        with pytest.raises(PluginError, match=r"its board 'tests\.ai\.ai_toygame' does not provide board"):
            web_board("toytricks")
        with pytest.raises(PluginError, match=r"its encoder 'tests.core.no_such_module' cannot be loaded "
                                              r"\(ModuleNotFoundError"):
            encoder(game)


def test_records_carry_the_rules_version_and_refuse_another():
    record = GameRecord(game="triqueta", num_players=2, seed=3)
    saved = record.to_json()
    assert saved["rules_version"] == meeple.game_plugin("triqueta").info.rules_version
    assert GameRecord.from_json(json.loads(json.dumps(saved))) == record
    older = {key: value for key, value in saved.items() if key != "rules_version"}
    assert GameRecord.from_json(older) == record  # written before records said: the current rules
    with pytest.raises(RecordError, match=r"record of triqueta rules version .0\.9., but this meeple plays version"):
        GameRecord.from_json({**saved, "rules_version": "0.9"})
    with pytest.raises(RecordError, match="record field 'rules_version' must be text"):
        GameRecord.from_json({**saved, "rules_version": 2})


def test_no_layer_finds_a_game_module_by_its_name():
    """Consumers ask the plugin: no f-string module paths, no `hasattr` probing of a game's parts."""
    offenders = []
    for path in (ROOT / "src" / "meeple").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for pattern in ('import_module(f"', 'f"meeple.games.', 'f"meeple.cli.render.', 'f"meeple.envs.encoders.',
                        "hasattr(module"):
            if pattern in text:
                offenders.append(f"{path.relative_to(ROOT)}: {pattern}")
    assert offenders == []
