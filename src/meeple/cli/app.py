"""The `meeple` command. Every user mistake ends in one line on stderr and exit status 2."""

from __future__ import annotations

import dataclasses
import datetime as dt
import importlib
import json
import math
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, cast
from urllib.parse import urlsplit, urlunsplit

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from meeple import _native
from meeple.ai.arena import ArenaResult, play_arena_game, summarize
from meeple.ai.bots import Bot, make_bot
from meeple.ai.match import derive_seed, random_playouts, rotated_seating
from meeple.ai.review_calibration import SETTINGS, Calibration, Logistic, calibration_text, parse_calibration
from meeple.ai.review_measure import DEFAULT_BOTS, measure
from meeple.boards.picture import spectator_picture
from meeple.cli.options import parse_bots, parse_options
from meeple.cli.outputs import check_output_file, prepare_output_folder, reserve_new_file
from meeple.cli.render import breakdown_table, catalog, renderer
from meeple.core.errors import MeepleError, OptionError
from meeple.core.i18n import check_language
from meeple.core.plugin import PluginError
from meeple.core.record import GameRecord
from meeple.core.registry import game_names, load
from meeple.core.rng import RNG_KIND, seed_from

if TYPE_CHECKING:
    from meeple.ai.review import ReviewSettings

app = typer.Typer(
    name="meeple",
    help="Play Triqueta, Triominos, Celtica and Castell against friends or bots; simulate and benchmark the engines.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)
console = Console()
#: Exit status after Ctrl-C, as shells report a process ended by SIGINT.
INTERRUPTED = 130
#: The largest batch `bench --batch` builds (its arrays grow with it).
MAX_BENCH_BATCH = 1 << 20
#: The longest benchmark run (an hour); also refuses nan and infinity.
MAX_BENCH_SECONDS = 3600.0
MAX_BENCH_COUNT = 10_000_000
#: The most worker processes `meeple review --workers` starts.
MAX_REVIEW_WORKERS = 64

LangOpt = typer.Option("en", "--lang", help="Language: en or zh-Hant.")
OptionsOpt = typer.Option(None, "--option", "-o", help="Rule option name=value (repeatable), e.g. duo=true.")




class _Progress:
    """Progress of a long run on stderr, so stdout stays clean for --json (`... --json > out.json`
    still shows progress). A terminal gets a live bar; a log file or pipe gets a plain line at
    every tenth of the run, because a bar redrawn in place means nothing there."""

    def __init__(self, label: str, total: int, unit: str = "games") -> None:
        self.label, self.total, self.unit = label, total, unit
        self.live = sys.stderr.isatty()
        self.start = time.perf_counter()
        self.reported = 0
        self.bar = Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeRemainingColumn(),
            console=Console(stderr=True), disable=not self.live, transient=True,
        )
        self.task = self.bar.add_task(label, total=total)

    def __enter__(self) -> _Progress:
        self.bar.__enter__()
        return self

    def __exit__(self, *exc: object) -> None:
        self.bar.__exit__(None, None, None)

    def update(self, done: int) -> None:
        self.bar.update(self.task, completed=done)
        if self.live:
            return
        step = max(1, self.total // 10)
        if done == self.total or done >= self.reported + step:
            self.reported = done
            elapsed = time.perf_counter() - self.start
            print(f"{self.label}: {done}/{self.total} {self.unit}, {elapsed:.0f} s", file=sys.stderr, flush=True)


@app.command()
def play(
    game: str | None = typer.Argument(None, help="Game name, e.g. triqueta (not with --resume)."),
    players: int | None = typer.Option(None, "--players", "-p", help="Number of players (default: 3)."),
    bots: str | None = typer.Option(
        None, "--bots", "-b", help="Comma-separated bots for the non-human seats (default: greedy)."
    ),
    humans: int | None = typer.Option(None, "--humans", help="Human seats (hot-seat), the first seats (default: 1)."),
    seed: int | None = typer.Option(None, "--seed", "-s", help="Random seed (default: random)."),
    lang: str = LangOpt,
    option: list[str] | None = OptionsOpt,
    save_dir: Path = typer.Option(Path("records"), "--save-dir", help="Where the game record is saved."),
    resume: Path | None = typer.Option(
        None, "--resume", help="Continue a saved game: same seats, bots, seed and options; saved back to FILE."
    ),
) -> None:
    """Play a game in the terminal against bots, or hot-seat with friends."""
    from meeple.cli.session import Session

    check_language(lang)
    if resume is not None:
        given = [flag for flag, value in (("GAME", game), ("--players", players), ("--bots", bots),
                                          ("--humans", humans), ("--seed", seed), ("--option", option)) if value]
        if given:
            raise OptionError(f"--resume takes the game, seats, bots, seed and options from the record, not {given[0]}")
        record, seats = _resumed(resume)
        path = resume
    else:
        if game is None:
            raise OptionError("name a game to play (meeple games lists them), or --resume FILE")
        record, seats = _new_record(game, players or 3, bots, 1 if humans is None else humans, seed, option)
        folder = prepare_output_folder(save_dir, "--save-dir")
        path = reserve_new_file(folder, f"{record.game}-{dt.datetime.now():%Y%m%d-%H%M%S}-seed{record.seed}", ".json")
    session = Session(record, seats, lang, console, path)
    raise typer.Exit(session.run())


def _new_record(
    game: str, players: int, bots: str | None, humans: int, seed: int | None, option: list[str] | None
) -> tuple[GameRecord, list[Bot | None]]:
    """The empty record of a new game and who sits where (None: a person)."""
    the_game = load(game)
    the_game.check_players(players)
    if not 0 <= humans <= players:
        raise OptionError(f"--humans must be 0 to {players}, not {humans}")
    bot_list = parse_bots(bots) or [make_bot("greedy")]
    needed = players - humans
    if bots is not None and len(bot_list) != needed and needed:
        raise OptionError(f"--bots names {len(bot_list)} bot(s) but {needed} seat(s) need one")
    seats: list[Bot | None] = [None] * humans + [bot_list[k % len(bot_list)] for k in range(needed)]
    seed_value = seed_from(seed)
    state = the_game.new_game(players, seed=seed_value, **parse_options(option))
    record = GameRecord(
        game=the_game.name, num_players=players, seed=seed_value, options=state.options,
        players=["human" if s is None else s.name for s in seats],
    )
    return record, seats


def _resumed(path: Path) -> tuple[GameRecord, list[Bot | None]]:
    """A saved game to continue, and its seats as the record names them."""
    record = GameRecord.load(path)
    if len(record.players) != record.num_players:
        raise OptionError(f"{path} does not name who sits in each of its {record.num_players} seats")
    seats = [None if name == "human" else make_bot(name) for name in record.players]
    if record.replay().is_terminal:
        raise OptionError(f"the game in {path} is over; meeple replay {path} shows it")
    check_output_file(path, "--resume")
    return record, seats


@app.command()
def simulate(
    game: str = typer.Argument(..., help="Game name."),
    players: int = typer.Option(..., "--players", "-p", help="Number of players."),
    bots: str = typer.Option("random", "--bots", "-b", help="Comma-separated bots; seats rotate between games."),
    games: int = typer.Option(100, "--games", "-n", help="Number of games."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the series."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    option: list[str] | None = OptionsOpt,
) -> None:
    """Bot-against-bot games: win share, mean score and speed per bot."""
    the_game = load(game)
    the_game.check_players(players)
    if games < 1:
        raise OptionError(f"--games must be at least 1, not {games}")
    bot_list = parse_bots(bots)
    if not bot_list:
        raise OptionError("--bots needs at least one bot")
    options = the_game.resolve_options(parse_options(option))
    specs = [b.name for b in bot_list]
    outcomes = []
    start = time.perf_counter()
    with _Progress(game, games) as progress:
        for index in range(games):
            seating = tuple(rotated_seating(range(len(specs)), players, index))
            outcomes.append(play_arena_game(
                the_game.name, tuple(specs[b] for b in seating), derive_seed(seed, index), index, seating, options
            ))
            progress.update(index + 1)
    elapsed = time.perf_counter() - start
    summary = summarize(the_game.name, specs, players, seed, options, [], outcomes)
    distinct = list(dict.fromkeys(specs))  # a bot named twice ("greedy,greedy") is reported once
    wins = dict.fromkeys(distinct, 0.0)
    score_sum = dict.fromkeys(distinct, 0.0)
    seats_held = dict.fromkeys(distinct, 0)
    for bot in summary.summaries:
        wins[bot.name] += bot.wins
        score_sum[bot.name] += bot.mean_score * bot.appearances
        seats_held[bot.name] += bot.appearances
    report: dict[str, Any] = {
        "game": the_game.name,
        "players": players,
        "games": games,
        "seed": seed,
        "options": options,
        "bots": specs,
        "wins": {b: wins[b] / games for b in distinct},
        "mean_score": {b: score_sum[b] / seats_held[b] if seats_held[b] else 0.0 for b in distinct},
        "games_per_s": games / elapsed,
    }
    if as_json:
        print(json.dumps(report))
        return
    table = Table(title=f"{the_game.title}: {games} games, {players} players, seed {seed}")
    table.add_column("bot")
    table.add_column("win share", justify="right")
    table.add_column("mean score", justify="right")
    for b in distinct:
        table.add_row(b, f"{report['wins'][b]:.3f}", f"{report['mean_score'][b]:.2f}")
    console.print(table)
    console.print(f"{report['games_per_s']:.1f} games/s")


@app.command()
def bench(
    game: str = typer.Argument(..., help="Game name, or `server` for the game server under load."),
    players: int | None = typer.Option(None, "--players", "-p", help="Number of players (default: the most)."),
    seconds: float = typer.Option(5.0, "--seconds", "-t", help="How long to run."),
    tables: int = typer.Option(200, "--tables", help="server: tables played at once."),
    think: float = typer.Option(0.0, "--think", help="server: mean seconds a person thinks before moving."),
    processes: int = typer.Option(1, "--processes", help="server: server processes (more than one needs --redis)."),
    db: str | None = typer.Option(None, "--db", help="server: the servers' database (default a fresh SQLite file)."),
    redis: str | None = typer.Option(None, "--redis", help="server: the Redis the server processes share."),
    spread: bool = typer.Option(False, "--spread", help="server: a table's two seats on two processes."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object."),
    option: list[str] | None = OptionsOpt,
    part: str | None = typer.Option(None, "--part", help="Time one of the game's own parts (see `meeple games`)."),
    bot: str | None = typer.Option(None, "--bot", help="Measure a search bot instead (ismcts[:level]): iterations/s."),
    env: str | None = typer.Option(None, "--env", help="Measure a research API instead (pettingzoo): steps/s."),
    batch: int | None = typer.Option(None, "--batch", help="Measure the game's batched simulator with this many "
                                     "games in lockstep instead: steps/s, observations and masks included."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the benchmark positions."),
    count: int | None = typer.Option(None, "--count", help="A fixed workload instead of --seconds: this many "
                                     "random games, or search iterations with --bot (to count instructions)."),
) -> None:
    """Random-playout throughput of an engine (one core), a search bot's speed, a game's own part,
    or (`meeple bench server`) moves/s and latency of the game server under many tables."""
    if not (math.isfinite(seconds) and 0 < seconds <= MAX_BENCH_SECONDS):
        raise OptionError(f"--seconds must be a number of seconds from 0 to {MAX_BENCH_SECONDS}, not {seconds}")
    if count is not None and not 1 <= count <= MAX_BENCH_COUNT:
        raise OptionError(f"--count must be 1 to {MAX_BENCH_COUNT:,}, not {count}")
    if count is not None and (game == "server" or part is not None or env is not None or batch is not None):
        raise OptionError("--count fixes the work of random playouts or of --bot; "
                          "the server, --part, --env and --batch run for --seconds")
    if game == "server":
        if not 1 <= tables <= 5000:
            raise OptionError(f"--tables must be 1 to 5000, not {tables}")
        if not (math.isfinite(think) and 0 <= think <= 60):
            raise OptionError(f"--think must be 0 to 60 seconds, not {think}")
        if not 1 <= processes <= 16:
            raise OptionError(f"--processes must be 1 to 16, not {processes}")
        if processes > 1 and not redis:
            raise OptionError("several --processes share their tables through Redis: give --redis URL")
        # The server layer is started as its own program (nothing imports it).
        command = [sys.executable, "-m", "meeple.server.bench", "--tables", str(tables), "--seconds", str(seconds),
                   "--think", str(think), "--processes", str(processes)]
        command += [*(["--db", db] if db else []), *(["--redis", redis] if redis else [])]
        command += ["--spread"] if spread else []
        raise typer.Exit(subprocess.run([*command, *(["--json"] if as_json else [])]).returncode)
    the_game = load(game)
    if part is not None:
        parts = the_game.benchmarks()
        if part not in parts:
            names = ", ".join(parts) or "none"
            raise OptionError(f"{the_game.title} has no benchmark part {part!r} (parts: {names})")
        report = {"game": the_game.name, "benchmark": part, "seed": seed, **parts[part](seconds, seed)}
        if as_json:
            print(json.dumps(report))
        else:
            console.print(report["summary"])
        return
    n = players if players is not None else the_game.max_players
    the_game.check_players(n)
    if bot is not None:
        from meeple.ai.ismcts import bench_ismcts

        kind, _, level = bot.partition(":")
        if kind.strip().lower() != "ismcts":
            raise OptionError(f"--bot measures search bots (ismcts[:level]), not {bot!r}")
        report = {**bench_ismcts(the_game.name, n, seconds, seed, level or None, count), **_build()}
        if as_json:
            print(json.dumps(report))
        else:
            console.print(f"{the_game.title}, {n} players, ISMCTS: {report['iterations_per_s']:.0f} iterations/s")
        return
    if env is not None:
        if env != "pettingzoo":
            raise OptionError(f"--env measures pettingzoo, not {env!r}")
        try:
            bench_env = importlib.import_module("meeple.envs.bench").bench_pettingzoo
        except ImportError:
            raise OptionError("--env needs the research APIs: pip install 'meeple[envs]'") from None
        report = bench_env(the_game.name, n, seconds, seed)
        if as_json:
            print(json.dumps(report))
        else:
            console.print(f"{the_game.title}, {n} players, PettingZoo: {report['steps_per_s']:.0f} env steps/s "
                          f"(encoding {report['encode_us']:.1f} µs, engine step {report['step_us']:.1f} µs)")
        return
    if batch is not None:
        _bench_batch(the_game.name, batch, n, seconds, seed, parse_options(option), as_json)
        return
    result = random_playouts(the_game, n, seconds, seed=seed, options=parse_options(option), count=count)
    report = {"game": the_game.name, "players": n, **result, **_build()}
    if as_json:
        print(json.dumps(report))
    else:
        console.print(
            f"{the_game.title}, {n} players: {result['games_per_s']:.1f} games/s, "
            f"{result['actions_per_s']:.0f} actions/s ({result['games']} games in {result['seconds']:.1f} s)"
        )


def _bench_batch(game: str, batch: int, players: int, seconds: float, seed: int, options: dict[str, Any],
                 as_json: bool) -> None:
    """`bench GAME --batch N`: the batched simulator's steps/s (meeple.batch.bench)."""
    if not 1 <= batch <= MAX_BENCH_BATCH:
        raise OptionError(f"--batch must be 1 to {MAX_BENCH_BATCH:,} games, not {batch}")
    from meeple.batch.bench import bench_batch

    report = {**bench_batch(game, batch, players, seconds, seed, options), **_build()}
    if as_json:
        print(json.dumps(report))
    else:
        console.print(f"{game}, {players} players, batch of {batch}: {report['steps_per_s']:.0f} steps/s "
                      f"({report['games']} games in {report['seconds']:.1f} s)")


def _build() -> dict[str, Any]:
    """Which code a benchmark ran: the random generator, and the compiled fast path or the pure
    fallback (meeple._native), so figures are compared like with like."""
    return {"rng": RNG_KIND, "build": _native.MODE, "compiled_modules": len(_native.compiled_modules())}


@app.command()
def arena(
    game: str = typer.Argument(..., help="Game name."),
    bots: str = typer.Option(..., "--bots", "-b", help="Comma-separated bot specs, e.g. ismcts:hard,greedy,random."),
    players: int = typer.Option(2, "--players", "-p", help="Number of players."),
    games: int = typer.Option(200, "--games", "-n", help="Number of games (a multiple of the seatings is balanced)."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed of the series."),
    workers: int | None = typer.Option(None, "--workers", "-w", help="Games played at once (default 2; with "
                                       "--address, the cluster's CPUs)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
    plot: Path | None = typer.Option(None, "--plot", help="Write a PNG chart of the ratings."),
    option: list[str] | None = OptionsOpt,
    resume: Path | None = typer.Option(None, "--resume", help="Journal file: keep each finished game there, and "
                                       "continue a stopped run of the same arguments from it."),
    backend: str = typer.Option("process", "--backend", help="Where the games run: process (worker processes "
                                "here) or ray (Ray tasks; needs the ray extra)."),
    address: str | None = typer.Option(None, "--address", help="With --backend ray: HOST:PORT of a Ray cluster's "
                                       "head (default: a local Ray started for this run)."),
) -> None:
    """Rate bots against each other: rotated seatings, parallel games, win share, score and OpenSkill rating."""
    from meeple.ai.arena import plot_ratings, run_arena
    from meeple.ai.bots import split_bot_specs

    specs = split_bot_specs(bots)
    if plot is not None:
        check_output_file(plot, "--plot")
    with _Progress(game, games) as progress:
        result = run_arena(game, specs, players, games, seed, workers, progress=progress.update,
                           options=parse_options(option), journal=resume, backend=backend, address=address)
    plot_error = None
    if plot is not None:
        try:
            plot_ratings(result, str(plot))
        except (OSError, ValueError) as exc:  # the results are printed all the same
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            plot_error = f"cannot write the chart {plot}: {reason}"
    if as_json:
        print(json.dumps(result.to_json()))
    else:
        _print_arena(result, players, seed)
        if plot is not None and plot_error is None:
            console.print(f"ratings chart written to {plot}", markup=False, highlight=False, soft_wrap=True)
    if plot_error is not None:
        raise OptionError(plot_error)


@app.command(name="review-calibration")
def review_calibration(
    game: str = typer.Argument(..., help="Game name."),
    players: int = typer.Option(2, "--players", "-p", help="Number of players."),
    games: int = typer.Option(200, "--games", "-n", help="Held-out self-play games, where the calibration "
                               "is measured."),
    fit_games: int = typer.Option(100, "--fit-games", help="Self-play games before those, where it is fitted "
                                  "(0: measure only, raw and as installed)."),
    positions: int = typer.Option(2000, "--positions", help="Held-out positions, spread evenly over the games."),
    setting: str = typer.Option("quick", "--setting", help="The review's setting: quick or default."),
    bots: str = typer.Option(",".join(DEFAULT_BOTS), "--bots", "-b", help="Bots of the self-play games, "
                             "seated as the arena seats them."),
    seed: int = typer.Option(1, "--seed", "-s", help="Seed of the series."),
    workers: int | None = typer.Option(None, "--workers", "-w", help="Games played at once (default 2)."),
    as_json: bool = typer.Option(False, "--json", help="Print the result as one JSON object."),
    write: Path | None = typer.Option(None, "--write", help="Write the fitted map, for these players, into this "
                                      "calibration data file (its other player counts are kept)."),
    resume: Path | None = typer.Option(None, "--resume", help="Journal file: keep each finished self-play game "
                                       "there, and take the games of an earlier run of the same games from it."),
    option: list[str] | None = OptionsOpt,
) -> None:
    """Measure the game review's win chances against self-play games: a reliability table and
    Brier score, held out, raw and calibrated; fit the calibration on other games."""
    from meeple.ai.bots import split_bot_specs

    if write is not None and fit_games < 1:
        raise OptionError("--write needs a fit: give --fit-games more than 0")
    kept = {} if write is None else _read_calibration(check_output_file(write, "--write"), game)
    with _Progress(f"{game} (played, then estimated)", 2 * (fit_games + games)) as progress:
        result = measure(game, players, games, positions, seed, fit_games=fit_games, setting=setting,
                         bots=tuple(split_bot_specs(bots)), workers=workers, options=parse_options(option),
                         journal=resume, progress=progress.update)
    found = result.to_json()
    if write is not None:
        if found["fitted"] is None:
            raise OptionError(f"--write {write}: nothing written, as no map could be fitted: {found['fit_error']}")
        fitted = Logistic(found["fitted"]["slope"], found["fitted"]["intercept"], _fitted_note(found))
        _write_calibration(write, result.game, {**kept, setting: {**kept.get(setting, {}), players: fitted}})
    if as_json:
        print(json.dumps(found))
    else:
        _print_calibration(found)


def _read_calibration(path: Path, game: str) -> Calibration:
    """The maps of the calibration data file at `path` (none if there is no file yet), read
    before a run so that a bad file stops it at once."""
    the_game = load(game)
    if not path.exists():
        return {}
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise OptionError(f"--write {path}: cannot read the file there ({exc})") from None
    return parse_calibration(text, the_game.min_players, the_game.max_players,
                             lambda problem: OptionError(f"--write {path}: the file there {problem}"))


def _fitted_note(found: dict[str, Any]) -> str:
    """How a run fitted its map, for the data file: what it was fitted on, and how it did held out."""
    held = found["held_out"]
    return (f"{found['positions']['fit']} positions of {found['games']['fit']} self-play games "
            f"({', '.join(found['bots'])}), seed {found['seed']}; held out, {found['positions']['held_out']} positions "
            f"of {found['games']['held_out']} other games: Brier {held['raw']['brier']} raw, "
            f"{held['fitted']['brier']} calibrated, {held['baseline_brier']} for an equal share")


def _write_calibration(path: Path, game: str, maps: Calibration) -> None:
    """Write the data file at `path` declaring `maps`."""
    header = [f"{load(game).title}: the game review's calibration (docs/ai.md, \"Game review: calibration\").",
              "Written by meeple review-calibration --write: one map per review setting and player count;",
              "a setting without a map for a player count uses the other setting's, and a player count",
              "neither names is left uncalibrated."]
    try:
        path.write_text(calibration_text(maps, header), encoding="utf-8")
    except OSError as exc:
        raise OptionError(f"--write {path}: {exc.strerror or exc}") from None


def _print_calibration(found: dict[str, Any]) -> None:
    held = found["held_out"]
    console.print(f"{load(found['game']).title}, {found['players']} players, review setting {found['setting']}: "
                  f"{found['positions']['held_out']} held-out positions of {found['games']['held_out']} games, "
                  f"seed {found['seed']}", highlight=False)
    for name in ("raw", "fitted", "installed"):
        if name not in held:
            continue
        table = Table(title=f"{name}: Brier {held[name]['brier']:.4f} (equal share {held['baseline_brier']:.4f})"
                      + ("" if held[name]["meets_goal"] else "; a well-filled bin misses by more than 5 points"))
        for column in ("stated chance", "positions", "mean stated", "won", "won 95% CI", "gap"):
            table.add_column(column, justify="right")
        for row in held[name]["table"]:
            table.add_row(f"{row['low']:.1f}-{row['high']:.1f}", str(row["count"]), f"{row['mean_estimate']:.3f}",
                          f"{row['observed']:.3f}", f"[{row['ci95'][0]:.3f}, {row['ci95'][1]:.3f}]",
                          f"{row['gap']:+.3f}")
        console.print(table)
    if found["fitted"] is not None:
        console.print(f"fitted: slope {found['fitted']['slope']}, intercept {found['fitted']['intercept']}",
                      highlight=False)


def _print_arena(result: ArenaResult, players: int, seed: int) -> None:
    table = Table(title=f"{load(result.game).title}: {len(result.outcomes)} games, {players} players, seed {seed}"
                  + ("" if result.balanced else " (seatings not balanced)"))
    for column in ("bot", "win share [95% CI]", "mean score [95% CI]", "rating μ ± σ"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for s in result.summaries:
        table.add_row(
            s.name,
            f"{s.win_share:.3f} [{s.win_share_ci95[0]:.3f}, {s.win_share_ci95[1]:.3f}]",
            f"{s.mean_score:.2f} [{s.score_ci95[0]:.2f}, {s.score_ci95[1]:.2f}]",
            f"{s.mu:.2f} ± {s.sigma:.2f}",
        )
    console.print(table)


@app.command()
def replay(
    file: Path = typer.Argument(..., help="A game record (JSON)."),
    lang: str = LangOpt,
    as_json: bool = typer.Option(False, "--json", help="Print the final scores as JSON."),
) -> None:
    """Replay a saved game record and show the final position and scores."""
    check_language(lang)
    record = GameRecord.load(file)
    state = record.replay()
    if as_json:
        print(json.dumps({"game": record.game, "scores": state.scores(), "winners": state.winners(),
                          "breakdown": state.score_breakdown(), "terminal": state.is_terminal}))
        return
    cat = catalog(record.game, lang)
    cat.player_names = [f"{cat.text('ui.seat', seat=k + 1)} ({name})" for k, name in enumerate(record.players)]
    console.print(renderer(record.game).board(state.view(None), cat, None))
    if state.is_terminal:
        console.print(breakdown_table(state, cat))


def _review_settings(name: str, seconds_per_move: float | None, seconds_flag: str) -> ReviewSettings:
    """The named review setting with an optional cap on a move's seconds (OptionError naming
    the flag that is wrong)."""
    from meeple.ai.review import ReviewSettings

    if name not in SETTINGS:
        raise OptionError(f"--review must be one of {', '.join(SETTINGS)}, not {name!r}")
    if seconds_per_move is not None and not (math.isfinite(seconds_per_move) and 0 < seconds_per_move <= 3600):
        raise OptionError(f"{seconds_flag} must be more than 0 and at most 3600, not {seconds_per_move}")
    return dataclasses.replace(ReviewSettings.named(name), seconds_per_move=seconds_per_move)


@app.command()
def review(
    file: Path = typer.Argument(..., help="A finished game's record (JSON)."),
    seconds_per_move: float | None = typer.Option(
        None, "--seconds-per-move", help="Cap the seconds spent on one move (then the review may not repeat exactly)."),
    quick: bool = typer.Option(False, "--quick", help="A quarter of the work: for long games."),
    seed: int = typer.Option(0, "--seed", "-s", help="Seed of the review's samples (same seed, same review)."),
    workers: int | None = typer.Option(None, "--workers", "-w", help="Moves reviewed at once, each in its own "
                                       "process (default: 2 on a machine with 2 or more cores)."),
    as_json: bool = typer.Option(False, "--json", help="Print the review as one JSON object."),
    plot: Path | None = typer.Option(None, "--plot", help="Write a PNG chart of each player's chance of winning."),
    lang: str = LangOpt,
) -> None:
    """Review a finished game: each move's chance of winning, the preferred move, labels from
    best to blunder, the luck that followed and the turning points (docs/ai.md, "Game review")."""
    from meeple.ai.backends import process_pool
    from meeple.ai.review import review_record
    from meeple.cli.review_view import review_catalog, review_screen

    check_language(lang)
    if workers is not None and not 1 <= workers <= MAX_REVIEW_WORKERS:
        raise OptionError(f"--workers must be 1 to {MAX_REVIEW_WORKERS}, not {workers}")
    settings = _review_settings("quick" if quick else "default", seconds_per_move, "--seconds-per-move")
    if plot is not None:
        check_output_file(plot, "--plot")
    record = GameRecord.load(file)
    if not record.replay().is_terminal:
        raise OptionError(f"the game in {file} is not over: only a finished game can be reviewed")
    count = workers if workers is not None else (2 if (os.cpu_count() or 1) >= 2 else 1)
    count = min(count, max(1, len(record.actions)))
    with _Progress(f"review {record.game}", len(record.actions), "moves") as progress:
        if count == 1:
            result = review_record(record, settings, seed, progress=lambda done, total: progress.update(done))
        else:
            with process_pool(count) as pool:
                result = review_record(record, settings, seed, progress=lambda done, total: progress.update(done),
                                       executor=pool)
    cat = review_catalog(record.game, lang, record.players)
    plot_error = None
    if plot is not None:
        from meeple.ai.plot import plot_review

        try:
            font_warning = plot_review(result, str(plot), lang)
            if font_warning is not None:
                print(f"meeple: warning: {font_warning}", file=sys.stderr)
        except (OSError, ValueError) as exc:  # the review is printed all the same
            reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
            plot_error = f"cannot write the chart {plot}: {reason}"
    if as_json:
        print(json.dumps(result.to_json(), ensure_ascii=False))
    else:
        console.print(review_screen(result, record, cat))
        if plot is not None and plot_error is None:
            console.print(cat.text("review_table.plot_written", path=plot),
                          markup=False, highlight=False, soft_wrap=True)
    if plot_error is not None:
        raise OptionError(plot_error)


@app.command()
def rules(game: str = typer.Argument(..., help="Game name."), lang: str = LangOpt) -> None:
    """A concise summary of a game's rules."""
    check_language(lang)
    the_game = load(game)
    typer.echo(catalog(the_game.name, lang).text("rules.summary").strip())


@app.command()
def render(
    file: Path = typer.Argument(..., help="A game record (JSON)."),
    svg: Path = typer.Option(..., "--svg", help="Where to write the SVG picture."),
    lang: str = LangOpt,
) -> None:
    """Draw the final position of a game record as an SVG picture: the browser's board, as a
    spectator sees it."""
    check_language(lang)
    check_output_file(svg, "--svg")
    record = GameRecord.load(file)
    state = record.replay()
    cat = catalog(record.game, lang)
    cat.player_names = [f"{cat.text('ui.seat', seat=k + 1)} ({name})" for k, name in enumerate(record.players)]
    picture = spectator_picture(record.game, state.view(None), cat)
    try:
        svg.write_text(picture, encoding="utf-8")
    except OSError as exc:
        raise OptionError(f"cannot write {svg}: {exc.strerror or exc}") from None
    console.print(f"wrote {svg}")


def _without_password(db: str) -> str:
    """A `--db` URL as the banner shows it: its password left out (terminals get recorded)."""
    parts = urlsplit(db)
    if parts.password is None:
        return db
    return urlunsplit(parts._replace(netloc=f"{parts.username}:***@{parts.netloc.rsplit('@', 1)[1]}"))


@app.command()
def serve(
    host: str = typer.Option("127.0.0.1", "--host", help="Address to listen on."),
    port: int = typer.Option(8000, "--port", help="Port to listen on."),
    db: str = typer.Option(
        "meeple.db", "--db",
        help="Where tables are stored: a SQLite file (or sqlite:///PATH), or a PostgreSQL database "
             "(postgresql://USER:PASSWORD@HOST:PORT/DBNAME) that several servers can share.",
    ),
    origin: list[str] | None = typer.Option(None, "--origin", help="Another page origin allowed to connect."),
    redis: str | None = typer.Option(
        None, "--redis", help="redis://HOST:PORT shared by several serve processes over one database."),
    allowed_host: list[str] | None = typer.Option(
        None, "--allowed-host",
        help="A host name the server answers to (repeatable; default: --host's name and localhost; IP addresses "
             "always). Behind a proxy: the public name."),
    forwarded_allow_ips: list[str] | None = typer.Option(
        None, "--forwarded-allow-ips",
        help="A trusted reverse proxy's address or network (repeatable): its X-Forwarded-For names the client "
             "(default: none, the peer is the client)."),
    data: str | None = typer.Option(
        None, "--data", help="The operator's component and board sets, offered to clients by name (docs/server.md)."),
    join_attempts: int = typer.Option(10, "--join-attempts", help="Join attempts per client and table a minute."),
    join_attempts_per_table: int = typer.Option(30, "--join-attempts-per-table",
                                                help="Join attempts per table a minute, all clients."),
    tables_per_window: int = typer.Option(20, "--tables", help="Tables one client may create per --tables-window."),
    create_window: int = typer.Option(600, "--tables-window", help="Seconds over which --tables counts."),
    open_tables: int = typer.Option(20, "--open-tables", help="Unfinished tables one client may have created."),
    websockets: int = typer.Option(32, "--websockets", help="Open WebSocket connections per client (per process)."),
    bot_tables: int = typer.Option(2, "--bot-tables", help="Unfinished tables with only bots, server-wide (0: none)."),
    chat_lines: int = typer.Option(5, "--chat-lines", help="Chat lines per seat per --chat-window."),
    chat_window: int = typer.Option(10, "--chat-window", help="Seconds over which --chat-lines counts."),
    idle_close: int = typer.Option(6 * 3600, "--idle-close",
                                   help="Seconds after which a table nobody touches is closed (its record kept)."),
    unload: int = typer.Option(30, "--unload",
                               help="Seconds after which a loaded table nobody uses leaves memory (stays stored)."),
    review_setting: str = typer.Option("default", "--review",
                                       help="The game review's and hints' setting: default, or quick for long games."),
    review_seconds: float | None = typer.Option(
        None, "--review-seconds-per-move",
        help="Cap the seconds a review spends on one move (then a review may not repeat exactly)."),
    reviews_running: int = typer.Option(2, "--reviews-running", help="Reviews worked out at once, server-wide."),
    review_requests: int = typer.Option(30, "--review-requests", help="Review and hint requests per client a minute."),
) -> None:
    """Run the game server: tables, seats, live play over WebSockets, bots (docs/server.md)."""
    import uvicorn

    from meeple.server.config import CONFIG_VARIABLE, ServerConfig
    from meeple.server.hosts import HostPolicy, startup_warning
    from meeple.server.proxies import parse_networks

    if not 0 < port < 65536:
        raise OptionError(f"--port must be 1 to 65535, not {port}")
    for flag, window in {"--tables-window": create_window, "--chat-window": chat_window}.items():
        if window < 1:
            raise OptionError(f"{flag} must be 1 second or more, not {window}")
    limits = {"--join-attempts": join_attempts, "--join-attempts-per-table": join_attempts_per_table,
              "--tables": tables_per_window, "--tables-window": create_window, "--open-tables": open_tables,
              "--websockets": websockets, "--bot-tables": bot_tables, "--chat-lines": chat_lines,
              "--chat-window": chat_window, "--idle-close": idle_close, "--unload": unload,
              "--reviews-running": reviews_running, "--review-requests": review_requests}
    for flag, value in limits.items():
        if value < 0:
            raise OptionError(f"{flag} must be 0 or more, not {value}")
    review_settings = _review_settings(review_setting, review_seconds, "--review-seconds-per-move")
    config = ServerConfig(
        host=host, db=db, redis=redis or None, allowed_origins=tuple(origin or ()),
        allowed_hosts=tuple(allowed_host or ()), forwarded_allow_ips=tuple(forwarded_allow_ips or ()),
        data_dir=data, join_attempts_per_client=join_attempts, join_attempts_per_table=join_attempts_per_table,
        tables_per_window=tables_per_window, create_window=create_window, open_tables_per_client=open_tables,
        websockets_per_client=websockets, bot_tables=bot_tables, chat_lines=chat_lines, chat_window=chat_window,
        idle_close_seconds=idle_close, unload_seconds=unload, reviews_running=reviews_running,
        review_requests_per_minute=review_requests, review=review_settings.to_json(),
    )
    try:
        HostPolicy.from_config(config)
        parse_networks(config.forwarded_allow_ips)
    except ValueError as exc:
        raise OptionError(str(exc)) from None
    os.environ[CONFIG_VARIABLE] = config.to_json()
    where = _without_password(db)
    console.print(f"meeple server at http://{host}:{port}/  (API schema: http://{host}:{port}/openapi.json; "
                  f"tables in {where})", markup=False, highlight=False, soft_wrap=True)
    warning = startup_warning(config)
    if warning:
        print(f"meeple: warning: {warning} (docs/server.md)", file=sys.stderr)
    # The application alone reads X-Forwarded-For, from --forwarded-allow-ips only (uvicorn's own
    # handling would believe any loopback peer).
    uvicorn.run(
        "meeple.server.app:create_app_from_environment", factory=True, host=host, port=port,
        ws_max_size=64 * 1024, log_level="warning", proxy_headers=False,
    )


@app.command(name="games")
def list_games() -> None:
    """List the games meeple can load, with their rule options and defaults; a game whose plugin
    is broken is one line on stderr (and exit status 1), the others are still listed."""
    broken = 0
    for name in game_names():
        try:
            the_game = load(name)
        except PluginError as exc:
            print(f"meeple: error: {exc}", file=sys.stderr)
            broken += 1
            continue
        players = f"{the_game.min_players}-{the_game.max_players} players"
        console.print(f"{name:10} {the_game.title} ({players})", highlight=False)
        for spec in the_game.option_specs:
            console.print(f"           --option {spec.name}={spec.default}  {spec.help}", markup=False, highlight=False)
        for part in the_game.benchmarks():
            console.print(f"           bench --part {part}", markup=False, highlight=False)
    if broken:
        raise typer.Exit(1)


class _UsageMessage(Protocol):
    def format_message(self) -> str: ...


def _usage_error() -> type[Exception]:
    """Typer's UsageError (vendored click in recent Typer), found through a public subclass."""
    return next(c for c in typer.BadParameter.__mro__ if c.__name__ == "UsageError")


def main(argv: list[str] | None = None) -> None:
    """Run the command; user mistakes print one line and exit with status 2."""
    command = typer.main.get_command(app)

    def fail(message: str, code: int = 2) -> int:
        if message:
            print(f"meeple: {message}", file=sys.stderr)
        return code
    try:
        code = command.main(args=argv, prog_name="meeple", standalone_mode=False)
    except typer.Exit as exc:
        code = exc.exit_code
    except typer.Abort:
        code = fail("aborted", INTERRUPTED)
    except _usage_error() as exc:
        lines = cast(_UsageMessage, exc).format_message().splitlines()
        code = fail(f"error: {' '.join(line.strip() for line in lines)}" if lines else "")
    except MeepleError as exc:
        code = fail(f"error: {exc}")
    except KeyboardInterrupt:
        code = INTERRUPTED
    if code == INTERRUPTED:  # Typer turns Ctrl-C into this exit status without a word
        fail("interrupted", INTERRUPTED)
    sys.exit(code if isinstance(code, int) else 0)
