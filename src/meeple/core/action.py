"""The base class of every game's action classes: `to_json` comes from the game's declaration.

A game declares each kind of action once, as a frozen dataclass deriving from `DeclaredAction`,
and lists the kinds with the JSON form of their fields in a `meeple.core.actionfields.ActionSpace`;
the space registers each class's encoder here. This module is compiled where a compiler is
present (the compiled games' action classes may only derive from a compiled class), and may be
subclassed by interpreted classes all the same.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from mypy_extensions import mypyc_attr

#: The JSON encoder of each declared action class (filled by ActionSpace).
_ENCODERS: dict[type, Callable[[Any], dict[str, Any]]] = {}


@mypyc_attr(allow_interpreted_subclasses=True)
class DeclaredAction:
    """An action whose JSON form is derived from its kind's declaration."""

    __slots__ = ()

    def to_json(self) -> dict[str, Any]:
        """`{"type": kind, field: value, ...}` as the game's ActionSpace declares it."""
        return _ENCODERS[type(self)](self)


def register_encoder(cls: type, encode: Callable[[Any], dict[str, Any]]) -> None:
    """Make `encode` the JSON form of `cls`'s instances (a class belongs to one space)."""
    if cls in _ENCODERS:
        raise TypeError(f"{cls.__name__} is declared in two action spaces")
    _ENCODERS[cls] = encode
