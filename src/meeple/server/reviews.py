"""Game reviews and hints on the server (docs/server.md, "Reviews and hints").

A review (`meeple.ai.review.review_record`) runs once the game is over, a move per task in the
bot workers (`BotPool`), never on the event loop: at most as many of its moves wait in the
workers' queue as there are workers, so the bots of other tables keep moving meanwhile. Its
progress is kept here for the page to poll; its result is stored with the table, so a second
request, or a request after a restart, is an instant read. The review's seed is fixed by the
table, so the same record and settings always give the same review. One review runs per table,
and at most `reviews_running` in each process. With several processes over one database, the
process that starts a review claims it in the store (`Store.claim_review`) and renews the claim
with its progress; the others report that progress instead of working the same review out again,
and take the claim over once it has not been renewed for CLAIM_STALE_SECONDS (its process stopped).

A hint is the same estimator asked, for the seat to move, from that seat's observation sample
(what it may know, re-dealt), at a table where every other seat is a bot; the answer goes to
that seat alone, and the record notes the move (`GameRecord.hints`).
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from meeple.ai.review import Review, ReviewSettings, review_record
from meeple.core.errors import MeepleError, OptionError, RecordError
from meeple.core.observation import Observation
from meeple.core.record import GameRecord
from meeple.core.registry import load
from meeple.core.rng import Rng
from meeple.core.views import View
from meeple.server.config import ServerConfig
from meeple.server.fanout import process_origin
from meeple.server.live import LiveTable
from meeple.server.refused import Limited, Refused, closed_refusal
from meeple.server.store import StoreError

if TYPE_CHECKING:
    from meeple.server.tables import Hub

#: A review's claim not renewed for this long is another process's to take over.
CLAIM_STALE_SECONDS = 60.0
#: How often a running review renews its claim with its progress.
CLAIM_BEAT_SECONDS = 5.0

P = ParamSpec("P")
T = TypeVar("T")

log = logging.getLogger("meeple.server")


def review_settings(config: ServerConfig) -> ReviewSettings:
    """The operator's review settings (`config.review` over the defaults); OptionError naming
    what is wrong."""
    given = config.review
    unknown = sorted(set(given) - set(ReviewSettings.__dataclass_fields__))
    if unknown:
        raise OptionError(f"review settings: no setting {unknown[0]!r} (there are "
                          f"{', '.join(ReviewSettings.__dataclass_fields__)})")
    return replace(ReviewSettings.default(), **given)


def review_seed(table_seed: int) -> int:
    """The random stream of a table's review: fixed by the table."""
    return Rng(table_seed ^ 0x5E71E_3A11).next64()


def hint_seed(table_seed: int, version: int) -> int:
    """The random stream of a hint asked at move `version` of a table."""
    return Rng(table_seed ^ 0x4117 ^ (version * 0x9E3779B97F4A7C15)).next64()


def _done(stored: dict[str, Any]) -> dict[str, Any]:
    """The answer once the review is stored."""
    moves = len(stored["moves"])
    return {"status": "done", "done": moves, "total": moves, "review": stored}


def _running(done: int, total: int) -> dict[str, Any]:
    return {"status": "running", "done": done, "total": total}


class Stopped(RuntimeError):
    """A review stopped before its end (the server is shutting down)."""


class Throttled(Executor):
    """`inner` with at most `slots` of this client's tasks submitted and unfinished at once:
    `submit` waits (in the review's thread) for a slot, so other work sent to `inner` (the
    bots' moves) waits behind at most `slots` review moves."""

    def __init__(self, inner: Executor, slots: int) -> None:
        self.inner = inner
        self.slots = threading.Semaphore(slots)
        self.stopped = threading.Event()

    def submit(self, fn: Callable[P, T], /, *args: P.args, **kwargs: P.kwargs) -> Future[T]:
        while not self.slots.acquire(timeout=0.25):
            if self.stopped.is_set():
                raise Stopped("the review was stopped")
        if self.stopped.is_set():
            self.slots.release()
            raise Stopped("the review was stopped")
        future = self.inner.submit(fn, *args, **kwargs)
        future.add_done_callback(lambda _: self.slots.release())
        return future


@dataclass
class Job:
    """A review under way (or failed: `failed` says so until the next request starts again)."""

    done: int
    total: int
    failed: bool = False


class Reviews:
    """The hub's reviews and hints."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.settings = review_settings(hub.config)
        self.jobs: dict[str, Job] = {}
        #: This process's name on the reviews it claims.
        self.owner = process_origin()

    # -- reviews --------------------------------------------------------------------------------
    @staticmethod
    def _check_over(table: LiveTable) -> None:
        if not table.state.is_terminal:
            raise Refused("not_over", "a game can be reviewed once it is over (a review during a game "
                                      "would tell a player what the others hold)", 409)

    async def status(self, table: LiveTable) -> dict[str, Any]:
        """Where the table's review is: "done" (with the review), "running" (moves done of the
        total), "failed", or "none" (not asked for yet). Refused while the game runs."""
        self._check_over(table)
        table_id = table.row.id
        stored = await self.hub.stored(self.hub.store.load_review, table_id)
        if stored is not None:
            return _done(stored)
        job = self.jobs.get(table_id)
        if job is not None:
            return {"status": "failed" if job.failed else "running", "done": job.done, "total": job.total}
        claim = await self.hub.stored(self.hub.store.review_claim, table_id)
        if claim is not None and claim.beat >= self.hub.now() - CLAIM_STALE_SECONDS:  # another process's
            return _running(claim.done, claim.total)
        return {"status": "none", "done": 0, "total": table.version}

    async def start(self, table: LiveTable) -> dict[str, Any]:
        """Start the table's review unless it is stored or running (then as `status`)."""
        found = await self.status(table)
        table_id = table.row.id
        if found["status"] == "done":
            return found
        if (here := self._running_here(table_id)) is not None:  # (another request may have started it meanwhile)
            return here
        running = sum(not job.failed for job in self.jobs.values())
        if running >= self.hub.config.reviews_running:
            raise Limited("reviews_busy", f"this server runs at most {self.hub.config.reviews_running} "
                                          "reviews at once: try again in a minute", 30)
        record = self._record(table)
        total = len(record.actions)
        claim = await self.hub.stored(self.hub.store.claim_review, table_id, self.owner, total, self.hub.now(),
                                      CLAIM_STALE_SECONDS)
        if claim.owner != self.owner:  # another process claimed it first
            return _running(claim.done, claim.total)
        stored = await self.hub.stored(self.hub.store.load_review, table_id)
        if stored is not None:  # another process stored it (then released its claim) since `status` looked
            await self._release(table_id)
            return _done(stored)
        if (here := self._running_here(table_id)) is not None:  # started here while the store answered
            return here
        job = self.jobs[table_id] = Job(done=0, total=total)
        self.hub.in_background(self._run(table_id, record, review_seed(table.row.seed), job))
        return _running(0, total)

    def _running_here(self, table_id: str) -> dict[str, Any] | None:
        """The answer while this process works the table's review out, else None."""
        job = self.jobs.get(table_id)
        return None if job is None or job.failed else _running(job.done, job.total)

    def _record(self, table: LiveTable) -> GameRecord:
        """The table's record with its data sets mapped to this server's files."""
        record = table.record()
        return replace(record, options=self.hub.datasets.to_server(load(record.game), record.options))

    async def _run(self, table_id: str, record: GameRecord, seed: int, job: Job) -> None:
        """Review the game in the workers (from a thread, which waits on them), then store it."""
        throttled = Throttled(self.hub.bots.pool(), self.hub.bots.workers)

        def progress(done: int, total: int) -> None:
            job.done = done  # (one int, written from the thread: the page reads it when it polls)

        beat = asyncio.ensure_future(self._renew(table_id, job))
        try:
            review: Review = await asyncio.to_thread(review_record, record, self.settings, seed,
                                                     progress=progress, executor=throttled)
            await self.hub.stored(self.hub.store.save_review, table_id, review.to_json())
            if self.jobs.get(table_id) is job:  # stored: the store answers from now on
                del self.jobs[table_id]
        except asyncio.CancelledError:  # (the server stops: the claim goes stale, another process takes it)
            throttled.stopped.set()
            raise
        except (MeepleError, Refused, RuntimeError) as exc:  # (a stopped review, broken workers)
            log.warning("meeple: the review of table %s failed: %s", table_id, exc)
            job.failed = True
        except Exception:  # a bug: the table may ask again, and nothing stays "running" for ever
            log.exception("meeple: the review of table %s failed", table_id)
            job.failed = True
        finally:
            beat.cancel()
        await self._release(table_id)

    async def _renew(self, table_id: str, job: Job) -> None:
        """Renew this process's claim on the review with its progress, every CLAIM_BEAT_SECONDS."""
        while True:
            await asyncio.sleep(CLAIM_BEAT_SECONDS)
            try:
                await self.hub.stored(self.hub.store.note_review_progress, table_id, self.owner, job.done,
                                      self.hub.now())
            except (Refused, StoreError) as exc:  # the next beat tries again
                log.warning("meeple: the review of table %s could not note its progress: %s", table_id, exc)

    async def _release(self, table_id: str) -> None:
        """End this process's claim (the review is stored, or failed and may be asked for again)."""
        try:
            await self.hub.stored(self.hub.store.release_review, table_id, self.owner)
        except (Refused, StoreError) as exc:  # it goes stale instead
            log.warning("meeple: the review claim of table %s stays until it goes stale: %s", table_id, exc)

    async def stored_review(self, table: LiveTable) -> dict[str, Any]:
        """The table's stored review, checked (Refused if there is none yet)."""
        self._check_over(table)
        stored = await self.hub.stored(self.hub.store.load_review, table.row.id)
        if stored is None:
            raise Refused("no_review", "this game has not been reviewed yet: ask for its review first", 404)
        try:
            Review.from_json(stored)
        except RecordError as exc:
            raise Refused("no_review", f"the stored review cannot be read: {exc}", 404) from None
        return stored

    async def views(self, table: LiveTable) -> list[View]:
        """The spectator's view of the position before each move (the game is over), for the
        review's words; replayed in a thread."""
        record = self._record(table)

        def build() -> list[View]:
            views = [record.new_state().view(None)]
            record.replay(lambda step, action, after: views.append(after.view(None)))
            return views

        try:
            return await asyncio.to_thread(build)
        except MeepleError as exc:
            raise Refused("unplayable", self.hub.datasets.hide(f"this table cannot be replayed here: {exc}"),
                          503) from None

    # -- hints ----------------------------------------------------------------------------------
    async def hint(self, table: LiveTable, seat: int, version: int) -> dict[str, Any]:
        """The preferred move and its chance for `seat`, to move at `version`, at a table where
        every other seat is a bot; the hint is noted for the record before it is given. Asking
        again at the same move gives the same answer, worked out once."""
        async with table.lock:
            self._check_hint(table, seat, version)
            if table.hint is None or table.hint[0] != version:
                sample = Observation.of(table.state).sample.to_json()
                work = self.hub.bots.hint(sample, seat, self.settings, hint_seed(table.row.seed, version))
                table.hint = (version, asyncio.ensure_future(work))
            answer = table.hint[1]
        try:
            found = dict(await asyncio.shield(answer))
        except MeepleError as exc:
            raise Refused("no_hint", f"no hint could be worked out: {exc}", 409) from None
        async with table.lock:
            self._check_hint(table, seat, version)
            if version not in table.row.hints:
                await self.hub.stored(self.hub.store.add_hint, table.row.id, version)
                table.row.hints.append(version)
            best = table.game.action_from_json(found["best_action"])
            found["best_action_id"] = table.state.action_id(best)
        found["index"] = version
        return found

    @staticmethod
    def _check_hint(table: LiveTable, seat: int, version: int) -> None:
        """A hint is for the person to move, at this version, with only bots as opponents."""
        if table.row.closed:
            raise closed_refusal()
        if table.state.is_terminal:
            raise Refused("over", "the game is over")
        if not table.started:
            raise Refused("waiting", "the game starts when every seat is taken")
        others = [s.seat for s in table.row.seats if s.seat != seat]
        if any(table.bot_spec(other) is None for other in others):
            raise Refused("no_hints", "hints are given only at a table where every other seat is a bot "
                                      "(against people a hint would be a cheat)", 403)
        if table.bot_spec(seat) is not None or table.state.current_player != seat:
            raise Refused("not_your_turn", "a hint is for the seat to move")
        if version != table.version:
            raise Refused("stale", f"the table is at move {table.version}, not {version}: look again")
