"""The game-level parts of a review: its turning points, named in words in every language, and
each seat's summary. Moves are named by the game's own text (its plugin's `describe`) as a
spectator sees the position, so a review shown to anyone tells no secret of the game."""

from __future__ import annotations

from typing import Any

from meeple.core.i18n import LANGUAGES, Catalog
from meeple.core.record import GameRecord
from meeple.core.registry import game_plugin
from meeple.core.state import State

#: The game's turning points: the moves with the largest swings of a seat's win chance.
TURNING_POINTS = 3
#: Labels that say a decision cost something (the others cost nothing worth naming).
COSTLY = ("inaccuracy", "mistake", "blunder")
#: How many standard errors luck must reach to be a turning point rather than the estimates' noise.
LUCK_Z = 2.0


def catalog(game: str, lang: str) -> Catalog:
    """The review's messages and the game's own, in `lang`."""
    return Catalog(["meeple.ai", *game_plugin(game).catalogs], lang)


def swing(entry: dict[str, Any]) -> tuple[float, str]:
    """How far the move moved its mover's win chance, signed, and why: "decision" (the loss of a
    costly decision) or "luck" (what the draws and deals after it did); the larger of the two."""
    decision = -entry["loss"] if entry["label"] in COSTLY else 0.0
    luck = entry["luck"]
    noise = entry.get("luck_noise")
    if noise is not None and abs(luck) <= LUCK_Z * noise:
        luck = 0.0
    return (luck, "luck") if abs(luck) > abs(decision) else (decision, "decision")


def turning_points(record: GameRecord, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The TURNING_POINTS moves with the largest swings (ties: the earlier), in game order, each
    with its words in every language."""
    swings = [(abs(value), entry["index"], value, kind) for entry in entries for value, kind in [swing(entry)]]
    chosen = sorted((s for s in swings if s[0] > 0), key=lambda s: (-s[0], s[1]))[:TURNING_POINTS]
    wanted = {index for _, index, _, _ in chosen}
    positions: dict[int, State[Any]] = {}

    def keep(step: int, action: Any, state: State[Any]) -> None:
        if step + 1 in wanted:
            positions[step + 1] = state.clone()

    if 0 in wanted:
        positions[0] = record.new_state()
    record.replay(keep)
    points = []
    for _, index, value, kind in sorted(chosen, key=lambda s: s[1]):
        entry = entries[index]
        words = {lang: _words(record, positions[index], entry, value, kind, lang) for lang in LANGUAGES}
        points.append({"index": index, "seat": entry["seat"], "kind": kind, "swing": round(value, 4),
                       "words": words})
    return points


def _words(record: GameRecord, before: State[Any], entry: dict[str, Any], value: float, kind: str,
           lang: str) -> str:
    cat = catalog(record.game, lang)
    cat.player_names = [cat.text("review.player", seat=seat + 1) for seat in range(record.num_players)]
    move = action_words(record.game, entry["action"], before, cat)
    reason = cat.text("review.luck") if kind == "luck" else cat.text(f"review.label.{entry['label']}")
    return cat.text("review.turning_point", number=entry["index"] + 1, player=entry["seat"], move=move,
                    reason=reason, points=f"{round(value * 100):+d}")


def action_words(game: str, action_json: dict[str, Any], before: State[Any], cat: Catalog) -> str:
    """A move in the game's words, as a spectator of the position `before` it would say it
    (the mover's view could name what only the mover had seen)."""
    return game_plugin(game).text().action_label(action_json, cat, view=before.view(None))


def summarize(record: GameRecord, entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per seat: its decisions (moves with a choice), how many of each costly label, the average
    loss in win chance over its decisions, the luck it had in all, and the hints it asked for."""
    out = []
    for seat in range(record.num_players):
        mine = [e for e in entries if e["seat"] == seat]
        decided = [e for e in mine if e["label"] != "forced"]
        out.append({
            "seat": seat,
            "player": record.players[seat] if seat < len(record.players) else "",
            "moves": len(mine),
            "decisions": len(decided),
            "inaccuracies": sum(e["label"] == "inaccuracy" for e in mine),
            "mistakes": sum(e["label"] == "mistake" for e in mine),
            "blunders": sum(e["label"] == "blunder" for e in mine),
            "average_loss": round(sum(e["loss"] for e in decided) / len(decided), 4) if decided else 0.0,
            "luck": round(sum(e["luck"] for e in mine), 4),
            "hints": sum(bool(e["hint"]) for e in mine),
        })
    return out
