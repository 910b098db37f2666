"""Which games exist, loaded lazily by name so `import meeple` stays cheap and games never
import each other."""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from typing import Any

from meeple.core.errors import OptionError
from meeple.core.protocol import Game

#: name -> "module:Class". Each game package adds itself here when it lands.
GAMES: dict[str, str] = {
    "triqueta": "meeple.games.triqueta.game:TriquetaGame",
    "triominos": "meeple.games.triominos.game:TriominosGame",
    "celtica": "meeple.games.celtica.game:CelticaGame",
    "castell": "meeple.games.castell.game:CastellGame",
}


def _installed(path: str) -> bool:
    try:
        return importlib.util.find_spec(path.split(":")[0]) is not None
    except ModuleNotFoundError:
        return False


def games() -> list[str]:
    """Names of the games meeple can load."""
    return sorted(name for name, path in GAMES.items() if _installed(path))


@cache
def load(name: str) -> Game:
    """The `Game` called `name` (e.g. "triqueta")."""
    key = str(name).strip().lower()
    if key not in GAMES or not _installed(GAMES[key]):
        raise OptionError(f"no game {name!r} (games: {', '.join(games())})")
    module_name, class_name = GAMES[key].split(":")
    cls: type[Game[Any, Any]] = getattr(importlib.import_module(module_name), class_name)
    return cls()


@cache
def heuristics(game: Game) -> Any | None:
    """The game's optional heuristics module (a `choose(state, rng)` greedy policy and an
    optional `evaluate(state)`), found by name so `meeple.ai` never imports a game."""
    if game.heuristics_module is None:
        return None
    return importlib.import_module(game.heuristics_module)
