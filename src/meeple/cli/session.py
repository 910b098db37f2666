"""An interactive game at the terminal: human seats (hot-seat) against bots."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.prompt import Prompt
from rich.rule import Rule
from rich.text import Text

from ..ai.bots import Bot
from ..ai.match import seat_streams
from ..core.protocol import Game, State
from ..core.record import GameRecord
from .render import action_label, breakdown_table, catalog, event_text, renderer


class Session:
    """Runs one game; `seats[k]` is None for a human or the bot that plays seat k."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Bot | None],
        seed: int,
        options: dict[str, Any],
        lang: str,
        console: Console,
        save_dir: Path,
    ) -> None:
        self.game = game
        self.seats = list(seats)
        self.console = console
        self.state: State = game.new_game(len(seats), seed=seed, **options)
        self.cat = catalog(game.name, lang)
        self.render = renderer(game.name)
        humans = [k for k, s in enumerate(seats) if s is None]
        self.cat.player_names = [
            (self.cat.text("ui.you") if len(humans) == 1 else self.cat.text("ui.seat", seat=k + 1))
            if s is None
            else f"{self.cat.text('ui.seat', seat=k + 1)} ({s.name})"
            for k, s in enumerate(seats)
        ]
        self.record = GameRecord(
            game=game.name,
            num_players=len(seats),
            seed=seed,
            options=self.state.options,
            players=["human" if s is None else s.name for s in seats],
        )
        stamp = dt.datetime.now().strftime("%Y%m%d-%H%M%S")
        self.path = save_dir / f"{game.name}-{stamp}-seed{seed}.json"
        self.rngs = seat_streams(seed, len(seats))
        self.hot_seat = len(humans) > 1
        self.last_human: int | None = None

    def _show_events(self, events: list, viewer: int | None) -> None:
        for event in events:
            self.console.print("  " + event_text(event, viewer, self.cat), markup=False, highlight=False)

    def _viewer(self) -> int | None:
        humans = [k for k, s in enumerate(self.seats) if s is None]
        return humans[0] if len(humans) == 1 else None

    def run(self) -> int:
        state = self.state
        while not state.is_terminal:
            seat = state.current
            bot = self.seats[seat]
            if bot is None:
                if not self._human_turn(seat):
                    self.record.save(self.path)
                    self.console.print(self.cat.text("ui.quit", path=self.path))
                    return 0
            else:
                action = bot.choose(state, self.rngs[seat])
                events = state.apply(action)
                self.record.add(action)
                self._show_events(events, self._viewer())
        self.console.print(Rule())
        self.console.print(self.render.board(state.view(None), self.cat, None))
        self.console.print(breakdown_table(state, self.cat))
        names = ", ".join(self.cat.player(w) for w in state.winners())
        self.console.print(self.cat.text("ui.winner", names=names), style="bold green")
        self.record.save(self.path)
        self.console.print(self.cat.text("ui.saved", path=self.path))
        return 0

    def _human_turn(self, seat: int) -> bool:
        """Ask the human at `seat` for a move; False when they quit or input ends."""
        state = self.state
        if self.hot_seat and self.last_human != seat:
            self.console.print(Rule())
            try:
                prompt = self.cat.text("ui.pass_device", player=self.cat.player(seat))
                Prompt.ask(prompt, console=self.console, default="")
            except EOFError:
                return False
            self.console.clear()
        self.last_human = seat
        view = state.view(seat)
        self.console.print(Rule(self.cat.text("ui.your_turn", player=self.cat.player(seat))))
        self.console.print(self.render.board(view, self.cat, seat))
        legal = state.legal_actions()
        for index, action in enumerate(legal, start=1):
            label = action_label(self.render, action.to_json(), self.cat, view)
            self.console.print(Text.assemble((f"  {index:>3} ", "bold cyan"), label))
        while True:
            try:
                answer = Prompt.ask(self.cat.text("ui.choose"), console=self.console).strip().lower()
            except EOFError:
                self.console.print(self.cat.text("ui.no_input"))
                return False
            if answer in ("q", "quit"):
                return False
            if answer in ("h", "help", "?"):
                self.console.print(self.cat.text("ui.help"))
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                action = legal[int(answer) - 1]
                events = state.apply(action)
                self.record.add(action)
                self._show_events(events, seat)
                return True
            self.console.print(self.cat.text("ui.invalid_choice", count=len(legal)), style="red")
