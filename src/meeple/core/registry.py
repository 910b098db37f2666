"""Which games are installed: the plugins announced through the entry point group `meeple.games`
(see meeple.core.plugin), found without importing any game, each loaded on first use.

A distribution adds a game by declaring, in its `pyproject.toml`,

    [project.entry-points."meeple.games"]
    mygame = "mypackage.plugin:PLUGIN"

A program may also add one for its own run with `register` (tests do; the arena hands such games
to its worker processes with `registrations`). A broken plugin (it does not import, it is not a
`GamePlugin`, its name differs from its entry point's, two plugins claim one name) is one
`PluginError` naming the entry point when that game is loaded; the other games are unaffected.
"""

from __future__ import annotations

import sys
import warnings
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

from meeple.core.errors import OptionError
from meeple.core.plugin import GamePlugin, PluginError, PluginWarning, resolve
from meeple.core.protocol import Game

#: The entry point group a game's distribution declares its plugin in.
GROUP = "meeple.games"

#: Games added at run time: name -> "module:attribute" of the plugin.
_registered: dict[str, str] = {}
#: Loaded plugins by name and the targets declared for it (a new declaration is loaded afresh).
_plugins: dict[tuple[str, tuple[str, ...]], GamePlugin] = {}
_games: dict[GamePlugin, Game[Any, Any]] = {}


@lru_cache(maxsize=4)
def _entry_points(path: tuple[str, ...]) -> dict[str, tuple[str, ...]]:
    """name -> the distinct targets declared for it, on this `sys.path` (a changed path, such as a
    test's added distribution, is scanned afresh)."""
    from importlib.metadata import entry_points  # only when a game is looked up: `import meeple` stays cheap

    found: dict[str, tuple[str, ...]] = {}
    for point in entry_points(group=GROUP):
        if point.value not in found.get(point.name, ()):
            found[point.name] = (*found.get(point.name, ()), point.value)
    return found


def _declared() -> dict[str, tuple[str, ...]]:
    declared = dict(_entry_points(tuple(sys.path)))
    for name, target in _registered.items():
        declared[name] = (target,)  # a registration stands in for an installed plugin of that name
    return declared


def game_names() -> list[str]:
    """Names of the installed games (nothing is imported to list them)."""
    return sorted(_declared())


def game_plugin(name: str) -> GamePlugin:
    """The plugin of the game called `name`; OptionError for an unknown name, PluginError for a
    broken plugin."""
    key = str(name).strip().lower()
    declared = _declared()
    targets = declared.get(key)
    if targets is None:
        raise OptionError(f"no game {name!r} (games: {', '.join(sorted(declared))})")
    found = _plugins.get((key, targets))
    if found is None:
        found = _plugins[key, targets] = _checked(key, targets)
    return found


def _checked(key: str, targets: tuple[str, ...]) -> GamePlugin:
    """The plugin `targets` names for the game `key`, or the PluginError that says what is wrong."""
    where = f"entry point {GROUP}: {key} = {targets[0]}"
    if len(targets) > 1:
        raise PluginError(f"game {key!r} is claimed by several plugins ({', '.join(targets)}): uninstall all but one")
    loaded = resolve(targets[0], where)
    if not isinstance(loaded, GamePlugin):
        raise PluginError(f"{where}: not a meeple.core.plugin.GamePlugin but {type(loaded).__name__}")
    if loaded.name != key:
        raise PluginError(f"{where}: the plugin's game is called {loaded.name!r}, not {key!r}")
    return loaded


def load(name: str) -> Game[Any, Any]:
    """The `Game` called `name` (e.g. "triqueta"), one instance per plugin and process."""
    found = game_plugin(name)
    game = _games.get(found)
    if game is None:
        game = _games[found] = found.rules()
    return game


def usable_games() -> list[Game[Any, Any]]:
    """Every installed game that loads, by name; each broken plugin is a `PluginWarning` naming
    it, so that one bad plugin does not keep the others from an adapter's list."""
    usable = []
    for name in game_names():
        try:
            usable.append(load(name))
        except PluginError as exc:
            warnings.warn(str(exc), PluginWarning, stacklevel=2)
    return usable


def plugin_of(game: Game[Any, Any]) -> GamePlugin:
    """The plugin of a loaded game."""
    return game_plugin(game.name)


def register(name: str, target: str) -> None:
    """Add (or replace) the game `name` for this run: `target` is "module:attribute" of its
    `GamePlugin`. Importable by name, so the arena's worker processes can register it too."""
    _registered[name.strip().lower()] = target


def unregister(name: str) -> None:
    """Undo `register` (the installed plugin of that name, if any, is seen again)."""
    _registered.pop(name.strip().lower(), None)


@contextmanager
def registered(name: str, target: str) -> Iterator[str]:
    """The game `name` registered while the block runs; yields its name."""
    register(name, target)
    try:
        yield name
    finally:
        unregister(name)


def registrations() -> dict[str, str]:
    """The games registered at run time (name -> target), to pass to another process."""
    return dict(_registered)


def register_all(targets: Mapping[str, str]) -> None:
    """`register` each of `registrations()` from another process."""
    for name, target in targets.items():
        register(name, target)

