"""Every game's rules send their events through one sink (meeple.core.events): no `log` guards in
the rules, and the quiet sink that `State.step` uses (search, playouts) builds nothing."""

from __future__ import annotations

import sys
from pathlib import Path
from types import FrameType

import pytest

import meeple.games
from meeple.core.conformance import check_quiet_sink
from meeple.core.events import Recorder
from meeple.core.protocol import Event
from meeple.core.registry import load
from meeple.core.rng import Rng
from meeple.games.castell.events import QUIET as CASTELL_QUIET
from meeple.games.castell.events import CastellEvents
from meeple.games.celtica.events import QUIET as CELTICA_QUIET
from meeple.games.celtica.events import CelticaEvents
from meeple.games.triominos.events import QUIET as TRIOMINOS_QUIET
from meeple.games.triominos.events import TriominosEvents
from meeple.games.triqueta.events import QUIET as TRIQUETA_QUIET
from meeple.games.triqueta.events import TriquetaEvents

SINKS: dict[str, tuple[type[Recorder], Recorder]] = {
    "triqueta": (TriquetaEvents, TRIQUETA_QUIET),
    "triominos": (TriominosEvents, TRIOMINOS_QUIET),
    "celtica": (CelticaEvents, CELTICA_QUIET),
    "castell": (CastellEvents, CASTELL_QUIET),
}
GAMES_DIR = Path(meeple.games.__file__).parent


@pytest.mark.parametrize("name", sorted(SINKS))
def test_rules_hold_no_log_guards(name: str) -> None:
    """The rules call the sink unconditionally; only events.py builds an Event."""
    sources = sorted((GAMES_DIR / name).rglob("*.py"))
    assert any(path.name == "state.py" for path in sources)
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for needle in ("log is not None", "log.append"):
            assert needle not in text, f"{path.name} still has `{needle}`"
        if path.name != "events.py":
            assert "Event(" not in text, f"{path.name} builds an Event outside events.py"


@pytest.mark.parametrize("name", sorted(SINKS))
def test_quiet_sink_overrides_every_event(name: str) -> None:
    recording, quiet = SINKS[name]
    check_quiet_sink(recording, quiet)


class EventCount:
    """Counts the Events made while it is installed, by profiling calls to `Event.__init__`
    (an interpreted function, seen whether the caller is compiled or not; nothing is patched)."""

    def __init__(self) -> None:
        self.made = 0

    def __call__(self, frame: FrameType, event: str, arg: object) -> None:
        if event == "call" and frame.f_code is INIT_CODE:
            self.made += 1


INIT_CODE = Event.__init__.__code__


@pytest.mark.parametrize("name", sorted(SINKS))
@pytest.mark.parametrize("seed", [1, 2])
def test_step_builds_no_event_and_apply_records(name: str, seed: int) -> None:
    """A random game played with `step` makes no Event and leaves the quiet sink empty; the same
    game played with `apply` records every event it returns (so the count is not vacuous)."""
    game = load(name)
    rng = Rng(seed)
    quiet_state = game.new_game(3, seed=seed)
    loud_state = game.new_game(3, seed=seed)
    count = EventCount()
    steps = 0
    while not quiet_state.is_terminal:
        legal = quiet_state.legal_actions()
        action = legal[rng.below(len(legal))]
        sys.setprofile(count)
        try:
            quiet_state.step(action)
            quiet = count.made
            events = loud_state.apply(action)
        finally:
            sys.setprofile(None)
        assert quiet == 0, f"step made an event after {steps} actions"
        assert count.made == len(events) > 0, "apply returned other events than it made"
        count.made = 0
        steps += 1
    assert loud_state.is_terminal and quiet_state.to_json() == loud_state.to_json()
    check_quiet_sink(*SINKS[name])
