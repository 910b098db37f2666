"""A game state's fields, declared once, drive its JSON form, its validation on load and `clone`.

A state class (a subclass of meeple.core.state.State) declares each field as a class annotation.
Its type is all the codec needs: `int`, `bool`, `str`, `float`, `X | None`, `list[X]`,
`tuple[X, ...]`, fixed `tuple[X, Y]`, `dict[str, X]`, `Any` (a JSON value the engine never
changes in place), and classes with `to_json()` / `from_json(obj)` (and `clone()` when mutable).
From those types:

- `encode_state` writes every saved field in declaration order;
- `decode_state` reads them back, checking each value against its type and naming the field
  (`towers[2][3]: expected a whole number, not 'x'`) in a `RecordError`;
- `clone_state` runs generated code that copies each field as deep as its type is mutable and
  shares the rest, as fast as a hand-written copy (nothing is copied generically).

Three markers wrap a field's type: `Derived[X]` is not saved and not a constructor argument (the
state's `__post_init__` computes it, after construction and after decoding alike); `Shared[X]`
is saved but not copied by `clone` (data the engine never changes in place, such as loaded
components); `Context[X]` is neither saved nor copied (the game object). They are
`typing.Annotated`, so type checkers and mypyc see plain `X`, and the state classes stay plain
classes, which mypyc compiles as native classes (no decorator, no dataclass).
"""

from __future__ import annotations

import importlib.machinery
import sys
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, TypeVar

from meeple import _native
from meeple.core.errors import RecordError

T = TypeVar("T")


class _Role:
    """How a marked field is treated: saved in the JSON form, copied by clone, a constructor
    argument."""

    __slots__ = ("name", "saved", "shared", "init")

    def __init__(self, name: str, saved: bool, shared: bool, init: bool) -> None:
        self.name = name
        self.saved = saved
        self.shared = shared
        self.init = init

    def __repr__(self) -> str:
        return self.name


_PLAIN = _Role("Plain", saved=True, shared=False, init=True)
_DERIVED = _Role("Derived", saved=False, shared=True, init=False)
_SHARED = _Role("Shared", saved=True, shared=True, init=True)
_CONTEXT = _Role("Context", saved=False, shared=True, init=True)

#: A field computed by `__post_init__` from the others: not saved, not a constructor argument.
Derived = Annotated[T, _DERIVED]
#: A field that `clone` shares instead of copying: the engine never changes it in place.
Shared = Annotated[T, _SHARED]
#: The protocol's own context field (the game): shared, and not saved.
Context = Annotated[T, _CONTEXT]


class _Codec:
    """How one type is encoded, decoded and copied. `copy` builds the source of an expression
    that copies the value of a given expression, or is None when values of the type are never
    changed in place (so clones share them)."""

    __slots__ = ("encode", "decode", "copy")

    def __init__(
        self,
        encode: Callable[[Any], Any] | None,
        decode: Callable[[Any, str], Any],
        copy: Callable[[str], str] | None,
    ) -> None:
        self.encode = encode  # None: the value is already its own JSON form
        self.decode = decode
        self.copy = copy


def _fail(path: str, expected: str, value: Any) -> RecordError:
    shown = repr(value)
    if len(shown) > 60:
        shown = shown[:57] + "..."
    return RecordError(f"{path}: expected {expected}, not {shown}")


def _scalar(kind: type, expected: str) -> _Codec:
    def decode(value: Any, path: str) -> Any:
        if type(value) is kind or (kind is float and type(value) is int):
            return value
        raise _fail(path, expected, value)

    return _Codec(None, decode, None)


_SCALARS: dict[Any, _Codec] = {
    int: _scalar(int, "a whole number"),
    bool: _scalar(bool, "true or false"),
    str: _scalar(str, "text"),
    float: _scalar(float, "a number"),
}


def _any_decode(value: Any, path: str) -> Any:
    return value


def _codec(hint: Any, owner: str) -> _Codec:
    """The codec of a type annotation (raises TypeError for a type it cannot handle)."""
    if hint in _SCALARS:
        return _SCALARS[hint]
    if hint is Any:
        return _Codec(None, _any_decode, None)
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (types.UnionType, typing.Union) and len(args) == 2 and type(None) in args:
        return _optional(_codec(next(a for a in args if a is not type(None)), owner))
    if origin is list and len(args) == 1:
        return _list(_codec(args[0], owner))
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _tuple_of(_codec(args[0], owner))
    if origin is tuple and args:
        return _fixed_tuple([_codec(a, owner) for a in args])
    if origin is dict and len(args) == 2 and args[0] is str:
        return _dict(_codec(args[1], owner))
    if isinstance(hint, type) and hasattr(hint, "to_json") and hasattr(hint, "from_json"):
        return _object(hint)
    raise TypeError(f"{owner}: no JSON codec for the field type {hint!r}")


def _optional(inner: _Codec) -> _Codec:
    def encode(value: Any) -> Any:
        return None if value is None else inner.encode(value)  # type: ignore[misc]

    def decode(value: Any, path: str) -> Any:
        return None if value is None else inner.decode(value, path)

    copy = None
    if inner.copy is not None:
        element = inner.copy

        def copy(v: str) -> str:
            return f"(None if {v} is None else {element(v)})"

    return _Codec(None if inner.encode is None else encode, decode, copy)


_names = iter(range(1 << 30))


def _loop(element: Callable[[str], str], v: str, template: str) -> str:
    """A comprehension copying each element of `v` (a fresh loop variable per level)."""
    x = f"x{next(_names)}"
    return template.format(item=element(x), x=x, v=v)


def _list(inner: _Codec) -> _Codec:
    element = inner.encode

    def encode(value: list[Any]) -> list[Any]:
        return list(value) if element is None else [element(x) for x in value]

    def decode(value: Any, path: str) -> list[Any]:
        if type(value) is not list:
            raise _fail(path, "a list", value)
        return [inner.decode(x, f"{path}[{i}]") for i, x in enumerate(value)]

    element_copy = inner.copy
    if element_copy is None:
        def copy(v: str) -> str:
            return f"{v}[:]"
    else:
        def copy(v: str) -> str:
            return _loop(element_copy, v, "[{item} for {x} in {v}]")
    return _Codec(encode, decode, copy)


def _tuple_of(inner: _Codec) -> _Codec:
    element = inner.encode

    def encode(value: tuple[Any, ...]) -> list[Any]:
        return list(value) if element is None else [element(x) for x in value]

    def decode(value: Any, path: str) -> tuple[Any, ...]:
        if type(value) is not list:
            raise _fail(path, "a list", value)
        return tuple(inner.decode(x, f"{path}[{i}]") for i, x in enumerate(value))

    element_copy = inner.copy
    copy = None
    if element_copy is not None:
        def copy(v: str) -> str:
            return _loop(element_copy, v, "tuple({item} for {x} in {v})")
    return _Codec(encode, decode, copy)


def _fixed_tuple(inners: list[_Codec]) -> _Codec:
    def encode(value: tuple[Any, ...]) -> list[Any]:
        return [x if c.encode is None else c.encode(x) for c, x in zip(inners, value)]

    def decode(value: Any, path: str) -> tuple[Any, ...]:
        if type(value) is not list or len(value) != len(inners):
            raise _fail(path, f"a list of {len(inners)}", value)
        return tuple(c.decode(x, f"{path}[{i}]") for i, (c, x) in enumerate(zip(inners, value)))

    copy = None
    if any(c.copy is not None for c in inners):
        def copy(v: str) -> str:
            parts = (f"{v}[{i}]" if c.copy is None else c.copy(f"{v}[{i}]") for i, c in enumerate(inners))
            return "(" + ", ".join(parts) + ",)"
    return _Codec(encode, decode, copy)


def _dict(inner: _Codec) -> _Codec:
    element = inner.encode

    def encode(value: dict[str, Any]) -> dict[str, Any]:
        return dict(value) if element is None else {k: element(x) for k, x in value.items()}

    def decode(value: Any, path: str) -> dict[str, Any]:
        if type(value) is not dict:
            raise _fail(path, "an object", value)
        return {k: inner.decode(x, f"{path}.{k}") for k, x in value.items()}

    element_copy = inner.copy
    if element_copy is None:
        def copy(v: str) -> str:
            return f"{v}.copy()"
    else:
        def copy(v: str) -> str:
            return _loop(element_copy, v, "{{k: {item} for k, {x} in {v}.items()}}")
    return _Codec(encode, decode, copy)


def _object(kind: type) -> _Codec:
    def encode(value: Any) -> Any:
        return value.to_json()

    def decode(value: Any, path: str) -> Any:
        try:
            return kind.from_json(value)  # type: ignore[attr-defined]
        except RecordError as exc:
            raise RecordError(f"{path}: {exc}") from None
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise _fail(path, f"a {kind.__name__}", value) from exc

    copy = None
    if hasattr(kind, "clone"):
        def copy(v: str) -> str:
            return f"{v}.clone()"
    return _Codec(encode, decode, copy)


class _Field:
    __slots__ = ("name", "codec", "saved", "shared", "init")

    def __init__(self, name: str, codec: _Codec, role: _Role) -> None:
        self.name = name
        self.codec = codec
        self.saved = role.saved
        self.shared = role.shared
        self.init = role.init


_FIELDS: dict[type, list[_Field]] = {}


def _fields(cls: type) -> list[_Field]:
    """The declared fields of a state class, the base's first (computed once per class: a
    compiled class cannot hold extra attributes, so they are kept here)."""
    found = _FIELDS.get(cls)
    if found is not None:
        return found
    out = []
    for name, hint in declared_types(cls).items():
        role = _PLAIN
        if typing.get_origin(hint) is Annotated:
            role = next((m for m in hint.__metadata__ if isinstance(m, _Role)), _PLAIN)
            hint = hint.__origin__
        codec = _codec(hint, f"{cls.__name__}.{name}") if role.saved else _Codec(None, _any_decode, None)
        out.append(_Field(name, codec, role))
    _FIELDS[cls] = out
    return out


_EXTENSION_SUFFIXES = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def _compiled_annotations(cls: type) -> dict[str, str] | None:
    """The field annotations written in `cls`'s body, as the build recorded them from its source
    (meeple._native), or None when the class is not compiled (its own `__annotations__` are then
    intact)."""
    module = sys.modules[cls.__module__]
    if not (getattr(module, "__file__", None) or "").endswith(_EXTENSION_SUFFIXES):
        return None
    return _native.compiled_fields(cls.__module__, cls.__name__)


def declared_types(cls: type) -> dict[str, Any]:
    """Each field's declared type. A compiled (mypyc) class keeps only erased annotations
    (`list` for `list[list[int]]`), so its types are the ones the build read from the source it
    compiled, evaluated here as `typing.get_type_hints` evaluates the pure class's: both builds
    see the same declarations."""
    hints: dict[str, Any] = {}
    for klass in reversed(cls.__mro__):
        if klass is object:
            continue
        written = _compiled_annotations(klass)  # a native class has no `__annotations__` at all
        if written is None:
            if "__annotations__" in klass.__dict__:
                hints.update(typing.get_type_hints(klass, include_extras=True))
            continue
        namespace = vars(sys.modules[klass.__module__])
        hints.update({name: eval(text, namespace) for name, text in written.items()})
    return hints


def _empty(cls: type) -> Callable[[], Any]:
    """How to make an instance with no field set yet: `object.__new__` for an interpreted class
    (no `__init__` call), the class itself for a compiled one (whose `__new__` always runs
    `__init__`, which does nothing without fields)."""
    try:
        object.__new__(cls)
    except TypeError:  # a native class: object.__new__ is not safe for it
        return cls
    return lambda: object.__new__(cls)


class _Kit:
    """The generated code of one state class: its constructor's body and its clone."""

    __slots__ = ("empty", "init", "clone")

    def __init__(self, cls: type) -> None:
        fields = _fields(cls)
        self.empty = _empty(cls)
        init_names = [f.name for f in fields if f.init]
        init = ["def init(s, f):", "    try:"]
        init += [f"        s.{name} = f[{name!r}]" for name in init_names]
        init += ["    except KeyError:", "        _wrong(s, f)",
                 f"    if len(f) != {len(init_names)}:", "        _wrong(s, f)", "    s.__post_init__()"]
        clone = ["def clone(self):", "    s = _empty()"]
        for f in fields:
            if f.shared or f.codec.copy is None:
                clone.append(f"    s.{f.name} = self.{f.name}")
            else:
                clone.append(f"    s.{f.name} = " + f.codec.copy(f"self.{f.name}"))
        clone.append("    return s")
        namespace: dict[str, Any] = {"_empty": self.empty, "_wrong": _wrong_fields}
        source = "\n".join(init) + "\n" + "\n".join(clone)
        exec(compile(source, f"<fields of {cls.__qualname__}>", "exec"), namespace)
        self.init: Callable[[Any, dict[str, Any]], None] = namespace["init"]
        self.clone: Callable[[Any], Any] = namespace["clone"]
        self.init.__qualname__ = f"{cls.__qualname__}.__init__"
        self.clone.__qualname__ = f"{cls.__qualname__}.clone"


_KITS: dict[type, _Kit] = {}


def _kit(cls: type) -> _Kit:
    kit = _KITS.get(cls)
    if kit is None:
        kit = _KITS[cls] = _Kit(cls)
        if kit.empty is not cls and "clone" not in cls.__dict__:
            # An interpreted class (the pure build, a test's state) takes the generated clone as
            # its own method, one call less; a compiled class cannot, and reaches it through
            # State.clone.
            type.__setattr__(cls, "clone", kit.clone)
    return kit


def clone_state(state: T) -> T:
    """An independent copy of `state`: every field copied as deep as its type is mutable."""
    kit = _KITS.get(type(state)) or _kit(type(state))  # the lookup inlined: one call per search iteration
    return kit.clone(state)  # type: ignore[no-any-return]


def _wrong_fields(state: Any, given: dict[str, Any]) -> None:
    """The TypeError for constructor arguments that are not exactly the fields to give."""
    name = type(state).__name__
    wanted = [f.name for f in _fields(type(state)) if f.init]
    missing = [field for field in wanted if field not in given]
    if missing:
        raise TypeError(f"{name}() is missing the field {missing[0]!r}")
    unknown = sorted(set(given) - set(wanted))
    raise TypeError(f"{name}() got an unexpected field {unknown[0]!r}")


def fill_state(state: Any, given: dict[str, Any]) -> None:
    """Set a new state's fields from its constructor's keyword arguments, then run its
    `__post_init__`. Every field but the derived ones must be given, and nothing else (a
    TypeError names the first that is not)."""
    _kit(type(state)).init(state, given)


def encode_state(state: Any) -> dict[str, Any]:
    """The saved fields of `state`, JSON-safe, in declaration order."""
    out: dict[str, Any] = {}
    for f in _fields(type(state)):
        if f.saved:
            value = getattr(state, f.name)
            out[f.name] = value if f.codec.encode is None else f.codec.encode(value)
    return out


def decode_state(cls: type[T], obj: dict[str, Any], given: dict[str, Any], what: str) -> T:
    """A state of `cls` from `encode_state`'s form. `given` supplies fields decoded by the caller
    (the game, the options); every other saved field is read from `obj` and type-checked.
    Unknown keys are an error, so a typo in a hand-edited position is not silently ignored."""
    fields = _fields(cls)
    expected = {f.name for f in fields if f.saved} | set(given)
    unknown = sorted(set(obj) - expected - {"game"})
    if unknown:
        raise RecordError(f"{what}: unknown field {unknown[0]!r}")
    state = _kit(cls).empty()
    for f in fields:
        if f.name in given:
            value = given[f.name]
        elif not f.saved:
            continue
        elif f.name not in obj:
            raise RecordError(f"{what}: missing field {f.name!r}")
        else:
            try:
                value = f.codec.decode(obj[f.name], f.name)
            except RecordError as exc:
                raise RecordError(f"{what}: {exc}") from None
        setattr(state, f.name, value)
    state.__post_init__()
    made: T = state
    return made


def field_names(cls: type) -> list[str]:
    """Every declared field of a state class, saved or derived (for tests of clone)."""
    return [f.name for f in _fields(cls)]
