"""Checks of values that arrive from outside (records, states, the command line, the network),
shared by every game so that each rule about a number is written once."""

from __future__ import annotations

import re
import reprlib
from collections.abc import Collection, Iterable, Mapping, Sized
from typing import Any, TypeGuard

from meeple.core.errors import RecordError

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = 40
_SHORT.maxlevel, _SHORT.maxdict, _SHORT.maxlist = 3, 4, 4
#: Control characters (C0, DEL, C1) and lone surrogates: not text a person typed, and not
#: storable everywhere (PostgreSQL refuses NUL; a lone surrogate cannot be encoded as UTF-8).
_UNSAFE = re.compile(r"[\x00-\x1f\x7f-\x9f\ud800-\udfff]")


def shown(value: Any, limit: int = 100) -> str:
    """`value` as a message may quote it: its repr, cut short (the value may be 16 KB a client
    sent) and printable (repr escapes control characters and lone surrogates)."""
    text = _SHORT.repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def printable(text: str, limit: int = 300) -> str:
    """`text` safe to show and to encode anywhere: control characters and lone surrogates
    written as escapes, and at most `limit` characters."""
    text = _UNSAFE.sub(lambda match: ascii(match.group())[1:-1], text)
    return text if len(text) <= limit else text[:limit - 3] + "..."


def clean_text(value: str, what: str) -> str:
    """`value` if it is text a person could have typed: no control character (not even a line
    break) and no lone surrogate; else a RecordError naming `what`."""
    bad = _UNSAFE.search(value)
    if bad is not None:
        raise RecordError(f"{what} holds {bad.group()!a}: control characters and lone surrogates are refused")
    return value


def object_kind(obj: Any, fields: Mapping[str, Collection[str]], what: str) -> str:
    """The "type" of the JSON object `obj` (an action), after checking that it is one of
    `fields`' keys and that every other key is one of that type's fields: an unknown field is
    refused, never ignored. The values are each game's to check. RecordError names the first
    problem."""
    if not isinstance(obj, dict):
        raise RecordError(f"a {what} is a JSON object, not {shown(obj)}")
    kind = obj.get("type")
    if type(kind) is not str or kind not in fields:
        raise RecordError(f"unknown {what} type {shown(kind)} ({', '.join(fields)})")
    extra = [key for key in obj if key != "type" and key not in fields[kind]]
    if extra:
        raise RecordError(f"a {what} {kind!r} has no field {shown(extra[0])}")
    return kind


def is_whole(value: Any) -> TypeGuard[int]:
    """True for an int that is not a bool (JSON's true is not the number 1 here)."""
    return type(value) is int


def check_range(value: int, low: int, high: int, what: str) -> int:
    """`value` if low <= value <= high, else a RecordError naming `what`."""
    if not low <= value <= high:
        raise RecordError(f"{what} must be {low} to {high}, not {shown(value)}")
    return value


def whole_in_range(value: Any, low: int, high: int, what: str) -> int:
    """A whole number in [low, high] from untrusted input, else a RecordError naming `what`."""
    if not is_whole(value):
        raise RecordError(f"{what} must be a whole number, not {shown(value)}")
    return check_range(value, low, high, what)


def check_length(items: Sized, length: int, what: str) -> None:
    """A RecordError naming `what` unless `items` holds exactly `length` entries."""
    if len(items) != length:
        raise RecordError(f"{what} must hold {length} entries, not {len(items)}")


def check_at_most(items: Sized, length: int, what: str) -> None:
    """A RecordError naming `what` if `items` holds more than `length` entries."""
    if len(items) > length:
        raise RecordError(f"{what} must hold at most {length} entries, not {len(items)}")


def check_each_in_range(items: Iterable[int], low: int, high: int, what: str) -> None:
    """Every entry of `items` in [low, high], else a RecordError naming `what[i]`."""
    for i, x in enumerate(items):
        check_range(x, low, high, f"{what}[{i}]")
