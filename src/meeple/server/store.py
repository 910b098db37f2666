"""Where tables live: one small interface, so a PostgreSQL store is a second implementation.

A table is its game record (game, players, seed, options, the accepted actions in order) plus
metadata: its seats (who sits there, a hash of each seat's credential), its chat, its clock.
`version` is the number of accepted actions. Every write that changes the game
(`append_action`, `truncate_actions`) states the version it was made against and fails with
`StaleVersion` if another writer got there first, so two moves for one table never both apply.
A table nobody touched for long is closed (`close_idle`): its record stays, but every write to
its game, seats or chat fails with `TableClosed`.
Every method commits before it returns: what a store method accepted survives a crash.
Every method given the id of a table that does not exist raises `NoSuchTable`. Stores are
called from a thread pool, so an implementation must be safe to call from several threads.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import Any


class StoreError(Exception):
    """The store could not do what was asked (a bug or an unreachable database)."""


class StaleVersion(StoreError):
    """The table moved on since the version the caller saw; nothing was written."""


class NoSuchTable(StoreError):
    """No table has this id."""


class TableClosed(StoreError):
    """The table was closed for want of use; nothing was written."""


class StoreUnavailable(StoreError):
    """The database cannot be reached (down, restarting, the network cut); nothing was written,
    and the same call may succeed once it is back."""


@dataclass
class SeatRow:
    """One seat: `kind` "human" or "bot"; `bot` the bot spec a bot seat plays (also the bot that
    took over a human seat that left or ran out of time); `credential_hash` set once claimed."""

    seat: int
    kind: str
    bot: str | None = None
    name: str = ""
    credential_hash: str | None = None
    left: bool = False  # a human who left or timed out: a bot plays the seat from now on


@dataclass
class TableRow:
    """A table as stored. `options` and `clock` are JSON objects; `clock_state` holds each
    seat's remaining milliseconds and when the current turn started (or is empty)."""

    id: str
    game: str
    num_players: int
    seed: int
    options: dict[str, Any]
    seats: list[SeatRow]
    join_code_hash: str
    created: float
    clock: dict[str, Any] = field(default_factory=dict)
    clock_state: dict[str, Any] = field(default_factory=dict)
    actions: list[dict[str, Any]] = field(default_factory=list)  # the record's actions, in order
    public: bool = False  # anyone may take a free seat from the lobby, without the join code
    closed: bool = False  # closed for want of use (its record kept; no more moves)
    #: The indices of the actions whose mover had asked for a hint (see `add_hint`), sorted.
    hints: list[int] = field(default_factory=list)

    @property
    def version(self) -> int:
        return len(self.actions)


@dataclass
class ListedTable:
    """What the lobby shows of a table: read from the stored rows without its actions."""

    id: str
    game: str
    num_players: int
    seats: list[SeatRow]
    clock: dict[str, Any]
    version: int


@dataclass
class ChatRow:
    index: int
    seat: int | None
    name: str
    text: str
    at: float


@dataclass(frozen=True)
class ReviewClaim:
    """Who is working out a table's review (`owner`, a server process), how far it has got,
    and when it last said so (`beat`, seconds since the epoch): with several processes over one
    database, one works a review out and the others report its progress."""

    owner: str
    done: int
    total: int
    beat: float


class Store(ABC):
    """The storage interface the server uses. Implementations: `SQLiteStore` (embedded, the
    default), `PostgresStore` for several processes; both are dialects of `SQLStore`, which
    holds the queries they share."""

    #: How many calls the server may make at once (from that many threads; calls for one table
    #: are never concurrent). One for a store whose writes serialize anyway.
    concurrency = 1

    @abstractmethod
    def create_table(self, table: TableRow) -> None:
        """Store a new table with its seats, actions and clock state (its id must be new, else
        StoreError)."""

    @abstractmethod
    def load_table(self, table_id: str) -> TableRow:
        """The table with its seats and every accepted action; NoSuchTable if none."""

    @abstractmethod
    def table_ids(self, open_only: bool = False) -> list[str]:
        """Ids of all tables (oldest first); with `open_only`, those neither finished nor closed."""

    @abstractmethod
    def lobby(self, limit: int) -> list[ListedTable]:
        """The open public tables (neither finished nor closed), newest first, at most `limit`:
        one indexed query, whatever the number of tables stored."""

    @abstractmethod
    def touch(self, times: dict[str, float]) -> None:
        """Note that each table was used at the time given (moves, joins, connections), keeping
        the later of the stored and the given time; unknown ids are ignored."""

    @abstractmethod
    def close_idle(self, before: float) -> list[str]:
        """Close every open table last touched before `before` (its record stays, its game can
        no longer change); the ids closed."""

    @abstractmethod
    def versions(self, table_ids: list[str]) -> dict[str, int]:
        """The version of each of these tables (in one cheap read: several processes compare
        their copies with it); ids of tables that do not exist are left out."""

    @abstractmethod
    def update_seat(self, table_id: str, seat: SeatRow) -> None:
        """Replace one seat's row (a claim, a name, a departure); StoreError if the table has no
        such seat, TableClosed if it is closed."""

    @abstractmethod
    def append_action(
        self, table_id: str, expected_version: int, action: dict[str, Any], clock_state: dict[str, Any] | None = None
    ) -> int:
        """Append one action if the table is at `expected_version` (else StaleVersion) and open
        (else TableClosed); store the clock state with it in the same transaction. Returns the
        new version."""

    @abstractmethod
    def truncate_actions(self, table_id: str, expected_version: int, keep: int) -> int:
        """Undo: keep the first `keep` actions if the table is at `expected_version` (else
        StaleVersion; StoreError unless 0 <= keep <= expected_version; TableClosed if it is
        closed). Returns `keep`."""

    @abstractmethod
    def set_finished(self, table_id: str, finished: bool) -> None:
        """Mark whether the game is over (the listing of open tables leaves finished ones out)."""

    @abstractmethod
    def set_clock_state(self, table_id: str, clock_state: dict[str, Any]) -> None:
        """Store the clocks (a turn starting, a seat timing out)."""

    @abstractmethod
    def add_hint(self, table_id: str, index: int) -> None:
        """Note that the seat to make action `index` asked for a hint before making it (once:
        asking again changes nothing); TableClosed if the table is closed. An undo back past
        `index` (`truncate_actions`) forgets it with the action."""

    @abstractmethod
    def save_review(self, table_id: str, review: dict[str, Any]) -> None:
        """Keep the review of the table's finished game (the JSON of `meeple.ai.review.Review`),
        replacing any kept before. A finished game never changes, so neither does its review,
        and a closed table may still be reviewed."""

    @abstractmethod
    def load_review(self, table_id: str) -> dict[str, Any] | None:
        """The review `save_review` kept, or None; NoSuchTable if there is no such table."""

    @abstractmethod
    def claim_review(self, table_id: str, owner: str, total: int, now: float, stale_after: float) -> ReviewClaim:
        """Claim the working-out of the table's review for `owner` (of `total` moves), unless
        another owner holds a claim it renewed less than `stale_after` seconds before `now`;
        the claim as it stands afterwards (`owner` says whose it is). NoSuchTable if none."""

    @abstractmethod
    def review_claim(self, table_id: str) -> ReviewClaim | None:
        """The claim on the table's review, or None while nobody works it out."""

    @abstractmethod
    def note_review_progress(self, table_id: str, owner: str, done: int, now: float) -> None:
        """Renew `owner`'s claim with the moves done so far (nothing if it is not `owner`'s)."""

    @abstractmethod
    def release_review(self, table_id: str, owner: str) -> None:
        """End `owner`'s claim (the review is stored, or failed); another owner's stays."""

    @abstractmethod
    def add_chat(self, table_id: str, seat: int | None, name: str, text: str, at: float) -> ChatRow:
        """Append a chat line and return it with its index (TableClosed if the table is closed)."""

    @abstractmethod
    def chat(self, table_id: str, since: int = 0) -> list[ChatRow]:
        """Chat lines from index `since` on."""

    def close(self) -> None:  # noqa: B027 - deliberately optional: a default that does nothing
        """Release connections (a no-op for a store that holds none); call it once no other
        call is in flight. The store cannot be used afterwards."""
