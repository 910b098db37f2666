"""Reading a game's data file (components, a board) that a user or an operator names.

A path can name anything: a FIFO that blocks the reader until someone writes to it, `/dev/zero`
that never ends, a directory. Only a regular file of bounded size is read; anything else is one
`DataError` saying what the path is, before a single byte is read.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from meeple.core.errors import DataError

#: The largest data file read (the shipped ones are under 10 KB).
MAX_DATA_BYTES = 1024 * 1024
#: Opening a FIFO for reading waits for a writer unless it is opened non-blocking.
_OPEN_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)


def read_data_text(path: Path | str, what: str, max_bytes: int = MAX_DATA_BYTES) -> str:
    """The UTF-8 text of the regular file at `path`; `what` names it in the one-line error
    ("cannot read WHAT: ...", "WHAT is a directory, not a regular file", ...)."""
    try:
        fd = os.open(path, _OPEN_FLAGS)
    except OSError as exc:
        raise DataError(f"cannot read {what}: {exc.strerror or exc}") from None
    try:
        mode = os.fstat(fd).st_mode
        if not stat.S_ISREG(mode):
            raise DataError(f"{what} is {_kind(mode)}, not a regular file")
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(max_bytes + 1)
    except OSError as exc:
        raise DataError(f"cannot read {what}: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise DataError(f"{what} is larger than {max_bytes:,} bytes")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{what} is not UTF-8 text (byte {exc.start})") from None


def _kind(mode: int) -> str:
    if stat.S_ISDIR(mode):
        return "a directory"
    if stat.S_ISFIFO(mode):
        return "a pipe (FIFO)"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"
