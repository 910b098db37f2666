"""How the arena's games are run: in worker processes on this machine ("process"), or as Ray
tasks on a local Ray instance or a Ray cluster ("ray", the optional extra `meeple[ray]`).

A backend is given a function and a list of tasks (each a tuple of that function's arguments)
and yields the results as the calls finish, in whatever order they finish. The arena gathers
them by game index, so the results do not depend on the backend, the number of workers or the
order of finishing (meeple.ai.arena). Every worker finds the installed games itself and gets the
games the parent registered at run time (`meeple.core.registry.registrations()`: tests register
extra games), and Ctrl-C stops the games still running before the interrupt goes on.

Ray is imported only when the Ray backend is chosen. Without an address the backend starts a
local Ray instance of `workers` CPUs and shuts it down afterwards; with an address (HOST:PORT of
a head started by `ray start --head`) it joins that cluster, runs at most `workers` games at once
(default: the cluster's CPUs) and disconnects afterwards, leaving the cluster running. The
cluster's nodes need meeple installed, the same version as here.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import signal
import socket
from abc import ABC, abstractmethod
from collections.abc import Callable, Generator, Sequence
from functools import partial
from types import TracebackType
from typing import Any, TypeVar

from meeple.core import registry
from meeple.core.errors import OptionError

T = TypeVar("T")
Task = tuple[Any, ...]

#: The backends `run_arena(backend=...)` and `meeple arena --backend` accept.
BACKENDS = ("process", "ray")
#: Games run at once when the caller does not say (the CLI's `--workers` default).
DEFAULT_WORKERS = 2
#: The one line `--backend ray` prints when ray is not installed.
RAY_MISSING = "--backend ray needs the ray extra: pip install 'meeple[ray]'"
#: Seconds to wait for a Ray head to accept a connection before calling its address unreachable.
CONNECT_SECONDS = 5.0


def usable_workers(requested: int, games: int) -> int:
    """Worker processes worth starting: no more than the games or the machine's cores (each is
    a whole Python process of about 40 MB, and more processes than cores only add switching)."""
    if requested < 1:
        raise OptionError(f"the arena needs at least one worker, not {requested}")
    return max(1, min(requested, games, os.cpu_count() or 1))


def _play(games: dict[str, str], play: Callable[..., T], task: Task) -> T:
    """One call in a worker (a Ray task), with the games the parent registered."""
    registry.register_all(games)
    return play(*task)


def _init_worker(games: dict[str, str]) -> None:
    """Give a fresh worker process the games the parent registered (tests register extra games),
    and leave Ctrl-C to the parent, which stops the pool: a worker never prints a traceback for it."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    registry.register_all(games)


def process_pool(workers: int) -> concurrent.futures.ProcessPoolExecutor:
    """`workers` spawned processes that know the games registered here and leave Ctrl-C to this
    process (the game review's moves run on it, a move per task)."""
    context = multiprocessing.get_context("spawn")
    return concurrent.futures.ProcessPoolExecutor(workers, mp_context=context, initializer=_init_worker,
                                                  initargs=(registry.registrations(),))


def _call(play: Callable[..., T], task: Task) -> T:
    return play(*task)


class Backend(ABC):
    """Runs calls somewhere; `workers` is how many run at once. A context manager: leaving it
    releases what the backend started or joined."""

    name = ""
    workers = 1

    @abstractmethod
    def run(self, play: Callable[..., T], tasks: Sequence[Task]) -> Generator[T, None, None]:
        """`play(*task)` for every task, yielded as each finishes."""

    def close(self) -> None:
        """Release what the backend started or joined (nothing by default)."""
        return None

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self.close()


class ProcessBackend(Backend):
    """A pool of spawned worker processes on this machine; one worker plays in this process."""

    name = "process"

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def run(self, play: Callable[..., T], tasks: Sequence[Task]) -> Generator[T, None, None]:
        if self.workers == 1 or len(tasks) <= 1:
            for task in tasks:
                yield play(*task)
            return
        context = multiprocessing.get_context("spawn")
        with context.Pool(self.workers, initializer=_init_worker, initargs=(registry.registrations(),)) as pool:
            try:
                yield from pool.imap_unordered(partial(_call, play), tasks, chunksize=1)
            except KeyboardInterrupt:
                pool.terminate()  # workers ignore SIGINT; stop them before the interrupt goes on
                raise


class RayBackend(Backend):
    """Ray tasks, one CPU each, on a Ray instance this backend started, on a cluster it joined,
    or on the Ray this program was already connected to (left as it was)."""

    name = "ray"

    def __init__(self, ray: Any, workers: int, owned: bool) -> None:
        self.ray = ray
        self.workers = workers
        self.owned = owned  # started or joined here: shut down (a joined cluster is only left)

    @classmethod
    def connect(cls, workers: int | None, games: int, address: str | None) -> RayBackend:
        if workers is not None:
            usable_workers(workers, games)  # the same check as the process pool's
        try:
            import ray
        except ImportError:
            raise OptionError(RAY_MISSING) from None
        quiet: dict[str, Any] = {"logging_level": logging.ERROR, "log_to_driver": False}
        if ray.is_initialized():
            if address is not None:
                raise OptionError("this program is already connected to Ray: leave out --address")
            owned = False
        elif address is None:
            workers = usable_workers(workers or DEFAULT_WORKERS, games)
            # A Ray instance started for one arena run reports nothing home unless asked to.
            os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
            # "local": a new instance even when another one runs on this machine.
            ray.init(address="local", num_cpus=workers, include_dashboard=False, **quiet)
            owned = True
        else:
            head = check_address(address)
            try:
                ray.init(address=head, **quiet)
            except Exception as exc:  # Ray's own errors for a head that refuses us, in many classes
                raise OptionError(f"--address {address}: cannot join the Ray cluster there: {_why(exc)}") from None
            owned = True
        if workers is None:
            workers = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]  # Ray leaves it untyped
        return cls(ray, max(1, min(workers, games)), owned)

    def run(self, play: Callable[..., T], tasks: Sequence[Task]) -> Generator[T, None, None]:
        ray = self.ray
        remote = ray.remote(num_cpus=1)(_play)
        games = ray.put(registry.registrations())
        waiting = iter(tasks)
        pending: list[Any] = []
        try:
            for task in waiting:
                pending.append(remote.remote(games, play, task))
                if len(pending) == self.workers:
                    break
            while pending:
                ready, pending = ray.wait(pending, num_returns=1)  # Ctrl-C interrupts the wait
                result = self._get(ready[0])
                following = next(waiting, None)
                if following is not None:  # the next game starts before this one is recorded
                    pending.append(remote.remote(games, play, following))
                yield result
        finally:  # Ctrl-C, an error, or the caller stopped: the games still running are not wanted
            for ref in pending:
                with contextlib.suppress(Exception):  # best effort: the error that got us here matters more
                    ray.cancel(ref, force=True)

    def _get(self, ref: Any) -> Any:
        """A finished task's result; a task's own error is raised as itself (a MeepleError
        stays a one-line error), not wrapped in Ray's."""
        try:
            return self.ray.get(ref)
        except self.ray.exceptions.RayTaskError as exc:
            cause = getattr(exc, "cause", None)
            if isinstance(cause, Exception):
                raise cause from None
            raise

    def close(self) -> None:
        if self.owned:
            self.owned = False
            self.ray.shutdown()  # stops a Ray started here; only disconnects from a cluster


def check_address(address: str) -> str:
    """HOST:PORT of a Ray head that accepts connections, else one OptionError."""
    host, colon, port = address.strip().rpartition(":")
    host = host.strip("[]")
    if not (colon and host and port.isdigit() and 0 < int(port) < 65536):
        raise OptionError(f"--address must be HOST:PORT of a Ray head (ray start --head), not {address!r}")
    try:
        with socket.create_connection((host, int(port)), timeout=CONNECT_SECONDS):
            pass
    except OSError as exc:
        reason = exc.strerror or type(exc).__name__
        raise OptionError(f"--address {address}: no Ray head answers there ({reason})") from None
    return f"{host}:{port}" if ":" not in host else f"[{host}]:{port}"


def _why(error: BaseException) -> str:
    """One line saying why ray.init could not join a cluster (Ray nests the reason in its causes)."""
    chain = [error]
    while chain[-1].__cause__ is not None and len(chain) < 10:
        chain.append(chain[-1].__cause__)
    if any("InvalidAuthToken" in str(e) or "AuthenticationError" in type(e).__name__ for e in chain):
        return "it asks for a token (set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN, as for Ray's token authentication)"
    return (str(error).strip().splitlines() or [type(error).__name__])[0]


def open_backend(name: str, workers: int | None, games: int, address: str | None = None) -> Backend:
    """The backend `name` for `games` games, started or connected; OptionError for a bad name,
    an address without the Ray backend, ray missing or a head that does not answer."""
    if name not in BACKENDS:
        raise OptionError(f"--backend must be one of {', '.join(BACKENDS)}, not {name!r}")
    if address is not None and name != "ray":
        raise OptionError("--address is a Ray cluster's address: it needs --backend ray")
    if name == "ray":
        return RayBackend.connect(workers, games, address)
    return ProcessBackend(usable_workers(DEFAULT_WORKERS if workers is None else workers, games))
