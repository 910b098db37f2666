"""Game records: the file format of saved games, bug reports and test positions.

A record holds the game, options, player names, seed and the actions in JSON form. Replaying it
re-creates every state exactly, because all randomness flows from the seed.

A record file also says which version of the game's rules it was played under (the plugin's
`GameInfo.rules_version`, field "rules_version"): a record of another version is refused, since its
actions may mean something else now. A record without that field (written before records carried
it) is taken to be of the current rules.

A record may say where a player asked for a hint while learning (field "hints": the indices of
the actions whose mover had asked for one before playing, sorted, each once), so that a review
marks those moves; a record without hints leaves the field out.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from meeple.core.checks import whole_in_range
from meeple.core.errors import MeepleError, RecordError
from meeple.core.jsonio import read_json_file
from meeple.core.protocol import Action
from meeple.core.registry import game_names, game_plugin, load
from meeple.core.state import State

FORMAT = "meeple-record"
VERSION = 1
#: Seeds are 64-bit (core.rng.seed_from masks a user's seed to this range).
MAX_SEED = (1 << 64) - 1
#: The fields of a record file besides "format" and "version", with their JSON types.
FIELDS: dict[str, type] = {
    "game": str, "num_players": int, "seed": int, "options": dict, "players": list, "actions": list,
}
#: Optional fields of a record file, with their JSON types.
OPTIONAL_FIELDS: dict[str, type] = {"rules_version": str, "hints": list}
_KIND_NAMES = {str: "text", int: "a whole number", dict: "an object", list: "a list"}


def _short(value: Any) -> str:
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


@dataclass
class GameRecord:
    game: str
    num_players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    #: Indices of the actions whose mover asked for a hint before playing them (sorted, unique).
    hints: list[int] = field(default_factory=list)

    def new_state(self) -> State[Any]:
        try:
            state: State[Any] = load(self.game).new_game(self.num_players, seed=self.seed, **self.options)
            return state
        except MeepleError as exc:
            raise RecordError(f"record cannot start its game: {exc}") from None

    def add(self, action: Action) -> None:
        self.actions.append(action.to_json())

    def replay(self, on_step: Callable[[int, Action, State[Any]], None] | None = None) -> State[Any]:
        """The final state; raises RecordError naming the first bad action."""
        state = self.new_state()
        game = state.game
        for index, raw in enumerate(self.actions):
            try:
                action = game.action_from_json(raw)
                state.apply(action)
            except MeepleError as exc:
                raise RecordError(f"action {index + 1} {json.dumps(raw)}: {exc}") from None
            if on_step is not None:
                on_step(index, action, state)
        return state

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "rules_version": game_plugin(self.game).info.rules_version,
            "num_players": self.num_players,
            "seed": self.seed,
            "options": self.options,
            "players": self.players,
            "actions": self.actions,
        }
        if self.hints:
            out["hints"] = list(self.hints)
        return out

    @classmethod
    def from_json(cls, obj: Any) -> GameRecord:
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise RecordError(f"not a meeple game record (missing \"format\": \"{FORMAT}\")")
        if obj.get("version") != VERSION:
            raise RecordError(f"unsupported record version {obj.get('version')!r} (expected {VERSION})")
        unknown = sorted(set(obj) - {"format", "version", *FIELDS, *OPTIONAL_FIELDS})
        if unknown:
            raise RecordError(f"record has an unknown field {unknown[0]!r}")
        for key, kind in FIELDS.items():
            value = obj.get(key)
            if type(value) is not kind:
                raise RecordError(f"record field {key!r} must be {_KIND_NAMES[kind]}, not {_short(value)}")
        for key, kind in OPTIONAL_FIELDS.items():
            if key in obj and type(obj[key]) is not kind:
                raise RecordError(f"record field {key!r} must be {_KIND_NAMES[kind]}, not {_short(obj[key])}")
        if obj["game"] not in game_names():
            raise RecordError(f"record of an unknown game {_short(obj['game'])} (games: {', '.join(game_names())})")
        _check_rules_version(obj["game"], obj.get("rules_version"))
        whole_in_range(obj["num_players"], 1, 99, "record field 'num_players'")
        whole_in_range(obj["seed"], 0, MAX_SEED, "record field 'seed'")
        if not all(type(p) is str for p in obj["players"]):
            raise RecordError("record field 'players' must hold names (text)")
        if not all(type(a) is dict for a in obj["actions"]):
            raise RecordError("record field 'actions' must hold JSON objects")
        hints = check_hints(obj.get("hints", []), len(obj["actions"]))
        return cls(
            game=obj["game"],
            num_players=obj["num_players"],
            seed=obj["seed"],
            options=obj["options"],
            players=list(obj["players"]),
            actions=obj["actions"],
            hints=hints,
        )

    def dumps(self) -> str:
        """The record as the text of a record file."""
        return json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n"

    def save(self, path: Path) -> None:
        """Write the record to `path` whole or not at all (through a temporary file beside it),
        so an interrupted save never leaves half a record. Raises OSError."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
        try:
            temporary.write_text(self.dumps(), encoding="utf-8")
            os.replace(temporary, path)
        finally:
            temporary.unlink(missing_ok=True)

    @classmethod
    def load(cls, path: Path | str) -> GameRecord:
        """Read a record file; any problem with it is one RecordError naming the file."""
        return cls.from_json(read_json_file(path))


def _check_rules_version(game: str, version: str | None) -> None:
    """RecordError for a record of rules other than the installed game's (None: an older record
    that does not say, read as the current rules)."""
    try:
        current = game_plugin(game).info.rules_version
    except MeepleError as exc:
        raise RecordError(f"record of game {game!r}, which cannot be loaded: {exc}") from None
    if version is not None and version != current:
        raise RecordError(f"record of {game} rules version {_short(version)}, but this meeple plays "
                          f"version {current!r}: replay it with the meeple it was saved with")


def check_hints(hints: list[Any], actions: int) -> list[int]:
    """The record field "hints" checked: whole numbers naming actions of the record
    (0 to `actions` - 1), in increasing order, each once. RecordError naming the first bad one."""
    checked: list[int] = []
    for position, value in enumerate(hints):
        what = f"record field 'hints' item {position + 1}"
        if type(value) is not int:
            raise RecordError(f"{what} must be a whole number (an action's index), not {_short(value)}")
        if not actions:
            raise RecordError(f"{what} is {value}, but the record has no actions")
        if not 0 <= value < actions:
            raise RecordError(f"{what} is {value}, but the record's actions are numbered 0 to {actions - 1}")
        if checked and value <= checked[-1]:
            raise RecordError(f"{what} is {value}: the hints must be in increasing order, each action once")
        checked.append(value)
    return checked
