"""Parsing command-line values that the engines validate: bot lists and rule options."""

from __future__ import annotations

from typing import Any

from meeple.ai.bots import Bot, make_bot, split_bot_specs
from meeple.core.errors import OptionError


def parse_bots(text: str | None) -> list[Bot]:
    if text is None or not text.strip():
        return []
    return [make_bot(spec) for spec in split_bot_specs(text)]


def parse_options(pairs: list[str] | None) -> dict[str, Any]:
    """`--option name=value` pairs (a game's `option_specs` say which names it takes); the game
    converts and checks the values."""
    options: dict[str, Any] = {}
    for pair in pairs or []:
        name, sep, value = pair.partition("=")
        if not sep or not name.strip():
            raise OptionError(f"--option takes name=value, not {pair!r}")
        options[name.strip()] = value.strip()
    return options
