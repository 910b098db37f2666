"""The compiled fast path and the pure-Python code are twins: seeded games, searches and errors
for bad input come out the same, and `MEEPLE_PURE=1` really runs no compiled code (that no
compiled file runs stale: test_native_manifest.py)."""

from __future__ import annotations

import copy
import os
import pickle
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

import meeple
from meeple import _native

pytestmark = pytest.mark.slow  # Python processes, pure and compiled

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"


def listed_modules() -> list[str]:
    """The modules pyproject.toml asks the build to compile, and the C generator."""
    with open(ROOT / "pyproject.toml", "rb") as file:
        sources = tomllib.load(file)["tool"]["meeple"]["compiled"]
    names = [name.removeprefix("src/").removesuffix(".py").replace("/", ".") for name in sources]
    return sorted([*names, "meeple.core._rng"])


def forced_pure() -> bool:
    return os.environ.get("MEEPLE_PURE", "") not in ("", "0")


def run(code: str, pure: bool) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "MEEPLE_PURE": "1" if pure else "0", "PYTHONPATH": str(SRC)}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
                          check=False)


def test_the_set_up_builds_every_listed_module():
    """The README's set-up compiles them (a C compiler is part of this machine kind); a missing
    build fails here rather than passing the twin tests against the pure code twice."""
    shown = run("import meeple._native as n; print(n.MODE); print(*n.compiled_modules())", pure=False)
    mode, modules = shown.stdout.splitlines()
    assert (mode, sorted(modules.split())) == ("compiled", listed_modules()), shown.stderr


def test_this_process_runs_what_the_environment_asks():
    import meeple.ai.ismcts as ismcts

    if forced_pure():
        assert _native.MODE == "pure" and _native.compiled_modules() == []
        assert ismcts.__file__.endswith(".py")
    else:
        assert _native.MODE == "compiled"
        assert not ismcts.__file__.endswith(".py")


def test_forced_pure_imports_no_compiled_module():
    """With MEEPLE_PURE=1 every meeple module comes from its .py file, the generator included."""
    code = ("import sys, meeple, meeple.ai.arena, meeple.games.castell.game, meeple.games.triominos.game;"
            "from meeple.core.rng import RNG_KIND; print(RNG_KIND);"
            "print(*sorted(m.__file__ for n, m in sys.modules.items() if n.startswith('meeple') and m.__file__))")
    shown = run(code, pure=True)
    kind, files = shown.stdout.splitlines()
    assert kind == "pure"
    assert files and all(name.endswith(".py") for name in files.split())


def test_compiled_and_pure_runs_give_identical_games_searches_and_errors():
    """Seeded games of every game (with an ISMCTS bot), a search's root statistics, and the
    errors of bad input to compiled functions (tests/core/twin_run.py)."""
    runs = {}
    for pure in ("0", "1"):
        done = subprocess.run([sys.executable, "-m", "tests.core.twin_run"], cwd=ROOT, capture_output=True, text=True,
                              env={**os.environ, "MEEPLE_PURE": pure}, timeout=600, check=True)
        runs[pure] = done.stdout.splitlines()
    assert runs["0"][0] == f"compiled {len(listed_modules())}"
    assert runs["1"][0] == "pure 0"
    assert len(runs["0"]) > 12
    assert runs["0"][1:] == runs["1"][1:]


def test_every_game_state_compiles_as_a_native_class():
    """Native classes (typed C attributes) are what the speed goals rest on; a decorator or a
    dataclass on a state class would silently make it an ordinary, several times slower one.
    A native class refuses `object.__new__`; the pure class of the same name accepts it."""
    code = ("from meeple.core.registry import game_names, load\n"
            "for name in game_names():\n"
            "    cls = load(name).state_class\n"
            "    try:\n"
            "        object.__new__(cls)\n"
            "        print(name, 'ordinary')\n"
            "    except TypeError:\n"
            "        print(name, 'native')")
    compiled, pure = run(code, pure=False), run(code, pure=True)
    assert compiled.returncode == 0 and pure.returncode == 0, compiled.stderr + pure.stderr
    names = sorted(meeple.game_names())
    assert compiled.stdout.split() == [word for name in names for word in (name, "native")]
    assert pure.stdout.split() == [word for name in names for word in (name, "ordinary")]


def test_both_builds_read_the_same_field_types_of_every_state():
    """A compiled state class keeps only erased annotations; `declared_types` evaluates the ones
    the build recorded from its source, so the codecs and `clone` are built from the same types as
    in the pure build."""
    code = ("from meeple.core.registry import game_names, load\n"
            "from meeple.core.statefields import declared_types\n"
            "for name in game_names():\n"
            "    cls = load(name).state_class\n"
            "    print(name, cls.__module__, sorted((k, repr(v)) for k, v in declared_types(cls).items()))")
    compiled, pure = run(code, pure=False), run(code, pure=True)
    assert compiled.returncode == 0, compiled.stderr
    assert "list[list[int]]" in compiled.stdout  # Triqueta's towers, not the erased `list`
    assert compiled.stdout == pure.stdout


def value_objects() -> dict[str, Any]:
    """One instance of each class defined in a compiled module that values travel in (states,
    arena tasks, research environments that copy a state)."""
    from meeple.ai.ismcts import SearchConfig, SearchStats
    from meeple.games.castell.towers.rules import validate
    from meeple.games.castell.towers.tiles import load_local_tiles

    objects: dict[str, Any] = {
        "TowerCheck": validate(((3,), (2,)), (5, 5, 5, 5, 5)),
        "SearchConfig": SearchConfig(iterations=5, rollout="greedy", cutoff=3),
        "SearchStats": SearchStats(iterations=3, seconds=0.5),
        "LocalTile": load_local_tiles()[0],
    }
    for name in meeple.game_names():
        objects[f"{name} state"] = meeple.load(name).new_game(2, seed=4)
    return objects


@pytest.mark.parametrize("how", ["copy", "deepcopy", "pickle"])
def test_values_copy_and_pickle_in_either_build(how: str):
    """copy, deepcopy and pickle rebuild them, equal field for field (compiled frozen classes
    are rebuilt through their fields: meeple.core.values)."""
    for label, value in value_objects().items():
        again = {"copy": copy.copy, "deepcopy": copy.deepcopy,
                 "pickle": lambda v: pickle.loads(pickle.dumps(v))}[how](value)
        assert type(again) is type(value), label
        if hasattr(value, "to_json"):
            assert again.to_json() == value.to_json(), label
        else:
            assert again == value, label
