"""Celtica as a meeple plugin (the entry point `meeple.games: celtica`): its rules, its words and the
parts the other layers draw, play and encode it with, named here and loaded by whoever needs them."""

from meeple.core.plugin import GamePlugin
from meeple.games.celtica.game import CelticaGame
from meeple.games.celtica.view_types import CelticaView

PLUGIN = GamePlugin(
    rules=CelticaGame,
    describe="meeple.games.celtica.describe",
    catalogs=("meeple.games.celtica",),
    heuristics="meeple.games.celtica.heuristics",
    terminal="meeple.cli.render.celtica",
    board="meeple.boards.celtica",
    encoder="meeple.envs.encoders.celtica",
    batch="meeple.batch.celtica:CelticaBatch",
    calibration="meeple.games.celtica:review_calibration.toml",
    view_type=CelticaView,
)
