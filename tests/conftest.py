"""Shared test settings: hypothesis profiles sized for a 2-core CI machine.

The default profile is derandomized, so CI runs the same examples every time. Set
`MEEPLE_HYPOTHESIS=explore` to draw new examples on each run when hunting for bugs."""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "meeple",
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
    derandomize=True,
)
settings.register_profile("explore", parent=settings.get_profile("meeple"), derandomize=False)
settings.load_profile("explore" if os.environ.get("MEEPLE_HYPOTHESIS") == "explore" else "meeple")
