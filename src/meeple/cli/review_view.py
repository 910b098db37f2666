"""`meeple review` in the terminal: the moves with their labels and chances, a chart of each
seat's chance of winning across the game (one line of bars per seat), the turning points in
words, and each seat's summary. Moves are named by the game's own text as a spectator of the
position saw it (meeple.ai.review_words), so the review tells no secret."""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from meeple.ai.review import Review
from meeple.ai.review_words import action_words
from meeple.core.i18n import Catalog
from meeple.core.record import GameRecord
from meeple.core.registry import game_plugin
from meeple.core.state import State

#: How each label is shown: worst in red, best in green.
STYLES = {"forced": "dim", "best": "bold green", "good": "green", "inaccuracy": "yellow", "mistake": "dark_orange",
          "blunder": "bold red"}
#: The bars of the chart, from a chance of 0 to 1.
BARS = "▁▂▃▄▅▆▇█"
#: The widest chart: a longer game is drawn with several moves to a bar (their average).
CHART_WIDTH = 60


def review_catalog(game: str, lang: str, players: list[str]) -> Catalog:
    """The terminal's words, the review's and the game's, in `lang`, seats named with their players."""
    cat = Catalog(["meeple.cli", "meeple.ai", *game_plugin(game).catalogs], lang)
    cat.player_names = [cat.text("review.player", seat=seat + 1) + (f" ({name})" if name else "")
                        for seat, name in enumerate(players)]
    return cat


def review_screen(review: Review, record: GameRecord, cat: Catalog) -> RenderableType:
    """Everything `meeple review` shows, top to bottom."""
    positions: list[State[Any]] = [record.new_state()]
    record.replay(lambda step, action, state: positions.append(state.clone()))
    return Group(moves_table(review, positions, cat), chart(review, cat), turning_points(review, cat),
                 summary(review, cat))


def _percent(chance: float) -> str:
    return f"{round(chance * 100)}%"


def moves_table(review: Review, positions: list[State[Any]], cat: Catalog) -> Table:
    """One row per move: who, what, its label, the chance before and after, the preferred move."""
    table = Table(title=cat.text("review_table.title", game=positions[0].game.title, players=review.num_players,
                                 seed=review.seed))
    for key in ("move", "player", "played", "label", "before", "after", "best"):
        table.add_column(cat.text(f"review_table.{key}"), justify="right" if key in ("move", "before", "after")
                         else "left")
    for entry in review.moves:
        before = positions[entry["index"]]
        played = action_words(review.game, entry["action"], before, cat)
        best = (cat.text("review_table.same") if entry["best_action"] == entry["action"]
                else action_words(review.game, entry["best_action"], before, cat))
        label = Text(cat.text(f"review.label.{entry['label']}"), style=STYLES[entry["label"]])
        if entry["hint"]:
            label.append(" " + cat.text("review_table.hint"), style="cyan")
        table.add_row(str(entry["index"] + 1), cat.player(entry["seat"]), played, label,
                      _percent(entry["chance_before"]), _percent(entry["chance_after"]), best)
    return table


def chart(review: Review, cat: Catalog) -> Table:
    """Each seat's chance of winning after every move, as a line of bars (a bar per move, or
    the average of a few moves in a long game)."""
    table = Table(title=cat.text("review_table.chart"), show_header=False, box=None)
    table.add_column(no_wrap=True)
    table.add_column(no_wrap=True)
    moves = review.moves
    width = min(CHART_WIDTH, len(moves)) or 1
    buckets = [moves[len(moves) * k // width:len(moves) * (k + 1) // width] for k in range(width)]
    for seat in range(review.num_players):
        bars = "".join(BARS[min(len(BARS) - 1, int(sum(e["chances"][seat] for e in bucket) / len(bucket) * len(BARS)))]
                       for bucket in buckets if bucket)
        table.add_row(cat.player(seat), bars)
    return table


def turning_points(review: Review, cat: Catalog) -> RenderableType:
    """The game's turning points in words (the review wrote them in every language)."""
    lines = Text(cat.text("review_table.turning_points") + "\n", style="bold")
    for point in review.turning_points:
        lines.append(f"• {point['words'][cat.lang]}\n", style="red" if point["swing"] < 0 else "green")
    if not review.turning_points:
        lines.append(cat.text("review_table.no_turning_points") + "\n")
    return lines


def summary(review: Review, cat: Catalog) -> Table:
    """Per seat: decisions, inaccuracies, mistakes, blunders, average loss, luck and hints."""
    table = Table(title=cat.text("review_table.summary"))
    table.add_column(cat.text("review_table.player"))
    keys = ("decisions", "inaccuracies", "mistakes", "blunders", "average_loss", "luck", "hints")
    for key in keys:
        table.add_column(cat.text(f"review_table.{key}"), justify="right")
    for seat in review.seats:
        cells = [str(seat[key]) for key in keys]
        cells[4] = f"{seat['average_loss'] * 100:.1f}"
        cells[5] = f"{seat['luck'] * 100:+.0f}"
        table.add_row(cat.player(seat["seat"]), *cells)
    return table
