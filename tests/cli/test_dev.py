"""dev.py's set-up logic, with pip and the background build mocked: what each command installs, the
stamps, the background build never waited on and swapped in only when finished."""

import importlib.util
import json
import subprocess
import sys
import zipfile
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def dev(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """dev.py loaded as a module, its .venv moved to tmp_path (the real one is never touched)."""
    spec = importlib.util.spec_from_file_location("dev_under_test", ROOT / "dev.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    venv = tmp_path / ".venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    monkeypatch.setattr(module, "VENV", venv)
    monkeypatch.setattr(module, "BIN", venv / "bin")
    monkeypatch.setattr(module, "STAMPS", {"play": venv / ".meeple-installed-play",
                                           "test": venv / ".meeple-installed-test"})
    monkeypatch.setattr(module, "BUILD", venv / "meeple-build")
    monkeypatch.setattr(module, "BUILD_DONE", venv / "meeple-build" / "done")
    monkeypatch.setattr(module, "BUILD_LOG", venv / "meeple-build.log")
    monkeypatch.setattr(module, "COMPILED", venv / ".meeple-compiled")
    monkeypatch.setattr(module, "remove_compiled", lambda src: None)  # the worktree's own build stays
    return module


class Recorder:
    """Stands in for subprocess.run and subprocess.Popen: records each command, returns at once."""

    def __init__(self) -> None:
        self.runs: list[tuple[list[str], dict[str, str]]] = []
        self.started: list[list[str]] = []

    def run(self, command, check=False, env=None, **kwargs):
        self.runs.append((list(command), dict(env or {})))
        return subprocess.CompletedProcess(command, 0)

    def popen(self, command, **kwargs):
        self.started.append(list(command))
        assert kwargs.get("start_new_session") is True  # detached: outlives dev.py, never waited on
        process = type("Process", (), {"pid": 999_999_999})()
        return process


@pytest.fixture
def recorder(dev: ModuleType, monkeypatch: pytest.MonkeyPatch) -> Recorder:
    recorder = Recorder()
    monkeypatch.setattr(dev.subprocess, "run", recorder.run)
    monkeypatch.setattr(dev.subprocess, "Popen", recorder.popen)
    return recorder


def test_serve_and_play_install_without_extras_test_with_the_test_extra(dev):
    play, test = dev.install_command("play"), dev.install_command("test")
    assert play[-2:] == ["-e", str(dev.ROOT)] and "[" not in play[-1]
    assert test[-2:] == ["-e", f"{dev.ROOT}[test]"]
    assert "--quiet" not in play and "--quiet" not in test  # pip says what it fetches and builds
    assert "--no-compile" in play  # no bytecode for every dependency before the first game


def test_serve_installs_pure_and_starts_the_build_in_the_background(dev, recorder):
    dev.ensure_env("play")
    [(command, env)] = recorder.runs
    assert command == dev.install_command("play") and env["MEEPLE_PURE"] == "1"
    [started] = recorder.started
    assert started[-2:] == ["build-compiled", dev.inputs_digest()]
    assert dev.STAMPS["play"].read_text() == dev.inputs_digest()
    assert not dev.STAMPS["test"].exists() and not dev.COMPILED.exists()


def test_test_installs_the_test_extra_compiled_in_the_foreground(dev, recorder):
    dev.ensure_env("test")
    [(command, env)] = recorder.runs
    assert command == dev.install_command("test") and "MEEPLE_PURE" not in env
    assert recorder.started == []
    assert dev.STAMPS["test"].read_text() == dev.COMPILED.read_text() == dev.inputs_digest()


def test_stamps_keep_switching_from_reinstalling(dev, recorder):
    dev.ensure_env("test")
    dev.ensure_env("play")  # the test install holds everything the game needs, compiled
    dev.ensure_env("test")
    assert len(recorder.runs) == 1 and recorder.started == []


def test_a_current_play_install_is_not_redone_and_test_installs_its_extra(dev, recorder, monkeypatch):
    dev.ensure_env("play")
    monkeypatch.setattr(dev, "build_running", lambda: True)
    dev.ensure_env("play")
    assert len(recorder.runs) == 1 and len(recorder.started) == 1
    dev.ensure_env("test")
    assert [command for command, _ in recorder.runs] == [dev.install_command("play"), dev.install_command("test")]
    assert not dev.STAMPS["play"].exists()


def test_test_stops_a_background_build_first(dev, recorder, monkeypatch):
    dev.ensure_env("play")
    monkeypatch.setattr(dev, "build_running", lambda: True)
    stopped: list[tuple[int, int]] = []
    monkeypatch.setattr(dev.os, "killpg", lambda pid, sig: stopped.append((pid, sig)))
    dev.ensure_env("test")
    assert stopped == [(999_999_999, dev.signal.SIGTERM)] and not dev.BUILD.exists()


def test_changed_inputs_reinstall(dev, recorder, monkeypatch):
    dev.ensure_env("test")
    monkeypatch.setattr(dev, "inputs_digest", lambda: "edited")
    dev.ensure_env("test")
    assert len(recorder.runs) == 2


def test_an_unfinished_background_build_is_never_used(dev, recorder, monkeypatch):
    dev.ensure_env("play")
    monkeypatch.setattr(dev, "build_running", lambda: True)
    installed: list[Path] = []
    monkeypatch.setattr(dev, "install_compiled", lambda wheel, src: installed.append(wheel))
    wheel_dir = dev.BUILD / "wheel"
    wheel_dir.mkdir(parents=True)
    (wheel_dir / "meeple-0.1.0-cp311-cp311-linux_x86_64.whl").write_bytes(b"")
    dev.ensure_env("play")  # no BUILD_DONE yet: still pure, nothing waited on or restarted
    assert installed == [] and not dev.COMPILED.exists() and len(recorder.started) == 1
    dev.BUILD_DONE.write_text("digest of other sources")
    dev.ensure_env("play")
    assert installed == []
    dev.BUILD_DONE.write_text(dev.inputs_digest())
    dev.ensure_env("play")
    assert installed == [wheel_dir / "meeple-0.1.0-cp311-cp311-linux_x86_64.whl"]
    assert dev.COMPILED.read_text() == dev.inputs_digest()
    assert len(recorder.runs) == 1


def test_a_build_that_stopped_unfinished_is_restarted(dev, recorder):
    dev.ensure_env("play")
    dev.ensure_env("play")  # the recorded pid is no live process: start again
    assert len(recorder.started) == 2


def test_the_background_build_marks_done_last_and_only_for_unchanged_inputs(dev, recorder, monkeypatch):
    dev.BUILD.mkdir()
    monkeypatch.setenv("MEEPLE_PURE", "1")
    assert dev.build_compiled(dev.inputs_digest()) == 0
    [(command, env)] = recorder.runs
    assert command[3:5] == ["wheel", "--no-deps"] and "MEEPLE_PURE" not in env  # this one compiles
    assert dev.BUILD_DONE.read_text() == dev.inputs_digest()
    dev.BUILD_DONE.unlink()
    dev.build_compiled("inputs edited during the build")
    assert not dev.BUILD_DONE.exists()


def test_install_compiled_puts_the_shared_library_first_and_the_manifest_last(dev, tmp_path, monkeypatch):
    wheel = tmp_path / "meeple.whl"
    manifest = json.dumps({"sources": {}})
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("meeple/core/state.cpython-311-x86_64-linux-gnu.so", b"module")
        archive.writestr("meeple__mypyc.cpython-311-x86_64-linux-gnu.so", b"shared")
        archive.writestr("meeple/core/state.py", "ignored: the sources stay")
        archive.writestr("meeple/_compiled.json", manifest)
    src = tmp_path / "src"
    (src / "meeple" / "core").mkdir(parents=True)
    order: list[str] = []
    real_replace = dev.os.replace

    def replace(partial, target):
        order.append(Path(target).name)
        real_replace(partial, target)

    monkeypatch.setattr(dev.os, "replace", replace)
    dev.install_compiled(wheel, src)
    assert order == ["meeple__mypyc.cpython-311-x86_64-linux-gnu.so", "state.cpython-311-x86_64-linux-gnu.so",
                     "_compiled.json"]
    assert (src / "meeple" / "_compiled.json").read_text() == manifest
    assert not (src / "meeple" / "core" / "state.py").exists()
    assert not list(src.rglob("*.partial"))


def test_main_routes_each_command_to_its_install(dev, monkeypatch):
    kinds: list[str] = []
    monkeypatch.setattr(dev, "ensure_env", kinds.append)
    monkeypatch.setattr(dev, "ensure_browser", lambda: None)
    monkeypatch.setattr(dev.subprocess, "run", lambda *a, **k: subprocess.CompletedProcess(a, 0))
    for command in (["serve"], ["play"], ["test", "-k", "x"]):
        assert dev.main(command) == 0
    assert kinds == ["play", "play", "test"]
    assert dev.main([]) == 2


def test_the_fast_lane_runs_only_the_tests_not_marked_slow(dev, monkeypatch):
    """`test --fast`: pytest with the slow tests left out and the other arguments passed on;
    no lint, no type check, no browser installed (none of its tests need one)."""
    runs: list[list[str]] = []

    def run(command, **kwargs):
        runs.append(command)
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(dev, "ensure_env", lambda kind: None)
    monkeypatch.setattr(dev, "ensure_browser", lambda: pytest.fail("the fast lane installed a browser"))
    monkeypatch.setattr(dev.subprocess, "run", run)
    assert dev.main(["test", "--fast", "-k", "triqueta"]) == 0
    assert runs == [[str(dev.BIN / "python"), "-m", "pytest", *dev.SPREAD, "-m", "not slow", "-k", "triqueta"]]


def test_dev_py_needs_only_the_standard_library():
    imported = {line.split()[1].split(".")[0] for line in (ROOT / "dev.py").read_text().splitlines()
                if line.startswith(("import ", "from "))}
    assert imported <= set(sys.stdlib_module_names) | {"__future__"}


def test_a_pure_install_fetches_no_compiler():
    """mypy (mypyc) is no fixed build requirement: setup.py asks for it only when compiling."""
    import tomllib

    with open(ROOT / "pyproject.toml", "rb") as file:
        requires = tomllib.load(file)["build-system"]["requires"]
    assert not any(name.startswith("mypy") for name in requires)
    assert 'setup_requires=[] if pure_requested() else ["mypy>=1.13"]' in (ROOT / "setup.py").read_text()


def test_the_full_run_spreads_over_the_cores_and_given_arguments_pass_as_they_are(dev, monkeypatch):
    """The whole suite in one process takes about twice its budget on two cores: the full run and
    its pure part spread; `test ARGS` runs pytest with exactly ARGS."""
    runs: list[list[str]] = []

    def run(command, **kwargs):
        runs.append(command)
        return subprocess.CompletedProcess(command, 0)

    monkeypatch.setattr(dev, "ensure_env", lambda kind: None)
    monkeypatch.setattr(dev, "ensure_browser", lambda: None)
    monkeypatch.setattr(dev.subprocess, "run", run)
    assert dev.main(["test"]) == 0
    pytest_runs = [command for command in runs if command[1:3] == ["-m", "pytest"]]
    assert len(pytest_runs) == 2 and all(command[3:3 + len(dev.SPREAD)] == dev.SPREAD for command in pytest_runs)
    runs.clear()
    assert dev.main(["test", "-x", "tests/core"]) == 0
    assert runs == [[str(dev.BIN / "python"), "-m", "pytest", "-x", "tests/core"]]
