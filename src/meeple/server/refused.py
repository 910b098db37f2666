"""What a table refuses: the one exception every table command raises, with a code for programs,
a message for people and the HTTP status (`meeple.server.refusals` answers it on HTTP, the
WebSocket sends it to the one client that asked). A refusal changes nothing."""

from __future__ import annotations


class Refused(Exception):
    """A request the table refuses: `code` for programs, the message for people, `status` the
    HTTP status. Nothing changed."""

    def __init__(self, code: str, message: str, status: int = 409) -> None:
        super().__init__(message)
        self.code = code
        self.status = status


class Limited(Refused):
    """A refusal because a limit is reached (HTTP 429): `retry_after` seconds until it lifts,
    or None if it lifts when something ends (an open table, a connection)."""

    def __init__(self, code: str, message: str, retry_after: float | None = None) -> None:
        super().__init__(code, message, 429)
        self.retry_after = retry_after


def closed_refusal() -> Refused:
    return Refused("closed", "this table was closed after going unused: its record stays readable, "
                             "but nothing can change it now", 409)
