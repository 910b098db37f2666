"""The game state every meeple game extends: a complete position, hidden information included.

What a seat may see comes out only through `view(seat)` and the events `apply` returns. A game's
state class declares its own fields once, as annotations, after the protocol's five (`game`,
`num_players`, `options`, `current`, `over`); meeple.core.statefields builds the constructor, the
JSON form, the checks on load and `clone` from them.

This module is compiled where a compiler is present, and so are the games' state modules: their
classes are then native classes (typed C attributes, direct method calls), the reason the base
is a plain class (a dataclass or an `ABC` base would make every subclass interpreted). Classes
compiled elsewhere or written in tests may still subclass it (`allow_interpreted_subclasses`).
"""

from __future__ import annotations

from abc import ABCMeta, abstractmethod
from typing import TYPE_CHECKING, Any, Generic, Self

from mypy_extensions import mypyc_attr

from meeple.core.errors import IllegalAction, OptionError, RecordError
from meeple.core.protocol import ActionT, Game  # Game at run time: the `game` field's declared type
from meeple.core.shares import win_shares
from meeple.core.statefields import Context, Shared, clone_state, decode_state, encode_state, fill_state

if TYPE_CHECKING:
    from meeple.core.protocol import Event
    from meeple.core.rng import Rng
    from meeple.core.views import View


@mypyc_attr(allow_interpreted_subclasses=True)
class State(Generic[ActionT], metaclass=ABCMeta):
    """A complete game position. Mutable: `apply`/`step` change it in place; `clone` copies.

    These five fields come first, then the game's own, each declared once as an annotation with
    its type (see meeple.core.statefields). `current` is the seat to act and `over` the one
    game-over flag of every game."""

    game: Context[Game[Any, Any]]
    num_players: int
    options: Shared[dict[str, Any]]
    current: int
    over: bool
    __slots__ = tuple(__annotations__)  # the fields above: the pure build's instances have no dict

    def __init__(self, **fields: Any) -> None:
        """A state with these fields, every one of them given (a TypeError names a missing or
        unknown one), then `__post_init__`. With no fields, an empty state for the decoder and
        `clone` to fill in."""
        if fields:
            fill_state(self, fields)

    def __post_init__(self) -> None:
        """Compute the fields marked `Derived` from the others (after `__init__` and after
        decoding alike)."""

    # -- construction ---------------------------------------------------------------------------
    @classmethod
    @abstractmethod
    def initial(cls, game: Game[Any, Any], num_players: int, seed: int, options: dict[str, Any]) -> Self:
        """The position at the start of a game (set-up done) from validated arguments."""

    # -- whose turn, and what they may do -----------------------------------------------------
    @property
    def current_player(self) -> int | None:
        """The seat to act, or None when the game is over."""
        return None if self.over else self.current

    @property
    def is_terminal(self) -> bool:
        """The game is over (the one game-over flag, `over`)."""
        return self.over

    @abstractmethod
    def legal_actions(self) -> list[ActionT]:
        """Every legal action of the current player, in a fixed order."""

    @abstractmethod
    def action_id(self, action: ActionT) -> int:
        """The integer id of `action` in [0, num_actions)."""

    @abstractmethod
    def action_from_id(self, action_id: int) -> ActionT:
        """The action with this id in this position (raises IllegalAction if out of range)."""

    def legal_action_ids(self) -> list[int]:
        return [self.action_id(a) for a in self.legal_actions()]

    # -- changing the state -------------------------------------------------------------------
    def apply(self, action: ActionT) -> list[Event]:
        """Perform `action` completely and say what happened, or raise IllegalAction and change
        nothing."""
        if self.current_player is None:
            raise IllegalAction("end", "the game is over")
        self._check(action)
        log: list[Event] = []
        self._do(action, log)
        return log

    def apply_id(self, action_id: int) -> list[Event]:
        return self.apply(self.action_from_id(action_id))

    def step(self, action: ActionT) -> None:
        """Perform an action already known to be legal, without events: the fast path for
        search and simulation. Never call it with an unchecked action."""
        self._do(action, None)

    def _check(self, action: ActionT) -> None:
        """Raise IllegalAction (naming the rule) unless `action` is legal now. Games override
        this to give precise reasons; the default compares with `legal_actions()`."""
        if action not in self.legal_actions():
            raise IllegalAction("rules", f"{action!r} is not a legal move now")

    @abstractmethod
    def _do(self, action: ActionT, log: list[Event] | None) -> None:
        """Perform a legal action; append events to `log` unless it is None."""

    # -- results ------------------------------------------------------------------------------
    @abstractmethod
    def scores(self) -> list[int]:
        """Each seat's score so far (final once terminal)."""

    @abstractmethod
    def score_breakdown(self) -> list[dict[str, Any]]:
        """Per seat, the parts that make up its score (keys are catalog names)."""

    @abstractmethod
    def winners(self) -> list[int]:
        """Seats that win (several on a shared win); [] while the game is running."""

    def rewards(self) -> list[float]:
        """Search reward per seat: winners share 1, the rest get 0."""
        return win_shares(self.winners(), self.num_players)

    # -- information --------------------------------------------------------------------------
    @abstractmethod
    def view(self, player: int | None) -> View:
        """Everything `player` may see and nothing else, JSON-safe; None is a spectator. Each
        game narrows the type to its own view (meeple.core.views)."""

    @abstractmethod
    def determinize(self, observer: int, rng: Rng) -> Self:
        """A full state consistent with what `observer` has seen, every unseen thing re-sampled."""

    def clone(self) -> Self:
        """An independent copy: each field copied as deep as its type is mutable (code generated
        from the declarations, as fast as a hand-written copy)."""
        return clone_state(self)

    # -- serialization --------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The complete state, hidden information included (for saving, not for players)."""
        return {"game": self.game.name, **encode_state(self)}

    @classmethod
    def from_json(cls, game: Game[Any, Any], obj: dict[str, Any]) -> Self:
        """Decode `to_json()`'s form: every field type-checked, then `validate()`."""
        players = obj.get("num_players")
        options = obj.get("options")
        try:
            game.check_players(players)  # type: ignore[arg-type]
            if not isinstance(options, dict):
                raise OptionError(f"options must be an object, not {options!r}")
            options = game.resolve_options(options)
            game.check_options(players, options)  # type: ignore[arg-type]
        except OptionError as exc:
            raise RecordError(f"{game.title} state: {exc}") from None
        given = {"game": game, "num_players": players, "options": options}
        state = decode_state(cls, obj, given, f"{game.title} state")
        state.validate()
        return state

    def validate(self) -> None:
        """Raise RecordError naming the field unless this (just decoded) state is consistent:
        ranges, components conserved, whose turn. Called by `from_json` after the type checks."""


def check_seat(state: State[Any], seat: object) -> int | None:
    """`seat` if it is a seat of this game or None (a spectator), else OptionError: the argument
    of `view`. It arrives as any object, so compiled and pure code refuse the same values."""
    return None if seat is None else check_observer(state, seat)


def check_observer(state: State[Any], seat: object) -> int:
    """`seat` if it is a seat of this game, else OptionError: the argument of `determinize`."""
    if type(seat) is not int or not 0 <= seat < state.num_players:
        raise OptionError(f"no seat {seat!r} in a {state.num_players}-player game")
    return seat


