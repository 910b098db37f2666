"""Message catalogs: every word a person reads comes from a TOML catalog, in English ("en") or
Traditional Chinese ("zh-Hant"), never from literals in an engine.

A message is a Python format string. A format spec names how to show a value:
`{animal:animal}` looks up `animal.<value>`; `{who:player}` shows the seat's name;
`{tokens:list:animal}` joins a list, each item looked up under `animal.`.

A message that depends on a number has plural forms, a table of CLDR categories:
`moves = { one = "{count} move", other = "{count} moves" }`. English has `one` and `other`;
Chinese has only `other`. The form is chosen by the `count` parameter, or by the parameter the
message names in `by` (`{ by = "actions", one = …, other = … }`); a language's missing category
falls back to `other`.
"""

from __future__ import annotations

import string
import tomllib
from collections.abc import Callable, Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from meeple.core.errors import DataError, OptionError

LANGUAGES = ("en", "zh-Hant")
#: CLDR plural categories of whole numbers, per language (Chinese does not inflect for number).
PLURAL_CATEGORY: dict[str, Callable[[int], str]] = {
    "en": lambda n: "one" if n == 1 else "other",
    "zh-Hant": lambda n: "other",
}


def check_language(lang: str) -> str:
    if lang not in LANGUAGES:
        raise OptionError(f"no language {lang!r} (languages: {', '.join(LANGUAGES)})")
    return lang


def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, str]:
    flat: dict[str, str] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(_flatten(value, name + "."))
        else:
            flat[name] = str(value)
    return flat


@cache
def _load(package: str, lang: str) -> dict[str, str]:
    try:
        text = resources.files(package).joinpath("locale", f"{lang}.toml").read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    try:
        return _flatten(tomllib.loads(text))
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"message catalog {package}/locale/{lang}.toml: {exc}") from None


class Catalog:
    """Messages of one or more packages in one language, falling back to English."""

    def __init__(self, packages: Sequence[str], lang: str = "en") -> None:
        self.lang = check_language(lang)
        self.messages: dict[str, str] = {}
        for package in packages:
            self.messages.update(_load(package, "en"))
        if lang != "en":
            for package in packages:
                self.messages.update(_load(package, lang))
        self.player_names: Sequence[str] = ()
        self._formatter = _CatalogFormatter(self)

    def has(self, key: str) -> bool:
        """Whether `key` is a message (a plural one included)."""
        return key in self.messages or f"{key}.other" in self.messages

    def text(self, key: str, **params: Any) -> str:
        """The message `key` filled with `params`; an unknown key shows itself, so a missing
        translation is visible rather than fatal."""
        template = self.messages.get(key)
        if template is None and f"{key}.other" in self.messages:
            template = self._plural_form(key, params)
        if template is None:
            return key if not params else f"{key} {params}"
        return self._formatter.format(template, **params)

    def _plural_form(self, key: str, params: Mapping[str, Any]) -> str:
        """The form of plural message `key` for its count (see the module docstring)."""
        count = params.get(self.messages.get(f"{key}.by", "count"))
        if not isinstance(count, int) or isinstance(count, bool):
            raise TypeError(f"plural message {key!r} needs a whole-number count, got {params!r}")
        category = PLURAL_CATEGORY[self.lang](count)
        return self.messages.get(f"{key}.{category}", self.messages[f"{key}.other"])


    def name(self, kind: str, value: Any) -> str:
        return self.messages.get(f"{kind}.{value}", str(value))

    def player(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.player_names):
            return self.player_names[seat]
        return self.text("ui.seat", seat=seat) if self.has("ui.seat") else f"P{seat}"


class _CatalogFormatter(string.Formatter):
    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog

    def format_field(self, value: Any, format_spec: str) -> str:
        if format_spec == "player":
            return self.catalog.player(value)
        if format_spec.startswith("list:"):
            kind = format_spec[5:]
            sep = self.catalog.messages.get("ui.list_separator", ", ")
            return sep.join(self.catalog.name(kind, item) for item in value) or self.catalog.messages.get(
                "ui.nothing", "-"
            )
        if format_spec and format_spec.isidentifier():
            return self.catalog.name(format_spec, value)
        if isinstance(value, list | tuple) and not format_spec:  # "5, 5, 9", never Python's "[5, 5, 9]"
            sep = self.catalog.messages.get("ui.list_separator", ", ")
            return sep.join(str(item) for item in value) or self.catalog.messages.get("ui.nothing", "-")
        return str(super().format_field(value, format_spec))
