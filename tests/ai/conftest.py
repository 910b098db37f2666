"""Fixtures for the bot and arena tests: the toy trick game, registered only while a test needs
it so other test folders never see it in meeple.game_names()."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from meeple.core import registry
from tests.ai import ai_toygame


@pytest.fixture
def toy() -> Iterator[str]:
    """The toy game's name, loadable (also by arena workers) during the test."""
    with registry.registered(ai_toygame.NAME, "tests.ai.ai_toygame:PLUGIN") as name:
        yield name
