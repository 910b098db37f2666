"""Research APIs over the game protocol: PettingZoo, Gymnasium, OpenSpiel (meeple[envs]).

Importing `meeple.envs` registers the Gymnasium environments (`meeple/Triqueta-v0`, ...) when
Gymnasium is installed; `meeple.envs.openspiel` registers the OpenSpiel games on its import.
"""

import contextlib

with contextlib.suppress(ImportError):  # the envs extra is optional
    import meeple.envs.gymnasium  # noqa: F401  (registers the environments)
