"""Appends per second of a store: `python -m tests.server.bench_store [DIR]`.

2,000 appends (each with a clock state, each its own committed transaction) spread over 200
tables, from one thread and then from four, to a SQLiteStore file in DIR (default: a temporary
directory; put it on the disk the server will use, since the fsync per commit dominates)."""

from __future__ import annotations

import sys
import tempfile
import threading
import time
from pathlib import Path

from meeple.server.sqlite_store import SQLiteStore
from meeple.server.store import SeatRow, TableRow

TABLES, ROUNDS = 200, 10
ACTION = {"type": "place", "tile": 17, "at": [3, -2], "rotation": 2}
CLOCK = {"remaining_ms": [512000, 498000], "turn_started": 1732487000.123}


def main(directory: str | None) -> None:
    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        store = SQLiteStore(Path(tmp) / "bench.db")
        for t in range(TABLES):
            seats = [SeatRow(0, "human"), SeatRow(1, "bot", "mcts")]
            store.create_table(TableRow(f"t{t}", "triqueta", 2, t, {}, seats, "h", float(t)))

        def work(first_round: int, worker: int, workers: int) -> None:
            for r in range(first_round, first_round + ROUNDS):
                for t in range(worker, TABLES, workers):
                    store.append_action(f"t{t}", r, ACTION, CLOCK)

        for n, workers in enumerate((1, 4)):
            threads = [threading.Thread(target=work, args=(n * ROUNDS, w, workers)) for w in range(workers)]
            start = time.perf_counter()
            for thread in threads:
                thread.start()
            for thread in threads:
                thread.join()
            seconds = time.perf_counter() - start
            count = TABLES * ROUNDS
            print(f"{workers} thread(s): {count} appends in {seconds:.2f} s = {count / seconds:,.0f} appends/s")
        store.close()


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
