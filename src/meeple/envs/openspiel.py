"""The installed games as OpenSpiel Python games, registered on import as `python_meeple_<game>`:

    import pyspiel, meeple.envs.openspiel
    game = pyspiel.load_game("python_meeple_triqueta", {"players": 2, "duo": True})

The game type and sizes come from the plugin's `GameInfo`. A game with chance is EXPLICIT_STOCHASTIC:
the engines shuffle only at set-up, so each game opens with one chance node whose `deals` outcomes
are equally likely, outcome `i` dealing the engine's game of seed `seed * 1_000_003 + i`; after it
the rules are deterministic. So a state is its history: OpenSpiel needs no RNG state, and
serialization, pickling and multiprocessing work. Rewards at the end are the win shares
(`State.rewards()`), constant-sum 1. Rule options are game parameters (`GameInfo.options`).

Observations are the seat's current view (string: the view as JSON; tensor: the game's encoder).
Information states have perfect recall. Strings: the seat's view after the deal and after every
action, with its own actions. Tensors, for games whose encoder gives recall vectors
(`meeple.envs.spaces.RecallEncoder`): the current observation; the observation and recall
vector after the deal; every decision's action id in order (every action id is public in these
games), one-hot or, where ids x `max_game_length` exceed ONE_HOT_LIMIT, in binary; and the recall
vector after each decision. As the view after a step follows from the view before it, the id
and the recall vector, two seat histories with different strings differ in the tensor.
`resample_from_infostate` goes through `determinize`; OpenSpiel's copy of a Python state goes
through the engine's `clone()`; `serialize` carries the history, the engine's `to_json` and the
recall trails, so `deserialize_state` keeps `history()`.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import numpy as np
import numpy.typing as npt
import pyspiel

from meeple.core.errors import OptionError
from meeple.core.protocol import Game
from meeple.core.registry import load, usable_games
from meeple.core.rng import Rng
from meeple.envs.spaces import RecallEncoder, observation_shape, observe, recall_encoder

CHANCE_MODES = {
    "sampled": pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    "deterministic": pyspiel.GameType.ChanceMode.DETERMINISTIC,
}
INFORMATION = {
    "perfect": pyspiel.GameType.Information.PERFECT_INFORMATION,
    "imperfect": pyspiel.GameType.Information.IMPERFECT_INFORMATION,
}
#: Equally likely deals of the opening chance node unless the `deals` parameter says otherwise.
DEALS = 1000
#: Seeds of two `seed` parameters never overlap for fewer deals than this.
SEED_STRIDE = 1_000_003
#: The first entry of a seat's recall trail in a state re-dealt for another seat: what that seat
#: saw before the re-deal is unknown in the re-dealt world, so its recall starts there.
REDEALT = '"re-dealt"'
#: The value of every recall entry a seat cannot know in a state re-dealt for another seat.
UNKNOWN = -1.0
#: Information-state tensors code each decision one-hot while ids x game length stay within this.
ONE_HOT_LIMIT = 20_000
#: Per seat, the rows of its recall numbers (never changed once written, so copies share them).
Rows = list[list[npt.NDArray[np.float32]]]


class MeepleSpielState(pyspiel.State):
    """An OpenSpiel state around a meeple state (None at the opening chance node).

    `trails[seat]` is the seat's recall, one JSON text per step (its view, and its own action when
    it acted); `seen[seat]` the same as numbers for the information-state tensor (first the
    observation and recall vector after the deal, then the recall vector after each decision).
    Both are None until an information state is asked for, then rebuilt from the history once
    and extended by every action."""

    def __init__(self, game: MeepleSpielGame, meeple_state: Any = None) -> None:
        super().__init__(game)
        self.meeple = meeple_state
        self.trails: list[list[str]] | None = None
        self.seen: Rows | None = None
        self.replaying: list[int] | None = None  # the players of a history being re-recorded

    def current_player(self) -> int:
        if self.replaying is not None:
            return self.replaying[len(self.history())]
        if self.meeple is None:
            return int(pyspiel.PlayerId.CHANCE)
        if self.meeple.is_terminal:
            return int(pyspiel.PlayerId.TERMINAL)
        return int(self.meeple.current_player)

    def _legal_actions(self, player: int) -> list[int]:
        if self.meeple is None or player != self.meeple.current_player:
            return []
        return sorted(self.meeple.legal_action_ids())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        deals = self.get_game().deals
        return [(deal, 1.0 / deals) for deal in range(deals)] if self.meeple is None else []

    def _apply_action(self, action: int) -> None:
        if self.replaying is not None:
            return  # re-recording a history: the engine state is set afterwards
        actor = None if self.trails is None else self.current_player()  # only recall needs it
        if self.meeple is None:
            self.meeple = self.get_game().deal(int(action))
        else:
            self.meeple.apply(self.meeple.action_from_id(int(action)))
        if self.trails is not None and self.seen is not None:
            self.get_game().note(self.meeple, self.trails, self.seen, int(action), actor)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {action}"
        return json.dumps(self.meeple.action_from_id(int(action)).to_json())

    def is_terminal(self) -> bool:
        return self.meeple is not None and bool(self.meeple.is_terminal)

    def returns(self) -> list[float]:
        if not self.is_terminal():
            return [0.0] * self.get_game().players
        return [float(r) for r in self.meeple.rewards()]

    def recall(self) -> list[list[str]]:
        """Every seat's recall trail, rebuilt from the history the first time it is asked for."""
        if self.trails is None:
            self._replay()
        assert self.trails is not None
        return self.trails

    def recall_numbers(self) -> Rows:
        """Every seat's recall as numbers (`seen`), rebuilt like `recall`."""
        if self.seen is None:
            self._replay()
        assert self.seen is not None
        return self.seen

    def _replay(self) -> None:
        """Rebuild the trails and numbers from the history (never for a re-dealt state, which
        carries its own)."""
        game = self.get_game()
        replay = game.new_initial_state()
        replay.trails = [[] for _ in range(game.players)]
        replay.seen = [[] for _ in range(game.players)]
        if replay.meeple is not None:
            game.note(replay.meeple, replay.trails, replay.seen, None, None)  # no chance node
        for action in self.history():
            replay.apply_action(action)
        self.trails, self.seen = replay.trails, replay.seen

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> MeepleSpielState:
        """A state the player cannot tell from this one (the engine's `determinize`), with the same
        history and the player's recall; the other seats' recall starts at the re-deal."""
        # OpenSpiel's samplers (pyspiel.UniformProbabilitySampler) return a uniform float in [0, 1).
        seed = int(float(probability_sampler()) * (1 << 53))
        trails = [list(trail) if seat == player_id else [REDEALT]
                  for seat, trail in enumerate(self.recall())]
        seen = [list(rows) if seat == player_id else [np.full(len(row), UNKNOWN, np.float32) for row in rows]
                for seat, rows in enumerate(self.recall_numbers())]
        sample = self.meeple.determinize(player_id, Rng(seed))
        game: MeepleSpielGame = self.get_game()
        return game.rebuilt(_steps(self), sample, trails, seen)

    def __deepcopy__(self, memo: dict[int, Any]) -> MeepleSpielState:
        """OpenSpiel clones a Python state with `copy.deepcopy`; this hook hands that to the
        engine's generated `clone`, so nothing walks the game state generically."""
        clone = copy.copy(self)
        clone.meeple = None if self.meeple is None else self.meeple.clone()
        clone.trails = None if self.trails is None else [list(trail) for trail in self.trails]
        clone.seen = None if self.seen is None else [list(rows) for rows in self.seen]  # rows never change
        return clone

    def __str__(self) -> str:
        if self.meeple is None:
            return "deal"
        return json.dumps(self.meeple.view(None), separators=(",", ":"))

    def serialize(self) -> str:
        return json.dumps({
            "history": _steps(self),
            "state": None if self.meeple is None else self.meeple.to_json(),
            "trails": self.trails,
            "seen": None if self.seen is None else [[row.tolist() for row in rows] for rows in self.seen],
        }, separators=(",", ":"))


def _steps(state: MeepleSpielState) -> list[tuple[int, int]]:
    """The state's history as (player, action) pairs, chance as -1."""
    return [(int(step.player), int(step.action)) for step in state.full_history()]


def _view_text(view: Any) -> str:
    return json.dumps(view, sort_keys=True, separators=(",", ":"))


def _step_text(view: Any, own_action: int | None) -> str:
    """One step of a seat's recall: its view after the step, and its action if it was the actor."""
    text = _view_text(view)
    return text if own_action is None else f"[{own_action},{text}]"


class MeepleObserver:
    """Observation tensors from the encoder of the observing seat; strings are the seat's
    current view, or with perfect recall its whole trail (information states). With perfect
    recall the tensor is the information-state tensor (see the module's docstring), parts named
    in `dict`, when the game has one (`MeepleSpielGame.recall_parts`), else empty."""

    def __init__(self, game: MeepleSpielGame, perfect_recall: bool) -> None:
        self.perfect_recall = perfect_recall
        self.game = game
        parts = game.recall_parts if perfect_recall else {"observation": game.shape}
        self.tensor = np.zeros(sum(int(np.prod(shape)) for shape in parts.values()), np.float32)
        self.dict: dict[str, np.ndarray] = {}
        at = 0
        for name, shape in parts.items():
            size = int(np.prod(shape))
            self.dict[name] = self.tensor[at:at + size].reshape(shape)
            at += size

    def set_from(self, state: MeepleSpielState, player: int) -> None:
        self.tensor[:] = 0.0
        if self.perfect_recall:
            if self.tensor.size:
                self._recall_from(state, player)
        elif state.meeple is not None:
            self.tensor[:] = observe(state.meeple, player).ravel()

    def _recall_from(self, state: MeepleSpielState, player: int) -> None:
        parts = self.dict
        if state.meeple is not None:
            parts["observation"][:] = observe(state.meeple, player).ravel()
        rows = state.recall_numbers()[player]
        if not rows:
            return  # the opening chance node: nothing seen yet
        parts["opening"][:] = rows[0]
        decisions = [step.action for step in state.full_history() if step.player >= 0]
        length = self.game.length
        if len(decisions) > length:
            raise ValueError(f"{self.game} has an information-state tensor for {length} decisions "
                             f"(max_game_length), not {len(decisions)}")
        codes = parts["actions"]
        if self.game.one_hot:
            codes[np.arange(len(decisions)), decisions] = 1.0
        else:
            bits = np.arange(codes.shape[1])
            codes[:len(decisions)] = (np.asarray(decisions, dtype=np.int64)[:, None] + 1) >> bits & 1
        if len(rows) > 1:
            parts["seen"][:len(rows) - 1] = np.stack(rows[1:])

    def string_from(self, state: MeepleSpielState, player: int) -> str:
        if self.perfect_recall:
            return "[" + ",".join(state.recall()[player]) + "]"
        return "null" if state.meeple is None else _view_text(state.meeple.view(player))


class MeepleSpielGame(pyspiel.Game):
    """One meeple game as an OpenSpiel game; parameters `players`, `seed`, `deals` and the rule
    options."""

    meeple_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        params = dict(params or {})
        self.meeple = load(self.meeple_name)
        spec = _parameters(self.meeple)
        unknown = sorted(set(params) - set(spec))
        if unknown:
            raise OptionError(f"python_meeple_{self.meeple.name} has no parameter {unknown[0]!r} "
                              f"(parameters: {', '.join(sorted(spec))})")
        for name, value in params.items():
            if type(value) is not type(spec[name]):
                raise OptionError(f"parameter {name!r} takes a {type(spec[name]).__name__}, not {value!r}")
        players = int(params.get("players", 2))
        self.meeple.check_players(players)
        self.options = self.meeple.resolve_options({o.name: params[o.name] for o in self.meeple.info.options
                                                    if o.name in params})
        self.meeple.check_options(players, self.options)
        self.players = players
        self.first_seed = int(params.get("seed", 0)) * SEED_STRIDE
        self.deals = int(params.get("deals", DEALS)) if self.meeple.info.chance == "sampled" else 1
        if self.deals < 1:
            raise OptionError(f"parameter 'deals' must be at least 1, not {self.deals}")
        self.shape = observation_shape(self.meeple, players, self.options)
        self.length = self.meeple.game_length(players, self.options)
        self.recaller = recall_encoder(self.meeple)
        self.recall_parts, self.one_hot = _recall_parts(self.recaller, self.meeple, players, self.options,
                                                        self.shape, self.length)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.meeple.info.num_actions,
            max_chance_outcomes=self.deals if self.meeple.info.chance == "sampled" else 0, num_players=players,
            min_utility=0.0, max_utility=1.0, utility_sum=1.0,
            max_game_length=self.length,
        )
        super().__init__(_game_type(self.meeple), info, params or {"players": players})

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled as its game string, loaded again through this module (which registers it)."""
        return _load_game, (str(self),)

    def note(self, meeple_state: Any, trails: list[list[str]], seen: Rows, action: int | None,
             actor: int | None) -> None:
        """Extend every seat's recall by the step (`action` of `actor`, chance None) that led to
        `meeple_state`: its trail by the view and own action, its numbers (with a recall
        encoder) by the observation and recall vector after the deal, the recall vector after it."""
        for seat, (trail, rows) in enumerate(zip(trails, seen, strict=True)):
            view = meeple_state.view(seat)
            trail.append(_step_text(view, action if actor == seat else None))
            if self.recaller is None:
                continue
            vector = np.asarray(self.recaller.recall(view, seat, self.players, self.options), np.float32)
            rows.append(vector if rows else np.concatenate([observe(meeple_state, seat).ravel(), vector]))

    def deal(self, outcome: int) -> Any:
        """The engine's game after the opening chance outcome `outcome`."""
        return self.meeple.new_game(self.players, seed=self.first_seed + outcome, **self.options)

    def new_initial_state(self) -> MeepleSpielState:
        if self.meeple.info.chance == "sampled":
            return MeepleSpielState(self)
        return MeepleSpielState(self, self.deal(0))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> MeepleObserver:
        return MeepleObserver(self, perfect_recall=bool(iig_obs_type is not None and iig_obs_type.perfect_recall))

    def rebuilt(self, steps: list[tuple[int, int]], meeple_state: Any, trails: list[list[str]] | None,
                seen: Rows | None) -> MeepleSpielState:
        """A state with this history of (player, action) `steps` (re-recorded, not replayed),
        engine state and recall."""
        state = MeepleSpielState(self)
        state.replaying = [player for player, _ in steps]
        for _, action in steps:
            state.apply_action(action)
        state.replaying = None
        state.meeple = meeple_state
        state.trails = trails
        state.seen = seen
        return state

    def deserialize_state(self, text: str) -> MeepleSpielState:
        data = json.loads(text)
        meeple_state = None if data["state"] is None else self.meeple.from_json(data["state"])
        seen = None if data["seen"] is None else [[np.asarray(row, np.float32) for row in rows]
                                                  for rows in data["seen"]]
        steps = [(player, action) for player, action in data["history"]]
        return self.rebuilt(steps, meeple_state, data["trails"], seen)


def _load_game(text: str) -> Any:
    return pyspiel.load_game(text)


def _parameters(game: Game[Any, Any]) -> dict[str, Any]:
    """The OpenSpiel parameter specification: the table, the seeds and every rule option."""
    spec: dict[str, Any] = {"players": game.min_players, "seed": 0}
    if game.info.chance == "sampled":
        spec["deals"] = DEALS
    spec.update({option.name: option.default for option in game.info.options})
    return spec


def _recall_parts(recaller: RecallEncoder | None, game: Game[Any, Any], players: int, options: dict[str, Any],
                  shape: tuple[int, ...], length: int) -> tuple[dict[str, tuple[int, ...]], bool]:
    """The information-state tensor's parts and shapes (none without a recall encoder), and
    whether decisions are coded one-hot (else in binary, id + 1)."""
    if recaller is None:
        return {}, False
    seen = recaller.recall_size(players, options)
    actions = game.info.num_actions
    one_hot = actions * length <= ONE_HOT_LIMIT
    code = actions if one_hot else actions.bit_length()  # id + 1 <= actions
    observation = int(np.prod(shape))
    return {"observation": (observation,), "opening": (observation + seen,), "actions": (length, code),
            "seen": (length, seen)}, one_hot


def _game_type(game: Game[Any, Any]) -> Any:
    return pyspiel.GameType(
        short_name=f"python_meeple_{game.name}", long_name=f"meeple {game.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=CHANCE_MODES[game.info.chance],
        information=INFORMATION[game.info.information],
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=game.max_players, min_num_players=game.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=recall_encoder(game) is not None,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=_parameters(game),
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
