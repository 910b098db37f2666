"""Triqueta as a meeple plugin (the entry point `meeple.games: triqueta`): its rules, its words and the
parts the other layers draw, play and encode it with, named here and loaded by whoever needs them."""

from meeple.core.plugin import GamePlugin
from meeple.games.triqueta.game import TriquetaGame
from meeple.games.triqueta.view_types import TriquetaView

PLUGIN = GamePlugin(
    rules=TriquetaGame,
    describe="meeple.games.triqueta.describe",
    catalogs=("meeple.games.triqueta",),
    heuristics="meeple.games.triqueta.heuristics",
    terminal="meeple.cli.render.triqueta",
    board="meeple.boards.triqueta",
    encoder="meeple.envs.encoders.triqueta",
    batch="meeple.batch.triqueta:TriquetaBatch",
    batch_greedy="meeple.batch.triqueta_greedy:greedy_actions",
    calibration="meeple.games.triqueta:review_calibration.toml",
    view_type=TriquetaView,
)
