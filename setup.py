"""Build step for the compiled fast path (pyproject.toml holds everything else).

Where a C compiler is present, `pip install` compiles the random generator's C file and, with
mypyc, the modules listed under `[tool.meeple] compiled` in pyproject.toml. Every part is
optional: where the compiler is missing or a build fails, the install goes on and meeple runs the
pure-Python code, which gives the same results (meeple._native, tests/core/test_compiled_twins.py).
`src/meeple/_compiled.json` records a hash of each compiled source, so an edited source is never
run stale (meeple._native falls back to it and says so)."""

from __future__ import annotations

import hashlib
import json
import os
import tomllib
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent
C_SOURCES = ["src/meeple/core/_rng.c"]


def pure_requested() -> bool:
    return os.environ.get("MEEPLE_PURE", "") not in ("", "0")


def mypyc_sources() -> list[str]:
    with open(ROOT / "pyproject.toml", "rb") as file:
        return list(tomllib.load(file)["tool"]["meeple"]["compiled"])


def compiled_extensions(sources: list[str]) -> list[Extension]:
    """The mypyc-built modules, or none where mypyc is missing or fails (pure fallback)."""
    if pure_requested():
        return []
    try:
        from mypyc.build import mypycify

        extensions = mypycify(sources, opt_level="3", group_name="meeple")
    except (Exception, SystemExit) as exc:  # no mypyc, or a module it refuses: the pure code runs
        print(f"meeple: not compiling with mypyc ({exc!r}); the pure-Python code will run")
        return []
    for extension in extensions:
        extension.optional = True  # no C compiler: skipped, and the .py files run
    return extensions


def write_manifest(sources: list[str]) -> None:
    """Hash every compiled source, so meeple._native can tell when one was edited since."""
    digests = {}
    for name in sources:
        digests[name.removeprefix("src/")] = hashlib.sha256((ROOT / name).read_bytes()).hexdigest()
    (ROOT / "src" / "meeple" / "_compiled.json").write_text(json.dumps({"sources": digests}, indent=1) + "\n")


python_sources = mypyc_sources()
extensions = [Extension("meeple.core._rng", C_SOURCES, optional=True, extra_compile_args=["-O3"]),
              *compiled_extensions(python_sources)]
write_manifest(C_SOURCES + python_sources)
# mypy (mypyc) is a build requirement only when compiling: pip asks for these before the build
# (PEP 517), so a pure install (MEEPLE_PURE=1, dev.py's first `serve`) does not fetch it.
setup(ext_modules=extensions, setup_requires=[] if pure_requested() else ["mypy>=1.13"])
