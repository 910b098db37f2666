"""What a seat may see of a Castell position, and positions consistent with it.

Castell hides only the order of the castellers in the bag (its contents follow from the rest),
so every view shows the whole table. A seat's view adds what its own team can build now
(`tower_preview`: the best tower for a festival of this round where its pawn stands, else its
tallest tower), which renderers show without asking the tower solver. `determinize`
reshuffles the bag.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeVar

from meeple.core.rng import Rng
from meeple.core.state import check_observer, check_seat
from meeple.games.castell.components import FIRST_FESTIVAL_ROUND, LAST_ROUND, NUM_REGIONS, REGIONS, SEG_ALL, TILE_KINDS
from meeple.games.castell.legality import MOVE_USED, RECRUIT_USED, SPECIAL_USED, TRAIN_USED
from meeple.games.castell.towers.cache import tallest
from meeple.games.castell.towers.rules import SKILLS, festival_score
from meeple.games.castell.towers.tiles import LocalTile
from meeple.games.castell.view_types import CastellView, LocalTileView, Phase, Step, TowerPreview

if TYPE_CHECKING:
    from meeple.games.castell.state import CastellState

S = TypeVar("S", bound="CastellState")

#: The phases of a round as views name them (`legality.PHASE_TURNS`, `PHASE_FESTIVAL`).
PHASES: tuple[Phase, ...] = ("turns", "festival")
#: The steps of a turn (K4, K5) by their bit in `state.used`, as views name them.
STEPS: tuple[tuple[int, Step], ...] = (
    (MOVE_USED, "move"), (RECRUIT_USED, "recruit"), (TRAIN_USED, "train"), (SPECIAL_USED, "special"),
)


def view(state: CastellState, seat: object) -> CastellView:
    """Everything `seat` may see (None: a spectator), JSON-safe."""
    seat = check_seat(state, seat)
    data = _public(state, seat)
    if seat is not None:
        data["tower_preview"] = tower_preview(state, seat)
    return data


def tower_preview(state: CastellState, seat: int) -> TowerPreview:
    """The best tower `seat` can build now: for a festival of this round in the pawn's region
    (K8, with its score), else the tallest (K6). `tower` is None when there is none."""
    team, skills = tuple(state.teams[seat]), tuple(state.skills[seat])
    for fest in state.festivals[state.round]:
        if fest.region == state.pawn[seat]:
            tower = state.best_tower(seat, fest)
            if tower:
                return {
                    "festival": state.components.festivals[fest.tile].id, "region": REGIONS[fest.region],
                    "tower": [list(level) for level in tower], "score": festival_score(tower, fest.sizes),
                }
    tower = tallest(team, skills)
    shown = [list(level) for level in tower] if tower else None
    return {"festival": None, "region": None, "tower": shown, "score": None}


def _public(state: CastellState, seat: int | None) -> CastellView:
    """The whole table, as every seat and spectators see it, with `seat` as the viewer."""
    components = state.components
    n = state.num_players
    tiles = components.local_tiles
    breakdown = state.score_breakdown()
    side = state.options["wheel"]
    return {
        "game": state.game.name, "seat": seat, "current_player": state.current_player, "over": state.over,
        "scores": [parts["total"] for parts in breakdown], "winners": state.winners(),
        "round": state.round,
        "phase": None if state.over else PHASES[state.phase],
        "first_player": state.first,
        "components": components.sha256,
        "regions": [
            {
                "id": REGIONS[r],
                "neighbours": [REGIONS[x] for x in components.neighbours[r]],
                "castellers": state.pool[r][1:],
                "tiles": [None if t < 0 else _tile_json(tiles[t]) for t in state.region_tiles[r]],
                "tokens": list(state.board_tokens[r]),
            }
            for r in range(NUM_REGIONS)
        ],
        "roads": [[REGIONS[a], REGIONS[b], style] for a, b, style in components.roads],  # a, b, road style
        "wheel": {
            "side": side,
            "rotation": (state.round - 1) % 8,
            "segments": [_segment_name(code) for code in state.wheel_side],
            "tiles": [TILE_KINDS[k] for k in state.skill_at],
            "facing": {
                _segment_name(code): TILE_KINDS[state.segment_tile(i)] for i, code in enumerate(state.wheel_side)
            },
        },
        "calendar": [
            {"round": rnd, "festivals": [
                {"id": components.festivals[f.tile].id, "region": REGIONS[f.region], "sizes": list(f.tokens)}
                for f in state.festivals[rnd]
            ]}
            for rnd in range(FIRST_FESTIVAL_ROUND, LAST_ROUND + 1)
        ],
        "players": [
            {
                "pawn": REGIONS[state.pawn[p]] if state.pawn[p] >= 0 else None,
                "team": state.teams[p][1:],
                "skills": dict(zip(SKILLS, state.skills[p])),
                "special_tokens": state.tokens_left[p],
                "board": {
                    REGIONS[r]: {
                        "tokens": state.player_board_tokens[p][r],
                        "prizes": [v for rr, v in state.prizes[p] if rr == r],
                        "size_tokens": [s for rr, s in state.size_tokens[p] if rr == r],
                    }
                    for r in range(NUM_REGIONS)
                },
                "performances": [_tile_json(tiles[t]) for t in state.claimed[p]],
                "best_tower": state.best[p],
                "score": breakdown[p],
            }
            for p in range(n)
        ],
        "bag": {"count": len(state.bag), "castellers": state.bag_counts()[1:]},
        "turn": {
            "used": [name for bit, name in STEPS if state.used & bit],
            "recruit_open": state.recruit_open,
            "free_special": state.free_special,
        },
        "festival": {
            "queue": list(state.queue),
            "entries": [{"seat": s, "slot": slot, "tower": [list(v) for v in t]} for s, slot, t in state.entries],
        },
        "results": state.results,
    }


def determinize(state: S, observer: object, rng: Rng) -> S:
    """A copy with the bag reshuffled: the only thing no seat sees is its order."""
    observer = check_observer(state, observer)
    sample = state.clone()
    sample.bag = sorted(state.bag)  # canonical first, so the sample ignores the hidden order
    rng.shuffle(sample.bag)
    return sample


def _segment_name(code: int) -> str:
    return "all" if code == SEG_ALL else "none" if code < 0 else REGIONS[code]


def _tile_json(tile: LocalTile) -> LocalTileView:
    return {
        "id": tile.id, "kind": tile.kind, "stars": tile.stars, "widths": list(tile.widths),
        "min_levels": tile.min_levels, "uses": list(tile.uses),
    }
