"""The arena: many seeded games between bots, with fair seating and honest statistics.

Seating. With bots b0..b(B-1) and P seats, each rotation r of the bot list gives a lineup: the
first P bots of the list read cyclically from b_r (a bot repeats when P > B; only a window of
the bots plays when P < B). Every distinct ordering of every lineup is a seating; the sorted
list of seatings is cycled through by game index, so when `games` is a multiple of the number of
seatings every seating appears equally often, and every bot sits in every seat equally often.
Two bots in two seats give two seatings (A,B) and (B,A); three bots in three seats give six.

Duplicate deals. Game i is dealt with the seed meeple.ai.match.derive_seed(seed, i // S), S the
number of seatings: each deal is played once in every seating (as in duplicate bridge), so the
luck of the deal cancels out between the bots instead of adding noise to the comparison.

Determinism. Each game's seed depends only on (seed, game index), and each seat's bot draws
from a stream derived from (game seed, seat) by meeple.ai.match.play_game, so the same arguments
give the same games whatever runs them (worker processes, or Ray tasks on one machine or a
cluster: meeple.ai.backends) and however many; results are gathered by game index. Only timings
(and searches that hit a time cap) can vary.

Statistics per bot, over its appearances (one per seat it held in a game): win share (a win
shared by k seats counts 1/k) with a Wilson 95% interval, mean score with a Student t 95%
interval, and an OpenSkill Plackett-Luce rating from the games replayed in index order.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import permutations
from pathlib import Path
from typing import Any

from meeple.ai.backends import open_backend
from meeple.ai.bots import Bot, make_bot
from meeple.ai.journal import ArenaJournal, run_journaled
from meeple.ai.match import derive_seed, play_game
from meeple.ai.ratings import mean_ci95, openskill_ratings, ranks_from_results, wilson_ci95
from meeple.core.errors import OptionError
from meeple.core.observation import Observation
from meeple.core.protocol import Action
from meeple.core.registry import load
from meeple.core.rng import Rng
from meeple.core.state import State


def seatings(num_bots: int, players: int) -> list[tuple[int, ...]]:
    """Every seating (bot index per seat) the arena rotates through; see the module docstring."""
    if num_bots < 1:
        raise OptionError("the arena needs at least one bot")
    found: set[tuple[int, ...]] = set()
    for r in range(num_bots):
        lineup = [(r + j) % num_bots for j in range(players)]
        found.update(permutations(lineup))
    return sorted(found)


@dataclass(frozen=True)
class GameOutcome:
    """One finished game. `seating[s]` is the index (into the bot list) of the bot at seat s."""

    index: int
    seed: int
    seating: tuple[int, ...]
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    rewards: tuple[float, ...]
    moves: int
    seconds: float
    max_move_seconds: tuple[float, ...]
    time_capped_moves: int

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "seating": list(self.seating),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "moves": self.moves,
        }

    def journal_json(self) -> dict[str, Any]:
        """Everything, timings too, for the journal of a run that may be resumed."""
        return {**self.to_json(), "rewards": list(self.rewards), "seconds": self.seconds,
                "max_move_seconds": list(self.max_move_seconds), "time_capped_moves": self.time_capped_moves}

    @classmethod
    def from_journal(cls, entry: dict[str, Any]) -> GameOutcome:
        """The outcome `journal_json` wrote; OptionError if the entry is not one."""
        try:
            outcome = cls(
                index=int(entry["index"]), seed=int(entry["seed"]), seating=tuple(int(b) for b in entry["seating"]),
                scores=tuple(int(x) for x in entry["scores"]), winners=tuple(int(w) for w in entry["winners"]),
                rewards=tuple(float(r) for r in entry["rewards"]), moves=int(entry["moves"]),
                seconds=float(entry["seconds"]), max_move_seconds=tuple(float(t) for t in entry["max_move_seconds"]),
                time_capped_moves=int(entry["time_capped_moves"]),
            )
        except (KeyError, TypeError, ValueError):
            raise OptionError(f"a journal line is not a finished game: {str(entry)[:80]}") from None
        if outcome.journal_json() != entry:
            raise OptionError(f"a journal line is not a finished game: {str(entry)[:80]}")
        return outcome


@dataclass
class BotSummary:
    name: str
    index: int
    appearances: int
    wins: float
    win_share: float
    win_share_ci95: tuple[float, float]
    mean_score: float
    score_ci95: tuple[float, float]
    mu: float
    sigma: float
    ordinal: float
    max_move_seconds: float

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "index": self.index,
            "appearances": self.appearances,
            "wins": round(self.wins, 6),
            "win_share": round(self.win_share, 6),
            "win_share_ci95": [round(x, 6) for x in self.win_share_ci95],
            "mean_score": round(self.mean_score, 6),
            "score_ci95": [round(x, 6) for x in self.score_ci95],
            "rating": {"mu": round(self.mu, 6), "sigma": round(self.sigma, 6), "ordinal": round(self.ordinal, 6)},
        }


@dataclass
class ArenaResult:
    game: str
    players: int
    bots: list[str]
    seed: int
    options: dict[str, Any]
    seatings: list[tuple[int, ...]]
    outcomes: list[GameOutcome]
    summaries: list[BotSummary]
    workers: int = 1
    backend: str = "process"
    seconds: float = 0.0
    seat_win_share: list[float] = field(default_factory=list)

    @property
    def balanced(self) -> bool:
        """True when every seating was played equally often."""
        return len(self.outcomes) % len(self.seatings) == 0

    def to_json(self) -> dict[str, Any]:
        """Everything machine-readable. All but the "timing" entry is determined by the
        arguments (unless a search hit its time cap: see "timing".time_capped_moves)."""
        return {
            "game": self.game,
            "players": self.players,
            "games": len(self.outcomes),
            "seed": self.seed,
            "options": dict(self.options),
            "bot_specs": list(self.bots),
            "seatings": [list(s) for s in self.seatings],
            "balanced": self.balanced,
            "bots": [s.to_json() for s in self.summaries],
            "seat_win_share": [round(x, 6) for x in self.seat_win_share],
            "results": [o.to_json() for o in self.outcomes],
            "timing": {
                "backend": self.backend,
                "workers": self.workers,
                "seconds": round(self.seconds, 3),
                "time_capped_moves": sum(o.time_capped_moves for o in self.outcomes),
                "max_move_seconds": {s.name if self.bots.count(s.name) == 1 else f"{s.name}#{s.index}":
                                     round(s.max_move_seconds, 4) for s in self.summaries},
            },
        }

    def table(self) -> str:
        """A plain-text summary for people."""
        lines = [
            f"{self.game}, {self.players} players, {len(self.outcomes)} games, seed {self.seed}"
            f"{'' if self.balanced else ' (seatings not balanced)'}",
            f"{'bot':<28}{'win share':>22}{'mean score':>26}{'rating mu±sigma':>20}",
        ]
        for s in self.summaries:
            win = f"{s.win_share:.3f} [{s.win_share_ci95[0]:.3f},{s.win_share_ci95[1]:.3f}]"
            score = f"{s.mean_score:.2f} [{s.score_ci95[0]:.2f},{s.score_ci95[1]:.2f}]"
            lines.append(f"{s.name:<28}{win:>22}{score:>26}{f'{s.mu:.2f}±{s.sigma:.2f}':>20}")
        return "\n".join(lines)


# -- playing -------------------------------------------------------------------------------------


class _Timed(Bot):
    """Wraps a bot to record its slowest move and how many of its searches hit a time cap."""

    def __init__(self, bot: Bot) -> None:
        self.bot = bot
        self.name = bot.name
        self.slowest = 0.0
        self.capped = 0

    def choose(self, position: State[Any] | Observation[Any], rng: Rng) -> Action:
        start = time.perf_counter()
        action = self.bot.choose(position, rng)
        self.slowest = max(self.slowest, time.perf_counter() - start)
        last = getattr(self.bot, "last", None)
        if last is not None and getattr(last, "hit_time", False):
            self.capped += 1
        return action

    def decide(self, seen: Observation[Any], rng: Rng) -> Action:
        return self.choose(seen, rng)


def play_arena_game(game_name: str, specs: tuple[str, ...], seed: int, index: int,
                    seating: tuple[int, ...], options: dict[str, Any]) -> GameOutcome:
    """Play one game with the bot `specs[s]` at seat s (through meeple.ai.match, whose moves go
    through `apply`, so a bot that returns an illegal move stops the arena naming the rule)."""
    start = time.perf_counter()
    bots = [_Timed(make_bot(spec)) for spec in specs]
    state, result = play_game(load(game_name), bots, seed, options)
    return GameOutcome(
        index=index,
        seed=seed,
        seating=seating,
        scores=tuple(result.scores),
        winners=tuple(result.winners),
        rewards=tuple(state.rewards()),
        moves=result.actions,
        seconds=time.perf_counter() - start,
        max_move_seconds=tuple(b.slowest for b in bots),
        time_capped_moves=sum(b.capped for b in bots),
    )


def run_arena(
    game: str,
    bots: list[str],
    players: int,
    games: int,
    seed: int,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
    options: dict[str, Any] | None = None,
    journal: Path | None = None,
    backend: str = "process",
    address: str | None = None,
) -> ArenaResult:
    """Play `games` games of `game` between `bots` (specs such as "ismcts:normal") and
    summarize them. `progress(done)` is called after each finished game. With `journal`, games
    finished by an earlier run of the same arguments are taken from it, and each new one is
    appended as it ends (meeple.ai.journal).

    `backend` says where the games run (meeple.ai.backends): "process", `workers` processes on
    this machine (default 2; 1 plays in this process), or "ray", Ray tasks on a local Ray
    instance of `workers` CPUs, or with `address` (HOST:PORT) on that Ray cluster, at most
    `workers` games at once (default: the cluster's CPUs). The results are the same."""
    loaded = load(game)
    loaded.check_players(players)
    resolved = loaded.resolve_options(options or {})
    if games < 1:
        raise OptionError(f"the arena needs at least one game, not {games}")
    specs = [spec.strip() for spec in bots]
    for spec in specs:
        make_bot(spec)  # a bad spec fails here with its one-line message
    plan = seatings(len(specs), players)
    tasks = []
    for index in range(games):
        seating = plan[index % len(plan)]
        tasks.append((loaded.name, tuple(specs[b] for b in seating), derive_seed(seed, index // len(plan)), index,
                      seating, resolved))
    outcomes: list[GameOutcome | None] = [None] * games
    start = time.perf_counter()
    # Started (or joined) before the journal is touched: a backend that cannot start writes nothing.
    with open_backend(backend, workers, games, address) as runner:
        book = None
        if journal is not None:
            book = ArenaJournal(journal, {"game": loaded.name, "bots": specs, "players": players, "games": games,
                                          "seed": seed, "options": resolved})
            for entry in book.open():
                earlier = GameOutcome.from_journal(entry)
                if not 0 <= earlier.index < games or outcomes[earlier.index] is not None:
                    book.close()
                    raise OptionError(f"--resume {journal}: game {earlier.index} is out of range or twice")
                outcomes[earlier.index] = earlier
            tasks = [task for task in tasks if outcomes[task[3]] is None]
        done = games - len(tasks)
        if progress is not None and done:
            progress(done)
        finished_games = runner.run(play_arena_game, tasks)
        for outcome in run_journaled(finished_games, book, GameOutcome.journal_json, done, progress):
            outcomes[outcome.index] = outcome
    finished = [o for o in outcomes if o is not None]
    result = summarize(loaded.name, specs, players, seed, resolved, plan, finished)
    result.workers = runner.workers
    result.backend = runner.name
    result.seconds = time.perf_counter() - start
    return result


def summarize(game: str, specs: list[str], players: int, seed: int, options: dict[str, Any],
              plan: list[tuple[int, ...]], outcomes: list[GameOutcome]) -> ArenaResult:
    """Per-bot statistics and ratings from finished games (in game-index order)."""
    shares: list[list[float]] = [[] for _ in specs]
    scores: list[list[float]] = [[] for _ in specs]
    slowest = [0.0] * len(specs)
    seat_wins = [0.0] * players
    rated = []
    for outcome in outcomes:
        for seat, bot in enumerate(outcome.seating):
            shares[bot].append(outcome.rewards[seat])
            scores[bot].append(outcome.scores[seat])
            slowest[bot] = max(slowest[bot], outcome.max_move_seconds[seat])
            seat_wins[seat] += outcome.rewards[seat]
        rated.append((outcome.seating, ranks_from_results(outcome.rewards, outcome.scores)))
    ratings = openskill_ratings(len(specs), rated)
    summaries = []
    for index, spec in enumerate(specs):
        n = len(shares[index])
        wins = sum(shares[index])
        mean, low, high = mean_ci95(scores[index]) if n else (0.0, 0.0, 0.0)
        summaries.append(BotSummary(
            name=spec,
            index=index,
            appearances=n,
            wins=wins,
            win_share=wins / n if n else 0.0,
            win_share_ci95=wilson_ci95(wins, n) if n else (0.0, 0.0),
            mean_score=mean,
            score_ci95=(low, high),
            mu=ratings[index].mu,
            sigma=ratings[index].sigma,
            ordinal=ratings[index].ordinal,
            max_move_seconds=slowest[index],
        ))
    count = len(outcomes) or 1
    return ArenaResult(
        game=game, players=players, bots=list(specs), seed=seed, options=options, seatings=plan,
        outcomes=outcomes, summaries=summaries, seat_win_share=[w / count for w in seat_wins],
    )


def plot_ratings(result: ArenaResult, path: str) -> None:
    """Write a PNG chart of the ratings (see meeple.ai.plot)."""
    from meeple.ai.plot import plot_ratings as plot

    plot(result, path)
