"""What a game declares to plug into meeple: its metadata as data (`GameInfo`) and one
`GamePlugin` object naming its rules, its text and its optional parts.

A game's package holds its plugin (`meeple.games.triqueta.plugin:PLUGIN`) and announces it through
the entry point group `meeple.games` (meeple.core.registry finds it). The rules and the text are
in the game's own layer; the optional parts (bot heuristics, terminal renderer, web board,
observation encoder) may live in a consumer layer, so the plugin only *names* them
("package.module" or "package.module:attribute"): the consumer that needs a part resolves it with
`GamePlugin.part` and checks it against its own Protocol (`meeple.ai.heuristics.Heuristics`,
`meeple.cli.render.TerminalRenderer`, `meeple.boards.WebBoard`, `meeple.envs.spaces.Encoder`,
`meeple.batch.BatchSimulator`). Nothing is imported before it is asked for, so playing a game
never imports numpy, Rich or FastAPI.
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any, Literal, Protocol, TypeVar, runtime_checkable

from meeple.core.errors import MeepleError, OptionError
from meeple.core.views import View

if TYPE_CHECKING:
    from meeple.core.i18n import Catalog
    from meeple.core.protocol import Game, OptionSpec

#: How chance enters a game: "sampled" (shuffles and draws come from the seed inside the state;
#: the OpenSpiel adapter shows the seed as one opening chance node) or "deterministic" (none).
#: The protocol has no chance nodes.
Chance = Literal["sampled", "deterministic"]
#: Whether a seat may see everything ("perfect") or not ("imperfect").
Information = Literal["perfect", "imperfect"]
#: The optional parts a plugin may name.
Part = Literal["heuristics", "terminal", "board", "encoder", "batch", "batch_greedy"]
#: A part's shape, the Protocol its consumer checks it against.
PartT = TypeVar("PartT")


class PluginError(MeepleError):
    """A game plugin that cannot be used: not importable, not a plugin, a part missing or of the
    wrong shape, or a name claimed twice. The message names the plugin and what is wrong."""


class PluginWarning(UserWarning):
    """A broken game plugin left out of a list of games (its PluginError in words)."""


@dataclass(frozen=True, slots=True)
class GameInfo:
    """A game's metadata, declared once as data (OpenSpiel's `GameType` and `GameInfo` in one).

    `num_actions` is the size of the integer action space for every player count and option;
    `max_game_length` bounds the actions of any game with the default options at the largest
    table; a game whose bound grows with the seats declares by how much in `length_per_seat`
    (`game_length(n)` is the bound at `n` players), and one whose bound depends on an option
    overrides `Game.game_length(n, options)` (each game's tests play random and greedy games
    across player counts and options against that); `rules_version` is written into every game record, and a
    record of another version is refused (meeple.core.record)."""

    name: str
    title: str
    min_players: int
    max_players: int
    num_actions: int
    max_game_length: int
    chance: Chance
    information: Information
    rules_version: str
    options: tuple[OptionSpec, ...] = ()
    length_per_seat: int = 0

    def game_length(self, num_players: int) -> int:
        """The bound on the actions of a game at `num_players` seats."""
        return self.max_game_length - (self.max_players - num_players) * self.length_per_seat


@runtime_checkable
class Describer(Protocol):
    """A game's words for its moves (its `describe` module): shared by every front end."""

    def action_label(self, action_json: dict[str, Any], cat: Catalog, view: Mapping[str, Any] | None = None) -> str:
        """A move as a player would say it; `view` (the seat's) may add context."""


@dataclass(frozen=True)
class GamePlugin:
    """One game as meeple sees it.

    `rules` is the `Game` class (its `info` is the metadata); `describe` names the module with the
    game's `action_label` (a `Describer`); `catalogs` are the packages whose `locale/<lang>.toml`
    hold the game's messages. The optional parts are named, not imported: `heuristics` (the bots'
    greedy policy and evaluation), `terminal` (the terminal renderer), `board` (the web board),
    `encoder` (the research environments' observation encoder), `batch` (the batched simulator
    class, `meeple.batch.BatchSimulator`), `batch_greedy` (the greedy bot on that simulator's
    arrays, `meeple.batch.GreedyPolicy`). `calibration` is data, not code: a TOML file in a
    package, "package:file", holding the fitted correction of the game review's win chances
    (read by `meeple.ai.review_calibration`). `view_type` is the type of what `view(seat)` returns."""

    rules: type[Game[Any, Any]]
    describe: str
    catalogs: tuple[str, ...]
    heuristics: str | None = None
    terminal: str | None = None
    board: str | None = None
    encoder: str | None = None
    batch: str | None = None
    batch_greedy: str | None = None
    calibration: str | None = None
    view_type: type[View] = View

    @property
    def info(self) -> GameInfo:
        return self.rules.info

    @property
    def name(self) -> str:
        return self.rules.info.name

    def part(self, kind: Part) -> object | None:
        """The part `kind` (None when the game has none), imported now; the consumer checks it
        against its Protocol. PluginError when the named module or attribute cannot be loaded."""
        target: str | None = getattr(self, kind)
        if target is None:
            return None
        return resolve(target, f"game plugin {self.name!r}: its {kind} {target!r}")

    def checked_part(self, kind: Part, shape: type[PartT], provides: str) -> PartT | None:
        """The part `kind` if it has the `shape` (a runtime-checkable Protocol) its consumer
        needs, None when the game has none; PluginError naming what it should `provide` else."""
        found = self.part(kind)
        if found is None:
            return None
        if not isinstance(found, shape):
            raise wrong_part(self, kind, provides)
        return found

    def required_part(self, kind: Part, shape: type[PartT], provides: str, missing: str) -> PartT:
        """`checked_part` for a consumer that cannot do without it: OptionError saying the game
        has no `missing` (e.g. "web board") when its plugin names none."""
        found = self.checked_part(kind, shape, provides)
        if found is None:
            raise OptionError(f"{self.info.title} has no {missing}")
        return found

    def text(self) -> Describer:
        """The game's `describe` module, checked."""
        return _text(self)


@cache
def _text(plugin: GamePlugin) -> Describer:
    found = resolve(plugin.describe, f"game plugin {plugin.name!r}: its describe {plugin.describe!r}")
    if not isinstance(found, Describer):
        raise wrong_part(plugin, "describe", "an action_label(action_json, cat, view=None)")
    return found


def wrong_part(plugin: GamePlugin, kind: str, expected: str) -> PluginError:
    """The error for a part that does not have the shape its consumer needs."""
    return PluginError(f"game plugin {plugin.name!r}: its {kind} {getattr(plugin, kind)!r} does not provide {expected}")


def resolve(target: str, what: str) -> object:
    """The object "module" or "module:attribute" names; PluginError starting with `what` (the
    plugin or part, and the target) when it cannot be imported."""
    module_name, _, attribute = target.partition(":")
    try:
        found: object = importlib.import_module(module_name)
        for name in filter(None, attribute.split(".")):
            found = getattr(found, name)
    except Exception as exc:  # any error importing someone else's module is theirs to fix: say which
        raise PluginError(f"{what} cannot be loaded ({type(exc).__name__}: {exc})") from None
    return found
