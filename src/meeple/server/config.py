"""What the operator of `meeple serve` sets: one frozen value handed to `create_app`.

`meeple serve` builds it from its flags and passes it to the uvicorn worker as JSON in one
environment variable (uvicorn starts the application through a factory that takes no
arguments). docs/server.md lists every setting; docs/security.md says which door each guards.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any

#: The environment variable `meeple serve` hands the configuration through.
CONFIG_VARIABLE = "MEEPLE_SERVER_CONFIG"
#: The environment variable an operator (or a test) may set the review settings with, as JSON.
REVIEW_VARIABLE = "MEEPLE_REVIEW"


@dataclass(frozen=True)
class ServerConfig:
    """The operator's settings. Defaults suit one process on a person's own machine."""

    #: The address the server listens on (part of the default host allowlist).
    host: str = "127.0.0.1"
    #: Where tables are stored: a SQLite path (or sqlite:///PATH) or postgresql://...
    db: str = "meeple.db"
    #: redis://HOST:PORT shared by several processes, or None for a process alone.
    redis: str | None = None
    #: Other page origins (scheme://host:port) allowed to open a WebSocket.
    allowed_origins: tuple[str, ...] = field(default_factory=tuple)
    #: Host names (the Host header, without the port) this server answers to; empty: the name
    #: `host` gives, if a name, and localhost. An IP address is always answered (no name can be
    #: rebound to it). Guards against DNS rebinding (`meeple.server.hosts`).
    allowed_hosts: tuple[str, ...] = field(default_factory=tuple)
    #: Addresses (or CIDR networks) of trusted reverse proxies whose X-Forwarded-For names the
    #: client; empty: none, the peer's address is the client's (`meeple.server.proxies`).
    forwarded_allow_ips: tuple[str, ...] = field(default_factory=tuple)
    #: The operator's component and board files (docs/server.md, "Data sets"), or None: only
    #: the shipped data. A client chooses among them by name, never by path.
    data_dir: str | None = None

    # -- the limits on each door (per client address unless said otherwise; `meeple.server.limits`)
    #: Join attempts per client and table, and per table from all clients, per minute.
    join_attempts_per_client: int = 10
    join_attempts_per_table: int = 30
    #: Tables a client may create per `create_window` seconds, and may have unfinished at once.
    tables_per_window: int = 20
    create_window: int = 600
    open_tables_per_client: int = 20
    #: Open WebSocket connections per client address (in each process).
    websockets_per_client: int = 32
    #: Unfinished tables created with no person seated (they play on the server's CPU),
    #: server-wide; 0 refuses them.
    bot_tables: int = 2
    #: Chat lines per seat in any `chat_window` seconds (shared between processes over Redis).
    chat_lines: int = 5
    chat_window: int = 10
    #: A table nobody has touched (no move, no connection) for this long is closed, its record
    #: kept; a loaded table nobody uses leaves memory after `unload_seconds` (15 at least).
    idle_close_seconds: int = 6 * 3600
    unload_seconds: int = 30
    #: Game reviews and hints (`meeple.server.reviews`): reviews running at once, server-wide (a
    #: review is one worker task per move); review and hint requests per client per minute; what
    #: the estimator spends (`ReviewSettings` fields over its defaults; {} for the defaults). The
    #: environment variable MEEPLE_REVIEW may give the settings as JSON when `meeple serve` starts.
    reviews_running: int = 2
    review_requests_per_minute: int = 30
    review: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> str:
        return json.dumps(asdict(self))

    @classmethod
    def from_json(cls, text: str) -> ServerConfig:
        """The configuration `to_json` wrote (lists become tuples again)."""
        raw: dict[str, Any] = json.loads(text)
        known = {f.name for f in fields(cls)}
        values: dict[str, Any] = {key: tuple(value) if isinstance(value, list) else value
                                  for key, value in raw.items() if key in known}
        return cls(**values)

    @classmethod
    def from_environment(cls) -> ServerConfig:
        """The configuration `meeple serve` handed over, else the defaults; MEEPLE_REVIEW, when
        set, is the review settings (ValueError if it is not a JSON object)."""
        text = os.environ.get(CONFIG_VARIABLE)
        config = cls.from_json(text) if text else cls()
        review = os.environ.get(REVIEW_VARIABLE)
        if review:
            settings = json.loads(review)
            if not isinstance(settings, dict):
                raise ValueError(f"{REVIEW_VARIABLE} must be a JSON object of review settings")
            config = replace(config, review=settings)
        return config
