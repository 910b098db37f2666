"""What the lobby and a table's page show of tables (`TableInfo`): no secrets, and for the
lobby's list, nothing that needs a table loaded."""

from __future__ import annotations

from meeple.core.registry import load
from meeple.server.live import LiveTable, seat_info
from meeple.server.models import TableInfo
from meeple.server.store import ListedTable

#: The lobby lists at most this many tables, the newest first.
LOBBY_SIZE = 200


def table_info(table: LiveTable) -> TableInfo:
    """A loaded table as its page and `GET /api/tables/{id}` show it."""
    counts = [conn.seat for conn in table.connections]
    return TableInfo(
        id=table.row.id, game=table.row.game, title=table.game.title, players=table.row.num_players,
        seats=[seat_info(s, counts.count(s.seat)) for s in table.row.seats], status=table.status,
        version=table.version, clock=table.row.clock.get("rule", "none"), public=table.row.public,
    )


def listed(row: ListedTable, loaded: LiveTable | None) -> TableInfo:
    """A table of the lobby's list as the store has it, with the connections of its copy loaded
    here (if any)."""
    connected = [c.seat for c in loaded.connections] if loaded else []
    seats = [seat_info(s, connected.count(s.seat)) for s in row.seats]
    return TableInfo(
        id=row.id, game=row.game, title=load(row.game).title, players=row.num_players, seats=seats,
        status="playing" if all(s.taken for s in seats) else "waiting", version=row.version,
        clock=row.clock.get("rule", "none"), public=True,
    )
