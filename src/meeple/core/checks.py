"""Checks of values that arrive from outside (records, states, the command line, the network),
shared by every game so that each rule about a number is written once."""

from __future__ import annotations

from collections.abc import Iterable, Sized
from typing import Any, TypeGuard

from meeple.core.errors import RecordError


def is_whole(value: Any) -> TypeGuard[int]:
    """True for an int that is not a bool (JSON's true is not the number 1 here)."""
    return type(value) is int


def check_range(value: int, low: int, high: int, what: str) -> int:
    """`value` if low <= value <= high, else a RecordError naming `what`."""
    if not low <= value <= high:
        raise RecordError(f"{what} must be {low} to {high}, not {value!r}")
    return value


def whole_in_range(value: Any, low: int, high: int, what: str) -> int:
    """A whole number in [low, high] from untrusted input, else a RecordError naming `what`."""
    if not is_whole(value):
        raise RecordError(f"{what} must be a whole number, not {value!r}")
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
