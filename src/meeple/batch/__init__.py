"""Batched simulators: N games of one table held as numpy arrays and stepped together,
game by game identical to the engines (each game's differential test in tests/batch/).

Layering: `core <- games <- batch <- ai <- (cli | server | envs)`; this package names no game. A
game's simulator is its plugin's optional part "batch", a class found with `simulator_class`; its
greedy bot on the arrays, where it has one, the part "batch_greedy" found with `greedy_policy`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from typing import Any, cast

from meeple.batch.protocol import BatchFactory, BatchSimulator, GreedyPolicy, StepResult
from meeple.core.errors import OptionError
from meeple.core.plugin import Part, wrong_part
from meeple.core.protocol import Game
from meeple.core.registry import plugin_of

__all__ = ["BatchSimulator", "GreedyPolicy", "StepResult", "greedy_policy", "make", "simulator_class"]


def _required_part(game: Game[Any, Any], kind: Part, missing: str, fits: Callable[[object], bool],
                   expected: str) -> object:
    """The plugin's part `kind`: OptionError "<title> has no <missing>" when it names none, the
    plugin's wrong-part error when it is not what `fits` accepts."""
    plugin = plugin_of(game)
    found = plugin.part(kind)
    if found is None:
        raise OptionError(f"{game.title} has no {missing}")
    if not fits(found):
        raise wrong_part(plugin, kind, expected)
    return found


@cache
def simulator_class(game: Game[Any, Any]) -> BatchFactory:
    """The game's simulator class; OptionError saying so when its plugin names none."""
    found = _required_part(game, "batch", "batched simulator", lambda part: isinstance(part, type),
                           "a BatchSimulator class")
    return cast(BatchFactory, found)


@cache
def greedy_policy(game: Game[Any, Any]) -> GreedyPolicy:
    """The game's greedy bot on its simulator's arrays; OptionError naming the game when it has none."""
    found = _required_part(game, "batch_greedy", "batched greedy policy", callable,
                           "a greedy_actions(sim, rng) function")
    return cast(GreedyPolicy, found)


def make(game: Game[Any, Any], num_envs: int, num_players: int, options: Mapping[str, Any] | None = None,
         seed: int = 0) -> BatchSimulator:
    """`num_envs` games of `game` at a table of `num_players` (options checked as `new_game`
    checks them), started from `seed`."""
    game.check_players(num_players)
    resolved = game.resolve_options(dict(options or {}))
    game.check_options(num_players, resolved)
    if num_envs < 1:
        raise OptionError(f"a batch holds at least one game, not {num_envs}")
    sim = simulator_class(game)(num_envs, num_players, resolved, seed)
    if not isinstance(sim, BatchSimulator):
        raise wrong_part(plugin_of(game), "batch", "a BatchSimulator class")
    return sim
