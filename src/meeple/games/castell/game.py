"""The Castell game definition: players, options, action space, construction."""

from __future__ import annotations

from typing import Any

from meeple.core.errors import MeepleError, RecordError
from meeple.core.protocol import Game, OptionSpec, SearchTuning

from . import actions as A
from .components import WHEELS, components_for_option, parse_components_option
from .state import CastellState


class CastellGame(Game):
    name = "castell"
    title = "Castell"
    min_players = 2
    max_players = 4
    option_specs = (
        OptionSpec("wheel", "standard", "skill wheel side: standard (All Regions) or advanced (No Regions)", WHEELS),
        OptionSpec(
            "components", "",
            "directory of component data files replacing the shipped ones (DIR, or DIR#sha256=HEX to pin them)",
        ),
        OptionSpec(
            "performance_tokens", "own",
            "tokens a local performance moves to the player board: own (ruling K10) or all (rulebook text)",
            ("own", "all"),
        ),
    )
    heuristics_module = "meeple.games.castell.heuristics"
    #: Greedy rollouts cut off after 8 plies, then `heuristics.evaluate` (docs/ai.md).
    search = SearchTuning(rollout="greedy", cutoff=8)

    def benchmarks(self) -> dict[str, Any]:
        """`meeple bench castell --part towers`: the tower solver on random mid-game teams."""
        return {"towers": _bench_towers}

    def _new_state(self, num_players: int, seed: int, options: dict[str, Any]) -> CastellState:
        comp = components_for_option(options["components"])
        options = dict(options)
        directory, _ = parse_components_option(options["components"])
        if directory:
            # Pin the content so a record of this game replays only against the same files.
            options["components"] = f"{directory}#sha256={comp.sha256}"
        return CastellState.setup(self, num_players, seed, options, comp)

    def num_actions(self, num_players: int, **options: Any) -> int:
        self.check_players(num_players)
        self.resolve_options(options)
        return A.NUM_ACTIONS

    def action_from_json(self, obj: Any) -> Any:
        return A.action_from_json(obj)

    def _state_from_json(self, obj: dict[str, Any]) -> CastellState:
        options = obj["options"]
        if not isinstance(options, dict):
            raise RecordError("malformed Castell state: options must be an object")
        resolved = self.resolve_options(options)
        self.check_players(obj["num_players"])
        try:
            comp = components_for_option(resolved["components"])
        except MeepleError as exc:
            raise RecordError(f"cannot load the state's components: {exc}") from None
        return CastellState.from_json(self, {**obj, "options": resolved}, comp)


def _bench_towers(seconds: float, seed: int) -> dict[str, Any]:
    from .towers import bench_towers

    report = bench_towers(seconds, seed)
    report["summary"] = (
        f"Castell tower solver: median {report['median_ms']} ms, p99 {report['p99_ms']} ms, "
        f"max {report['max_ms']} ms over {report['solves']} festival solves"
    )
    return report
