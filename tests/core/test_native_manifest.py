"""No compiled code ever runs stale (meeple._manifest, meeple._native, setup.py): the manifest
lists only what a build made, a compiled file it does not vouch for sends the process to the
pure-Python code with one line saying so, and a pure rebuild in place removes the compiled files
of earlier builds. Where this checkout has no compiled build (a pure-only machine), the build is
fabricated with dummy compiled files, which the checks must distrust and never import."""

from __future__ import annotations

import importlib.machinery
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import time
import types
import zipfile
from pathlib import Path

import pytest

from meeple import _manifest, _native
from meeple.core.statefields import Shared, declared_types

ROOT = Path(__file__).resolve().parents[2]
SRC = ROOT / "src"
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
MODE = "import meeple._native as n; print(n.MODE)"
#: Which code runs, where meeple.ai.ismcts (a compiled module) came from, what children inherit.
MODE_AND_SOURCE = ("import os, meeple._native as n, meeple.ai.ismcts as m;"
                   "print(n.MODE, m.__file__.endswith('.py'), os.environ.get('MEEPLE_PURE'))")


def run(code: str, tree: Path) -> subprocess.CompletedProcess[str]:
    """`code` in a fresh interpreter that imports meeple from `tree`, compiled code allowed."""
    env = {**os.environ, "MEEPLE_PURE": "0", "PYTHONPATH": str(tree)}
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120,
                          check=False)


def problems(root: Path) -> list[str]:
    return _manifest.problems(root, _manifest.read(root / "meeple" / _manifest.FILE_NAME),
                              _manifest.extension_files(root / "meeple"))


def record(built: Path, source: Path | None, root: Path) -> _manifest.ModuleRecord:
    """What setup.py records of a module it built."""
    signed, classes = _manifest.record_source(source, root) if source else (None, {})
    return {"built": _manifest.record_file(built, root), "source": signed, "classes": classes}


@pytest.fixture
def fake_build(tmp_path: Path) -> Path:
    """A package with one module, a dummy compiled twin beside it and a manifest listing both."""
    package = tmp_path / "meeple"
    package.mkdir()
    source = package / "thing.py"
    source.write_text("class Thing:\n    cells: list[list[int]]\n    name: 'str'\n\n    def f(self) -> int: ...\n")
    os.utime(source, ns=(time.time_ns(), time.time_ns() - 10 * 10**9))  # edited a while before the build
    built = package / f"thing{SUFFIX}"
    built.write_bytes(b"compiled thing, version 1")
    _manifest.write(package / _manifest.FILE_NAME, {"meeple.thing": record(built, source, tmp_path)})
    return tmp_path


def later(path: Path) -> None:
    """Move a file's time on, as a copy or an install does."""
    status = path.stat()
    os.utime(path, ns=(status.st_atime_ns, status.st_mtime_ns + 10**9))


def test_a_build_as_recorded_is_current_and_carries_its_field_annotations(fake_build: Path):
    assert problems(fake_build) == []
    listed = _manifest.read(fake_build / "meeple" / _manifest.FILE_NAME)
    assert listed["meeple.thing"]["classes"] == {"Thing": {"cells": "list[list[int]]", "name": "'str'"}}
    assert listed["meeple.thing"]["built"]["file"] == f"meeple/thing{SUFFIX}"


def test_a_source_written_just_before_the_build_is_recorded_to_be_hashed(tmp_path: Path):
    """Written again within the file system's time resolution, it would keep its time."""
    source = tmp_path / "fresh.py"
    source.write_text("x: int\n")
    assert _manifest.record_source(source, tmp_path)[0]["mtime_ns"] == -1
    os.utime(source, ns=(time.time_ns(), time.time_ns() - 10 * 10**9))
    assert _manifest.record_source(source, tmp_path)[0]["mtime_ns"] == source.stat().st_mtime_ns


def test_files_with_new_times_but_the_same_bytes_are_still_current(fake_build: Path):
    later(fake_build / "meeple" / "thing.py")
    later(fake_build / "meeple" / f"thing{SUFFIX}")
    assert problems(fake_build) == []


@pytest.mark.parametrize("edit", ["appended", "same size"])
def test_an_edited_source_is_stale(fake_build: Path, edit: str):
    source = fake_build / "meeple" / "thing.py"
    text = source.read_text()
    source.write_text(text + "# edited\n" if edit == "appended" else text.replace("cells", "cellz"))
    assert problems(fake_build) == ["meeple/thing.py changed since it was compiled"]


@pytest.mark.parametrize("change", ["replaced", "removed"])
def test_a_replaced_or_missing_compiled_file_is_stale(fake_build: Path, change: str):
    built = fake_build / "meeple" / f"thing{SUFFIX}"
    if change == "replaced":
        built.write_bytes(b"compiled thing, version 2")  # the same size: only the hash tells
        later(built)
    else:
        built.unlink()
    assert problems(fake_build) == [f"meeple/thing{SUFFIX} is missing or is not the file the build made"]


def test_a_compiled_file_no_build_listed_is_stale(fake_build: Path):
    (fake_build / "meeple" / "sub").mkdir()
    (fake_build / "meeple" / "sub" / f"left{SUFFIX}").write_bytes(b"from an earlier build")
    assert problems(fake_build) == [f"meeple/sub/left{SUFFIX} is not from the last build"]


@pytest.mark.parametrize("text", [
    json.dumps({"format": _manifest.FORMAT, "modules": {}}),  # a build that compiled nothing
    json.dumps({"sources": {"meeple/thing.py": "0" * 64}}),  # the first format, hashes only
    json.dumps({"format": _manifest.FORMAT, "modules": {"meeple.thing": {"built": "thing.so"}}}),
    "not json",
])
def test_a_manifest_that_lists_nothing_valid_vouches_for_nothing(fake_build: Path, text: str):
    (fake_build / "meeple" / _manifest.FILE_NAME).write_text(text)
    assert _manifest.read(fake_build / "meeple" / _manifest.FILE_NAME) == {}
    assert problems(fake_build) == [f"meeple/thing{SUFFIX} is not from the last build"]


def test_a_compiled_class_takes_its_field_types_from_the_build_record(monkeypatch: pytest.MonkeyPatch):
    """mypyc leaves a native class no annotations: `declared_types` evaluates the ones the build
    recorded, in the module's namespace, and refuses a compiled class the build did not record."""
    module = types.ModuleType("meeple_compiled_example")
    module.__file__ = f"meeple_compiled_example{SUFFIX}"
    exec("from meeple.core.statefields import Shared\nclass Cells:\n    pass\nclass Other:\n    pass\n",
         vars(module))
    monkeypatch.setitem(sys.modules, module.__name__, module)
    classes = {"Cells": {"rows": "list[list[int]]", "names": "Shared[tuple[str, ...]]"}}
    monkeypatch.setitem(_native._BUILT, module.__name__, {"built": {"file": module.__file__, "size": 0, "mtime_ns": 0,
                                                                     "sha256": ""}, "source": None, "classes": classes})
    assert declared_types(module.Cells) == {"rows": list[list[int]], "names": Shared[tuple[str, ...]]}
    with pytest.raises(TypeError, match=r"meeple_compiled_example\.Other is compiled, but .* rebuild"):
        declared_types(module.Other)


@pytest.fixture
def built_tree(tmp_path: Path) -> Path:
    """A copy of the source tree with its build: the compiled files and manifest this checkout
    has (`pip install -e .` made them) or, where it has none, a fabricated build of
    `meeple.ai.ismcts`: a dummy compiled file listed with its source as setup.py lists a module."""
    tree = tmp_path / "src"
    shutil.copytree(SRC, tree, ignore=shutil.ignore_patterns("__pycache__"))
    if not _manifest.read(tree / "meeple" / _manifest.FILE_NAME):
        for path in [*_manifest.extension_files(tree / "meeple"), *tree.glob("meeple__mypyc.*")]:
            path.unlink()
        source = tree / "meeple" / "ai" / "ismcts.py"
        built = source.with_name(f"ismcts{SUFFIX}")
        built.write_bytes(b"not a loadable module: importing it would fail")
        _manifest.write(tree / "meeple" / _manifest.FILE_NAME, {"meeple.ai.ismcts": record(built, source, tree)})
    return tree


def test_an_edited_compiled_source_runs_the_pure_code_and_says_so(built_tree: Path):
    shown = run(MODE, built_tree)
    assert (shown.stdout, shown.stderr) == ("compiled\n", "")
    edited = built_tree / "meeple" / "ai" / "ismcts.py"
    edited.write_text(edited.read_text() + "\n# edited\n")
    shown = run(MODE_AND_SOURCE, built_tree)
    assert shown.stdout.split() == ["stale", "True", "1"], shown.stderr
    assert shown.stderr.count("\n") == 1
    assert "meeple/ai/ismcts.py changed since it was compiled; running the pure-Python code" in shown.stderr
    assert "pip install -e ." in shown.stderr


@pytest.mark.parametrize("manifest", [
    {"format": _manifest.FORMAT, "modules": {}},  # what a pure build (MEEPLE_PURE=1, or mypyc refusing) writes
    "the first format",  # hashes of every source, written whether or not anything was compiled
    None,  # no manifest at all
])
def test_compiled_files_no_manifest_vouches_for_are_never_run(built_tree: Path, manifest: object):
    """The compiled files of an earlier build beside a manifest that does not list them: the
    pure code runs, and says why."""
    path = built_tree / "meeple" / _manifest.FILE_NAME
    if manifest is None:
        path.unlink()
    elif manifest == "the first format":
        sources = sorted([*(built_tree / "meeple").rglob("*.py"), *(built_tree / "meeple").rglob("*.c")])
        path.write_text(json.dumps({"sources": {source.relative_to(built_tree).as_posix(): _manifest.record_file(
            source, built_tree)["sha256"] for source in sources}}))
    else:
        path.write_text(json.dumps(manifest))
    shown = run(MODE_AND_SOURCE, built_tree)
    assert shown.stdout.split() == ["stale", "True", "1"], shown.stderr
    assert shown.stderr.count("\n") == 1 and " is not from the last build" in shown.stderr


def test_a_pure_rebuild_in_place_removes_the_compiled_files_of_earlier_builds(tmp_path: Path):
    """`MEEPLE_PURE=1` setup.py in place (what an editable install runs) in a copy of the project
    holding an earlier build: those compiled files are gone, and the manifest lists only what this
    build made (the C generator where a compiler is present, else nothing)."""
    project = tmp_path / "project"
    shutil.copytree(SRC, project / "src", ignore=shutil.ignore_patterns(
        "__pycache__", f"*{SUFFIX}", "meeple__mypyc.*", _manifest.FILE_NAME))
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, project / name)
    earlier = [project / "src" / "meeple" / "ai" / f"ismcts{SUFFIX}", project / "src" / f"meeple__mypyc{SUFFIX}"]
    for path in earlier:
        path.write_bytes(b"an earlier build")
    done = subprocess.run([sys.executable, "setup.py", "-q", "build_ext", "--inplace"], cwd=project,
                          env={**os.environ, "MEEPLE_PURE": "1"}, capture_output=True, text=True, timeout=600,
                          check=False)
    assert done.returncode == 0, done.stderr
    assert not any(path.exists() for path in earlier)
    tree = project / "src"
    listed = _manifest.read(tree / "meeple" / _manifest.FILE_NAME)
    assert set(listed) <= {"meeple.core._rng"}
    assert problems(tree) == []
    assert [path.relative_to(tree).as_posix() for path in _manifest.extension_files(tree / "meeple")] == [
        module["built"]["file"] for module in listed.values()]
    shown = run(MODE, tree)
    assert (shown.stdout, shown.stderr) == ("compiled\n" if listed else "pure\n", "")


def test_a_build_swapped_in_by_dev_py_is_current_at_the_times_its_build_recorded(tmp_path: Path):
    """dev.py copies a background build's compiled files beside the sources: they are current,
    with the times their build recorded, so the check at import compares times, hashing nothing."""
    build, src = tmp_path / "build", tmp_path / "src"
    for root in (build, src):
        (root / "meeple").mkdir(parents=True)
    source = src / "meeple" / "thing.py"
    source.write_text("class Thing:\n    cells: list[int]\n")
    os.utime(source, ns=(time.time_ns(), time.time_ns() - 10 * 10**9))
    built, shared = build / "meeple" / f"thing{SUFFIX}", build / f"meeple__mypyc{SUFFIX}"
    built.write_bytes(b"thing's shim")
    shared.write_bytes(b"the shared library")
    modules: dict[str, _manifest.ModuleRecord] = {
        "meeple.thing": {"built": _manifest.record_file(built, build),
                         "source": _manifest.record_source(source, src)[0], "classes": {}},
        "meeple__mypyc": record(shared, None, build)}
    _manifest.write(build / "meeple" / _manifest.FILE_NAME, modules)
    wheel = tmp_path / "meeple-0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path in (built, shared, build / "meeple" / _manifest.FILE_NAME):
            archive.write(path, path.relative_to(build).as_posix())
    spec = importlib.util.spec_from_file_location("dev_for_manifest", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    dev = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(dev)
    dev.install_compiled(wheel, src)
    assert problems(src) == []
    for name, module in modules.items():
        assert (src / module["built"]["file"]).stat().st_mtime_ns == module["built"]["mtime_ns"], name
