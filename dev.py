#!/usr/bin/env python3
"""Set-up and entry point on a fresh machine: needs only Python 3.11+.

    python3 dev.py serve   # the game server: open the printed address and play in the browser
    python3 dev.py test    # the whole test suite: ruff, mypy, then pytest
    python3 dev.py test --fast  # the quick lane: every test not marked slow, nothing else
    python3 dev.py play    # a game of Triqueta against two bots in the terminal

Each creates (or reuses) the virtual environment `.venv` beside this file, installs meeple when
pyproject.toml, setup.py or a compiled source changed, then runs. `serve` and `play` install only
what the game needs, as pure Python, and compile the fast path in the background for the next
start; `test` installs the test dependencies too and compiles first. Extra arguments pass through:
`python3 dev.py play --lang zh-Hant`, `python3 dev.py test -k triqueta`,
`python3 dev.py meeple simulate triqueta --players 4 --games 100`.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import signal
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
#: One stamp per kind of install, holding the build inputs' digest, so switching between `serve`
#: and `test` reinstalls nothing that is current.
STAMPS = {"play": VENV / ".meeple-installed-play", "test": VENV / ".meeple-installed-test"}
#: The compiled fast path built in the background after a quick first install: a wheel in BUILD,
#: then BUILD_DONE holding the digest it was built from, written only once the wheel is complete.
BUILD = VENV / "meeple-build"
BUILD_DONE = BUILD / "done"
BUILD_LOG = VENV / "meeple-build.log"
#: The digest of the compiled build now in src/ (a full install or a background build swapped in).
COMPILED = VENV / ".meeple-compiled"
#: The quick lane's selection: the tests not marked `slow` (browsers, servers as processes, Ray,
#: the training example, long random-play sweeps; pyproject.toml registers the marker).
FAST_LANE = ["-m", "not slow"]
#: The full run and the fast lane spread their tests over one worker per core (pytest-xdist), a
#: test file to a worker so a file's module fixtures are made once: in one process the suite takes
#: about twice as long. Arguments given to `test` go to pytest as they are (`-x`, `--pdb`, `-n 0`).
SPREAD = ["-n", "auto", "--dist", "loadfile"]


def build_inputs() -> list[Path]:
    """The files an install builds from: the project's metadata, the build step and the manifest
    it writes (meeple/_manifest.py), and the compiled fast path's sources, the C file and the
    modules mypyc compiles (so an edited one is rebuilt, never run stale)."""
    import tomllib  # Python 3.11+, checked first by ensure_env

    with open(ROOT / "pyproject.toml", "rb") as file:
        compiled = tomllib.load(file)["tool"]["meeple"]["compiled"]
    return [ROOT / "pyproject.toml", ROOT / "setup.py", ROOT / "src" / "meeple" / "_manifest.py",
            *sorted((ROOT / "src").rglob("*.c")), *(ROOT / name for name in compiled)]


def inputs_digest() -> str:
    digest = hashlib.sha256()
    for path in build_inputs():
        digest.update(path.relative_to(ROOT).as_posix().encode() + b"\0" + path.read_bytes())
    return digest.hexdigest()


def current(stamp: Path, wanted: str) -> bool:
    return stamp.exists() and stamp.read_text().strip() == wanted


def install_command(kind: str) -> list[str]:
    """`play` (serve and play): meeple and what the game needs; `test`: with the test extra
    (PyTorch, Ray, Playwright...)."""
    command = [str(BIN / "python"), "-m", "pip", "install", "--disable-pip-version-check", "--progress-bar", "off"]
    if kind == "test":
        return [*command, "-e", f"{ROOT}[test]"]
    # --no-compile: no bytecode for every installed module up front; Python writes it on first import
    return [*command, "--no-compile", "-e", str(ROOT)]


def ensure_env(kind: str) -> None:
    """Create .venv and install meeple for `kind` ("play" or "test") unless the installed copy is
    current. `test` compiles the fast path in the foreground, as CI checks it; `play` installs the
    pure-Python code (quick) and builds the compiled path in the background for a later start."""
    if sys.version_info < (3, 11):
        sys.exit("meeple needs Python 3.11 or newer")
    wanted = inputs_digest()
    if kind == "play":
        if current(STAMPS["play"], wanted) or current(STAMPS["test"], wanted):
            use_background_build(wanted)
            return
    elif current(STAMPS["test"], wanted):
        return
    if not (BIN / "python").exists():
        print("creating .venv ...", flush=True)
        venv.EnvBuilder(with_pip=True).create(VENV)
    env = dict(os.environ)
    if kind == "play":
        print("installing meeple and what the game needs into .venv (pure Python, the fast path is "
              "compiled afterwards in the background) ...", flush=True)
        env["MEEPLE_PURE"] = "1"  # setup.py compiles nothing: the first game waits for no compiler
        remove_compiled(ROOT / "src")  # built from older sources, they must not pass as current
    else:
        stop_background_build()  # this install compiles the same sources in the same tree
        print("installing meeple with the test dependencies into .venv and compiling the fast path "
              "(several minutes the first time) ...", flush=True)
    pip_env = {key: value for key, value in env.items() if key != "PIP_QUIET"}
    subprocess.run(install_command(kind), check=True, env=pip_env)
    for stamp in STAMPS.values():
        stamp.unlink(missing_ok=True)  # an install of the other kind may have changed what .venv holds
    STAMPS[kind].write_text(wanted)
    if kind == "test":
        COMPILED.write_text(wanted)
    else:
        COMPILED.unlink(missing_ok=True)
        start_background_build(wanted)


def remove_compiled(src: Path) -> None:
    """Delete the compiled modules an earlier install left beside the sources."""
    for path in [*src.glob("meeple__mypyc*"), *(src / "meeple").rglob("*")]:
        if path.suffix in (".so", ".pyd"):
            path.unlink()


def build_running() -> bool:
    pid_file = BUILD / "pid"
    try:
        os.kill(int(pid_file.read_text()), 0)
    except (OSError, ValueError):
        return False
    return True


def stop_background_build() -> None:
    if build_running():
        with contextlib.suppress(OSError):  # it may have ended just now
            os.killpg(int((BUILD / "pid").read_text()), signal.SIGTERM)  # its own session: pip, compilers
    shutil.rmtree(BUILD, ignore_errors=True)


def start_background_build(wanted: str) -> None:
    """Compile the fast path into a wheel in .venv/meeple-build, detached, never waited on: the
    pure code serves meanwhile and the next start swaps the compiled modules in."""
    if build_running():
        return
    shutil.rmtree(BUILD, ignore_errors=True)
    BUILD.mkdir(parents=True)
    with open(BUILD_LOG, "w") as log:
        process = subprocess.Popen(
            [sys.executable, str(ROOT / "dev.py"), "build-compiled", wanted],
            cwd=ROOT, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT, start_new_session=True,
        )
    (BUILD / "pid").write_text(str(process.pid))
    print(f"compiling the fast path in the background (log: .venv/{BUILD_LOG.name}); "
          "the next start uses it", flush=True)


def build_compiled(wanted: str) -> int:
    """The background build itself: a wheel of meeple, compiled, into BUILD; BUILD_DONE last."""
    command = [str(BIN / "python"), "-m", "pip", "wheel", "--no-deps", "--disable-pip-version-check",
               "--progress-bar", "off", "-w", str(BUILD / "wheel"), str(ROOT)]
    env = {key: value for key, value in os.environ.items() if key != "MEEPLE_PURE"}
    code = subprocess.run(command, cwd=ROOT, env=env).returncode
    if code == 0 and inputs_digest() == wanted:  # a source edited during the build: never used
        BUILD_DONE.write_text(wanted)
    return code


def use_background_build(wanted: str) -> None:
    """Swap in a finished background build of these very inputs; restart one that is missing.
    A half-finished build has no BUILD_DONE, so it is never imported."""
    if current(COMPILED, wanted):
        return
    if not current(BUILD_DONE, wanted):
        if not build_running():
            start_background_build(wanted)
        return
    wheels = sorted((BUILD / "wheel").glob("meeple-*.whl"))
    if wheels:
        install_compiled(wheels[0], ROOT / "src")
        print("using the compiled fast path built in the background", flush=True)
    COMPILED.write_text(wanted)


def install_compiled(wheel: Path, src: Path) -> None:
    """Copy the wheel's compiled modules beside their sources, the way an editable install places
    them: the shared library first, then each module, the manifest (meeple._native's check) last.
    Each file is written aside and renamed in, so a running server keeps the files it mapped.
    Each keeps the time its build recorded (the bytes are the ones recorded), so the check at
    import compares times and need not hash them."""
    with zipfile.ZipFile(wheel) as archive:
        names = [name for name in archive.namelist() if name.endswith((".so", ".pyd"))]
        names.sort(key=lambda name: ("/" in name, name))  # meeple__mypyc (top level) first
        built_times = recorded_times(archive.read("meeple/_compiled.json"))
        for name in [*names, "meeple/_compiled.json"]:
            target = src / name
            partial = target.with_name(target.name + ".partial")
            partial.write_bytes(archive.read(name))
            if name in built_times:
                os.utime(partial, ns=(partial.stat().st_atime_ns, built_times[name]))
            os.replace(partial, target)


def recorded_times(manifest: bytes) -> dict[str, int]:
    """Each compiled file's modification time as the manifest (meeple._manifest) records it."""
    try:
        modules = json.loads(manifest).get("modules", {})
        return {module["built"]["file"]: module["built"]["mtime_ns"] for module in modules.values()}
    except (ValueError, AttributeError, KeyError, TypeError):
        return {}  # a manifest of another format: the check at import hashes instead


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
    if argv[:1] == ["build-compiled"] and len(argv) == 2:  # started by start_background_build
        return build_compiled(argv[1])
    if not argv or argv[0] not in ("serve", "play", "test", "meeple"):
        print(__doc__.strip())
        return 2
    command, rest = argv[0], argv[1:]
    ensure_env("test" if command in ("test", "meeple") else "play")
    if command == "serve":
        args = [str(BIN / "meeple"), "serve", *rest]
    elif command == "play":
        args = [str(BIN / "meeple"), "play", "triqueta", "--players", "3", "--bots", "greedy,greedy", *rest]
    elif command == "test" and "--fast" in rest:  # no lint, types or browser: the tests it selects need none
        args = [str(BIN / "python"), "-m", "pytest", *SPREAD, *FAST_LANE, *(arg for arg in rest if arg != "--fast")]
    elif command == "test":
        ensure_browser()
        if not rest:  # the full check: lint and types first (fast), then every test
            for check in (["ruff", "check", "."], ["mypy"]):
                print(f"$ {' '.join(check)}", flush=True)
                if subprocess.run([str(BIN / check[0]), *check[1:]], cwd=ROOT).returncode:
                    return 1
        args = [str(BIN / "python"), "-m", "pytest", *rest]
        if not rest:  # everything with the compiled fast path, then a representative part without it
            args = [*args, *SPREAD]
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
