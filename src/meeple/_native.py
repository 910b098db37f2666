"""Which code runs: the compiled fast path or the pure-Python fallback, chosen once per process.

`pip install` compiles the modules listed under `[tool.meeple] compiled` in pyproject.toml with
mypyc, and the random generator's C file, where a compiler is present (setup.py). It also writes
`_compiled.json`: a hash of every source it compiled. The compiled modules sit beside their `.py`
files and Python would import them first, so this module, run before any other part of meeple,
decides:

- `MEEPLE_PURE=1` in the environment: every compiled module is ignored (a finder that sees only
  `.py` files goes first), so the pure-Python twin runs; results are the same either way
  (tests/core/test_compiled_twins.py).
- a source edited since it was compiled: the compiled code would be stale, so the same pure
  finder is used and one warning says how to rebuild. The choice is passed on to child
  processes (arena workers) through `MEEPLE_PURE`, so they agree without repeating the warning.

Standard library only: this runs before anything else is importable.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.abc
import importlib.machinery
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE_DIR = Path(__file__).resolve().parent
#: Written by setup.py when it compiles: {"sources": {"meeple/ai/ismcts.py": sha256, ...}}.
MANIFEST = PACKAGE_DIR / "_compiled.json"
PURE_VARIABLE = "MEEPLE_PURE"


def source_digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _built_beside(source: Path) -> bool:
    """A compiled file for `source` is present (so Python would import it instead)."""
    stem = source.with_suffix("")
    return any(Path(f"{stem}{suffix}").exists() for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def stale_sources(manifest: Path = MANIFEST, root: Path = PACKAGE_DIR.parent) -> list[str]:
    """Compiled files whose source differs from the one compiled (or that no build recorded)."""
    try:
        recorded = json.loads(manifest.read_text())["sources"]
        if not isinstance(recorded, dict):
            recorded = {}
    except (OSError, ValueError, KeyError, TypeError):
        recorded = {}
    stale = []
    for source in _compiled_sources(root):
        name = source.relative_to(root).as_posix()
        if recorded.get(name) != source_digest(source):
            stale.append(name)
    return stale


@functools.cache
def _compiled_sources(root: Path) -> list[Path]:
    """meeple's `.py` and `.c` files that have a compiled file beside them (one scan per root:
    the choice at import asks twice)."""
    sources = sorted([*(root / "meeple").rglob("*.py"), *(root / "meeple").rglob("*.c")])
    return [path for path in sources if _built_beside(path)]


class SourceOnlyFinder(importlib.abc.MetaPathFinder):
    """Finds meeple's submodules as `.py` files only, never their compiled twins."""

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
    """Install the pure finder when asked or when compiled code is stale; say which runs."""
    if _pure_requested():
        reason = "pure"
    else:
        stale = stale_sources()
        if not stale:
            return "compiled" if compiled_modules() else "pure"
        shown = ", ".join(stale[:3]) + (" ..." if len(stale) > 3 else "")
        print(f"meeple: {shown} changed since it was compiled; running the pure-Python code. "
              "Rebuild with `pip install -e .` (python3 dev.py test does it).", file=sys.stderr)
        os.environ[PURE_VARIABLE] = "1"
        reason = "stale"
    if not any(isinstance(finder, SourceOnlyFinder) for finder in sys.meta_path):
        sys.meta_path.insert(0, SourceOnlyFinder())
    return reason


def compiled_modules(root: Path = PACKAGE_DIR.parent) -> list[str]:
    """The modules built by the compiler that this process may import (none in pure mode)."""
    if _pure_requested():
        return []
    return [path.relative_to(root).with_suffix("").as_posix().replace("/", ".") for path in _compiled_sources(root)]


#: "compiled" (the compiled modules run), "pure" (none is built, or MEEPLE_PURE=1) or "stale"
#: (built, but a source changed since: the pure code runs).
MODE = choose()
