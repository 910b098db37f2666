"""Reading JSON that comes from outside (record files, pasted states, network messages) so that
every way it can be wrong is one `RecordError`, never a traceback, a hang or all of memory.

Python's own parser fails on such input with several different exceptions: `UnicodeDecodeError`
for bytes that are not UTF-8 (a UTF-16 file), `RecursionError` for deep nesting
(`[` x 100,000), `ValueError` for an integer of more than 4,300 digits, and it reads
`/dev/zero` until memory runs out. These functions bound the size first and name the problem.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from meeple.core.errors import RecordError

#: The largest record file read (a long Triominos match is about 100 KB).
MAX_FILE_BYTES = 8 * 1024 * 1024
#: Nesting deeper than this is refused before parsing (meeple's own formats nest at most 6).
MAX_DEPTH = 64


def parse_json(text: str | bytes, what: str, max_bytes: int = MAX_FILE_BYTES, allow_nan: bool = True) -> Any:
    """The JSON value of `text`; `what` names the source in the one-line error. Without
    `allow_nan`, NaN and Infinity (which Python reads but JSON does not have) are refused."""
    if len(text) > max_bytes:
        raise RecordError(f"{what} is larger than {max_bytes:,} bytes")
    if isinstance(text, bytes):
        text = _decode(text, what)
    _check_depth(text, what)

    def not_json(name: str) -> Any:
        raise RecordError(f"{what} holds {name}, which is not JSON")

    try:
        return json.loads(text) if allow_nan else json.loads(text, parse_constant=not_json)
    except json.JSONDecodeError as exc:
        raise RecordError(f"{what} is not valid JSON (line {exc.lineno}: {exc.msg})") from None
    except RecordError:
        raise
    except ValueError:  # Python refuses integers of more than 4,300 digits
        raise RecordError(f"{what} holds a number too long to read") from None
    except RecursionError:  # nesting the scan above missed
        raise RecordError(f"{what} nests too deeply") from None


def read_json_file(path: Path | str, what: str | None = None, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """The JSON value in the file at `path`, read up to `max_bytes` (so a device or a huge file
    is refused instead of read until memory runs out)."""
    name = what or str(path)
    try:
        with open(path, "rb") as handle:
            data = handle.read(max_bytes + 1)
    except IsADirectoryError:
        raise RecordError(f"{name} is a directory, not a file") from None
    except OSError as exc:
        raise RecordError(f"cannot read {name}: {exc.strerror or exc}") from None
    return parse_json(data, name, max_bytes)


def _decode(data: bytes, what: str) -> str:
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise RecordError(f"{what} is UTF-16 text; save it as UTF-8")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise RecordError(f"{what} is not UTF-8 text (byte {exc.start})") from None


_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKET = re.compile(r"[\[\]{}]")


def _check_depth(text: str, what: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH (brackets outside strings) before the parser
    recurses into it."""
    if text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    depth = 0
    for match in _BRACKET.finditer(_STRING.sub("", text)):
        if match.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                raise RecordError(f"{what} nests deeper than {MAX_DEPTH} levels")
        else:
            depth -= 1
