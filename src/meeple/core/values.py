"""Frozen value classes that copy and pickle alike in the compiled and the pure build.

A frozen dataclass compiled by mypyc cannot be rebuilt the way `copy` and `pickle` rebuild an
ordinary one (they set each field on a blank object, which a frozen class refuses), so such a
class defines `__reduce__ = rebuild_by_fields`: it is rebuilt by calling the class with its
fields, in either build.
"""

from __future__ import annotations

import dataclasses
from typing import Any


def rebuild_by_fields(value: Any) -> tuple[Any, tuple[Any, ...]]:
    """`__reduce__` of a frozen dataclass: its class, called with every field in order."""
    return type(value), tuple(getattr(value, field.name) for field in dataclasses.fields(value))
