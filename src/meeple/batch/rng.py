"""SplitMix64 over N generators at once: the same draws as `meeple.core.rng.PureRng`, one per game.

The batched simulators deal and re-deal N games with numpy arrays, and each game must get exactly
the draws its engine would (the differential tests compare every deal). numpy's uint64 arithmetic
wraps, as SplitMix64 needs; the rare rejection of `below` is redrawn on the subset it hits.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

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


def shuffle(states: U64, items: npt.NDArray[np.int8], lengths: npt.ArrayLike | None = None) -> None:
    """Fisher-Yates in place on each row of `items` (N, L), as `PureRng.shuffle` on the row's
    first `lengths[i]` entries (all L when None): from the top down, `below(i + 1)` each."""
    n, width = items.shape
    rows = np.arange(n)
    sizes = np.full(n, width, dtype=np.int64) if lengths is None else np.asarray(lengths, dtype=np.int64)
    for i in range(width - 1, 0, -1):
        active = np.flatnonzero(sizes > i)
        if active.size == 0:
            continue
        if active.size == n:
            j = below(states, i + 1).astype(np.intp)
            r = rows
        else:
            sub = states[active]
            j = below(sub, i + 1).astype(np.intp)
            states[active] = sub
            r = active
        top = items[r, i]
        items[r, i] = items[r, j]
        items[r, j] = top
