"""The size of the many-games differential tests: the suite's own, or `--differential-games N`
spread over a test's tables (`pytest tests/batch -m slow --differential-games 10000` is the
issue's 10,000-game run of every game)."""

from __future__ import annotations

from collections.abc import Callable

import pytest


@pytest.fixture
def games_per_table(request: pytest.FixtureRequest) -> Callable[[int, int], int]:
    """`games_per_table(suite_size, tables)`: the games one table plays."""
    total: int | None = request.config.getoption("differential_games")

    def games(suite_size: int, tables: int) -> int:
        return suite_size if total is None else -(-total // tables)
    return games
