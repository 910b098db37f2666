"""The correction that turns the review's raw win chances into calibrated ones, per game, review
setting and player count: whatever a game's plugin declares (its `calibration` data file), the
identity else.

Why a hook: the estimator plays sampled positions out with a fast policy, which may win more or
less often than real players do from the same place; a calibration measured against finished
games maps the raw figure onto what actually happened (docs/ai.md, "Game review: calibration";
`meeple review-calibration` fits and measures it, meeple.ai.review_measure). Why per setting: the
quick setting's raw chances rest on a quarter of the worlds, so they are noisier and want a map
that pulls them in more than the default setting's do.

The map is logistic on the logit of the raw chance (Platt scaling):
`calibrated = 1 / (1 + exp(-(slope * logit(raw) + intercept)))`, the raw chance first kept
within [EDGE, 1 - EDGE] so that a sure-looking 0 or 1 (every playout lost or won) has a logit.
The data file is TOML, one table per review setting and player count it covers, with an
optional line saying how it was fitted:

    [default.players.2]
    slope = 0.81
    intercept = -0.02
    fitted = "1000 positions of 100 self-play games ..."

A setting without a map for a player count uses the other setting's map for it; a player count
neither names is left as it is.
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from meeple.core.plugin import GamePlugin, PluginError
from meeple.core.registry import game_plugin

#: A raw chance is kept this far from 0 and 1 before its logit is taken.
EDGE = 0.01
#: The steepest slope a data file may give (a larger one would turn noise into certainty).
MAX_SLOPE = 10.0
#: The largest intercept, in logits, a data file may give.
MAX_INTERCEPT = 10.0


def logit(chance: float) -> float:
    """The log-odds of `chance`, kept within [EDGE, 1 - EDGE] first."""
    p = min(1.0 - EDGE, max(EDGE, chance))
    return math.log(p / (1.0 - p))


def sigmoid(x: float) -> float:
    """The inverse of `logit`, safe for any size of `x`."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)


#: The review settings a data file may calibrate (`ReviewSettings.calibrated_as` names one).
SETTINGS = ("default", "quick")


@dataclass(frozen=True)
class Logistic:
    """One player count's map: `slope` below 1 pulls overconfident chances toward the middle,
    above 1 pushes timid ones out; `intercept` shifts every chance (the mover's edge the
    playouts miss). `fitted` says how it was fitted (kept in the data file, not compared)."""

    slope: float
    intercept: float
    fitted: str = field(default="", compare=False)

    def __call__(self, raw: float) -> float:
        return sigmoid(self.slope * logit(raw) + self.intercept)

    def shares(self, shares: Sequence[float], seat: int) -> list[float]:
        """Every seat's chance with the mover `seat`'s mapped and the others' scaled so that all
        add up to 1 (equal parts of the rest where the others' raw chances are all 0): the map
        is fitted on the mover's chance, and the others' keep their proportions."""
        clipped = [min(1.0, max(0.0, x)) for x in shares]
        mine = self(clipped[seat])
        others = sum(clipped) - clipped[seat]
        rest = 1.0 - mine
        return [mine if i == seat else (rest * x / others if others > 0 else rest / (len(clipped) - 1))
                for i, x in enumerate(clipped)]


#: A game's maps: per review setting, per player count.
Calibration = dict[str, dict[int, Logistic]]


def map_for(game: str, players: int, setting: str = "default") -> Logistic | None:
    """The map the game declares for `players` at the review `setting`, else the other setting's
    map for them, else None (the chances are left as they are)."""
    maps = calibration_of(game)
    found = maps.get(setting, {}).get(players)
    if found is not None:
        return found
    return next((maps[other][players] for other in SETTINGS if other != setting and players in maps.get(other, {})),
                None)


def calibrate(raw: float, players: int, game: str, setting: str = "default") -> float:
    """`raw` (an estimated chance, or share of the win, in [0, 1]) as the game's calibration for
    `players` seats at the review `setting` maps it (`map_for`); the identity (clipped to
    [0, 1]) where the game declares none."""
    found = map_for(game, players, setting)
    clipped = min(1.0, max(0.0, raw))
    return clipped if found is None else found(clipped)


def calibrate_shares(shares: Sequence[float], seat: int, players: int, game: str,
                     setting: str = "default") -> list[float]:
    """Every seat's raw chance (`shares`, as the mover `seat` estimated them) as the game's
    calibration for `players` at the review `setting` maps them (`Logistic.shares`); the
    identity (each clipped to [0, 1]) where the game declares none."""
    found = map_for(game, players, setting)
    return [min(1.0, max(0.0, x)) for x in shares] if found is None else found.shares(shares, seat)


def calibration_of(game: str) -> Calibration:
    """The game's calibration per review setting and player count (empty: none declared);
    PluginError naming the file and the problem when its data file cannot be read or is not of
    the shape above."""
    return _calibration(game_plugin(game))


@cache
def _calibration(plugin: GamePlugin) -> Calibration:
    target = plugin.calibration
    if target is None:
        return {}
    package, _, name = target.partition(":")
    try:
        text = resources.files(package).joinpath(name).read_text(encoding="utf-8")
    except (OSError, ImportError, ValueError) as exc:
        raise _bad(plugin, f"cannot be read ({type(exc).__name__}: {exc})") from None
    return parse_calibration(text, plugin.info.min_players, plugin.info.max_players,
                             lambda problem: _bad(plugin, problem))


def parse_calibration(text: str, min_players: int, max_players: int,
                      bad: Callable[[str], Exception] = lambda problem: PluginError(f"the calibration {problem}"),
                      ) -> Calibration:
    """The maps a calibration data file's `text` declares; `bad(problem)` is the error raised
    (by default a PluginError) for the first thing wrong with it."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise bad(f"is not TOML ({exc})") from None
    if not data or not set(data) <= set(SETTINGS) or not all(
            isinstance(value, Mapping) and set(value) == {"players"} and isinstance(value["players"], Mapping)
            for value in data.values()):
        raise bad(f"needs [SETTING.players.N] tables (SETTING one of {', '.join(SETTINGS)}), and nothing else")
    maps: Calibration = {}
    for setting, tables in data.items():
        maps[setting] = {}
        for key, value in tables["players"].items():
            where = f"{key} players at the {setting} setting"
            if not key.isdigit() or not min_players <= int(key) <= max_players:
                raise bad(f"names {key!r} players at the {setting} setting ({min_players} to {max_players} play it)")
            if not isinstance(value, Mapping) or not {"slope", "intercept"} <= set(value) <= {
                    "slope", "intercept", "fitted"}:
                raise bad(f"needs a slope and an intercept (and at most a fitted note), and nothing else, for {where}")
            slope, intercept, fitted = value["slope"], value["intercept"], value.get("fitted", "")
            if type(slope) not in (int, float) or not 0 < slope <= MAX_SLOPE:
                raise bad(f"has a slope of {slope!r} for {where}: it must be more than 0 and at most {MAX_SLOPE:g}")
            if type(intercept) not in (int, float) or not abs(intercept) <= MAX_INTERCEPT:
                raise bad(f"has an intercept of {intercept!r} for {where}: it must be from "
                          f"-{MAX_INTERCEPT:g} to {MAX_INTERCEPT:g}")
            if type(fitted) is not str:
                raise bad(f"has a fitted note of {fitted!r} for {where}: it must be text")
            maps[setting][int(key)] = Logistic(float(slope), float(intercept), fitted)
    return maps


def calibration_text(maps: Calibration, header: Sequence[str]) -> str:
    """A data file declaring `maps`, `header` as its comment lines."""
    lines = [f"# {line}" for line in header]
    for setting in SETTINGS:
        for players in sorted(maps.get(setting, {})):
            found = maps[setting][players]
            lines += ["", f"[{setting}.players.{players}]", f"slope = {found.slope:.4f}",
                      f"intercept = {found.intercept:.4f}"]
            if found.fitted:
                lines.append(f"fitted = {json.dumps(found.fitted, ensure_ascii=False)}")
    return "\n".join(lines) + "\n"


def _bad(plugin: GamePlugin, problem: str) -> PluginError:
    return PluginError(f"game plugin {plugin.name!r}: its calibration {plugin.calibration!r} {problem}")
