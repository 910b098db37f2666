"""The kinds of decision a Celtica position can be waiting for (C5-C8, C11); game over is the
state's `over` flag, not a phase."""

from typing import Literal

PLAY_PHASE, TAKE_PHASE, GIVE_PHASE, CULT_PHASE, END_PHASE = range(5)
Phase = Literal["play", "take", "give_up", "cult", "end"]
#: Names used in views (and catalog keys `phase.<name>`); a finished game's view has none.
PHASES: tuple[Phase, ...] = ("play", "take", "give_up", "cult", "end")
#: C10: why the game ended (the state's `end_reason`; "" while it runs).
END_REASONS = ("parts", "all_home", "goal")
