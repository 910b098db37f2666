"""Fixtures for the bot and arena tests: the toy trick game, registered only while a test needs
it so other test folders never see it in meeple.games()."""

from __future__ import annotations

import pytest

from meeple.core import registry
from tests.ai import ai_toygame


@pytest.fixture
def toy(monkeypatch: pytest.MonkeyPatch) -> str:
    """The toy game's registry name, loadable (also by arena workers) during the test."""
    monkeypatch.setitem(registry.GAMES, ai_toygame.NAME, "tests.ai.ai_toygame:ToyGame")
    return ai_toygame.NAME
