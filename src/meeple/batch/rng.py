"""SplitMix64 over N generators at once: the same draws as `meeple.core.rng.PureRng`, one per game.

The batched simulators deal and re-deal N games with numpy arrays, and each game must get exactly
the draws its engine would (the differential tests compare every deal). numpy's uint64 arithmetic
wraps, as SplitMix64 needs; the rare rejection of `below` is redrawn on the subset it hits.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt

from meeple.core.rng import PureRng

U64 = npt.NDArray[np.uint64]

_GAMMA = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31 = np.uint64(30), np.uint64(27), np.uint64(31)
_TWO64 = 1 << 64


def consecutive_states(first: int, count: int) -> U64:
    """The generator states of seeds first, first + 1, ... (`count` of them), each masked to 64
    bits as `PureRng(seed)` does."""
    return np.uint64(first & (_TWO64 - 1)) + np.arange(count, dtype=np.uint64)


def next64(states: U64) -> U64:
    """One step of every generator (states updated in place); the 64-bit outputs."""
    states += _GAMMA
    z = states.copy()
    z ^= z >> _S30
    z *= _M1
    z ^= z >> _S27
    z *= _M2
    z ^= z >> _S31
    return z


def below(states: U64, n: npt.ArrayLike) -> U64:
    """Per generator a uniform integer in [0, n) (n > 0, per generator or shared), drawn as
    `PureRng.below`: rejection above the largest multiple of n below 2**64."""
    bound = np.broadcast_to(np.asarray(n, dtype=np.uint64), states.shape)
    if np.any(bound == 0):
        raise ValueError("below() needs n > 0")
    # 2**64 - (2**64 % n) does not fit in 64 bits; compare x against it as x - (x % n) <= 2**64 - n
    # (equivalently: x < limit), with 2**64 % n == (2**64 - n) % n.
    rem = (np.uint64(0) - bound) % bound  # 2**64 % n, wrapping subtraction
    limit_minus_one = np.uint64(0) - rem - np.uint64(1)  # limit - 1 (wraps to 2**64 - 1 when rem == 0)
    x = next64(states)
    bad = np.flatnonzero(x > limit_minus_one)
    while bad.size:  # about n / 2**64 of the draws: redraw only those generators
        sub = states[bad]
        redraw = next64(sub)
        states[bad] = sub
        x[bad] = redraw
        bad = bad[redraw > limit_minus_one[bad]]
    return x % bound


def mix(states: U64) -> U64:
    """SplitMix64's output for already advanced states (not changed)."""
    z = (states ^ (states >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


#: Per position i of a Fisher-Yates pass, the largest accepted draw for `below(i + 1)`, minus one
#: (2**64 - 1 where every draw is accepted), for rows up to _MAX_WIDTH long.
_MAX_WIDTH = 1024
_LIMIT_M1 = np.array([_TWO64 - (_TWO64 % (i + 1)) - 1 for i in range(_MAX_WIDTH)], dtype=np.uint64)
_NS = np.arange(1, _MAX_WIDTH + 1, dtype=np.uint64)


def shuffle(states: U64, items: npt.NDArray[np.integer[Any]], lengths: npt.ArrayLike | None = None) -> None:
    """Fisher-Yates in place on each row of `items` (N, L), as `PureRng.shuffle` on the row's
    first `lengths[i]` entries (all L when None), and each generator advanced past its draws.

    Without a rejection, draw k of a row uses state s + k * gamma, so every draw is computed at
    once and only the swaps run position by position over all rows; a row with a rejected draw
    (about one in 2**57) is shuffled again from its original order by PureRng itself."""
    n, width = items.shape
    sizes = np.full(n, width, dtype=np.int64) if lengths is None else np.asarray(lengths, dtype=np.int64)
    if n == 0:
        return
    top = int(sizes.max())
    if top <= 1:
        return
    if top > _MAX_WIDTH:
        raise ValueError(f"shuffle() takes rows of at most {_MAX_WIDTH} items, not {top}")
    pos = np.arange(top, dtype=np.int64)
    k = sizes[:, None] - pos[None, :]  # the draw number for position i (valid for 1 <= i < length)
    valid = (pos[None, :] >= 1) & (k >= 1)
    z = mix(states[:, None] + k.astype(np.uint64) * _GAMMA)
    bad = np.flatnonzero((valid & (z > _LIMIT_M1[:top])).any(axis=1))
    saved = items[bad].copy()
    j = np.where(valid, (z % _NS[:top]).astype(np.int64), pos[None, :])
    # The swaps run on a position-major copy: position i of every row is one contiguous run, and
    # position j[r, i] of row r is element j * n + r of its flat view.
    work = np.ascontiguousarray(items[:, :top].T)
    flat = work.reshape(-1)
    source = j.T * n + np.arange(n)
    for i in range(top - 1, 0, -1):
        src = source[i]
        held = work[i].copy()
        work[i] = flat[src]
        flat[src] = held
    items[:, :top] = work.T
    start = states.copy()
    states += np.maximum(sizes - 1, 0).astype(np.uint64) * _GAMMA
    for r, original in zip(bad, saved):
        rng = PureRng(int(start[r]))
        row = [int(x) for x in original[:sizes[r]]]
        rng.shuffle(row)
        items[r, :sizes[r]] = row
        states[r] = rng.state
