"""Actions declared once per game, as states are (meeple.core.statefields).

Each kind of action is a frozen dataclass (slots) deriving from `DeclaredAction`. A `Kind` names
it in JSON (its "type") and gives each field a `Domain`: how the value is written in JSON, how it
is checked when read, and its range when it counts towards the integer id. An `ActionSpace` lists
a game's kinds in id order, and everything else follows from it: `to_json`, decoding (an unknown,
missing or ill-typed field is refused with a RecordError that names it), and the ids. Each kind
takes the next block of ids, one per combination of its id fields (the first field the most
significant); a field outside the id (a tower, a rotation) takes its default or first value in
the action an id stands for.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import fields, is_dataclass
from typing import Any, Generic, TypeVar

from mypy_extensions import mypyc_attr

from meeple.core.action import DeclaredAction, register_encoder
from meeple.core.checks import object_kind, shown, whole_in_range
from meeple.core.errors import IllegalAction, RecordError
from meeple.core.protocol import check_action_id

A = TypeVar("A", bound=DeclaredAction)
K = TypeVar("K", bound=DeclaredAction)

#: A field without a default: the JSON must carry it.
REQUIRED: Any = object()


@mypyc_attr(allow_interpreted_subclasses=True)
class Domain:
    """The JSON form and range of one field. `size` is the number of values the field takes in
    the id (0: not part of the id); `default` is its value when the JSON leaves it out (a value
    of None is left out of the JSON)."""

    size = 0

    def __init__(self, default: Any = REQUIRED, key: str | None = None) -> None:
        self.default = default
        self.key = key

    def keys(self, name: str) -> tuple[str, ...]:
        """The JSON keys this field is written under: `key`, else the field's name."""
        return (self.key or name,)

    def write(self, value: Any, name: str, out: dict[str, Any]) -> None:
        out[self.key or name] = value

    def read(self, obj: dict[str, Any], name: str, what: str) -> Any:
        """The field's value from the JSON object `obj`; RecordError names `what` and the field."""
        name = self.key or name
        if name not in obj:
            if self.default is REQUIRED:
                raise RecordError(f"{what} needs the field {name!r}")
            return self.default
        return self.parse(obj[name], f"{what} field {name!r}")

    def parse(self, raw: Any, what: str) -> Any:
        """The value written as `raw`; RecordError naming `what` when it is not one. A domain
        defines this or its own `read` (a declaration error otherwise)."""
        raise TypeError(f"{type(self).__name__} reads no JSON: it must define parse() or read()")

    def index(self, value: Any) -> int:
        """The value's place in the id's range, or -1 when it is not in the range."""
        return -1

    def value_at(self, index: int) -> Any:
        """The value with this place in the id's range (only a domain with a range has one)."""
        raise TypeError(f"{type(self).__name__} has no range of values: give its field a default")


class Whole(Domain):
    """A whole number from `low` to `high`, written as a number."""

    def __init__(self, low: int, high: int, default: Any = REQUIRED, key: str | None = None) -> None:
        super().__init__(default, key)
        self.low, self.high = low, high
        self.size = high - low + 1

    def parse(self, raw: Any, what: str) -> int:
        return whole_in_range(raw, self.low, self.high, what)

    def index(self, value: Any) -> int:
        return value - self.low if type(value) is int and self.low <= value <= self.high else -1

    def value_at(self, index: int) -> int:
        return self.low + index


class Names(Domain):
    """An index into `names`, written as the name."""

    def __init__(self, names: Sequence[str], default: Any = REQUIRED, key: str | None = None) -> None:
        super().__init__(default, key)
        self.names = tuple(names)
        self.size = len(self.names)
        self._index = {name: i for i, name in enumerate(self.names)}

    def write(self, value: Any, name: str, out: dict[str, Any]) -> None:
        out[self.key or name] = self.names[value]

    def parse(self, raw: Any, what: str) -> int:
        index = self._index.get(raw) if type(raw) is str else None
        if index is None:
            raise RecordError(f"{what} must be one of {', '.join(self.names)}, not {shown(raw)}")
        return index

    def index(self, value: Any) -> int:
        return value if type(value) is int and 0 <= value < self.size else -1

    def value_at(self, index: int) -> int:
        return index


class Flag(Domain):
    """true or false."""

    size = 2

    def parse(self, raw: Any, what: str) -> bool:
        if type(raw) is not bool:
            raise RecordError(f"{what} must be true or false, not {shown(raw)}")
        return raw

    def index(self, value: Any) -> int:
        return int(value) if type(value) is bool else -1

    def value_at(self, index: int) -> bool:
        return bool(index)


class Kind:
    """One kind of action: its class, its JSON "type", each field's domain (every field of the
    dataclass, by name), the fields that make the id (all of them unless `id_fields` says
    otherwise, in that order) and `check`, a test across fields run on decoding (RecordError)."""

    def __init__(self, cls: type, name: str, *, id_fields: Sequence[str] | None = None,
                 check: Callable[[Any], None] | None = None, **domains: Domain) -> None:
        if not (is_dataclass(cls) and issubclass(cls, DeclaredAction)):
            raise TypeError(f"{cls.__name__}: an action kind is a dataclass deriving from DeclaredAction")
        names = [f.name for f in fields(cls)]
        if set(names) != set(domains):
            raise TypeError(f"{cls.__name__}: declare the JSON domain of exactly its fields {names}")
        self.cls, self.name, self.check = cls, name, check
        self.fields = tuple((n, domains[n]) for n in names)
        ids = tuple(names if id_fields is None else id_fields)
        strides, stride = [], 1
        for n in reversed(ids):
            strides.append(stride)
            stride *= domains[n].size
        self.size = stride
        self.id_fields = tuple(zip(ids, (domains[n] for n in ids), reversed(strides)))
        self.keys = tuple(key for n, domain in self.fields for key in domain.keys(n))

    def encode(self, action: Any) -> dict[str, Any]:
        """The action's JSON form (DeclaredAction.to_json)."""
        out: dict[str, Any] = {"type": self.name}
        for name, domain in self.fields:
            value = getattr(action, name)
            if value is not None:
                domain.write(value, name, out)
        return out

    def index(self, action: Any) -> int:
        """The action's place in this kind's block of ids, or -1 when a field is out of range."""
        total = 0
        for name, domain, stride in self.id_fields:
            place = domain.index(getattr(action, name))
            if place < 0:
                return -1
            total += place * stride
        return total

    def at(self, index: int) -> Any:
        """The action with this place in the kind's block of ids."""
        values = {name: domain.default if domain.default is not REQUIRED else domain.value_at(0)
                  for name, domain in self.fields}
        for name, domain, stride in self.id_fields:
            values[name] = domain.value_at(index // stride % domain.size)
        return self.cls(**values)

    def decode(self, obj: dict[str, Any], what: str) -> Any:
        """The action `obj` writes (its type and keys already checked); RecordError names `what`."""
        action = self.cls(**{name: domain.read(obj, name, what) for name, domain in self.fields})
        if self.check is not None:
            self.check(action)
        return action


class ActionSpace(Generic[A]):
    """A game's action kinds in id order, and what follows from them: ids, JSON decoding (and,
    through DeclaredAction, encoding)."""

    def __init__(self, title: str, kinds: Sequence[Kind]) -> None:
        self.title = title
        self.kinds = tuple(kinds)
        self._starts: list[int] = []
        self._by_class: dict[type, tuple[Kind, int]] = {}
        start = 0
        for kind in self.kinds:
            self._starts.append(start)
            self._by_class[kind.cls] = (kind, start)
            register_encoder(kind.cls, kind.encode)
            start += kind.size
        self.num_actions = start
        self._by_id: list[A | None] = [None] * start
        #: The id of each instance `action_from_id` made, by identity: the games' legal actions
        #: are these instances, so search asks for their ids with one lookup (they live as
        #: long as the space, so an object's identity is never reused).
        self._id_of_instance: dict[int, int] = {}
        self._kept: list[DeclaredAction] = []
        self._by_name = {kind.name: kind for kind in self.kinds}
        self._keys = {kind.name: kind.keys for kind in self.kinds}

    def id_or_none(self, action: object) -> int | None:
        """The id of `action`, or None when it is not one of this space's actions."""
        number = self._id_of_instance.get(id(action))
        return self._computed_id(action) if number is None else number

    def _computed_id(self, action: object) -> int | None:
        entry = self._by_class.get(type(action))
        if entry is None:
            return None
        index = entry[0].index(action)
        return None if index < 0 else entry[1] + index

    def adopt(self, action: K) -> K:
        """Keep `action` for good and find its id by identity from now on: a game that builds
        actions with fields outside the id (a rotation) hands out the kept ones."""
        number = self.action_id(action)
        self._kept.append(action)
        self._id_of_instance[id(action)] = number
        return action

    def release_adopted(self) -> None:
        """Forget every adopted action, to bound a game's cache of them. An action still held
        elsewhere keeps its id, computed from its fields instead of found by identity."""
        for action in self._kept:
            del self._id_of_instance[id(action)]
        self._kept.clear()

    def action_id(self, action: object) -> int:
        """The id of `action` (IllegalAction when it is not one of this space's actions)."""
        number = self._id_of_instance.get(id(action))  # the common case, without a call
        if number is None:
            number = self._computed_id(action)
            if number is None:
                raise IllegalAction("ids", f"{shown(action)} is not a {self.title} action")
        return number

    def action_ids(self, actions: list[A]) -> list[int]:
        """The id of each of `actions` (a state's legal actions), in one call: the hot path of
        search, where nearly every action is an instance this space made."""
        known = self._id_of_instance
        out: list[int] = []
        for action in actions:
            number = known.get(id(action))
            out.append(self.action_id(action) if number is None else number)
        return out

    def action_from_id(self, number: object) -> A:
        """The action with id `number` (IllegalAction outside the range); one instance per id."""
        number = check_action_id(number, self.num_actions, self.title)
        action = self._by_id[number]
        if action is None:
            start = bisect_right(self._starts, number) - 1
            action = self._by_id[number] = self.kinds[start].at(number - self._starts[start])
            self._id_of_instance[id(action)] = number
        return action

    def all_actions(self) -> list[A]:
        """Every action an id stands for, in id order."""
        return [self.action_from_id(number) for number in range(self.num_actions)]

    def block(self, cls: type) -> list[A]:
        """The actions of kind `cls` that ids stand for, in id order (a game's prebuilt tables)."""
        kind, start = self._by_class[cls]
        return [self.action_from_id(number) for number in range(start, start + kind.size)]

    def action_from_json(self, obj: Any) -> A:
        """Decode an action's JSON form; RecordError names what is malformed. The action an id
        stands for comes back as that id's instance."""
        name = object_kind(obj, self._keys, f"{self.title} action")
        action = self._by_name[name].decode(obj, f"{self.title} {name} action")
        number = self.id_or_none(action)
        if number is not None:
            canonical = self.action_from_id(number)
            if canonical == action:
                return canonical
        return action  # type: ignore[no-any-return]
