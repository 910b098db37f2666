"""The strict check of a stored review (`Review.from_json`): every field of the review, of each
move, turning point and seat, by type and range, unknown and missing fields refused, so that a
review read back from a database or a file is one the code could have written."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from meeple.core.checks import shown
from meeple.core.errors import MeepleError, RecordError
from meeple.core.i18n import LANGUAGES
from meeple.core.record import MAX_SEED
from meeple.core.registry import game_names, load

if TYPE_CHECKING:
    from meeple.ai.review import Review, ReviewSettings

ReviewT = TypeVar("ReviewT", bound="Review")
Check = Callable[[Any, str], None]


def _whole(low: int, high: int) -> Check:
    def check(value: Any, what: str) -> None:
        if type(value) is not int or not low <= value <= high:
            raise RecordError(f"{what} must be a whole number from {low} to {high}, not {shown(value)}")
    return check


def _number(low: float, high: float, optional: bool = False) -> Check:
    def check(value: Any, what: str) -> None:
        if optional and value is None:
            return
        if type(value) not in (int, float) or not low <= value <= high:
            raise RecordError(f"{what} must be a number from {low} to {high}, not {shown(value)}")
    return check


def _one_of(*choices: Any) -> Check:
    def check(value: Any, what: str) -> None:
        if type(value) is not type(choices[0]) or value not in choices:
            raise RecordError(f"{what} must be one of {', '.join(map(str, choices))}, not {shown(value)}")
    return check


def _kind(kind: type) -> Check:
    def check(value: Any, what: str) -> None:
        if type(value) is not kind:
            raise RecordError(f"{what} must be {kind.__name__}, not {shown(value)}")
    return check


def _fields(obj: Any, checks: dict[str, Check], what: str) -> dict[str, Any]:
    if not isinstance(obj, dict):
        raise RecordError(f"{what} must be an object, not {shown(obj)}")
    unknown = sorted(set(obj) - set(checks))
    if unknown:
        raise RecordError(f"{what} has an unknown field {unknown[0]!r}")
    for key, check in checks.items():
        if key not in obj:
            raise RecordError(f"{what} lacks the field {key!r}")
        check(obj[key], f"{what} field {key!r}")
    return obj


def _move_checks(players: int) -> dict[str, Check]:
    from meeple.ai.review import LABELS

    chance = _number(0.0, 1.0)

    def chances(value: Any, what: str) -> None:
        if type(value) is not list or len(value) != players:
            raise RecordError(f"{what} must be a list of {players} chances, not {shown(value)}")
        for item in value:
            chance(item, what)

    return {
        "index": _whole(0, 10**9), "seat": _whole(0, players - 1), "action": _kind(dict),
        "label": _one_of(*LABELS), "chance_before": chance, "chance_after": chance, "best_action": _kind(dict),
        "best_chance": chance, "loss": chance, "noise": _number(0.0, 1e9, optional=True),
        "luck": _number(-1.0, 1.0), "luck_noise": _number(0.0, 1e9, optional=True), "chances": chances,
        "legal": _whole(1, 10**9), "samples": _whole(0, 10**9), "capped": _kind(bool), "hint": _kind(bool),
    }


def _seat_checks(players: int) -> dict[str, Check]:
    count = _whole(0, 10**9)
    return {
        "seat": _whole(0, players - 1), "player": _kind(str), "moves": count, "decisions": count,
        "inaccuracies": count, "mistakes": count, "blunders": count, "average_loss": _number(0.0, 1.0),
        "luck": _number(-1e9, 1e9), "hints": count,
    }


def _words(value: Any, what: str) -> None:
    if not isinstance(value, dict) or set(value) != set(LANGUAGES) or not all(type(v) is str for v in value.values()):
        raise RecordError(f"{what} must give the words in {', '.join(LANGUAGES)}")


def check_review(obj: Any, cls: type[ReviewT], settings_from_json: Callable[[Any], ReviewSettings]) -> ReviewT:
    """`obj` as a `cls` (a Review), every field checked; RecordError naming the first problem."""
    from meeple.ai.review import FORMAT, VERSION

    if not isinstance(obj, dict) or obj.get("format") != FORMAT:
        raise RecordError(f"not a meeple game review (missing \"format\": \"{FORMAT}\")")
    if obj.get("version") != VERSION:
        raise RecordError(f"unsupported review version {shown(obj.get('version'))} (expected {VERSION})")
    top: dict[str, Check] = {
        "format": _kind(str), "version": _kind(int), "game": _one_of(*game_names()), "num_players": _whole(1, 99),
        "players": _kind(list), "settings": _kind(dict), "seed": _whole(0, MAX_SEED), "moves": _kind(list),
        "turning_points": _kind(list), "seats": _kind(list),
    }
    _fields(obj, top, "the review")
    try:
        load(obj["game"]).check_players(obj["num_players"])
    except MeepleError as exc:
        raise RecordError(f"the review's players: {exc}") from None
    players = obj["num_players"]
    if not all(type(name) is str for name in obj["players"]):
        raise RecordError("the review field 'players' must hold names (text)")
    settings = settings_from_json(obj["settings"])
    move_checks = _move_checks(players)
    for position, move in enumerate(obj["moves"]):
        _fields(move, move_checks, f"review move {position}")
        if move["index"] != position:
            raise RecordError(f"review move {position} has the index {move['index']}")
    point_checks: dict[str, Check] = {"index": _whole(0, max(0, len(obj["moves"]) - 1)),
                                      "seat": _whole(0, players - 1), "kind": _one_of("decision", "luck"),
                                      "swing": _number(-1.0, 1.0), "words": _words}
    for position, point in enumerate(obj["turning_points"]):
        _fields(point, point_checks, f"review turning point {position + 1}")
        if not obj["moves"] or obj["moves"][point["index"]]["seat"] != point["seat"]:
            raise RecordError(f"review turning point {position + 1} names a move its seat did not make")
    if len(obj["seats"]) != players:
        raise RecordError(f"the review must sum up each of its {players} seats, not {len(obj['seats'])}")
    seat_checks = _seat_checks(players)
    for position, seat in enumerate(obj["seats"]):
        _fields(seat, seat_checks, f"review seat {position}")
        if seat["seat"] != position:
            raise RecordError(f"review seat {position} is numbered {seat['seat']}")
    return cls(game=obj["game"], num_players=players, players=list(obj["players"]), settings=settings,
               seed=obj["seed"], moves=obj["moves"], turning_points=obj["turning_points"], seats=obj["seats"])
