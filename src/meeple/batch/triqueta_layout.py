"""Triqueta's observation layout: the offsets of the flat float32 vector both the encoder
(`meeple.envs.encoders.triqueta`, from a view) and the batched simulator (`meeple.batch.triqueta`,
from arrays) write, declared once so the two cannot drift apart. Table: docs/games/triqueta.md,
"Observation encoding".
"""

from __future__ import annotations

from meeple.games.triqueta.components import (
    MAX_PLAYERS,
    NUM_ANIMALS,
    NUM_TOKENS,
    TOKENS_PER_ANIMAL,
    TOWERS,
    TREE_TILES,
    VALUES,
)

MIN_PLAYERS = 2
#: A duo draw returns at most one of its two tokens to the box: at most half the tokens.
MAX_RETURNED = NUM_TOKENS // 2
#: Score bounds: every animal a triqueta, the rock and every tree; every token with one seat.
MAX_SCORE = sum(VALUES) + 1 + TREE_TILES
MIN_SCORE = NUM_ANIMALS * (3 - TOKENS_PER_ANIMAL)
SCORE_SPAN = MAX_SCORE - MIN_SCORE
#: Count bins of a collected animal: 0, 1, 2, 3 (a triqueta), 4 or more.
COUNT_BINS = 5
USED_KINDS = ("place", "keep", "discard")
SLOTS = 2

# -- offsets (see the docs table) --------------------------------------------------------------
PLAYERS_ONEHOT = 0  # 4: num_players 2..5
DUO = PLAYERS_ONEHOT + (MAX_PLAYERS - MIN_PLAYERS + 1)  # 1
ROUND = DUO + 1  # 4: round 1..4
FINISHED = ROUND + TOWERS  # 1
CURRENT = FINISHED + 1  # 5: seat to act, relative (none once over)
ROCK = CURRENT + MAX_PLAYERS  # 5: rock holder, relative
TOWER_SIZES = ROCK + MAX_PLAYERS  # 4: tokens left per tower / 15
UNSEEN = TOWER_SIZES + TOWERS  # 1: tokens gone unseen / 60
PENDING_COUNT = UNSEEN + 1  # 1: tokens the seat to act is looking at / 2
UNKNOWN = PENDING_COUNT + 1  # 6: per animal, tokens the observer has not seen / 10
ROWS = UNKNOWN + NUM_ANIMALS  # 5 x ROW_SIZE
ROW_SIZE = 2 + NUM_ANIMALS  # in play, length / 15, per animal / 10
PENDING = ROWS + MAX_PLAYERS * ROW_SIZE  # 2 x PENDING_SIZE: the observer's drawn tokens
PENDING_SIZE = NUM_ANIMALS + 1  # animal one-hot, slot already dealt with
USED_KIND = PENDING + SLOTS * PENDING_SIZE  # 3: place / keep / discard done with the first duo token
OWN = USED_KIND + len(USED_KINDS)  # the observer's hidden things
OWN_SIZE = 2 * NUM_ANIMALS + 1  # face-down per animal / 2, returned per animal / 10, score with them
SEATS = OWN + OWN_SIZE  # 5 x SEAT_SIZE, relative order
SEAT_SIZE = 9 + NUM_ANIMALS * (1 + COUNT_BINS)
SIZE = SEATS + MAX_PLAYERS * SEAT_SIZE
# Within a seat block:
S_PRESENT, S_OUT, S_TREES, S_FACE_DOWN, S_RETURNED, S_SCORE, S_WINNER, S_ROCK, S_TURN = range(9)
S_ANIMALS = 9  # per animal: count / 10, then the COUNT_BINS one-hot
