"""The installed games as OpenSpiel Python games, registered on import as `python_meeple_<game>`:

    import pyspiel, meeple.envs.openspiel
    game = pyspiel.load_game("python_meeple_castell", {"players": 3})

The game type and sizes come from the plugin's `GameInfo`: a game with chance shuffles inside
`new_game` (SAMPLED_STOCHASTIC: a new initial state draws its seed from the game's `seed` parameter
and a counter; there are no chance nodes), its information type, its number of distinct actions
and its declared maximum game length. Rewards at the end are the win shares (`State.rewards()`),
constant-sum 1. Observation and information-state tensors are the game's encoder (docs/games/<game>.md).
`resample_from_infostate` goes through `determinize`; OpenSpiel's copy of a Python state (its
copy hook) goes through the engine's own `clone()`; `serialize` / `deserialize_state` go through
`to_json`.
"""

from __future__ import annotations

import copy
import itertools
import json
from typing import Any

import numpy as np
import pyspiel

from meeple.core.protocol import Game
from meeple.core.registry import load, usable_games
from meeple.core.rng import Rng
from meeple.envs.spaces import observation_shape, observe

CHANCE_MODES = {
    "sampled": pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
    "deterministic": pyspiel.GameType.ChanceMode.DETERMINISTIC,
}
INFORMATION = {
    "perfect": pyspiel.GameType.Information.PERFECT_INFORMATION,
    "imperfect": pyspiel.GameType.Information.IMPERFECT_INFORMATION,
}


class MeepleSpielState(pyspiel.State):
    """An OpenSpiel state around a meeple state."""

    def __init__(self, game: MeepleSpielGame, meeple_state: Any) -> None:
        super().__init__(game)
        self.meeple = meeple_state

    def current_player(self) -> int:
        if self.meeple.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.meeple.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        if player != self.meeple.current_player:
            return []
        return sorted(self.meeple.legal_action_ids())

    def _apply_action(self, action: int) -> None:
        self.meeple.apply(self.meeple.action_from_id(int(action)))

    def _action_to_string(self, player: int, action: int) -> str:
        return json.dumps(self.meeple.action_from_id(int(action)).to_json())

    def is_terminal(self) -> bool:
        return bool(self.meeple.is_terminal)

    def returns(self) -> list[float]:
        if not self.meeple.is_terminal:
            return [0.0] * self.meeple.num_players
        return [float(r) for r in self.meeple.rewards()]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MeepleSpielState:
        """A state the player cannot tell from this one (the engine's `determinize`)."""
        # OpenSpiel's samplers (pyspiel.UniformProbabilitySampler) return a uniform float in [0, 1).
        seed = int(float(probability_sampler()) * (1 << 53))
        return MeepleSpielState(self.get_game(), self.meeple.determinize(player_id, Rng(seed)))

    def __deepcopy__(self, memo: dict[int, Any]) -> MeepleSpielState:
        """OpenSpiel clones a Python state with `copy.deepcopy`; this hook hands that to the
        engine's generated `clone`, so nothing walks the game state generically."""
        clone = copy.copy(self)
        clone.meeple = self.meeple.clone()
        return clone

    def __str__(self) -> str:
        return json.dumps(self.meeple.view(None), separators=(",", ":"))

    def serialize(self) -> str:
        return json.dumps(self.meeple.to_json(), separators=(",", ":"))


class MeepleObserver:
    """Observation (and information-state) tensors from the encoder of the observing seat."""

    def __init__(self, game: MeepleSpielGame) -> None:
        self.tensor = np.zeros(int(np.prod(game.shape)), np.float32)
        self.dict = {"observation": self.tensor.reshape(game.shape)}

    def set_from(self, state: MeepleSpielState, player: int) -> None:
        self.tensor[:] = observe(state.meeple, player).ravel()

    def string_from(self, state: MeepleSpielState, player: int) -> str:
        return json.dumps(state.meeple.view(player), sort_keys=True, separators=(",", ":"))


class MeepleSpielGame(pyspiel.Game):
    """One meeple game as an OpenSpiel game; parameters `players` and `seed`."""

    meeple_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.meeple = load(self.meeple_name)
        players = int(params.get("players", 2))
        self.meeple.check_players(players)
        self.players = players
        self.seeds = itertools.count(int(params.get("seed", 0)) * 1_000_003)
        self.shape = observation_shape(self.meeple, players, self.meeple.resolve_options({}))
        info = pyspiel.GameInfo(
            num_distinct_actions=self.meeple.info.num_actions, max_chance_outcomes=0, num_players=players,
            min_utility=0.0, max_utility=1.0, utility_sum=1.0, max_game_length=self.meeple.info.max_game_length,
        )
        super().__init__(_game_type(self.meeple), info, params or {"players": players})

    def new_initial_state(self) -> MeepleSpielState:
        return MeepleSpielState(self, self.meeple.new_game(self.players, seed=next(self.seeds)))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MeepleObserver:
        return MeepleObserver(self)

    def deserialize_state(self, text: str) -> MeepleSpielState:
        return MeepleSpielState(self, self.meeple.from_json(json.loads(text)))


def _game_type(game: Game[Any, Any]) -> Any:
    return pyspiel.GameType(
        short_name=f"python_meeple_{game.name}", long_name=f"meeple {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=CHANCE_MODES[game.info.chance],
        information=INFORMATION[game.info.information],
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players, min_num_players=game.min_players,
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification={"players": 2, "seed": 0},
    )


def register() -> None:
    """Register every installed game as `python_meeple_<game>` (once)."""
    known = set(pyspiel.registered_names())
    for game in usable_games():
        if f"python_meeple_{game.name}" in known:
            continue
        cls = type(f"Meeple{game.title}SpielGame", (MeepleSpielGame,), {"meeple_name": game.name})
        pyspiel.register_game(_game_type(game), cls)


register()
