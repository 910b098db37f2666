"""`meeple arena --backend ray [--address HOST:PORT]`: games run as Ray tasks give the results of
the process pool for the same seed, on a Ray head the tests start (`ray start --head`, joined by
its address), on a local Ray the arena starts itself, and on the Ray this program is already
connected to; `--resume` and Ctrl-C work as with the pool; bad flags are one line and write
nothing. Without ray installed these tests skip with one line (fail under CI), except those
about the missing extra and the flags, which need no Ray."""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from meeple.ai.arena import run_arena
from meeple.ai.backends import _why, open_backend
from meeple.cli.app import main
from meeple.core.errors import OptionError
from meeple.server.bench import free_port
from tests.processes import OWN_GROUP, end_group
from tests.server.services import missing

pytestmark = pytest.mark.slow  # Ray clusters

ROOT = Path(__file__).resolve().parents[2]
#: The environment of the head and of every driver here: this checkout's sources first, and no
#: token authentication on this throwaway loopback cluster (Ray would write a token to ~/.ray).
RAY_ENV = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}
TRIQUETA: dict[str, Any] = {"game": "triqueta", "bots": ["greedy", "random"], "players": 3, "games": 12, "seed": 7}


def results(result: Any) -> dict[str, Any]:
    """Everything but the timings, which no two runs share."""
    report: dict[str, Any] = result.to_json() if not isinstance(result, dict) else dict(result)
    del report["timing"]
    return report


def environment() -> dict[str, str]:
    path = os.pathsep.join([str(ROOT / "src"), str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return {**os.environ, **RAY_ENV, "PYTHONPATH": path}


@pytest.fixture(scope="module")
def ray_installed() -> None:
    try:
        import ray  # noqa: F401
    except ImportError:
        missing("ray is not installed (the ray extra: pip install 'meeple[ray]')")


@pytest.fixture(scope="module")
def ray_head(ray_installed: None) -> Iterator[str]:
    """HOST:PORT of a two-CPU Ray head of the module's own (private folder, loopback port),
    stopped with its processes afterwards; the module's drivers use the head's settings."""
    folder = Path(tempfile.mkdtemp(prefix="meeple-ray-"))  # short: Ray's socket paths must fit 107 bytes
    port = free_port()
    log = open(folder / "head.log", "wb")  # noqa: SIM115 (closed below)
    head = subprocess.Popen(
        [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", f"--port={port}", "--num-cpus=2",
         "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={folder}", "--block"],
        stdout=log, stderr=subprocess.STDOUT, env=environment(), cwd=ROOT, **OWN_GROUP,
    )
    try:
        deadline = time.monotonic() + 90
        while b"Ray runtime started" not in (folder / "head.log").read_bytes():
            if head.poll() is not None or time.monotonic() > deadline:
                tail = (folder / "head.log").read_text(errors="replace")[-2000:]
                pytest.fail(f"the Ray head did not start:\n{tail}")
            time.sleep(0.2)
        with pytest.MonkeyPatch.context() as patch:
            for name, value in RAY_ENV.items():
                patch.setenv(name, value)
            yield f"127.0.0.1:{port}"
    finally:
        end_group(head, timeout=60)  # on SIGTERM the head stops its raylet, GCS and workers; then any left
        log.close()
        shutil.rmtree(folder, ignore_errors=True)


def arena(*args: str, cwd: Path = ROOT, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "meeple", "arena", *args], capture_output=True, text=True,
                          env={**environment(), **(env or {})}, cwd=cwd, timeout=180)


@pytest.mark.parametrize("args", [
    TRIQUETA,
    {"game": "triqueta", "bots": ["ismcts:50", "greedy"], "players": 2, "games": 4, "seed": 2},
], ids=["greedy-random", "ismcts50-greedy"])
def test_ray_tasks_give_the_process_pools_results(ray_head, args):
    pool = run_arena(**args, workers=2)
    ray = run_arena(**args, workers=2, backend="ray", address=ray_head)
    assert results(ray) == results(pool)
    timing = ray.to_json()["timing"]
    assert (timing["backend"], timing["workers"]) == ("ray", 2)
    assert pool.to_json()["timing"]["backend"] == "process"


def test_a_game_registered_here_reaches_the_ray_workers(ray_head, toy):
    args: dict[str, Any] = {"game": toy, "bots": ["ismcts:20", "greedy", "random"], "players": 3, "games": 6,
                            "seed": 3}
    seen: list[int] = []
    ray = run_arena(**args, backend="ray", address=ray_head, progress=seen.append)
    assert results(ray) == results(run_arena(**args, workers=1))
    assert seen == list(range(1, 7))  # progress per game, as each finishes
    assert ray.workers == 2  # no --workers with an address: the cluster's CPUs


class Stop(Exception):
    pass


def test_a_run_stopped_on_ray_resumes_to_the_same_results(ray_head, tmp_path):
    journal = tmp_path / "arena.jsonl"

    def stop_after_five(done: int) -> None:
        if done == 5:
            raise Stop

    with pytest.raises(Stop):
        run_arena(**TRIQUETA, backend="ray", address=ray_head, progress=stop_after_five, journal=journal)
    assert len(journal.read_text().splitlines()) == 1 + 5
    played: list[int] = []
    resumed = run_arena(**TRIQUETA, backend="ray", address=ray_head, progress=played.append, journal=journal)
    assert played[0] == 5 and played[-1] == 12  # the five were not played again
    assert results(resumed) == results(run_arena(**TRIQUETA, workers=2))
    assert len(journal.read_text().splitlines()) == 1 + 12


def test_the_ray_this_program_is_connected_to_is_used_and_left_open(ray_head):
    import ray

    ray.init(address=ray_head, logging_level=logging.ERROR, log_to_driver=False)
    try:
        result = run_arena(**TRIQUETA, backend="ray")
        assert ray.is_initialized()
        assert results(result) == results(run_arena(**TRIQUETA, workers=1))
        with pytest.raises(OptionError, match="already connected to Ray: leave out --address"):
            run_arena(**TRIQUETA, backend="ray", address=ray_head)
    finally:
        ray.shutdown()


def test_an_error_in_a_ray_task_is_raised_as_itself(ray_head):
    from meeple.ai.bots import make_bot

    with open_backend("ray", None, 2, ray_head) as backend, pytest.raises(OptionError, match="nobody"):
        list(backend.run(make_bot, [("greedy",), ("nobody",)]))  # not a RayTaskError with a remote traceback


def test_the_command_line_joins_a_cluster_by_its_address(ray_head, tmp_path):
    done = arena("triqueta", "--bots", "greedy,random", "--players", "3", "--games", "12", "--seed", "7",
                 "--backend", "ray", "--address", ray_head, "--json", "--resume", str(tmp_path / "j.jsonl"))
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)  # nothing of Ray's on stdout
    assert report["timing"]["backend"] == "ray"
    assert results(report) == results(run_arena(**TRIQUETA, workers=1))


def _ray_servers() -> set[int]:
    """Process ids of the Ray GCS servers running on this machine."""
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and b"gcs_server" in (entry / "cmdline").read_bytes().split(b"\0")[0]:
                found.add(int(entry.name))
        except OSError:
            continue
    return found


def test_without_an_address_a_local_ray_is_started_and_stopped(ray_installed, tmp_path):
    before = _ray_servers()
    logs = tempfile.mkdtemp(prefix="meeple-ray-")  # the local Ray's session folder, not /tmp/ray
    try:
        done = arena("triqueta", "--bots", "greedy,random", "--players", "3", "--games", "12", "--seed", "7",
                     "--backend", "ray", "--workers", "2", "--json", cwd=tmp_path, env={"RAY_TMPDIR": logs})
    finally:
        shutil.rmtree(logs, ignore_errors=True)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    report = json.loads(done.stdout)
    assert (report["timing"]["backend"], report["timing"]["workers"]) == ("ray", 2)
    assert results(report) == results(run_arena(**TRIQUETA, workers=1))
    assert _ray_servers() <= before, "the local Ray was left running"


def test_ctrl_c_stops_the_run_and_its_games_on_the_cluster(ray_head, tmp_path):
    journal = tmp_path / "arena.jsonl"
    command = [sys.executable, "-m", "meeple", "arena", "castell", "--bots", "ismcts:normal,greedy", "--games", "8",
               "--backend", "ray", "--address", ray_head, "--resume", str(journal)]
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment(),
                             cwd=ROOT, **OWN_GROUP)
    deadline = time.monotonic() + 60
    while not journal.exists():  # the header is written once the cluster is joined
        assert time.monotonic() < deadline and child.poll() is None, "the arena did not start"
        time.sleep(0.05)
    time.sleep(2)  # the two games are running on the cluster
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    end_group(child)
    assert child.returncode == 130
    assert "Traceback" not in err and "KeyboardInterrupt" not in err
    assert err.strip().splitlines()[-1] == "meeple: interrupted"
    # The cancelled games free the cluster's two CPUs: a short run gets them at once.
    start = time.monotonic()
    run_arena(**{**TRIQUETA, "games": 2}, backend="ray", address=ray_head)
    assert time.monotonic() - start < 30


def test_an_address_where_no_head_answers_is_one_line_and_writes_nothing(ray_installed, tmp_path, capsys):
    journal = tmp_path / "arena.jsonl"
    for address, message in [(f"127.0.0.1:{free_port()}", "no Ray head answers there"),
                             ("localhost", "--address must be HOST:PORT"),
                             ("127.0.0.1:99999", "--address must be HOST:PORT")]:
        with pytest.raises(SystemExit) as code:
            main(["arena", "triqueta", "--bots", "greedy,random", "--games", "2", "--backend", "ray", "--address",
                  address, "--resume", str(journal)])
        assert code.value.code == 2
        err = capsys.readouterr().err
        assert len(err.strip().splitlines()) == 1 and message in err, err
        assert not journal.exists()


# -- needing no Ray ------------------------------------------------------------------------------


@pytest.mark.parametrize(("flags", "message"), [
    (["--backend", "dask"], "--backend must be one of process, ray, not 'dask'"),
    (["--address", "127.0.0.1:6379"], "--address is a Ray cluster's address: it needs --backend ray"),
    (["--backend", "process", "--address", "127.0.0.1:6379"],
     "--address is a Ray cluster's address: it needs --backend ray"),
], ids=["unknown-backend", "address-alone", "address-with-process"])
def test_bad_backend_flags_are_one_line_and_write_nothing(tmp_path, capsys, flags, message):
    journal = tmp_path / "arena.jsonl"
    with pytest.raises(SystemExit) as code:
        main(["arena", "triqueta", "--bots", "greedy,random", "--games", "2", *flags, "--resume", str(journal)])
    assert code.value.code == 2
    assert capsys.readouterr().err == f"meeple: error: {message}\n"
    assert not journal.exists()


def test_without_ray_the_backend_names_the_extra(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails as if it were not installed
    journal = tmp_path / "arena.jsonl"
    with pytest.raises(SystemExit) as code:
        main(["arena", "triqueta", "--bots", "greedy,random", "--games", "2", "--backend", "ray",
              "--resume", str(journal)])
    assert code.value.code == 2
    assert capsys.readouterr().err == "meeple: error: --backend ray needs the ray extra: pip install 'meeple[ray]'\n"
    assert not journal.exists()
    assert run_arena(**{**TRIQUETA, "games": 2}, workers=1).backend == "process"  # the default needs no Ray


def test_a_cluster_asking_for_a_token_is_named_in_one_line():
    inner = RuntimeError("Failed to connect to GCS. Last connection error: Traceback ...\n"
                         "ray.exceptions.AuthenticationError: RPC error: InvalidAuthToken: token is missing")
    outer = ConnectionError("Failed to connect to Ray cluster at 10.0.0.1:6379")
    outer.__cause__ = inner
    assert _why(outer).startswith("it asks for a token (set RAY_AUTH_MODE=token")
    assert _why(ConnectionError("Failed to connect to Ray cluster at 10.0.0.1:6379\nmore")) == (
        "Failed to connect to Ray cluster at 10.0.0.1:6379")
