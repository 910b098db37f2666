"""Python's cycle collector in a long-running server: rare collections, but sure ones.

`app.tune_collector` makes full collections rare, since each pauses the server for as long as it
takes to scan every long-lived object. But every finished HTTP connection leaves its objects in
reference cycles that only a full collection frees (uvicorn's protocol and its parser refer to
each other), and a connection lives long enough to reach the oldest generation first (the app
adds none of its own: no `BaseHTTPMiddleware`, which left a traceback in a cycle per request). Under load the thresholds
alone left minutes of them, hundreds of MB, between full collections. So a full collection runs
every COLLECT_SECONDS, and then the C allocator is asked to give the freed pages back to the
system (glibc's `malloc_trim`; elsewhere nothing): otherwise the process keeps them resident and
its RSS only ratchets up. docs/performance.md, "Memory under a soak", has the figures.
"""

from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gc
from collections.abc import Callable

#: Seconds between two full collections (each a pause of tens of ms at a thousand tables). At
#: 30 s the RSS sawtooth of a busy server peaked 37% above its troughs; at 10 s, 11%.
COLLECT_SECONDS = 10.0


def _malloc_trim() -> Callable[[], None]:
    """glibc's `malloc_trim(0)`, or a no-op where the C library has none."""
    try:
        trim = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6").malloc_trim
    except (OSError, AttributeError):
        return lambda: None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return lambda: trim(0)


give_back = _malloc_trim()


def collect() -> None:
    """One full collection, its freed memory given back to the system."""
    gc.collect()
    give_back()


async def collect_now_and_then(every: float = COLLECT_SECONDS) -> None:
    """`collect` every `every` seconds, until cancelled."""
    while True:
        await asyncio.sleep(every)
        collect()
