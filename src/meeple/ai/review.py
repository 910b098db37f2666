"""Game review: after a game, every move's chance of winning, the move the search prefers, a
label for the decision, the luck that followed it, and the game's turning points.

Each move is estimated from its mover's information only (meeple.ai.review_estimate: sampled
worlds, common random numbers, a race among the legal moves), so a review never knows what the
mover could not; and only a finished game can be reviewed, since a review during a game would
tell a player what the opponents hold. One move is one task (`review_move`, a pure function of
the record, the index, the settings and the seed), so a process pool or the server's bot
workers can review a game a move per task, in any order, with the same result.

Labels, on the mover's loss in win chance (the preferred move's estimate minus the played
move's), as chess sites give them: forced (one legal move); best (the preferred move, when some
alternative was clearly worse); good (a loss under 0.05, or one within the estimates' noise);
inaccuracy (under 0.10); mistake (under 0.20); blunder (0.20 or more). docs/ai.md, "Game review".
"""

from __future__ import annotations

import concurrent.futures
import math
from collections.abc import Callable
from dataclasses import asdict, dataclass
from typing import Any

from meeple.ai.review_calibration import SETTINGS, calibrate, calibrate_shares
from meeple.ai.review_estimate import Clock, Playouts, Race, paired, position_value, race, revealed, stream
from meeple.core.checks import shown
from meeple.core.errors import MeepleError, OptionError, RecordError
from meeple.core.record import MAX_SEED, GameRecord
from meeple.core.registry import load
from meeple.core.state import State

#: The labels, from the best decision to the worst ("forced": there was no decision).
LABELS = ("forced", "best", "good", "inaccuracy", "mistake", "blunder")
#: A loss in win chance below each bound earns that label; at 0.20 or more, a blunder.
LOSS_BOUNDS = (("good", 0.05), ("inaccuracy", 0.10), ("mistake", 0.20))
#: How many standard errors a difference must reach to count (equal moves stay "good").
NOISE_Z = 2.0
FORMAT = "meeple-review"
VERSION = 1


@dataclass(frozen=True)
class ReviewSettings:
    """What a review spends on each move and how it plays positions out.

    `samples` is the number of sampled worlds (determinizations) behind each reported estimate;
    `screening` the worlds each move gets in the first round of the race among many moves;
    `epsilon` the chance of a random move in a playout; `playout` "game" (cut off and evaluated
    where the game's search tuning says, else to the end) or "end" (always to the end);
    `cutoff_scale` scales that cut-off (below 1: shorter, cheaper playouts and rougher estimates).
    `seconds_per_move` caps the time of one move (None: no cap): the review repeats exactly
    only while the cap does not bind, so the defaults have none."""

    seconds_per_move: float | None = None
    samples: int = 48
    screening: int = 8
    epsilon: float = 0.1
    playout: str = "game"
    cutoff_scale: float = 1.0

    def __post_init__(self) -> None:
        if self.seconds_per_move is not None and not (
                type(self.seconds_per_move) in (int, float) and 0 < self.seconds_per_move <= 3600):
            raise OptionError("seconds per move must be more than 0 and at most 3600, "
                              f"not {shown(self.seconds_per_move)}")
        if type(self.samples) is not int or not 2 <= self.samples <= 100_000:
            raise OptionError(f"review samples must be a whole number from 2 to 100000, not {shown(self.samples)}")
        if type(self.screening) is not int or not 1 <= self.screening <= self.samples:
            raise OptionError(f"review screening must be a whole number from 1 to the samples ({self.samples}), "
                              f"not {shown(self.screening)}")
        if not (type(self.epsilon) in (int, float) and 0.0 <= self.epsilon <= 1.0):
            raise OptionError(f"review epsilon must be from 0 to 1, not {shown(self.epsilon)}")
        if self.playout not in ("game", "end"):
            raise OptionError(f"review playout must be game or end, not {shown(self.playout)}")
        if not (type(self.cutoff_scale) in (int, float) and 0.0 < self.cutoff_scale <= 4.0):
            raise OptionError(f"review cutoff_scale must be more than 0 and at most 4, not {shown(self.cutoff_scale)}")

    @classmethod
    def default(cls) -> ReviewSettings:
        """The default review: repeatable, and under a minute for a two-player game (docs/performance.md)."""
        return cls()

    @classmethod
    def quick(cls) -> ReviewSettings:
        """For long games: a quarter of the worlds, and playouts cut off in half the plies where
        the game cuts them off at all (docs/performance.md, "Game review")."""
        return cls(samples=12, screening=2, cutoff_scale=0.5)

    @classmethod
    def named(cls, name: str) -> ReviewSettings:
        """The setting called `name`, one of `SETTINGS` (OptionError for another)."""
        if name not in SETTINGS:
            raise OptionError(f"no review setting {name!r} (there are {', '.join(SETTINGS)})")
        return cls.quick() if name == "quick" else cls.default()

    @property
    def calibrated_as(self) -> str:
        """The calibrated setting whose map these settings' chances go through: "quick" for
        settings with no more sampled worlds than the quick setting's (their raw chances are as
        noisy or noisier), "default" for the others (docs/ai.md, "Game review: calibration")."""
        return "quick" if self.samples <= ReviewSettings.quick().samples else "default"

    def to_json(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_json(cls, obj: Any) -> ReviewSettings:
        if not isinstance(obj, dict) or set(obj) != set(cls.__dataclass_fields__):
            raise RecordError(f"review settings must be an object with {', '.join(cls.__dataclass_fields__)}")
        try:
            return cls(**obj)
        except OptionError as exc:
            raise RecordError(str(exc)) from None


# -- one move --------------------------------------------------------------------------------------


def review_move(record_json: dict[str, Any], index: int, settings: ReviewSettings, seed: int) -> dict[str, Any]:
    """The review of action `index` of a finished game's record (the JSON of a `GameRecord`):
    deterministic in its arguments, whichever process runs it and in whatever order."""
    record = GameRecord.from_json(record_json)
    _check_seed(seed)
    if type(index) is not int or not 0 <= index < len(record.actions):
        raise OptionError(f"the record has actions 0 to {len(record.actions) - 1}, not {shown(index)}")
    kept: dict[int, State[Any]] = {}

    def keep(step: int, action: Any, state: State[Any]) -> None:
        if step in (index - 1, index):
            kept[step] = state.clone()

    final = record.replay(keep)
    _check_over(final)
    before = kept[index - 1] if index else record.new_state()
    action = before.game.action_from_json(record.actions[index])
    return assess(before, kept[index], action, settings, stream(seed, index), hint=index in record.hints,
                  index=index)


def assess(before: State[Any], after: State[Any], action: Any, settings: ReviewSettings, seed: int, *,
           hint: bool = False, index: int = 0) -> dict[str, Any]:
    """The review entry of `action`, played by the seat to move in `before` and leading to
    `after`; estimates come from that seat's information only (`determinize(seat)`)."""
    seat = before.current_player
    if seat is None:
        raise OptionError("the game was over before this move: there is nothing to review")
    game, players = before.game, before.num_players
    playouts = Playouts(game, settings, players)
    clock = Clock(settings.seconds_per_move)
    played = before.action_id(action)
    found = race(before, seat, settings, stream(seed, 1), played, playouts, clock)
    mine, top = found.final[played], found.final[found.best]

    def cal(raw: float, exact: bool = False) -> float:
        """An estimate through the game's calibration; a finished game's result is no estimate."""
        return round(raw if exact else calibrate(raw, players, game.name, settings.calibrated_as), 4)

    best_chance, chance_after = cal(top.mean), cal(mine.mean)
    noise = paired(top, mine)[1]
    loss = max(0.0, best_chance - chance_after)
    label = _label(found, played, loss, noise)
    luck, luck_noise = 0.0, 0.0
    if revealed(before, action, after, seat, stream(seed, 2)):
        following = position_value(after, seat, settings, stream(seed, 3), playouts, clock)
        luck = cal(following.mean, following.exact) - chance_after
        luck_noise = math.hypot(mine.standard_error(), following.standard_error())
    return {
        "index": index,
        "seat": seat,
        "action": action.to_json(),
        "label": label,
        "chance_before": best_chance,
        "chance_after": chance_after,
        "best_action": before.action_from_id(found.best).to_json(),
        "best_chance": best_chance,
        "loss": round(loss, 4),
        "noise": round(noise, 4) if math.isfinite(noise) else None,
        "luck": round(luck, 4),
        "luck_noise": round(luck_noise, 4) if math.isfinite(luck_noise) else None,
        "chances": [round(x, 4) for x in calibrate_shares(mine.means(), seat, players, game.name,
                                                               settings.calibrated_as)],
        "legal": found.legal,
        "samples": mine.n,
        "capped": found.capped or clock.capped,
        "hint": hint,
    }


def _label(found: Race, played: int, loss: float, noise: float) -> str:
    """The label of a decision; see the module docstring. A difference smaller than NOISE_Z
    standard errors is no difference."""
    if found.legal == 1:
        return "forced"
    if played == found.best:
        for other in found.screened or found.final:
            gap, gap_noise = found.gap(played, other)
            if other != played and gap >= LOSS_BOUNDS[0][1] and gap > NOISE_Z * gap_noise:
                return "best"
        return "good"
    if loss <= NOISE_Z * noise:
        return "good"
    for label, bound in LOSS_BOUNDS:
        if loss < bound:
            return label
    return "blunder"


# -- a whole game ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Review:
    """A finished game's review: one entry per action, the turning points, a summary per seat."""

    game: str
    num_players: int
    players: list[str]
    settings: ReviewSettings
    seed: int
    moves: list[dict[str, Any]]
    turning_points: list[dict[str, Any]]
    seats: list[dict[str, Any]]

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "version": VERSION, "game": self.game, "num_players": self.num_players,
            "players": list(self.players), "settings": self.settings.to_json(), "seed": self.seed,
            "moves": self.moves, "turning_points": self.turning_points, "seats": self.seats,
        }

    @classmethod
    def from_json(cls, obj: Any) -> Review:
        """A stored review, checked field by field; RecordError naming the first problem."""
        from meeple.ai.review_schema import check_review

        return check_review(obj, cls, ReviewSettings.from_json)


def review_record(record: GameRecord, settings: ReviewSettings, seed: int = 0, *,
                  progress: Callable[[int, int], None] | None = None,
                  executor: concurrent.futures.Executor | None = None) -> Review:
    """Review every move of a finished game (through `executor` when given, else here), then
    find its turning points and sum up each seat. `progress(done, total)` after each move."""
    from meeple.ai.review_words import summarize, turning_points

    _check_seed(seed)
    final = record.replay()
    _check_over(final)
    record_json = record.to_json()
    total = len(record.actions)
    moves: list[dict[str, Any] | None] = [None] * total
    if executor is None:
        for index in range(total):
            moves[index] = review_move(record_json, index, settings, seed)
            if progress is not None:
                progress(index + 1, total)
    else:
        futures = {executor.submit(review_move, record_json, index, settings, seed): index for index in range(total)}
        try:
            for done, future in enumerate(concurrent.futures.as_completed(futures), 1):
                moves[futures[future]] = future.result()
                if progress is not None:
                    progress(done, total)
        finally:
            for future in futures:
                future.cancel()
    entries = [entry for entry in moves if entry is not None]
    return Review(
        game=record.game, num_players=record.num_players, players=list(record.players), settings=settings,
        seed=seed, moves=entries, turning_points=turning_points(record, entries),
        seats=summarize(record, entries),
    )


# -- hints while learning ----------------------------------------------------------------------------


def hint(state_json_or_state: dict[str, Any] | State[Any], seat: int, settings: ReviewSettings,
         seed: int) -> dict[str, Any]:
    """The move the review's estimator prefers for `seat`, to move, and its chance: from that
    seat's information only (`determinize(seat)`), so asking cannot leak a secret."""
    _check_seed(seed)
    state = _state_of(state_json_or_state)
    if type(seat) is not int or state.current_player != seat:
        raise OptionError(f"a hint is for the seat to move, not {shown(seat)}")
    game, players = state.game, state.num_players
    found = race(state, seat, settings, stream(seed, 4), None, Playouts(game, settings, players),
                 Clock(settings.seconds_per_move))
    top = found.final[found.best]
    return {
        "best_action": state.action_from_id(found.best).to_json(),
        "best_chance": round(calibrate(top.mean, players, game.name, settings.calibrated_as), 4),
        "legal": found.legal,
        "samples": top.n,
    }


def _state_of(given: dict[str, Any] | State[Any]) -> State[Any]:
    if isinstance(given, State):
        return given
    if not isinstance(given, dict) or type(given.get("game")) is not str:
        raise RecordError("a hint needs a game state (its JSON, with its \"game\")")
    try:
        state: State[Any] = load(given["game"]).from_json(given)
    except MeepleError as exc:
        raise RecordError(f"a hint needs a valid game state: {exc}") from None
    return state


def _check_seed(seed: Any) -> None:
    if type(seed) is not int or not 0 <= seed <= MAX_SEED:
        raise OptionError(f"the review seed must be a whole number from 0 to 2**64 - 1, not {shown(seed)}")


def _check_over(final: State[Any]) -> None:
    if not final.is_terminal:
        raise RecordError("only a finished game can be reviewed: this record's game is not over "
                          "(a review during a game would tell a player what the others hold)")
