"""Measuring the game review's win chances against finished games, and fitting their calibration.

Self-play games between bots of mixed strength (seated as the arena seats them, meeple.ai.arena)
are played in worker processes (and may be kept in a journal, as the arena's games). From each
finished game a few positions are drawn, one from each of equal stretches of the game (so early,
middle and late moves are all there); at each, the review's raw chance for the mover after its
move is estimated exactly as `review_move` estimates it (the same worlds and playouts with the
same seeds, from the mover's information only), before calibration. The outcome is the mover's
win share of that game.

The games fall in two sets: the first `fit_games` fit the logistic map (meeple.ai.review_fit),
the next `games` (other deals) measure it, held out; the raw chances of the held-out set are
measured too, and against the naive equal share. `meeple review-calibration` runs it."""

from __future__ import annotations

import time
from collections.abc import Callable
from contextlib import closing
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import Any

from meeple.ai.arena import seatings
from meeple.ai.backends import open_backend
from meeple.ai.bots import make_bot
from meeple.ai.journal import ArenaJournal, run_journaled
from meeple.ai.match import derive_seed, play_game
from meeple.ai.review import ReviewSettings
from meeple.ai.review_calibration import SETTINGS, Logistic, map_for
from meeple.ai.review_estimate import Playouts, Tally, Worlds, stream
from meeple.ai.review_fit import brier, fit_logistic, meets_goal, reliability
from meeple.core.errors import OptionError
from meeple.core.record import GameRecord
from meeple.core.registry import load
from meeple.core.rng import Rng
from meeple.core.state import State

#: The review settings a measurement may name.
#: The bots of the self-play games unless told: three strengths.
DEFAULT_BOTS = ("random", "greedy", "ismcts:easy")
#: The stream (with the game's seed) that picks the positions drawn from a game.
_PICKS = 0x9051


@dataclass(frozen=True)
class Position:
    """One drawn position: game `game` (its index in the run), its action `index` of `moves`,
    the mover `seat`, the review's raw chance for it, and its win share when the game ended."""

    game: int
    index: int
    moves: int
    seat: int
    raw: float
    outcome: float

    def to_json(self) -> dict[str, Any]:
        return {"game": self.game, "index": self.index, "moves": self.moves, "seat": self.seat,
                "raw": round(self.raw, 6), "outcome": self.outcome}


def spread(moves: int, count: int, rng: Rng) -> list[int]:
    """`count` action indices (fewer in a shorter game), one drawn from each of `count` equal
    stretches of a game of `moves` actions."""
    count = min(count, moves)
    return [k * moves // count + rng.below((k + 1) * moves // count - k * moves // count) for k in range(count)]


def raw_chance(before: State[Any], action: Any, settings: ReviewSettings, seed: int) -> float:
    """The review's chance for the seat to move in `before` after playing `action`, before
    calibration (seed: the review's stream of the move). It is the final estimate of the move
    played in `review.assess`'s race, on the same worlds with the same playouts, made alone:
    the screening of the other moves, most of a review's work, does not touch it (a test holds
    the two equal)."""
    seat = before.current_player
    assert seat is not None
    worlds = Worlds(before, seat, stream(stream(seed, 1), 6))
    playouts = Playouts(before.game, settings, before.num_players)
    tally = Tally()
    for k in range(settings.samples):
        s = worlds.world(k).clone()
        s.step(action)
        tally.add(playouts.play(s, worlds.playout_rng(k)), seat)
    return tally.mean


def play_record(game: str, specs: tuple[str, ...], seed: int, index: int, options: dict[str, Any]) -> dict[str, Any]:
    """Self-play game `index` (its deal `seed`, `specs[s]` at seat s), as its record's JSON."""
    record = GameRecord(game=game, num_players=len(specs), seed=seed, options=dict(options), players=list(specs))
    play_game(load(game), [make_bot(spec) for spec in specs], seed, options,
              on_action=lambda state, action: record.add(action))
    return {"index": index, "record": record.to_json()}


def estimate_game(record_json: dict[str, Any], index: int, per_game: int, settings: dict[str, Any]) -> list[Position]:
    """The review's raw chance at `per_game` positions of a finished game (game `index` of the
    run), spread over it; each with its move's review seed, as `review_move` seeds it."""
    review = ReviewSettings.from_json(settings)
    record = GameRecord.from_json(record_json)
    moves = len(record.actions)
    picks = set(spread(moves, per_game, Rng(stream(record.seed, _PICKS))))
    befores: dict[int, State[Any]] = {}
    if 0 in picks:
        befores[0] = record.new_state()

    def keep(step: int, action: Any, state: State[Any]) -> None:
        if step + 1 in picks:  # `state` is the position before action step + 1
            befores[step + 1] = state.clone()

    shares = record.replay(keep).rewards()
    found = []
    for at in sorted(befores):
        before = befores[at]
        seat = before.current_player
        assert seat is not None
        action = before.game.action_from_json(record.actions[at])
        raw = raw_chance(before, action, review, stream(record.seed, at))
        found.append(Position(game=index, index=at, moves=moves, seat=seat, raw=raw, outcome=shares[seat]))
    return found


@dataclass
class Measurement:
    """A run's positions (fit set and held-out set), the map fitted on the first and the
    tables of the second."""

    game: str
    players: int
    bots: list[str]
    seed: int
    setting: str
    settings: ReviewSettings
    fit_games: int
    games: int
    per_game: int
    fit: list[Position]
    held_out: list[Position]
    seconds: float = 0.0

    @cached_property
    def fitted(self) -> Logistic | None:
        """The map fitted on the fit set, rounded as its data file keeps it, so that what is
        measured is what ships (None without a fit set); OptionError when none fits."""
        if not self.fit:
            return None
        found = fit_logistic([p.raw for p in self.fit], [p.outcome for p in self.fit])
        return Logistic(round(found.slope, 4), round(found.intercept, 4))

    def to_json(self) -> dict[str, Any]:
        """The run: its arguments, the fitted map, the held-out reliability tables and Brier
        scores (raw, with the fitted map, with the map installed now, and the baseline), and
        every drawn position."""
        raws = [p.raw for p in self.held_out]
        outcomes = [p.outcome for p in self.held_out]
        installed = map_for(self.game, self.players, self.setting)
        try:
            fitted, fit_error = self.fitted, None
        except OptionError as exc:  # the measurement of the raw chances stands all the same
            fitted, fit_error = None, str(exc)

        def scored(chances: list[float]) -> dict[str, Any]:
            table = reliability(chances, outcomes)
            return {"brier": round(brier(chances, outcomes), 5), "meets_goal": meets_goal(table),
                    "table": [b.to_json() for b in table]}

        held: dict[str, Any] = {
            "baseline_brier": round(brier([1 / self.players] * len(outcomes), outcomes), 5),
            "raw": scored(raws),
        }
        if fitted is not None:
            held["fitted"] = scored([fitted(x) for x in raws])
        if installed is not None:
            held["installed"] = scored([installed(x) for x in raws])
        return {
            "game": self.game, "players": self.players, "bots": self.bots, "seed": self.seed,
            "setting": self.setting, "settings": self.settings.to_json(),
            "games": {"fit": self.fit_games, "held_out": self.games}, "positions_per_game": self.per_game,
            "positions": {"fit": len(self.fit), "held_out": len(self.held_out)},
            "fitted": None if fitted is None else {"slope": round(fitted.slope, 4),
                                                   "intercept": round(fitted.intercept, 4)},
            "fit_error": fit_error,
            "installed": None if installed is None else {"slope": installed.slope, "intercept": installed.intercept},
            "held_out": held,
            "seconds": round(self.seconds, 1),
            "drawn": {"fit": [p.to_json() for p in self.fit], "held_out": [p.to_json() for p in self.held_out]},
        }


def measure(game: str, players: int, games: int, positions: int, seed: int, *, fit_games: int = 0,
            setting: str = "quick", bots: tuple[str, ...] = DEFAULT_BOTS, workers: int | None = None,
            options: dict[str, Any] | None = None, journal: Path | None = None,
            progress: Callable[[int], None] | None = None) -> Measurement:
    """Play `fit_games` + `games` self-play games (game i dealt with derive_seed(seed, i), seated
    as the arena seats `bots`), then estimate about `positions` / `games` positions of each.
    With `journal`, the games an earlier run of the same game, bots, players, games and seed
    played are taken from it, and each new one is kept there as it ends (meeple.ai.journal):
    the self-play is the slow part, and the estimates can be made again from the same games.
    `progress(done)` counts games played, then games estimated (twice the games in all)."""
    loaded = load(game)
    loaded.check_players(players)
    resolved = loaded.resolve_options(options or {})
    if setting not in SETTINGS:
        raise OptionError(f"the review setting must be quick or default, not {setting!r}")
    if games < 1 or fit_games < 0:
        raise OptionError(f"a measurement needs at least one held-out game and no negative fit games, "
                          f"not {games} and {fit_games}")
    if positions < games:
        raise OptionError(f"ask for at least one position per game: {positions} positions for {games} games")
    for spec in bots:
        make_bot(spec)  # a bad spec fails here, with its one line
    settings = ReviewSettings.named(setting)
    per_game = -(-positions // games)
    plan = seatings(len(bots), players)
    total = fit_games + games
    records: list[dict[str, Any] | None] = [None] * total
    start = time.perf_counter()
    with open_backend("process", workers, total) as runner:
        book = None
        if journal is not None:
            book = ArenaJournal(journal, {"review_games": loaded.name, "bots": list(bots), "players": players,
                                          "games": total, "seed": seed, "options": resolved})
            for entry in book.open():
                at = entry["index"]
                if not 0 <= at < total or records[at] is not None or not isinstance(entry.get("record"), dict):
                    book.close()
                    raise OptionError(f"--resume {journal}: game {at} is out of range, twice, or has no record")
                records[at] = entry["record"]
        tasks = [(loaded.name, tuple(bots[b] for b in plan[i % len(plan)]), derive_seed(seed, i), i, resolved)
                 for i in range(total) if records[i] is None]
        done = total - len(tasks)
        for played in run_journaled(runner.run(play_record, tasks), book, dict, done, progress):
            records[played["index"]] = played["record"]
        found: list[list[Position]] = [[] for _ in range(total)]
        estimates = [(record, i, per_game, settings.to_json()) for i, record in enumerate(records)]
        with closing(runner.run(estimate_game, estimates)) as finishing:
            for drawn in finishing:
                if drawn:
                    found[drawn[0].game] = drawn
                done += 1
                if progress is not None:
                    progress(done)
    return Measurement(
        game=loaded.name, players=players, bots=list(bots), seed=seed, setting=setting, settings=settings,
        fit_games=fit_games, games=games, per_game=per_game,
        fit=[p for drawn in found[:fit_games] for p in drawn],
        held_out=[p for drawn in found[fit_games:] for p in drawn],
        seconds=time.perf_counter() - start,
    )
