"""The game protocol every meeple game implements.

A `Game` describes a game (players, options, action space) and makes `State`s
(meeple.core.state). A `State` is a complete position, hidden information included; what a seat
may see comes out only through `view(seat)` and the events returned by `apply`. See
docs/architecture.md for the contract.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, Protocol, TypeVar, cast

from meeple.core.errors import IllegalAction, OptionError, RecordError
from meeple.core.rng import seed_from

if TYPE_CHECKING:
    from meeple.core.plugin import GameInfo
    from meeple.core.state import State


class Action(Protocol):
    """An immutable move value. Each game defines its own action types."""

    def to_json(self) -> dict[str, Any]: ...


ActionT = TypeVar("ActionT", bound=Action)
StateT = TypeVar("StateT", bound="State[Any]")


@dataclass(frozen=True, slots=True)
class SearchTuning:
    """How a search bot should play this game, chosen with the arena (docs/ai.md).

    `rollout` is "random" (to the end; needs nothing but the protocol) or "greedy" (the game's
    heuristics), cut off after `cutoff` plies and scored by the heuristics' `evaluate`;
    `exploration` overrides the search's constant; `iteration_scale` multiplies every level's
    iteration count within the same time caps (a game with many alternatives per move);
    `scale_cutoff` makes `cutoff` the two-player depth (per opponent): `cutoff * (players - 1)` plies;
    `greedy_margin` lets the heuristic's move stand unless the search beats it by that much
    (stated for the default level; a search with a larger budget may take a smaller share);
    `review_cutoff` stops the game review's greedy playouts after that many plies (scaled like
    `cutoff`) and scores the position with `evaluate`, where playing on to the end would cost
    much and change the estimate little (None: to the end; docs/ai.md, "Game review")."""

    rollout: str = "random"
    cutoff: int | None = None
    exploration: float | None = None
    iteration_scale: float = 1.0
    scale_cutoff: bool = False
    greedy_margin: float | None = None
    review_cutoff: int | None = None

    def settings(self) -> dict[str, Any]:
        """The search settings this tuning sets (those left at their default are omitted)."""
        out: dict[str, Any] = {"rollout": self.rollout}
        if self.cutoff is not None:
            out["cutoff"] = self.cutoff
        if self.exploration is not None:
            out["exploration"] = self.exploration
        if self.scale_cutoff:
            out["scale_cutoff"] = True
        if self.greedy_margin is not None:
            out["greedy_margin"] = self.greedy_margin
        return out


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """A named rule option. Its type is the type of `default`; `choices` limits strings.

    `names_path` marks a text option whose value names a "file" or a "directory" on the machine
    that builds the game ("" for the shipped data). Such a value is the local user's or the
    operator's, never a remote client's: a server offers the operator's sets by name instead.
    A game may pin the value in `state.options` by appending "#" and a fingerprint to it."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    names_path: Literal["file", "directory"] | None = None

    def coerce(self, value: Any) -> Any:
        """Accept a value of the right type (or its command-line string form)."""
        kind = type(self.default)
        if isinstance(value, str) and kind is not str:
            text = value.strip().lower()
            if kind is bool:
                if text in ("1", "true", "yes", "on"):
                    value = True
                elif text in ("0", "false", "no", "off"):
                    value = False
                else:
                    raise OptionError(f"option {self.name!r} takes true or false, not {value!r}")
            else:
                try:
                    value = kind(text)
                except ValueError:
                    raise OptionError(f"option {self.name!r} takes a {kind.__name__}, not {value!r}") from None
        if kind is bool and not isinstance(value, bool):
            raise OptionError(f"option {self.name!r} takes true or false, not {value!r}")
        if kind is int and (isinstance(value, bool) or not isinstance(value, int)):
            raise OptionError(f"option {self.name!r} takes a whole number, not {value!r}")
        if kind is str and not isinstance(value, str):
            raise OptionError(f"option {self.name!r} takes text, not {value!r}")
        if self.choices is not None and value not in self.choices:
            allowed = ", ".join(map(str, self.choices))
            raise OptionError(f"option {self.name!r} must be one of {allowed}, not {value!r}")
        return value


class Event:
    """Something that happened, for renderers and logs.

    `key` names a message in the game's catalog; `params` are public. `secret` holds params that
    only the seats in `visible_to` may learn (e.g. which token a player kept face down): a
    renderer asks `for_seat(seat)` and never sees secrets that are not its own.
    """

    __slots__ = ("key", "player", "params", "secret", "visible_to")

    def __init__(
        self,
        key: str,
        player: int | None = None,
        params: Mapping[str, Any] | None = None,
        secret: Mapping[str, Any] | None = None,
        visible_to: Iterable[int] = (),
    ) -> None:
        self.key = key
        self.player = player
        self.params = dict(params or {})
        self.secret = dict(secret or {})
        self.visible_to = frozenset(visible_to)

    def for_seat(self, seat: int | None) -> dict[str, Any]:
        """The JSON-safe form of this event as `seat` may see it (None: a spectator)."""
        params = dict(self.params)
        hidden = bool(self.secret)
        if self.secret and seat is not None and seat in self.visible_to:
            params.update(self.secret)
            hidden = False
        out: dict[str, Any] = {"key": self.key, "player": self.player, "params": params}
        if hidden:
            out["hidden"] = True  # there is more to it that this seat may not see
        elif self.secret:
            out["private"] = True  # its details are shown only to some seats, this one among them
        return out

    def __repr__(self) -> str:
        return f"Event({self.key!r}, player={self.player}, params={self.params}, secret={self.secret})"


class Game(ABC, Generic[StateT, ActionT]):
    """A game definition. Subclasses declare `info` (the metadata, meeple.core.plugin.GameInfo),
    `state_class`, optionally `search`, and the abstract methods. `name`, `title`, the player
    range and `option_specs` are read from `info` when the subclass is defined."""

    info: ClassVar[GameInfo]
    name: ClassVar[str]
    title: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[OptionSpec, ...]] = ()
    #: The game's State class: `new_game` calls its `initial`, `from_json` its `from_json`.
    state_class: ClassVar[type[State[Any]]]
    #: How search bots should play this game.
    search: ClassVar[SearchTuning] = SearchTuning()

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        info = cls.__dict__.get("info")
        if info is not None:
            cls.name, cls.title = info.name, info.title
            cls.min_players, cls.max_players = info.min_players, info.max_players
            cls.option_specs = info.options

    def benchmarks(self) -> Mapping[str, Callable[[float, int], dict[str, Any]]]:
        """Extra benchmarks of this game's own parts for `meeple bench GAME --part NAME`:
        name -> function(seconds, seed) returning a JSON-safe report with a `summary` line."""
        return {}

    # -- construction -------------------------------------------------------------------------
    def check_players(self, num_players: int) -> None:
        if isinstance(num_players, bool) or not isinstance(num_players, int):
            raise OptionError(f"the number of players must be a whole number, not {num_players!r}")
        if not self.min_players <= num_players <= self.max_players:
            raise OptionError(
                f"{self.title} takes {self.min_players} to {self.max_players} players, not {num_players}"
            )

    def resolve_options(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Validate `options` and fill in defaults; unknown names are an error."""
        specs = {spec.name: spec for spec in self.option_specs}
        unknown = sorted(set(options) - set(specs))
        if unknown:
            known = ", ".join(specs) or "none"
            raise OptionError(f"{self.title} has no option {unknown[0]!r} (options: {known})")
        resolved = {name: spec.default for name, spec in specs.items()}
        for name, value in options.items():
            resolved[name] = specs[name].coerce(value)
        return resolved

    def check_options(self, num_players: int, options: Mapping[str, Any]) -> None:
        """Raise OptionError for resolved options that do not fit the player count (a variant
        for two players asked for at five). Games with such options override this."""

    def game_length(self, num_players: int, options: Mapping[str, Any]) -> int:
        """A bound on the actions of any game at `num_players` seats with these resolved
        `options` (OpenSpiel's `max_game_length`). Games whose bound depends on an option
        override this; the default is `info.game_length(num_players)`."""
        return self.info.game_length(num_players)

    def new_game(self, num_players: int, seed: int | str | None = None, **options: Any) -> StateT:
        """A fresh game. The same seed and options always give the same game."""
        self.check_players(num_players)
        resolved = self.resolve_options(options)
        self.check_options(num_players, resolved)
        try:
            seed_value = seed_from(seed)
        except (TypeError, ValueError):
            raise OptionError(f"the seed must be a whole number, not {seed!r}") from None
        return cast(StateT, self.state_class.initial(self, num_players, seed_value, resolved))

    # -- actions ------------------------------------------------------------------------------
    @abstractmethod
    def action_from_json(self, obj: Any) -> ActionT:
        """Decode an action; raises RecordError naming what is malformed."""

    # -- serialization ------------------------------------------------------------------------
    def from_json(self, obj: Any) -> StateT:
        """Rebuild a state from `State.to_json()`; raises RecordError when malformed."""
        if not isinstance(obj, dict) or obj.get("game") != self.name:
            raise RecordError(f"not a serialized {self.title} state")
        try:
            return cast(StateT, self.state_class.from_json(self, obj))
        except RecordError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise RecordError(f"malformed {self.title} state: {exc!r}") from None


def check_action_id(action_id: object, count: int, title: str) -> int:
    """`action_id` if it is a whole number in [0, count), else IllegalAction naming the range."""
    if type(action_id) is not int or not 0 <= action_id < count:
        raise IllegalAction("ids", f"no {title} action id {action_id!r} (0 to {count - 1})")
    return action_id


def winners_by_key(keys: Sequence[Any]) -> list[int]:
    """Seats whose key is the maximum (ties share the win)."""
    best = max(keys)
    return [seat for seat, key in enumerate(keys) if key == best]
