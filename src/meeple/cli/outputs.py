"""Where the command line writes files, checked before the work that produces them, so a typo
in a path costs a one-line error instead of a finished game, arena or picture."""

from __future__ import annotations

import os
from pathlib import Path

from meeple.core.errors import OptionError


def check_output_file(path: Path, flag: str) -> Path:
    """`path` if a file can be written there: its folder exists and it is not a folder itself."""
    if path.is_dir():
        raise OptionError(f"{flag} {path} is a folder; give a file name")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise OptionError(f"{flag} {path}: the folder {folder} does not exist")
    if not os.access(folder, os.W_OK):
        raise OptionError(f"{flag} {path}: cannot write in {folder}")
    return path


def prepare_output_folder(path: Path, flag: str) -> Path:
    """`path` as a folder that files can be written in, created if missing."""
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise OptionError(f"{flag} {path} is a file, not a folder") from None
    except OSError as exc:
        raise OptionError(f"{flag} {path}: cannot create the folder ({exc.strerror or exc})") from None
    if not os.access(path, os.W_OK):
        raise OptionError(f"{flag} {path}: cannot write in this folder")
    return path


def reserve_new_file(folder: Path, stem: str, suffix: str) -> Path:
    """A path in `folder` that no file has yet, created empty so that a second game started in
    the same second cannot take it too: `stem.suffix`, else `stem-2.suffix`, `stem-3.suffix`..."""
    for attempt in range(1, 10_000):
        path = folder / (f"{stem}{suffix}" if attempt == 1 else f"{stem}-{attempt}{suffix}")
        try:
            with open(path, "x", encoding="utf-8"):
                return path
        except FileExistsError:
            continue
    raise OptionError(f"too many files named {stem}* in {folder}")
