"""The commands on a table: create, join, act, undo, chat, leave (and a bot taking a seat over).

Every change happens under the table's lock and in this order: check it against a copy of the
state, commit it to the store (which refuses a stale version), then swap the state and tell
every connection what it may see. So an accepted move is stored before anyone hears of it, a
refused one changes nothing, and a crash between the two loses nothing anyone was told.
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import secrets
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from meeple.core.errors import MeepleError
from meeple.core.protocol import Event
from meeple.core.registry import load
from meeple.core.state import State
from meeple.server import clock
from meeple.server.bots import offered
from meeple.server.live import STAND_IN, LiveTable
from meeple.server.models import CreateTable, JoinTable, SeatSpec, TableCreated
from meeple.server.refused import Limited, Refused, closed_refusal
from meeple.server.store import SeatRow, StaleVersion, TableRow

if TYPE_CHECKING:
    from meeple.server.tables import Hub

log = logging.getLogger("meeple.server")


def secret_hash(secret: str) -> str:
    """Credentials and join codes are stored only as this hash (they are 128+ random bits, so a
    plain SHA-256 is enough)."""
    return hashlib.sha256(secret.encode()).hexdigest()


class Commands:
    """What players (and the bots and clocks acting for them) ask of a table."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub

    # -- tables and seats -----------------------------------------------------------------------
    async def create(self, spec: CreateTable) -> TableCreated:
        hub = self.hub
        try:
            game = load(spec.game)
            game.check_players(spec.players)
            options = hub.datasets.from_client(game, spec.options)
            rule = clock.parse_clock(spec.clock)
            seats = self._seats(spec)
        except MeepleError as exc:
            raise Refused("bad_table", str(exc), 422) from None
        seed = secrets.randbits(63)
        try:  # off the event loop: it may read the operator's data files
            state = await asyncio.to_thread(lambda: game.new_game(spec.players, seed=seed, **options))
        except MeepleError as exc:
            raise Refused("bad_table", hub.datasets.hide(str(exc)), 422) from None
        credential, join_code = secrets.token_urlsafe(32), secrets.token_urlsafe(6)
        creator = next((s for s in seats if s.kind == "human"), None)
        if creator is not None:
            creator.name, creator.credential_hash = spec.name, secret_hash(credential)
        row = TableRow(
            id=secrets.token_urlsafe(9), game=game.name, num_players=spec.players, seed=seed,
            options=hub.datasets.to_stored(game, state.options), seats=seats, join_code_hash=secret_hash(join_code),
            created=hub.now(),
            clock={"rule": spec.clock}, clock_state=clock.start(rule, spec.players) if rule else {},
            public=spec.public,
        )
        await hub.stored(hub.store.create_table, row)
        table = LiveTable(row=row, game=game, state=state)
        hub.tables[row.id] = table
        hub.running.kick(table)
        return TableCreated(table_id=row.id, seat=creator.seat if creator else -1,
                            credential=credential if creator else "", join_code=join_code)

    @staticmethod
    def _seats(spec: CreateTable) -> list[SeatRow]:
        given: list[SeatSpec | None] = list(spec.seats) if spec.seats else [None] * spec.players
        if len(given) != spec.players:
            raise MeepleError(f"seats lists {len(given)} seats for {spec.players} players")
        seats = []
        for index, seat in enumerate(given):
            if seat is None:
                kind, bot = ("human", None) if index == 0 else ("bot", STAND_IN)
            else:
                kind, bot = seat.kind, seat.bot
            if kind == "bot":
                bot = offered(bot or STAND_IN)  # a level the lobby offers; anything else refused here
            elif bot is not None:
                raise MeepleError(f"seat {index}: a person's seat names no bot")
            name = f"{bot} {index + 1}" if bot else f"Player {index + 1}"
            seats.append(SeatRow(seat=index, kind=kind, bot=bot, name=name))
        return seats

    @staticmethod
    def seat_of(table: LiveTable, credential: str | None) -> int:
        """The seat a credential acts for (Refused 401 if it is none of this table's)."""
        if credential:
            digest = secret_hash(credential)
            for seat in table.row.seats:
                if seat.credential_hash is not None and secrets.compare_digest(seat.credential_hash, digest):
                    return seat.seat
        raise Refused("bad_credential", "that credential does not act for a seat of this table", 401)

    async def seat_for(self, table: LiveTable, credential: str | None) -> int:
        """`seat_of`, after a look at the store if the seat was taken through another process."""
        try:
            return self.seat_of(table, credential)
        except Refused:
            if not (credential and self.hub.fanout.shared):
                raise
        async with table.lock:
            await self.hub.following.look_again(table)
        return self.seat_of(table, credential)

    async def join(self, table: LiveTable, request: JoinTable) -> TableCreated:
        hub = self.hub
        async with table.lock:
            invited = request.join_code is not None and secrets.compare_digest(
                table.row.join_code_hash, secret_hash(request.join_code))
            if not (invited or table.row.public):
                raise Refused("bad_join_code", "that join code is not this table's", 403)
            if table.row.closed:
                raise closed_refusal()
            free = next((s for s in table.row.seats if s.kind == "human" and not s.credential_hash
                         and request.seat in (None, s.seat)), None)
            if free is None:
                raise Refused("table_full", "every seat of this table is taken")
            credential = secrets.token_urlsafe(32)
            updated = SeatRow(seat=free.seat, kind="human", name=request.name, credential_hash=secret_hash(credential))
            await hub.stored(hub.store.update_seat, table.row.id, updated)
            hub.fanout.publish(table.row.id, "seat", table.version)
            table.row.seats[free.seat] = updated
            hub.upkeep.touch(table)
            await hub.telling.notice_told(table, Event("joined", free.seat, {"name": request.name}))
        hub.running.kick(table)
        return TableCreated(table_id=table.row.id, seat=free.seat, credential=credential,
                            join_code=request.join_code or "")

    async def leave(self, table: LiveTable, seat: int, reason: str = "left") -> None:
        async with table.lock:
            if table.row.closed:
                raise closed_refusal()
            if table.bot_spec(seat) is not None:
                raise Refused("left", "a bot already plays this seat")
            await self.replace(table, seat, reason)
        self.hub.running.kick(table)

    async def replace(self, table: LiveTable, seat: int, reason: str) -> None:
        """A bot takes `seat` over from its person (who left or ran out of time); the lock held."""
        hub = self.hub
        row = table.row.seats[seat]
        if row.left or row.kind == "bot":
            return
        updated = SeatRow(seat=seat, kind="human", bot=STAND_IN, name=row.name, credential_hash=row.credential_hash,
                          left=True)
        await hub.stored(hub.store.update_seat, table.row.id, updated)
        hub.fanout.publish(table.row.id, "seat", table.version)
        table.row.seats[seat] = updated
        await hub.telling.notice_told(table, Event("seat_replaced", seat, {"reason": reason, "bot": STAND_IN}))

    # -- moves ----------------------------------------------------------------------------------
    async def act(self, table: LiveTable, seat: int, version: int, action: dict[str, Any] | None,
                  action_id: int | None) -> None:
        async with table.lock:
            if version != table.version:  # the client may have seen a move made through another process
                await self.hub.following.look_again(table)
            self._check_turn(table, seat, version)
            if table.bot_spec(seat) is not None:
                raise Refused("not_your_turn", "a bot plays this seat now")
            if (action is None) == (action_id is None):
                raise Refused("bad_action", "send exactly one of action (JSON) and action_id", 422)
            try:
                if action_id is not None:
                    move = table.state.action_from_id(action_id)
                else:
                    move = table.game.action_from_json(action)
            except MeepleError as exc:
                raise Refused("illegal", str(exc), 422) from None
            await self.apply(table, move)
        self.hub.running.kick(table)

    @staticmethod
    def _check_turn(table: LiveTable, seat: int, version: int) -> None:
        if not table.started:
            raise Refused("waiting", "the game starts when every seat is taken")
        if table.state.is_terminal:
            raise Refused("over", "the game is over")
        if table.row.closed:
            raise closed_refusal()
        if version != table.version:
            raise Refused("stale", f"the table is at move {table.version}, not {version}: look again")
        if table.state.current_player != seat:
            raise Refused("not_your_turn", f"it is seat {table.state.current_player}'s turn")

    async def apply(self, table: LiveTable, move: Any) -> None:
        """Check on a copy, commit, then swap and tell (see the module docstring); the lock held."""
        hub = self.hub
        after = table.state.clone()
        try:
            events = after.apply(move)
        except MeepleError as exc:
            raise Refused("illegal", str(exc), 422) from None
        mover = table.state.current_player
        assert mover is not None  # checked by the caller: the game is not over
        before = table.state
        clocks = table.row.clock_state
        rule = clock.parse_clock(table.row.clock.get("rule", "none"))
        if rule is not None and clocks:
            now = hub.now()
            clocks = clock.stop(clocks, rule, now) if clocks.get("seat") == mover else clock.run(clocks, None, now)
            clocks = clock.run(clocks, table.clock_seat(after), now)
        try:
            await hub.stored(hub.store.append_action, table.row.id, table.version, move.to_json(), clocks)
        except StaleVersion:
            await hub.following.look_again(table)  # so the client's next look is current
            raise Refused("stale", "another move was accepted first: look again") from None
        except Refused as refusal:
            if refusal.code == "closed":  # closed by another process: this copy says so from now on
                table.row.closed = True
            raise
        hub.fanout.publish(table.row.id, "actions", table.version + 1, move.to_json())
        table.row.actions.append(move.to_json())
        hub.upkeep.touch(table)
        # Until the worker has decided, the move counts as a reveal (undo offered late, never
        # wrongly). Bots never take moves back, so their moves are not examined.
        table.marks.append((mover, True))
        if table.bot_spec(mover) is None and not any(event.secret for event in events):
            task = asyncio.create_task(self._mark(table, len(table.row.actions) - 1, before, move))
            table.marking.add(task)
            task.add_done_callback(table.marking.discard)
        table.row.clock_state = clocks
        table.state = after
        table.last_mover = mover
        if after.is_terminal:
            await self.mark_finished(table)
        await hub.telling.broadcast(table, events)

    async def mark_finished(self, table: LiveTable) -> None:
        """Take a finished table off the open list. The move is stored already, so a database
        that is away now is no refusal: the flag is set again when the table next loads."""
        try:
            await self.hub.stored(self.hub.store.set_finished, table.row.id, True)
        except Refused as refusal:
            log.warning("meeple: table %s is over but not yet marked so: %s", table.row.id, refusal)

    async def _mark(self, table: LiveTable, index: int, before: State[Any], move: Any) -> None:
        """Decide in a worker whether the move at `index` revealed anything; if not, the mover
        may take it back, and their connections are told so."""
        telling = self.hub.telling
        revealed = await self.hub.bots.revealed(table.row.game, before.to_json(), move.to_json())
        async with table.lock:
            offset = table.version - len(table.marks)
            position = index - offset
            if revealed or not 0 <= position < len(table.marks) or table.row.actions[index] != move.to_json():
                return  # it revealed, or an undo or a restart moved the table on
            mover = table.marks[position][0]
            table.marks[position] = (mover, False)
            if table.undo_point(mover) is not None:
                note = {"type": "undo", "version": table.version, "can_undo": True}
                movers = [c for c in table.connections if c.seat == mover]
                await asyncio.gather(*(telling.send(table, c, note) for c in movers))

    async def undo(self, table: LiveTable, seat: int, version: int) -> None:
        hub = self.hub
        if table.marking:  # a move being examined may be the one to take back: wait for it
            await asyncio.gather(*table.marking, return_exceptions=True)
        async with table.lock:
            if version != table.version:
                await hub.following.look_again(table)
            if table.row.closed:
                raise closed_refusal()
            if table.state.is_terminal or not table.started:
                raise Refused("no_undo", "there is nothing to take back")
            if version != table.version:
                raise Refused("stale", f"the table is at move {table.version}, not {version}: look again")
            keep = table.undo_point(seat)
            if keep is None:
                raise Refused("no_undo", "nothing of yours can be taken back now (a draw or a reveal, or the "
                                         "next player has moved)")
            state = await hub.replay(replace(table.record(), actions=table.row.actions[:keep]))
            try:
                await hub.stored(hub.store.truncate_actions, table.row.id, table.version, keep)
            except StaleVersion:
                await hub.following.look_again(table)
                raise Refused("stale", "another move was accepted first: look again") from None
            hub.fanout.publish(table.row.id, "actions", keep)
            hub.upkeep.touch(table)
            taken = table.version - keep
            del table.row.actions[keep:]
            table.row.hints = [index for index in table.row.hints if index < keep]  # as the store did
            del table.marks[len(table.marks) - taken:]
            table.state = state
            table.last_mover = None
            # The notices told after the version gone back to stay, in order, at that version;
            # every page gets the log again, so the taken-back moves leave it as a reload shows it.
            table.notices = [(min(version, keep), event) for version, event in table.notices]
            past = await hub.telling.told(table)
            await hub.telling.notice_told(table, Event("undo", seat, {"actions": taken}), history=past)
        hub.running.kick(table)

    # -- chat -----------------------------------------------------------------------------------
    async def chat(self, table: LiveTable, seat: int | None, text: str) -> None:
        hub = self.hub
        text = text.strip()
        if not text:
            raise Refused("empty_chat", "say something", 422)
        if table.row.closed:
            raise closed_refusal()
        rate = hub.chat_rate
        wait = await rate.take(f"{table.row.id}:{'spectators' if seat is None else seat}")
        if wait is not None:
            raise Limited("too_fast", f"at most {rate.limit} messages every {rate.window:g} seconds", wait)
        now = hub.now()
        name = table.row.seats[seat].name if seat is not None else "spectator"
        line = await hub.stored(hub.store.add_chat, table.row.id, seat, name, text, now)
        hub.fanout.publish(table.row.id, "chat", line.index)
        await hub.telling.tell_chat(table, [line])
