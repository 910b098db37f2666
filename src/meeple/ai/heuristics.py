"""What the bots need from a game's heuristics (the plugin's optional part "heuristics"), and how
they get it: through the game's plugin, never by importing a game.

`Heuristics` is a greedy one-ply policy and a position evaluation (every seat's chance to win, for
a search cut off before the end); `FittedHeuristics` adds the per-seat features that
meeple.ai.fit_evaluation fits the evaluation's weights to.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from typing import Any, Protocol, runtime_checkable

from meeple.core.plugin import wrong_part
from meeple.core.protocol import Action, Game
from meeple.core.registry import plugin_of
from meeple.core.rng import Rng


@runtime_checkable
class Heuristics(Protocol):
    """A game's bot knowledge (a module with these functions satisfies it)."""

    def choose(self, state: Any, rng: Rng) -> Action:
        """A good legal move for the seat to move in `state` (a full state: a bot passes its
        observation's sample)."""

    def evaluate(self, state: Any) -> list[float]:
        """Each seat's chance to win from `state`, in [0, 1]."""


@runtime_checkable
class FittedHeuristics(Heuristics, Protocol):
    """Heuristics whose evaluation is fitted to self-play (meeple.ai.fit_evaluation)."""

    FEATURE_NAMES: Sequence[str]

    def features(self, state: Any) -> list[list[float]] | None:
        """One list of numbers per seat (None where the position is not worth fitting)."""


@cache
def heuristics_of(game: Game[Any, Any]) -> Heuristics | None:
    """The game's heuristics, checked, or None when its plugin names none."""
    found = plugin_of(game).part("heuristics")
    if found is None:
        return None
    if not isinstance(found, Heuristics):
        raise wrong_part(plugin_of(game), "heuristics", "choose(state, rng) and evaluate(state)")
    return found

