"""The compiled build's manifest, `_compiled.json`: what setup.py records of every module it
built, and the check `meeple._native` makes at import before it trusts a compiled file.

The build lists only the modules it actually built. Each is recorded with the size, modification
time and SHA-256 of its compiled file and of the source it was built from (the source signed
before anything is compiled, so an edit during the build reads as a change), and, for a Python
module, the annotations written in its classes' bodies: mypyc keeps only erased ones on a native
class (`list` for `list[list[int]]`), so `meeple.core.statefields` reads them here.

A compiled file is current when the manifest lists it and both it and its source still match
their record. Size and time are compared first, the test Python makes for its own bytecode
caches; a file whose time differs (a copy, a wheel's install) is hashed and trusted only when the
hash is the one recorded.

Standard library only, and nothing runs at import: setup.py loads this file from the source
tree before meeple is installed.
"""

from __future__ import annotations

import json
import os
import time
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path
from typing import Any, TypedDict, TypeGuard

FILE_NAME = "_compiled.json"
#: The manifest's layout. A manifest of another format lists nothing, so every compiled file
#: beside it counts as stale until the next build.
FORMAT = 2
#: A source signed this soon after it was written could be written again within the file
#: system's time resolution, its time unchanged: it is recorded with no time (always hashed).
RECENT_NS = 2 * 10**9


class FileRecord(TypedDict):
    """One file as the build left it. `file` is relative to the directory that holds the
    `meeple` package (the source tree's `src`, or site-packages)."""

    file: str
    size: int
    mtime_ns: int
    sha256: str


class ModuleRecord(TypedDict):
    """One built module: its compiled file, the source it was built from (None for mypyc's
    shared library, built from all of them) and its classes' field annotations, as text."""

    built: FileRecord
    source: FileRecord | None
    classes: dict[str, dict[str, str]]


def _sha256(data: bytes) -> str:
    import hashlib  # needed at build time or when a time differs: a usual import hashes nothing

    return hashlib.sha256(data).hexdigest()


def _record(path: Path, root: Path, data: bytes, mtime_ns: int) -> FileRecord:
    return {"file": path.relative_to(root).as_posix(), "size": len(data), "mtime_ns": mtime_ns,
            "sha256": _sha256(data)}


def record_file(path: Path, root: Path) -> FileRecord:
    """`path` as it is now (its time read before its bytes: a write in between shows as a
    different time, so the file is hashed when checked)."""
    mtime_ns = path.stat().st_mtime_ns
    return _record(path, root, path.read_bytes(), mtime_ns)


def record_source(path: Path, root: Path) -> tuple[FileRecord, dict[str, dict[str, str]]]:
    """A source about to be compiled, and its classes' field annotations, read from the same
    bytes (so the two can never describe different versions)."""
    mtime_ns = path.stat().st_mtime_ns
    if time.time_ns() - mtime_ns < RECENT_NS:
        mtime_ns = -1
    data = path.read_bytes()
    classes = class_fields(data.decode("utf-8")) if path.suffix == ".py" else {}
    return _record(path, root, data, mtime_ns), classes


def class_fields(source: str) -> dict[str, dict[str, str]]:
    """The annotations written in each top-level class body of a module, as source text."""
    import ast  # only the build parses sources

    tree = ast.parse(source)
    return {
        node.name: {
            item.target.id: ast.unparse(item.annotation)
            for item in node.body
            if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)
        }
        for node in tree.body
        if isinstance(node, ast.ClassDef)
    }


def write(path: Path, modules: dict[str, ModuleRecord]) -> None:
    """Write the manifest whole or not at all (a process starting meanwhile reads the old one)."""
    partial = path.with_name(path.name + ".partial")
    partial.write_text(json.dumps({"format": FORMAT, "modules": modules}, indent=1, sort_keys=True) + "\n",
                       encoding="utf-8")
    os.replace(partial, path)


def read(path: Path) -> dict[str, ModuleRecord]:
    """The modules a manifest lists by name; none when it is missing, unreadable, malformed or of
    another format (then every compiled file beside it counts as stale)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        return {}
    modules = data.get("modules")
    if not isinstance(modules, dict):
        return {}
    records = {name: module for name, module in modules.items() if _is_module_record(module)}
    return records if len(records) == len(modules) else {}


def _is_file_record(value: Any) -> TypeGuard[FileRecord]:
    return (isinstance(value, dict) and isinstance(value.get("file"), str) and isinstance(value.get("size"), int)
            and isinstance(value.get("mtime_ns"), int) and isinstance(value.get("sha256"), str))


def _is_module_record(value: Any) -> TypeGuard[ModuleRecord]:
    if not isinstance(value, dict) or not _is_file_record(value.get("built")):
        return False
    if value.get("source") is not None and not _is_file_record(value["source"]):
        return False
    classes = value.get("classes")
    return isinstance(classes, dict) and all(
        isinstance(fields, dict) and all(isinstance(text, str) for text in fields.values())
        for fields in classes.values()
    )


def unchanged(record: FileRecord, root: Path) -> bool:
    """The recorded file is still there as recorded: the same size, and the same time or, the
    time differing, the same hash."""
    path = root / record["file"]
    try:
        status = path.stat()
        if status.st_size != record["size"]:
            return False
        return status.st_mtime_ns == record["mtime_ns"] or _sha256(path.read_bytes()) == record["sha256"]
    except OSError:
        return False


def extension_files(package_dir: Path) -> list[Path]:
    """The compiled modules inside a package, which Python would import before their sources."""
    suffixes = tuple(EXTENSION_SUFFIXES)
    found = []
    for directory, subdirectories, names in os.walk(package_dir):
        subdirectories[:] = [name for name in subdirectories if name != "__pycache__"]
        found += [Path(directory, name) for name in names if name.endswith(suffixes)]
    return sorted(found)


def problems(root: Path, modules: dict[str, ModuleRecord], found: list[Path]) -> list[str]:
    """Why the compiled files under `root` cannot be trusted, one phrase each (none: all are
    current). `found` are the compiled files present; `modules`, what the manifest lists."""
    listed = {module["built"]["file"] for module in modules.values()}
    out = [f"{name} is not from the last build"
           for name in (path.relative_to(root).as_posix() for path in found) if name not in listed]
    for module in modules.values():
        source, built = module["source"], module["built"]
        if source is not None and not unchanged(source, root):
            out.append(f"{source['file']} changed since it was compiled")
        elif not unchanged(built, root):
            out.append(f"{built['file']} is missing or is not the file the build made")
    return out
