"""The phases of a Celtica position: whose decision is pending and of which kind."""

PLAY_PHASE, TAKE_PHASE, GIVE_PHASE, CULT_PHASE, END_PHASE, OVER = range(6)
#: Names used in views (and catalog keys `phase.<name>`).
PHASES = ("play", "take", "give_up", "cult", "end", "over")
