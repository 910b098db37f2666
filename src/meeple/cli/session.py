"""An interactive game at the terminal: human seats (hot-seat) against bots.

Nothing is lost: the record is written when the game starts and after every move (whole or not
at all, see `GameRecord.save`), so `q`, the end of input, Ctrl-C or a closed terminal all leave
a record that `meeple play --resume FILE` continues. Nothing is shown to the wrong person: in a
hot-seat game the screen and the terminal's scrollback are wiped before the next person is
asked to take the screen.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.prompt import Prompt
from rich.rule import Rule
from rich.text import Text

from meeple.ai.bots import Bot
from meeple.ai.match import seat_streams
from meeple.cli.render import action_label, breakdown_table, catalog, renderer
from meeple.core.observation import Observation
from meeple.core.protocol import Action, Event
from meeple.core.record import GameRecord
from meeple.core.state import State
from meeple.core.text import event_text

#: Erase the screen, then the scrollback (xterm's ED 3, understood by the common terminals),
#: then home the cursor.
WIPE = "\x1b[2J\x1b[3J\x1b[H"
#: A move number longer than this is not a move number (and int() of 4,300 digits raises).
MAX_DIGITS = 6


class Session:
    """Runs one game from `record` (a new one, or one being resumed); `seats[k]` is None for a
    human or the bot that plays seat k. The record is saved to `path` as the game goes."""

    def __init__(
        self, record: GameRecord, seats: Sequence[Bot | None], lang: str, console: Console, path: Path
    ) -> None:
        self.record = record
        self.seats = list(seats)
        self.console = console
        self.path = path
        self.state: State[Any] = record.replay()
        self.cat = catalog(record.game, lang)
        self.render = renderer(record.game)
        humans = [k for k, s in enumerate(seats) if s is None]
        self.cat.player_names = [
            (self.cat.text("ui.you") if len(humans) == 1 else self.cat.text("ui.seat", seat=k + 1))
            if s is None
            else f"{self.cat.text('ui.seat', seat=k + 1)} ({s.name})"
            for k, s in enumerate(seats)
        ]
        self.rngs = seat_streams(record.seed, len(seats))
        self.hot_seat = len(humans) > 1
        self.viewer = humans[0] if len(humans) == 1 else None  # whose secrets events may show
        self.last_human: int | None = None

    def run(self) -> int:
        """Play to the end or until the person stops; the exit status."""
        self.save()
        try:
            finished = self._play()
        except KeyboardInterrupt:
            self.save()
            self.console.print()
            self._say(self.cat.text("ui.interrupted", path=self.path))
            return 130  # as after Ctrl-C anywhere (cli.app.INTERRUPTED)
        self.save()
        if not finished:
            self._say(self.cat.text("ui.quit", path=self.path))
            return 0
        state = self.state
        if self.hot_seat:
            self.console.file.write(WIPE)
        self.console.print(Rule())
        self.console.print(self.render.board(state.view(None), self.cat, None))
        self.console.print(breakdown_table(state, self.cat))
        names = ", ".join(self.cat.player(w) for w in state.winners())
        self.console.print(self.cat.text("ui.winner", names=names), style="bold green")
        self._say(self.cat.text("ui.saved", path=self.path))
        return 0

    def save(self) -> None:
        self.record.save(self.path)

    def _say(self, message: str) -> None:
        """A message holding a path: unwrapped and uncoloured, so it can be copied."""
        self.console.print(message, markup=False, highlight=False, soft_wrap=True)

    def _play(self) -> bool:
        """Moves until the game ends (True) or the person quits or input ends (False)."""
        state = self.state
        while not state.over:
            seat = state.current
            bot = self.seats[seat]
            if bot is None:
                action = self._human_move(seat)
                if action is None:
                    return False
                viewer: int | None = seat
            else:
                action = bot.choose(Observation.of(state), self.rngs[seat])
                viewer = self.viewer
            events = state.apply(action)
            self.record.add(action)
            self.save()
            self._show_events(events, viewer)
        return True

    def _show_events(self, events: list[Event], viewer: int | None) -> None:
        for event in events:
            text = event_text(event, viewer, self.cat, you=self.viewer)
            self.console.print("  " + text, markup=False, highlight=False)

    def _ask(self, prompt: str, default: str | None = None) -> str:
        """One line from the person; EOFError when there is no more input (also when standard
        input is closed or missing)."""
        if sys.stdin is None or sys.stdin.closed:
            raise EOFError
        try:
            if default is None:
                return Prompt.ask(prompt, console=self.console)
            return Prompt.ask(prompt, console=self.console, default=default, show_default=False)
        except (OSError, ValueError):  # a closed or broken terminal reads like the end of input
            raise EOFError from None

    def _hand_over(self, seat: int) -> bool:
        """Hot-seat: hide the last person's screen, then let `seat` take it. False on no input."""
        try:
            if self.last_human is not None:
                self._ask(self.cat.text("ui.hide_screen", player=self.cat.player(self.last_human)), default="")
            self.console.file.write(WIPE)
            self.console.file.flush()
            self._ask(self.cat.text("ui.pass_device", player=self.cat.player(seat)), default="")
        except EOFError:
            self.console.print(self.cat.text("ui.no_input"))
            return False
        return True

    def _human_move(self, seat: int) -> Action | None:
        """Ask the human at `seat` for a move; None when they quit or input ends."""
        state = self.state
        if self.hot_seat and self.last_human != seat and not self._hand_over(seat):
            return None
        self.last_human = seat
        view = state.view(seat)
        self.console.print(Rule(self.cat.text("ui.your_turn", player=self.cat.player(seat))))
        self.console.print(self.render.board(view, self.cat, seat))
        legal: list[Action] = state.legal_actions()
        for index, action in enumerate(legal, start=1):
            label = action_label(self.record.game, action.to_json(), self.cat, view)
            self.console.print(Text.assemble((f"  {index:>3} ", "bold cyan"), label))
        while True:
            try:
                answer = self._ask(self.cat.text("ui.choose")).strip().lower()
            except EOFError:
                self.console.print(self.cat.text("ui.no_input"))
                return None
            if answer in ("q", "quit"):
                return None
            if answer in ("h", "help", "?"):
                self.console.print(self.cat.text("ui.help"))
                continue
            number = move_number(answer)
            if number is not None and 1 <= number <= len(legal):
                return legal[number - 1]
            self.console.print(self.cat.text("ui.invalid_choice", count=len(legal)), style="red")


def move_number(answer: str) -> int | None:
    """The number typed, if it is one: ASCII digits only (`str.isdigit` also accepts ① and ²,
    which `int` refuses), and short."""
    if answer.isascii() and answer.isdigit() and len(answer) <= MAX_DIGITS:
        return int(answer)
    return None
