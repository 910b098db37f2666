"""Castell's observation encoder: one flat float32 vector from `state.view(seat)`.

The layout (offsets, sizes, meaning) is documented in `docs/games/castell.md`, section
"Observation encoding (meeple.envs)". Seats are seat-relative: block k describes seat
`(seat + k) % num_players`, the observer first, then the others clockwise (the direction the
first player marker passes). Regions keep their canonical order (`REGIONS`). Every count is
divided by a bound it cannot exceed, so values lie in [0, 1]; the castellers of each size are
divided by that size's total in play, which the view shows (bag + regions + teams). Three values
are clipped at 1: tile level widths (at 16), size-token counts with user component files, and the
special-action tokens on one region of a player board (divided by a seat's 7, though a
performance moves every seat's tokens of the region there, up to 7 x players). Besides the
view, only the rule options (`options`, public) and the game's constants are read.

The vector is joined from `castell_blocks`' blocks; `encode_state` (`castell_state`, compiled)
joins the same blocks from the state's own fields, for the env's every step.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from meeple.batch.castell_layout import NR, NS, SCORE_KEYS, WHEEL_SIDES, layout
from meeple.envs.encoders import castell_blocks as blocks
from meeple.envs.encoders.castell_recall import recall as recall  # the RecallEncoder part (OpenSpiel)
from meeple.envs.encoders.castell_recall import recall_size as recall_size
from meeple.envs.encoders.castell_state import encode_state as encode_state  # the env's fast path
from meeple.envs.encoders.castell_state import joined, option_flags
from meeple.games.castell.components import REGIONS
from meeple.games.castell.towers.rules import SKILLS

if TYPE_CHECKING:
    from meeple.games.castell.view_types import CastellView


def shape(num_players: int, options: Mapping[str, Any]) -> tuple[int, ...]:
    """The encoding's shape: one flat vector, its length depending on the player count only."""
    return (layout(num_players)["total"][1],)


def encode(view: CastellView, seat: int, num_players: int, options: Mapping[str, Any]) -> np.ndarray:
    """The observation of `seat` from its own view, a float32 vector of `shape(...)`."""
    p = num_players
    order = [(s - seat) % p for s in range(p)]  # seat -> its place from the observer
    regions = view["regions"]
    players = view["players"]
    bag = view["bag"]["castellers"]
    # castellers of each size in play: bag + regions + teams (constant through a game)
    totals = list(bag)
    for row in [r["castellers"] for r in regions] + [pl["team"] for pl in players]:
        for i in range(NS):
            totals[i] += row[i]
    in_play = tuple(totals)
    wheel = view["wheel"]
    turn = view["turn"]
    current = view["current_player"]
    parts = [
        blocks.header(p, view["round"], blocks.PHASE["over" if view["phase"] is None else view["phase"]],
                      WHEEL_SIDES.index(wheel["side"]), option_flags(options),
                      -1 if current is None else order[current], order[view["first_player"]], tuple(turn["used"]),
                      turn["recruit_open"], turn["free_special"]),
        blocks.bag(view["bag"]["count"], tuple(bag), in_play),
        blocks.wheel(wheel["rotation"], tuple(blocks.SEGMENT[name] for name in wheel["segments"]),
                     tuple(blocks.KIND[name] for name in wheel["tiles"]),
                     tuple((blocks.SEGMENT[name], blocks.KIND[kind]) for name, kind in wheel["facing"].items()
                           if name != "none")),
    ]
    for region in regions:
        parts += (blocks.castellers(in_play, tuple(region["castellers"])),
                  blocks.region(tuple(blocks.REGION[name] for name in region["neighbours"]),
                                tuple(None if t is None else (t["kind"], t["stars"], tuple(t["widths"]),
                                                              t["min_levels"], tuple(t["uses"]))
                                      for t in region["tiles"]),
                                blocks.relative(region["tokens"], seat)))
    parts.append(blocks.calendar(tuple(
        (entry["round"], tuple((blocks.REGION[fest["region"]], tuple(fest["sizes"])) for fest in entry["festivals"]))
        for entry in view["calendar"])))
    queue = view["festival"]["queue"]
    entered = {e["seat"]: e["slot"] for e in view["festival"]["entries"]}
    winners = view["winners"]
    for j in range(p):
        s = (seat + j) % p
        pl = players[s]
        pawn = pl["pawn"]
        board = pl["board"]
        parts += (
            blocks.hand(in_play, NR if pawn is None else blocks.REGION[pawn], tuple(pl["team"]),
                        tuple(pl["skills"][k] for k in SKILLS), pl["special_tokens"]),
            blocks.player_board(
                tuple((board[name]["tokens"], tuple(board[name]["prizes"]), tuple(board[name]["size_tokens"]))
                      for name in REGIONS),
                len(pl["performances"]), tuple(pl["score"][k] for k in SCORE_KEYS), s in queue, entered.get(s, -1),
                s in winners))
    preview = view.get("tower_preview")
    parts.append(blocks.preview(None if preview is None else blocks.preview_values(preview)))
    return joined(parts)
