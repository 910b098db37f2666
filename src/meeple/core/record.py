"""Game records: the file format of saved games, bug reports and test positions.

A record holds the game, options, player names, seed and the actions in JSON form. Replaying it
re-creates every state exactly, because all randomness flows from the seed.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import MeepleError, RecordError
from .protocol import Action, State
from .registry import load

FORMAT = "meeple-record"
VERSION = 1


@dataclass
class GameRecord:
    game: str
    num_players: int
    seed: int
    options: dict[str, Any] = field(default_factory=dict)
    players: list[str] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)

    def new_state(self) -> State[Any]:
        try:
            state: State[Any] = load(self.game).new_game(self.num_players, seed=self.seed, **self.options)
            return state
        except MeepleError as exc:
            raise RecordError(f"record cannot start its game: {exc}") from None

    def add(self, action: Action) -> None:
        self.actions.append(action.to_json())

    def replay(self, on_step: Callable[[int, Action, State], None] | None = None) -> State:
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
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "num_players": self.num_players,
            "seed": self.seed,
            "options": self.options,
            "players": self.players,
            "actions": self.actions,
        }

    @classmethod
    def from_json(cls, obj: Any) -> GameRecord:
        if not isinstance(obj, dict) or obj.get("format") != FORMAT:
            raise RecordError(f"not a meeple game record (missing \"format\": \"{FORMAT}\")")
        if obj.get("version") != VERSION:
            raise RecordError(f"unsupported record version {obj.get('version')!r} (expected {VERSION})")
        expected = {"game": str, "num_players": int, "seed": int, "options": dict, "players": list, "actions": list}
        for key, kind in expected.items():
            value = obj.get(key)
            if not isinstance(value, kind) or isinstance(value, bool):
                raise RecordError(f"record field {key!r} must be a {kind.__name__}, not {value!r}")
        if not all(isinstance(a, dict) for a in obj["actions"]):
            raise RecordError("record field 'actions' must hold JSON objects")
        return cls(
            game=obj["game"],
            num_players=obj["num_players"],
            seed=obj["seed"],
            options=obj["options"],
            players=[str(p) for p in obj["players"]],
            actions=obj["actions"],
        )

    def save(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(self.to_json(), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as exc:
            raise RecordError(f"cannot read {path}: {exc.strerror}") from None
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise RecordError(f"{path} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
        return cls.from_json(obj)
