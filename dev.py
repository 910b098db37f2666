#!/usr/bin/env python3
"""Set-up and entry point on a fresh machine: needs only Python 3.11+.

    python3 dev.py serve   # the game server: open the printed address and play in the browser
    python3 dev.py test    # the whole test suite: ruff, mypy, then pytest
    python3 dev.py play    # a game of Triqueta against two bots in the terminal

Each creates (or reuses) the virtual environment `.venv` beside this file, installs meeple with
its test dependencies when pyproject.toml changed, then runs. Extra arguments pass through:
`python3 dev.py play --lang zh-Hant`, `python3 dev.py test -k triqueta`,
`python3 dev.py meeple simulate triqueta --players 4 --games 100`.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
STAMP = VENV / ".meeple-installed"


def build_inputs() -> list[Path]:
    """The files an install builds from: the project's metadata and the compiled fast path's
    sources, the C file and the modules mypyc compiles (so an edited one is rebuilt, never run
    stale)."""
    import tomllib  # Python 3.11+, checked first by ensure_env

    with open(ROOT / "pyproject.toml", "rb") as file:
        compiled = tomllib.load(file)["tool"]["meeple"]["compiled"]
    return [ROOT / "pyproject.toml", ROOT / "setup.py", *sorted((ROOT / "src").rglob("*.c")),
            *(ROOT / name for name in compiled)]


def ensure_env() -> None:
    """Create .venv and install meeple[test] unless the installed copy is current."""
    if sys.version_info < (3, 11):
        sys.exit("meeple needs Python 3.11 or newer")
    digest = hashlib.sha256()
    for path in build_inputs():
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    wanted = digest.hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == wanted:
        return
    if not (BIN / "python").exists():
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    print("installing meeple and its dependencies into .venv ...", flush=True)
    subprocess.run(
        [str(BIN / "python"), "-m", "pip", "install", "--quiet", "--disable-pip-version-check", "-e", f"{ROOT}[test]"],
        check=True,
    )
    STAMP.write_text(wanted)


def ensure_browser() -> None:
    """The browser tests drive Debian's Chromium (never a browser downloaded by a test tool) with
    CJK fonts, so the Chinese pages render. Installed here when missing and this is a Debian
    machine run as root; otherwise those tests skip with one line (and fail under CI)."""
    if shutil.which("chromium") or not shutil.which("apt-get") or not hasattr(os, "geteuid") or os.geteuid() != 0:
        return
    print("installing chromium and fonts-noto-cjk for the browser tests ...", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for step in (["apt-get", "update", "-qq"], ["apt-get", "install", "-y", "-qq", "chromium", "fonts-noto-cjk"]):
        subprocess.run(step, check=False, stdout=subprocess.DEVNULL, env=env)


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("serve", "play", "test", "meeple"):
        print(__doc__.strip())
        return 2
    ensure_env()
    command, rest = argv[0], argv[1:]
    if command == "serve":
        args = [str(BIN / "meeple"), "serve", *rest]
    elif command == "play":
        args = [str(BIN / "meeple"), "play", "triqueta", "--players", "3", "--bots", "greedy,greedy", *rest]
    elif command == "test":
        ensure_browser()
        if not rest:  # the full check: lint and types first (fast), then every test
            for check in (["ruff", "check", "."], ["mypy"]):
                print(f"$ {' '.join(check)}", flush=True)
                if subprocess.run([str(BIN / check[0]), *check[1:]], cwd=ROOT).returncode:
                    return 1
        args = [str(BIN / "python"), "-m", "pytest", *rest]
        if not rest:  # everything with the compiled fast path, then a representative part without it
            if subprocess.run(args, cwd=ROOT).returncode:
                return 1
            pure_part = ["tests/core", "tests/triqueta", "tests/castell/test_towers_rules.py",
                         "tests/castell/test_towers_solver.py"]
            print(f"$ MEEPLE_PURE=1 pytest {' '.join(pure_part)}  (the pure-Python fallback)", flush=True)
            pure = {**os.environ, "MEEPLE_PURE": "1"}
            return subprocess.run([*args, *pure_part], cwd=ROOT, env=pure).returncode
    else:
        args = [str(BIN / "meeple"), *rest]
    return subprocess.run(args, cwd=ROOT).returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
