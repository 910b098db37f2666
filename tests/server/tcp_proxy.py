"""A loopback TCP proxy a test owns, to cut a server off its database and give it back.

`TcpProxy(port)` listens on a free loopback port and forwards every connection to
127.0.0.1:`port`. `cut()` closes every open connection and refuses new ones (they are accepted
and closed at once, as when a database restarts); `restore()` forwards again.
`lose_replies(seconds)` drops what the database sends from then on and closes those connections
a moment later: a request that reached the database whose answer never came back. Threads, not
asyncio, so a synchronous test can drive it directly.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from types import TracebackType


class TcpProxy:
    def __init__(self, target_port: int, target_host: str = "127.0.0.1") -> None:
        self.target = (target_host, target_port)
        self._listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self._listener.getsockname()[1]
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()  # both ends of every forwarded connection
        self._cut = False
        self._muted = False  # drop what the database sends (lose_replies)
        self._closed = False
        self._acceptor = threading.Thread(target=self._accept, name="proxy-accept", daemon=True)
        self._acceptor.start()

    def cut(self) -> None:
        """Close every forwarded connection; refuse new ones until `restore()`."""
        with self._lock:
            self._cut = True
        self._drop_open()

    def _drop_open(self) -> None:
        """Answer again and close the connections open now, without refusing new ones: a client
        that reconnects the moment its connection drops (as a store checking how its COMMIT
        ended does) must reach the database, not a proxy still between `cut` and `restore`."""
        with self._lock:
            self._muted = False
            doomed, self._open = self._open, set()
        for sock in doomed:
            _close(sock)

    def restore(self) -> None:
        with self._lock:
            self._cut = False
            self._muted = False

    def lose_replies(self, seconds: float) -> None:
        """Drop the database's answers from now on; after `seconds`, close the connections then open."""
        with self._lock:
            self._muted = True

        def later() -> None:
            time.sleep(seconds)
            self._drop_open()

        threading.Thread(target=later, name="proxy-lose-replies", daemon=True).start()

    def close(self) -> None:
        self.cut()
        self._closed = True
        _close(self._listener)
        self._acceptor.join(timeout=10)

    def __enter__(self) -> TcpProxy:
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None, tb: TracebackType | None) -> None:
        self.close()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self._listener.accept()
            except OSError:  # the listener was closed
                return
            with self._lock:
                refused = self._cut
            if refused:
                _close(client)
                continue
            try:
                upstream = socket.create_connection(self.target, timeout=5)
            except OSError:
                _close(client)
                continue
            upstream.settimeout(None)
            with self._lock:
                if self._cut:  # cut while connecting
                    _close(client)
                    _close(upstream)
                    continue
                self._open.update((client, upstream))
            for source, sink, replies in ((client, upstream, False), (upstream, client, True)):
                threading.Thread(target=self._pump, args=(source, sink, replies), name="proxy-pump",
                                 daemon=True).start()

    def _pump(self, source: socket.socket, sink: socket.socket, replies: bool) -> None:
        """Copy one direction until either end closes, then close both."""
        try:
            while data := source.recv(65536):
                if not (replies and self._muted):
                    sink.sendall(data)
        except OSError:
            pass
        finally:
            with self._lock:
                self._open.discard(source)
                self._open.discard(sink)
            _close(source)
            _close(sink)


def _close(sock: socket.socket) -> None:
    """Close at once, so the peer sees the connection end (shutdown wakes a blocked recv)."""
    with contextlib.suppress(OSError):
        sock.shutdown(socket.SHUT_RDWR)
    sock.close()
