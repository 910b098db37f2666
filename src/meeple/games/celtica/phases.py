"""The kinds of decision a Celtica position can be waiting for (C5-C8, C11); game over is the
state's `over` flag, not a phase."""

PLAY_PHASE, TAKE_PHASE, GIVE_PHASE, CULT_PHASE, END_PHASE = range(5)
#: Names used in views (and catalog keys `phase.<name>`); a finished game's view says "over".
PHASES = ("play", "take", "give_up", "cult", "end")
OVER_NAME = "over"
#: C10: why the game ended (the state's `end_reason`; "" while it runs).
END_REASONS = ("parts", "all_home", "goal")
