"""Which code runs: the compiled fast path or the pure-Python fallback, chosen once per process.

`pip install` compiles the modules listed under `[tool.meeple] compiled` in pyproject.toml with
mypyc, and the random generator's C file, where a compiler is present (setup.py). It also writes
`_compiled.json` (meeple._manifest): every module it actually built, its compiled file and the
source it was built from. The compiled modules sit beside their `.py` files and Python would
import them first, so this module, run before any other part of meeple, decides:

- `MEEPLE_PURE=1` in the environment: every compiled module is ignored (a finder that sees only
  `.py` files goes first), so the pure-Python twin runs; results are the same either way
  (tests/core/test_compiled_twins.py).
- a compiled file the manifest does not vouch for (its source edited since it was compiled; not
  listed, as one left by an earlier build or beside a manifest a pure build wrote; listed but
  missing or replaced): the compiled code could be stale, so the same pure finder is used and one
  warning says why and how to rebuild. The choice is passed on to child processes (arena
  workers) through `MEEPLE_PURE`, so they agree without repeating the warning.

Standard library only (meeple._manifest is too): this runs before anything else is importable.
"""

from __future__ import annotations

import functools
import importlib.machinery
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

from meeple import _manifest

PACKAGE_DIR = Path(__file__).resolve().parent
#: Written by setup.py: the modules it built (meeple._manifest).
MANIFEST = PACKAGE_DIR / _manifest.FILE_NAME
PURE_VARIABLE = "MEEPLE_PURE"
#: The manifest's modules once the compiled code is chosen (empty otherwise).
_BUILT: dict[str, _manifest.ModuleRecord] = {}


@functools.cache
def _extension_files(root: Path) -> list[Path]:
    """The compiled files inside meeple (one scan per root: the choice at import asks twice)."""
    return _manifest.extension_files(root / "meeple")


class SourceOnlyFinder:
    """Finds meeple's submodules as `.py` files only, never their compiled twins (a meta path
    finder: sys.meta_path asks it first)."""

    loader = (importlib.machinery.SourceFileLoader, importlib.machinery.SOURCE_SUFFIXES)

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if not fullname.startswith("meeple.") or path is None:
            return None
        for entry in path:
            spec = importlib.machinery.FileFinder(entry, self.loader).find_spec(fullname, target)
            if spec is not None:
                return spec
        return None


def _pure_requested() -> bool:
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


def choose() -> str:
    """Install the pure finder when asked or when compiled code may be stale; say which runs."""
    if _pure_requested():
        mode = "pure"
    else:
        modules = _manifest.read(MANIFEST)
        reasons = _manifest.problems(PACKAGE_DIR.parent, modules, _extension_files(PACKAGE_DIR.parent))
        if not reasons:
            _BUILT.update(modules)
            return "compiled" if compiled_modules() else "pure"
        more = f" (and {len(reasons) - 1} more)" if len(reasons) > 1 else ""
        print(f"meeple: {reasons[0]}{more}; running the pure-Python code. "
              "Rebuild with `pip install -e .` (python3 dev.py test does it).", file=sys.stderr)
        os.environ[PURE_VARIABLE] = "1"
        mode = "stale"
    if not any(isinstance(finder, SourceOnlyFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, SourceOnlyFinder())
    return mode


def compiled_modules(root: Path = PACKAGE_DIR.parent) -> list[str]:
    """The modules built by the compiler that this process may import (none in pure mode)."""
    if _pure_requested():
        return []
    return [path.relative_to(root).as_posix().split(".", 1)[0].replace("/", ".") for path in _extension_files(root)]


def compiled_fields(module: str, name: str) -> dict[str, str]:
    """The field annotations written in the body of the compiled class `module.name`, as the
    build read them from its source (meeple.core.statefields evaluates them)."""
    try:
        return _BUILT[module]["classes"][name]
    except KeyError:
        raise TypeError(f"{module}.{name} is compiled, but its build recorded no such class; "
                        "rebuild with `pip install -e .`") from None


#: "compiled" (the compiled modules run), "pure" (none is built, or MEEPLE_PURE=1) or "stale"
#: (compiled files that may not match their sources: the pure code runs).
MODE = choose()
