"""Information-set Monte Carlo tree search (single-observer ISMCTS) over the game protocol.

Why this algorithm: every meeple game hides something (face-down tokens, hands, draw piles), so
a bot must not search the true state. Each iteration samples a determinization from the bot's
own view (`state.determinize(me, rng)`), walks one shared tree whose nodes are keyed by the
action ids along the path (what the bot can observe of every move), and backs up per-seat
rewards, so it plays any number of players. Children are scored with UCB1 using availability
counts (how often a child was legal in the sampled worlds that reached its parent), as in
Cowling, Powley and Whitehouse (2012), "Information Set Monte Carlo Tree Search".

The bot never reads hidden information: it touches the real state only to call
`determinize(me, rng)`, `current_player` and its own `legal_actions()`. Its decision therefore
depends only on its view and its seed, provided the game's `determinize` does (tests check it).

Policies are pluggable per game: rollouts are uniformly random or follow the game's greedy
heuristic (`heuristics_of(game).choose`, optionally with random moves mixed in), and a rollout may
stop after `cutoff` plies and score the position with `heuristics_of(game).evaluate(state)`.
"""

from __future__ import annotations

import gc
import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from meeple.ai.bots import Bot, register_bot
from meeple.ai.heuristics import heuristics_of
from meeple.core.errors import OptionError
from meeple.core.observation import Observation
from meeple.core.protocol import Action, SearchTuning
from meeple.core.registry import load
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.core.values import rebuild_by_fields


@dataclass(frozen=True)
class SearchConfig:
    """What one search may spend and how it plays out positions.

    The search stops at whichever budget runs out first: `iterations` (exact, reproducible) or
    `seconds` (wall clock, never overrun by more than 10%). `rollout` is "random" or "greedy";
    a greedy rollout plays a uniformly random move with probability `epsilon`. `cutoff` stops a
    rollout after that many plies and uses the game's `evaluate`. `score_weight` blends a
    normalized score share into the win reward so that lost or won positions still prefer
    the better score. `exploration` is the UCB1 constant for rewards in [0, 1]. With
    `scale_cutoff` the cut-off is the depth at two players, i.e. per opponent, and grows with
    the table: `cutoff * (players - 1)` plies, so that the playout covers about as much of the
    opponents' play (a round of turns) before the evaluation whatever the number of players.
    With `greedy_margin` the bot plays the game's greedy move unless the search found a move
    whose mean reward beats it by more than the margin: where the search's estimates are too
    noisy to rank moves that the heuristic ranks well, the heuristic decides.
    """

    iterations: int | None = None
    seconds: float | None = None
    rollout: str = "random"
    epsilon: float = 0.0
    cutoff: int | None = None
    score_weight: float = 0.0
    exploration: float = 0.7
    scale_cutoff: bool = False
    greedy_margin: float | None = None

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        return rebuild_by_fields(self)  # copy and pickle in the compiled build too

    def __post_init__(self) -> None:
        if self.iterations is None and self.seconds is None:
            raise OptionError("an ISMCTS search needs an iteration or a time budget")
        if self.iterations is not None and self.iterations < 1:
            raise OptionError(f"ISMCTS iterations must be at least 1, not {self.iterations}")
        if self.seconds is not None and not self.seconds > 0:
            raise OptionError(f"ISMCTS seconds must be positive, not {self.seconds}")
        if self.rollout not in ("random", "greedy"):
            raise OptionError(f"ISMCTS rollout must be random or greedy, not {self.rollout!r}")
        if not 0.0 <= self.epsilon <= 1.0:
            raise OptionError(f"ISMCTS epsilon must be in [0, 1], not {self.epsilon}")
        if self.cutoff is not None and self.cutoff < 0:
            raise OptionError(f"ISMCTS cutoff must be 0 or more, not {self.cutoff}")
        if not 0.0 <= self.score_weight <= 1.0:
            raise OptionError(f"ISMCTS score_weight must be in [0, 1], not {self.score_weight}")
        if self.greedy_margin is not None and not 0.0 <= self.greedy_margin <= 1.0:
            raise OptionError(f"ISMCTS greedy_margin must be in [0, 1], not {self.greedy_margin}")


#: Budgets per difficulty: an iteration count (so arena results repeat exactly) capped by a
#: time a person will wait; the cap only binds on slow positions or slow machines.
LEVELS: dict[str, dict[str, Any]] = {
    "easy": {"iterations": 150, "seconds": 0.4},
    "normal": {"iterations": 600, "seconds": 1.0},
    "hard": {"iterations": 4000, "seconds": 1.8},
}

#: How far each level trusts its own search over the game's greedy move: a factor on the game's
#: `greedy_margin`, which is stated for `normal`. A mean reward's standard error shrinks with the
#: square root of its visits, so hard's 4000/600 iterations justify about 1/sqrt(6.7) = 0.39 of
#: the margin; 0.4 is the factor the arena measured (docs/ai.md, "Celtica: hard against normal").
#: `easy` keeps normal's margin rather than leaning further on the heuristic.
MARGIN_SCALE: dict[str, float] = {"easy": 1.0, "normal": 1.0, "hard": 0.4}

# Each game says how it should be searched (`Game.search`, a `SearchTuning`): its playout policy,
# the cut-off depth for long games, an exploration constant, and an iteration scale for games
# with many alternatives per move. Tuned with the arena; docs/ai.md has the trials.


@dataclass
class SearchStats:
    """What the last search did: for logs, hints, benchmarks and the time-budget tests."""

    iterations: int = 0
    seconds: float = 0.0
    hit_time: bool = False
    visits: dict[int, int] = field(default_factory=dict)
    values: dict[int, float] = field(default_factory=dict)


class _Node:
    """A tree node: the move into it (made by `mover`) and its statistics."""

    __slots__ = ("mover", "visits", "avail", "total", "children")

    def __init__(self, mover: int) -> None:
        self.mover = mover
        self.visits = 0
        self.avail = 1
        self.total = 0.0
        self.children: dict[int, _Node] = {}


class _Abort(Exception):
    """The hard deadline passed inside an iteration: drop it without backing up."""


class ISMCTSBot(Bot):
    """Single-observer ISMCTS with availability counts; see the module docstring."""

    def __init__(self, config: SearchConfig, name: str = "ismcts") -> None:
        self.config = config
        self.name = name
        self.last = SearchStats()

    # -- the Bot interface ---------------------------------------------------------------------
    def choose(self, position: State[Any] | Observation[Any], rng: Rng) -> Action:
        start = time.perf_counter()  # the time cap counts the observation too
        seen = position if isinstance(position, Observation) else Observation.of(position)
        return self._decide(seen, rng, start)

    def decide(self, seen: Observation[Any], rng: Rng) -> Action:
        return self._decide(seen, rng, time.perf_counter())

    def _decide(self, seen: Observation[Any], rng: Rng, start: float) -> Action:
        legal: list[Action] = seen.legal_actions()
        if len(legal) == 1:
            self.last = SearchStats(visits={seen.action_id(legal[0]): 0})
            return legal[0]
        stats = self.search(seen.sample, rng, start)
        by_id = {seen.action_id(a): a for a in legal}
        best = max(by_id, key=lambda aid: (stats.visits.get(aid, 0), stats.values.get(aid, 0.0), -aid))
        margin = self.config.greedy_margin
        if margin is not None:
            greedy = seen.action_id(self._greedy(seen)(seen.sample, rng))
            if stats.visits.get(greedy) and stats.values[best] - stats.values[greedy] <= margin:
                return by_id[greedy]
        return by_id[best]

    @staticmethod
    def _greedy(seen: Observation[Any]) -> Callable[[State[Any], Rng], Action]:
        module = heuristics_of(seen.game)
        if module is None:
            raise OptionError(f"{seen.game.title} has no greedy heuristic for an ISMCTS greedy_margin")
        choose: Callable[[State[Any], Rng], Action] = module.choose
        return choose

    # -- search --------------------------------------------------------------------------------
    def search(self, state: State[Any], rng: Rng, start: float | None = None) -> SearchStats:
        """Run one search for `state.current_player` and return the root statistics. The time
        budget counts from `start` (a `time.perf_counter()` value; default: now). The search
        reads `state` only through `determinize(me, rng)`, so an observation's sample serves."""
        if start is None:
            start = time.perf_counter()
        # A garbage collection can pause for 0.1 s or more once a process holds large caches
        # (a game's solver caches), which alone would break the 10% time promise; the search makes no
        # reference cycles, so the collector is paused. Resuming it would trigger the collection
        # its counts owe at the next allocation, inside the move after the deadline; collecting
        # the young generations before resuming, within the margin, settles those counts.
        collecting = gc.isenabled()
        gc.disable()
        try:
            return self._search(state, rng, start)
        finally:
            if collecting:
                gc.collect(1)
                gc.enable()

    def _search(self, state: State[Any], rng: Rng, start: float) -> SearchStats:
        config = self.config
        me = state.current_player
        if me is None:
            raise OptionError("the game is over: there is no move to search")
        policy = _Policy(state.game, config, rng, state.num_players)
        root = _Node(-1)
        soft = hard = math.inf
        if config.seconds is not None:
            # No new iteration after 95% of the budget; an iteration still running at 100% is
            # dropped. What is left of the 10% margin covers one game step and the bookkeeping.
            soft = start + config.seconds * 0.95
            hard = start + config.seconds
        limit = config.iterations if config.iterations is not None else math.inf
        done = 0
        hit_time = False
        clock = time.perf_counter
        while done < limit:
            if clock() >= soft:
                hit_time = True
                break
            try:
                self._iterate(root, state.determinize(me, rng), rng, policy, hard)
            except _Abort:
                hit_time = True
                break
            done += 1
        stats = SearchStats(iterations=done, seconds=clock() - start, hit_time=hit_time)
        for aid, child in root.children.items():
            stats.visits[aid] = child.visits
            stats.values[aid] = child.total / child.visits if child.visits else 0.0
        self.last = stats
        return stats

    def _iterate(self, root: _Node, s: State[Any], rng: Rng, policy: _Policy, hard: float) -> None:
        """One iteration on the determinization `s`: select, expand, play out, back up."""
        node = root
        path = [root]
        c = self.config.exploration
        log, sqrt = math.log, math.sqrt
        while True:
            p = s.current_player
            if p is None:
                break
            acts = s.legal_actions()
            action_id = s.action_id
            children = node.children
            untried = []
            known = []
            for a in acts:
                aid = action_id(a)
                child = children.get(aid)
                if child is None:
                    untried.append((aid, a))
                else:
                    child.avail += 1
                    known.append((child, a))
            if untried:
                aid, a = untried[rng.below(len(untried))]
                child = _Node(p)
                children[aid] = child
                s.step(a)
                path.append(child)
                break
            best_value = -math.inf
            best = known[0]
            for pair in known:
                child = pair[0]
                if child.visits == 0:
                    best = pair
                    break
                value = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                if value > best_value:
                    best_value = value
                    best = pair
            s.step(best[1])
            node = best[0]
            path.append(node)
            if time.perf_counter() > hard:
                raise _Abort
        reward = policy.playout(s, hard)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.total += reward[visited.mover]


def seat_cutoff(cutoff: int, players: int) -> int:
    """A two-player cut-off depth scaled to `players` seats (`SearchConfig.scale_cutoff`)."""
    return cutoff * max(1, players - 1)


class _Policy:
    """Plays a determinization onwards and turns the result into per-seat rewards."""

    def __init__(self, game: Any, config: SearchConfig, rng: Rng, players: int = 2) -> None:
        self.rng = rng
        self.cutoff = config.cutoff
        if config.cutoff is not None and config.scale_cutoff:
            self.cutoff = seat_cutoff(config.cutoff, players)
        self.epsilon = config.epsilon
        self.score_weight = config.score_weight
        self.choose: Callable[[State[Any], Rng], Action] | None = None
        self.evaluate: Callable[[State[Any]], list[float]] | None = None
        if config.rollout == "greedy":
            module = heuristics_of(game)
            if module is None:
                raise OptionError(f"{game.title} has no greedy heuristic for ISMCTS rollouts")
            self.choose = module.choose
        if config.cutoff is not None:
            module = heuristics_of(game)
            if module is None:
                raise OptionError(f"{game.title} has no evaluate() for an ISMCTS cut-off")
            self.evaluate = module.evaluate

    def playout(self, s: State[Any], hard: float) -> list[float]:
        rng = self.rng
        choose = self.choose
        epsilon = self.epsilon
        cutoff = self.cutoff
        clock = time.perf_counter
        depth = 0
        while s.current_player is not None:
            if cutoff is not None and depth >= cutoff:
                assert self.evaluate is not None
                return self.evaluate(s)
            if choose is None or (epsilon and rng.random() < epsilon):
                acts = s.legal_actions()
                s.step(acts[rng.below(len(acts))])
            else:
                s.step(choose(s, rng))
            depth += 1
            if clock() > hard:
                raise _Abort
        return self.reward(s)

    def reward(self, s: State[Any]) -> list[float]:
        wins = s.rewards()
        weight = self.score_weight
        if not weight:
            return wins
        scores = s.scores()
        low, high = min(scores), max(scores)
        spread = high - low
        shares = [(x - low) / spread if spread else 0.5 for x in scores]
        return [(1.0 - weight) * w + weight * x for w, x in zip(wins, shares)]


# -- specs, levels and registration ----------------------------------------------------------


def parse_level(level: str | None, tuning: SearchTuning | None = None) -> SearchConfig:
    """The config for a spec's level text, e.g. "hard", "800", "1.5s" or
    "normal,rollout=greedy,epsilon=0.2,cutoff=10,score_weight=0.1,c=0.5,scale_cutoff=1,greedy_margin=0.05".

    The first part is a level name (its iterations scaled by the game's `tuning`, its share of
    the tuning's greedy margin by `MARGIN_SCALE`), an iteration count or seconds ("1.5s"); the
    rest override the game's tuning and the defaults.
    """
    parts = [p.strip() for p in (level or "normal").split(",") if p.strip()] or ["normal"]
    head, rest = parts[0], parts[1:]
    budget: dict[str, Any]
    if "=" in head:
        head, rest = "normal", parts
    settings: dict[str, Any] = tuning.settings() if tuning else {}
    if head in LEVELS:
        budget = dict(LEVELS[head])
        budget["iterations"] = round(budget["iterations"] * (tuning.iteration_scale if tuning else 1.0))
        if settings.get("greedy_margin") is not None:
            settings["greedy_margin"] = round(settings["greedy_margin"] * MARGIN_SCALE[head], 6)
    else:
        budget = _budget(head)
    settings.update(budget)
    kinds = {"iterations": int, "seconds": float, "rollout": str, "epsilon": float, "cutoff": int,
             "score_weight": float, "c": float, "scale_cutoff": bool, "greedy_margin": float}
    for part in rest:
        key, sep, value = part.partition("=")
        if not sep or key not in kinds:
            raise OptionError(f"bad ISMCTS setting {part!r} (settings: {', '.join(kinds)})")
        if kinds[key] is bool:
            converted: Any = _flag(value, key)
        else:
            converted = value if kinds[key] is str else _number(value, kinds[key], key)
        settings["exploration" if key == "c" else key] = converted
    return SearchConfig(**settings)


def _budget(text: str) -> dict[str, Any]:
    """An iteration count ("800") or seconds ("1.5s"); anything else names no level."""
    try:
        if text.endswith("s"):
            return {"seconds": float(text[:-1])}
        return {"iterations": int(text)}
    except ValueError:
        raise OptionError(f"bad ISMCTS level {text!r} (levels: {', '.join(LEVELS)}, an iteration count "
                          "such as 800, or seconds such as 1.5s)") from None


def _flag(text: str, what: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise OptionError(f"ISMCTS {what} must be 1 or 0, not {text!r}")


def _number(text: str, kind: type, what: str) -> Any:
    try:
        return kind(text)
    except ValueError:
        raise OptionError(f"ISMCTS {what} must be a number, not {text!r}") from None


class _GameTunedBot(ISMCTSBot):
    """An ISMCTS bot whose per-game policy is looked up when it first sees a game, because a
    spec like "ismcts:normal" names no game."""

    def __init__(self, level: str | None) -> None:
        self.level = level
        super().__init__(parse_level(level), name="ismcts" + (f":{level}" if level else ""))
        self._configs: dict[str, SearchConfig] = {}

    def search(self, state: State[Any], rng: Rng, start: float | None = None) -> SearchStats:
        name = state.game.name
        if name not in self._configs:
            self._configs[name] = parse_level(self.level, state.game.search)
        self.config = self._configs[name]
        return super().search(state, rng, start)


register_bot("ismcts", _GameTunedBot)


# -- performance ---------------------------------------------------------------------------------


def bench_ismcts(game_name: str, players: int, seconds: float, seed: int,
                 level: str | None = None, iterations: int | None = None) -> dict[str, Any]:
    """Search the opening position of a seeded game for `seconds` (or exactly `iterations`, a
    fixed workload); iterations per second is the figure that decides how strong a level can be
    within a person's patience."""
    game = load(game_name)
    state = game.new_game(players, seed=seed)
    config = replace(parse_level(level, game.search), iterations=iterations,
                     seconds=None if iterations is not None else seconds)
    bot = ISMCTSBot(config, name="ismcts")
    stats = bot.search(state, Rng(seed))
    return {
        "game": game.name,
        "players": players,
        "seed": seed,
        "budget_s": seconds,
        "iterations": stats.iterations,
        "elapsed_s": round(stats.seconds, 4),
        "iterations_per_s": round(stats.iterations / stats.seconds, 1) if stats.seconds else 0.0,
        "rollout": config.rollout,
        "cutoff": config.cutoff,
    }
