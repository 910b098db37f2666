"""Python's cycle collector in a long-running server: rare collections, but sure ones.

`app.tune_collector` makes full collections rare, since each pauses the server for as long as it
takes to scan every long-lived object. But every finished WebSocket leaves a few dozen objects
in reference cycles (the protocol, its streams and tasks refer to one another) that only a full
collection frees; a connection lives long enough to reach the oldest generation first. Under
load the thresholds alone leave minutes of them (hundreds of MB) between full collections. A
full collection every COLLECT_SECONDS keeps that garbage to a minute's worth, at the cost of
one short pause a minute (docs/performance.md, "Memory under a soak").
"""

from __future__ import annotations

import asyncio
import gc

#: Seconds between two full collections.
COLLECT_SECONDS = 60.0


async def collect_now_and_then(every: float = COLLECT_SECONDS) -> None:
    """Run a full collection every `every` seconds, until cancelled."""
    while True:
        await asyncio.sleep(every)
        gc.collect()
