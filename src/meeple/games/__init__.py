"""The game packages, one per game: rules only, no I/O.

`meeple.games` is both this package and the documented call `meeple.games()` listing the
installed games: importing a game sub-package rebinds the attribute `meeple.games` to this
module, so the module itself is made callable.
"""

import sys
import types


class _CallablePackage(types.ModuleType):
    def __call__(self) -> list[str]:
        from meeple.core.registry import games

        return games()


sys.modules[__name__].__class__ = _CallablePackage
