"""The arena's journal (`meeple arena ... --resume FILE`): a stopped run continues where it
stopped, with the same results as a run that was never stopped.

The file is JSON lines: first a header naming the run (game, bots, players, games, seed,
options), then one line per finished game, appended and flushed as each game ends. Games are
seeded by their index alone (see meeple.ai.arena), so the games still to play are exactly those
of an uninterrupted run. A last line cut short by a kill is dropped; anything else wrong with the
file is one clear error and the file is left as it was.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Generator, Iterator
from contextlib import closing
from pathlib import Path
from typing import IO, Any, TypeVar

from meeple.core.errors import OptionError, RecordError
from meeple.core.jsonio import MAX_FILE_BYTES, parse_json

FORMAT = 1


class ArenaJournal:
    """Finished games of one arena run in `path`; `header` names the run."""

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self.header = {"arena_journal": FORMAT, **header}
        self._out: IO[str] | None = None

    def open(self) -> list[dict[str, Any]]:
        """The games already finished (as `GameOutcome.journal_json` dicts); creates the file
        with its header when there is none yet. Raises OptionError for a file of another run or
        one that is not a journal."""
        if self.path.is_dir():
            raise OptionError(f"--resume {self.path} is a directory, not a file")
        finished: list[dict[str, Any]] = []
        keep = 0
        if self.path.exists() and self.path.stat().st_size:
            finished, keep = self._read()
        else:
            try:
                self.path.write_text(json.dumps(self.header) + "\n", encoding="utf-8")
            except OSError as exc:
                raise OptionError(f"--resume {self.path}: cannot write: {exc.strerror or exc}") from None
            keep = self.path.stat().st_size
        if keep < self.path.stat().st_size:
            os.truncate(self.path, keep)  # the line a kill cut short
        self._out = open(self.path, "a", encoding="utf-8")  # noqa: SIM115 (closed in close)
        return finished

    def _read(self) -> tuple[list[dict[str, Any]], int]:
        what = f"--resume {self.path}"
        try:
            with open(self.path, "rb") as handle:
                data = handle.read(64 * MAX_FILE_BYTES + 1)
        except OSError as exc:
            raise OptionError(f"{what}: cannot read: {exc.strerror or exc}") from None
        lines = data.split(b"\n")
        complete, keep = lines[:-1], len(data) - len(lines[-1])  # the part after the last newline is cut short
        try:
            header = parse_json(complete[0], f"{what} line 1") if complete else None
        except RecordError as exc:
            raise OptionError(f"{exc} (not an arena journal)") from None
        if not isinstance(header, dict) or header.get("arena_journal") != FORMAT:
            raise OptionError(f"{what} is not an arena journal")
        if header != self.header:
            differs = sorted(k for k in self.header if header.get(k) != self.header[k])
            raise OptionError(f"{what} is the journal of another arena run (it differs in {', '.join(differs)}); "
                              "give the same arguments, or another file")
        finished = []
        for number, line in enumerate(complete[1:], start=2):
            try:
                entry = parse_json(line, f"{what} line {number}")
            except RecordError as exc:
                raise OptionError(str(exc)) from None
            if not isinstance(entry, dict) or not isinstance(entry.get("index"), int):
                raise OptionError(f"{what} line {number} is not a finished game")
            finished.append(entry)
        return finished, keep

    def add(self, outcome: dict[str, Any]) -> None:
        """Append one finished game and flush it, so a kill right after loses nothing."""
        assert self._out is not None, "open() first"
        self._out.write(json.dumps(outcome) + "\n")
        self._out.flush()

    def close(self) -> None:
        if self._out is not None:
            self._out.close()
            self._out = None


Result = TypeVar("Result")


def run_journaled(results: Generator[Result, None, None], book: ArenaJournal | None,
                  entry: Callable[[Result], dict[str, Any]], done: int,
                  progress: Callable[[int], None] | None) -> Iterator[Result]:
    """Each result of a run as it finishes, after its journal entry is written (so an interrupted
    run resumes from it) and progress counted from `done`; the run and the journal are closed
    at the end, or when the caller stops early."""
    try:
        with closing(results) as finishing:
            for result in finishing:
                if book is not None:
                    book.add(entry(result))
                done += 1
                if progress is not None:
                    progress(done)
                yield result
    finally:
        if book is not None:
            book.close()
