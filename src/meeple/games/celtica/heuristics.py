"""The greedy Celtica bot and a position evaluation for search.

The bot values parts by how much they grow its amulets (a convex weight per amulet size, so
parts that complete amulets count most, C2/C12), plays the move whose landing site gains most
parts minus what it loses at ruins and minus the cards it spends (extra druid cards cost future
turns, experience cards are worth swaps at the end), draws at cult sites only when the forced
play that follows is expected to pay (C8), and spends experience cards at the end for the
largest exact gain in the C12 standing per card (C11). It reads only what the current player
may see: its own hand, the board, the display, the public collections and piles.

`evaluate`, for searches cut off before the end, is a fitted conditional logit over a few
per-seat features (`features`, EVALUATION_WEIGHTS), and `features` is what
meeple.ai.fit_evaluation fits it to.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import cast

from meeple.core.memo import MB
from meeple.core.rng import Rng
from meeple.core.shares import softmax_shares
from meeple.games.celtica import scoring
from meeple.games.celtica.actions import DONE, Action, Buy, Cult, GiveUp, Play, Swap, Take
from meeple.games.celtica.components import CULT, DRUID_CARDS_PER_COLOUR, FIND, NUM_COLOURS, NUM_PART_TYPES, RUIN
from meeple.games.celtica.phases import END_PHASE
from meeple.games.celtica.state import CelticaState

#: Worth of an amulet by size (0-9 parts): convex, with a jump for completing it.
WEIGHT = (0.0, 1.0, 2.1, 3.3, 4.6, 6.0, 7.5, 9.1, 10.8, 14.0)
CARD_COST = 2.0  # each druid card beyond the first: a turn given up later this round
EXP_COST = 1.5  # an experience card spent now instead of a swap at the end
EXP_VALUE = 1.0  # an experience card drawn at a ruin
DRAW_THRESHOLD = 0.0  # draw at a cult site when the forced play is expected to be worth this
CULT_VALUE = 0.3  # the option to draw a druid card at a cult site
ENDING_BONUS = 1.5  # bringing the first druid home ends the game with this round


def potential(counts: Sequence[int]) -> float:
    """Soft worth of a collection: the sum of WEIGHT over its amulets (C2)."""
    return _potential(tuple(counts))


# Search playouts ask about the same few collections over and over (a collection changes by one
# part at a time), so the pure functions of a collection below are memoised on tuples. Keys and
# values are fixed-length tuples of small numbers, so an entry has a largest size (ENTRY_BYTES,
# with functools' own link; tests/celtica checks it) and a count bound is a memory bound: each
# cache holds at most CACHE_BYTES.
ENTRY_BYTES = 1024
CACHE_BYTES = 8 * MB


@lru_cache(maxsize=CACHE_BYTES // ENTRY_BYTES)
def _potential(counts: tuple[int, ...]) -> float:
    return sum(WEIGHT[sum(1 for c in counts if c > k)] for k in range(max(counts)))


def gain(counts: Sequence[int], t: int) -> float:
    """How much one more part of type t adds to `potential`."""
    return _gains(tuple(counts))[t]


def loss(counts: Sequence[int], t: int) -> float:
    """How much losing one part of type t takes from `potential` (counts[t] > 0)."""
    return _losses(tuple(counts))[t]


@lru_cache(maxsize=CACHE_BYTES // ENTRY_BYTES)
def _gains(counts: tuple[int, ...]) -> tuple[float, ...]:
    """`gain` for every part type at once."""
    out = []
    for level in counts:
        size = sum(1 for c in counts if c > level)
        out.append(WEIGHT[size + 1] - WEIGHT[size])
    return tuple(out)


@lru_cache(maxsize=CACHE_BYTES // ENTRY_BYTES)
def _losses(counts: tuple[int, ...]) -> tuple[float, ...]:
    """`loss` for every part type at once (meaningless for types the collection lacks)."""
    out = []
    for held in counts:
        size = sum(1 for c in counts if c > held - 1)
        out.append(WEIGHT[size] - WEIGHT[size - 1])
    return tuple(out)


def best_takes(counts: Sequence[int], display: Sequence[int], n: int) -> float:
    """Value of taking the n best parts from the display one by one."""
    return _best_takes(tuple(counts), tuple(display), n)


@lru_cache(maxsize=CACHE_BYTES // ENTRY_BYTES)
def _best_takes(counts: tuple[int, ...], display: tuple[int, ...], n: int) -> float:
    mine = list(counts)
    shown = list(display)
    total = 0.0
    for _ in range(n):
        options = [t for t in range(NUM_PART_TYPES) if shown[t]]
        if not options:
            break
        gains = _gains(tuple(mine))
        t = max(options, key=gains.__getitem__)
        total += gains[t]
        mine[t] += 1
        shown[t] -= 1
    return total


def cheapest_losses(counts: Sequence[int], n: int) -> float:
    """Value lost by giving up the n least useful parts one by one."""
    return _cheapest_losses(tuple(counts), n)


@lru_cache(maxsize=CACHE_BYTES // ENTRY_BYTES)
def _cheapest_losses(counts: tuple[int, ...], n: int) -> float:
    mine = list(counts)
    total = 0.0
    for _ in range(n):
        options = [t for t in range(NUM_PART_TYPES) if mine[t]]
        if not options:
            break
        losses = _losses(tuple(mine))
        t = min(options, key=losses.__getitem__)
        total += losses[t]
        mine[t] -= 1
    return total


def site_value(state: CelticaState, p: int, dest: int) -> float:
    """What landing a druid on `dest` is worth to seat p, before cards spent."""
    where = state.site_actions[dest]
    number = state.site_numbers[dest]
    if where == FIND:
        return best_takes(state.parts[p], state.display, min(number, state.display_size))
    if where == RUIN:
        exp = EXP_VALUE if (state.experience_deck or any(state.experience_discards)) else 0.0
        return exp - cheapest_losses(state.parts[p], number)
    if where == CULT:
        return CULT_VALUE if (state.druid_deck or any(state.druid_discards)) else 0.0
    return 0.0


def play_value(state: CelticaState, p: int, colour: int, cards: int, exp: int,
               sites: dict[int, float] | None = None) -> float:
    """Estimated worth of playing these cards now (C5). `sites` caches site values by location
    while one position's plays are compared."""
    cost = CARD_COST * (cards - 1) + EXP_COST * exp
    start = state.druids[colour]
    if start == state.goal:
        return -cost - 0.5  # C5: spends cards to no effect
    dest = min(start + cards + exp, state.goal)
    known = None if sites is None else sites.get(dest)
    if known is not None:
        site = known
    else:
        site = site_value(state, p, dest)
        if sites is not None:
            sites[dest] = site
    value = site - cost
    if dest == state.goal and not state.final_round:
        value += ENDING_BONUS if leading(state, p) else -ENDING_BONUS  # C10: this round is the last
    return value


def leading(state: CelticaState, p: int) -> bool:
    """Whether seat p is strictly ahead in the C12 standing."""
    mine = scoring.standing_value(state.parts[p])
    return all(mine > scoring.standing_value(state.parts[q]) for q in range(state.num_players) if q != p)


def cult_draw_value(state: CelticaState, p: int) -> float:
    """Expected worth of the play a cult-site card would force next turn (C8), over the colours
    the card may have as far as seat p can tell."""
    if state.druid_deck:
        weights = [DRUID_CARDS_PER_COLOUR - state.druid_discards[c] - state.hands[p][c] for c in range(NUM_COLOURS)]
    else:
        weights = list(state.druid_discards)  # the deck is empty: the draw comes from the reshuffled discards
    total = sum(weights)
    if total <= 0:
        return 0.0
    expected = 0.0
    sites: dict[int, float] = {}
    for c in range(NUM_COLOURS):
        if weights[c] <= 0:
            continue
        best = max(
            play_value(state, p, c, k, e, sites)
            for k in range(1, state.hands[p][c] + 2)
            for e in range(state.experience[p][c] + 1)
        )
        expected += weights[c] * best
    return expected / total


def end_choice(state: CelticaState, p: int) -> Action:
    """C11: the swap or purchase with the largest exact C12 gain per card, or done."""
    mine = state.parts[p]
    base = scoring.standing_value(mine)
    best: Action = DONE
    best_rate = 0.0
    for action in state.legal_actions():
        if type(action) is Swap:
            mine[action.give] -= 1
            mine[action.take] += 1
            rate = float(scoring.standing_value(mine) - base)
            mine[action.take] -= 1
            mine[action.give] += 1
        elif type(action) is Buy:
            mine[action.part] += 1
            rate = (scoring.standing_value(mine) - base) / 2.0
            mine[action.part] -= 1
        else:
            continue
        if rate > best_rate:
            best, best_rate = action, rate
    return best


def choose(state: CelticaState, rng: Rng) -> Action:
    """The greedy move for the current player."""
    p = state.current
    legal = state.legal_actions()
    first = legal[0]
    if state.phase == END_PHASE:
        return end_choice(state, p)
    if type(first) is Play:
        sites: dict[int, float] = {}
        plays = cast("list[Play]", legal)  # the play phase offers only plays
        scored = [(play_value(state, p, a.colour, a.cards, a.experience, sites), a) for a in plays]
        top = max(v for v, _ in scored)
        ties = [a for v, a in scored if v >= top - 1e-9]
        return ties[rng.below(len(ties))]
    if type(first) is Take:
        gains = _gains(tuple(state.parts[p]))
        return max(cast("list[Take]", legal), key=lambda a: gains[a.part])
    if type(first) is GiveUp:
        losses = _losses(tuple(state.parts[p]))
        return min(cast("list[GiveUp]", legal), key=lambda a: losses[a.part])
    if type(first) is Cult:
        return legal[1] if cult_draw_value(state, p) > DRAW_THRESHOLD else legal[0]
    return legal[rng.below(len(legal))]


#: `features`' names, in order: the worth of a seat is their weighted sum (see `evaluate`).
FEATURE_NAMES = ("amulet potential", "complete amulets", "parts", "experience cards", "druid cards",
                 "complete amulets x progress", "complete amulets x final round", "experience cards x progress")

#: `evaluate`'s weights per table size: a conditional logit fitted to the winners of 3,000 greedy
#: self-play games per size, positions every third ply (`python -m meeple.ai.fit_evaluation
#: celtica --players 2 3 4 5 --games 3000`; docs/ai.md, "Celtica's evaluation"). Cards in hand
#: are turns still to come this round; experience cards are worth most early on; complete
#: amulets count through potential and parts until the end draws near.
EVALUATION_WEIGHTS: dict[int, tuple[float, ...]] = {
    2: (0.025, -0.553, 0.246, 0.542, 0.175, 1.112, 0.66, -0.225),
    3: (0.067, -0.45, 0.268, 0.809, 0.263, 0.724, 0.419, -0.518),
    4: (0.021, -0.541, 0.393, 1.019, 0.349, 0.975, 0.299, -0.679),
    5: (0.146, -0.923, 0.27, 1.04, 0.593, 1.158, 0.563, -0.679),
}


def features(state: CelticaState) -> list[list[float]]:
    """Per seat, the numbers `evaluate` weighs (FEATURE_NAMES). Progress is how far the leading
    druid has come (0 at the start, 1 in the goal); the final round is C10's."""
    progress = max(state.druids) / state.goal
    final = 1.0 if state.final_round else 0.0
    out = []
    for q in range(state.num_players):
        parts = state.parts[q]
        complete = float(min(parts))
        experience = float(state.experience_held[q])
        out.append([potential(parts), complete, float(sum(parts)), experience, float(state.cards_held[q]),
                    complete * progress, complete * final, experience * progress])
    return out


def evaluate(state: CelticaState) -> list[float]:
    """Each seat's chance to win, in [0, 1]: the softmax over seats of the weighted `features`
    (EVALUATION_WEIGHTS for this table size). The products with progress and the final round
    are folded into per-position weights first: this runs once per search iteration."""
    if state.is_terminal:
        return state.rewards()
    w = EVALUATION_WEIGHTS[state.num_players]
    progress = max(state.druids) / state.goal
    per_complete = w[1] + w[5] * progress + (w[6] if state.final_round else 0.0)
    per_experience = w[3] + w[7] * progress
    worths = []
    for q in range(state.num_players):
        parts = state.parts[q]
        worths.append(w[0] * potential(parts) + per_complete * min(parts) + w[2] * sum(parts)
                      + per_experience * state.experience_held[q] + w[4] * state.cards_held[q])
    return softmax_shares(worths, 1.0)
