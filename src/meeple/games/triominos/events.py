"""What happens in a game of Triominos, declared once: one method per event kind (meeple.core.events).

Each method takes the raw values the rules hold; its docstring names the catalog key
(`event.<key>` in the locale files) and who may see the secret part, if any. A tile is its index
in components.NUMS, shown by its name. `QUIET` is the sink of `State.step`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from meeple.core.events import Recorder
from meeple.games.triominos.components import NAME, SUM
from meeple.games.triominos.geometry import UP, cell_xyd
from meeple.games.triominos.scoring import BONUS_NAME, BONUS_POINTS, DRAW_PENALTY, OUT_BONUS, STOP_PENALTY

if TYPE_CHECKING:
    from meeple.games.triominos.state import TriominosState


class TriominosEvents(Recorder):
    """Records Triominos' events into a log."""

    def round_start(self, round: int) -> None:
        """`round_start`: round `round` (from 1) was dealt; public."""
        self.add("round_start", None, {"round": round})

    def opening_draws(self, opening: list[tuple[tuple[int, int], ...]]) -> None:
        """`opening_draw`, one per tile of M8's opening draw, per go (seat, tile) in order; public
        (the tiles go back into the pool afterwards)."""
        for go in opening:
            for seat, t in go:
                self.add("opening_draw", seat, {"who": seat, "tile": NAME[t], "sum": SUM[t]})

    def opener(self, seat: int) -> None:
        """`opener`: the seat drew the highest sum and opens the round (M8); public."""
        self.add("opener", seat, {"who": seat})

    def draw(self, p: int, t: int) -> None:
        """`draw`: p drew a tile and lost DRAW_PENALTY points (M6); the tile is secret to p."""
        self.add("draw", p, {"who": p, "penalty": DRAW_PENALTY}, secret={"tile": NAME[t]}, visible_to=(p,))

    def passed(self, p: int) -> None:
        """`pass`: p had to draw from an empty pool and passes (M7); public."""
        self.add("pass", p, {"who": p})

    def stop(self, p: int) -> None:
        """`stop`: p drew three times without placing and lost STOP_PENALTY more (M6); public."""
        self.add("stop", p, {"who": p, "penalty": STOP_PENALTY})

    def place(self, p: int, t: int, c: int, bonus: int) -> None:
        """`place`: p placed tile t on cell c (M2); public, with the points it made (M3), bonus
        included (scoring.BONUS_NAME index, 0 for none)."""
        x, y, d = cell_xyd(c)
        self.add("place", p, {
            "who": p, "tile": NAME[t], "x": x, "y": y, "dir": "up" if d == UP else "down",
            "points": SUM[t] + (BONUS_POINTS[bonus] if bonus else 0),
        })

    def bonus(self, p: int, bonus: int) -> None:
        """`bridge`, `hexagon`, `double_hexagon` or `triple_hexagon` (scoring.BONUS_NAME): the
        placement's bonus (M4, M5); public."""
        self.add(BONUS_NAME[bonus], p, {"who": p, "points": BONUS_POINTS[bonus]})

    def went_out(self, p: int, racks: int) -> None:
        """`went_out`: p placed their last tile and scored OUT_BONUS plus the other racks' sum
        (M9); public."""
        self.add("went_out", p, {"who": p, "bonus": OUT_BONUS, "racks": racks})

    def blocked(self, lost: list[int]) -> None:
        """`blocked`: the round is blocked and each seat lost its rack's sum, `lost` (M9); public."""
        self.add("blocked", None, {"racks": lost})

    def round_end(self, round: int, totals: list[int]) -> None:
        """`round_end`: round `round` is over; the totals so far (copied), public."""
        self.add("round_end", None, {"round": round, "scores": list(totals)})

    def game_end(self, state: TriominosState) -> None:
        """`game_end`: the game is over (M9, M10); winners and totals, public."""
        self.add("game_end", None, {"winners": state.winners(), "scores": list(state.totals)})


class QuietTriominosEvents(TriominosEvents):
    """The search path's sink: every event method does nothing, and it keeps no log."""

    def round_start(self, round: int) -> None:
        pass

    def opening_draws(self, opening: list[tuple[tuple[int, int], ...]]) -> None:
        pass

    def opener(self, seat: int) -> None:
        pass

    def draw(self, p: int, t: int) -> None:
        pass

    def passed(self, p: int) -> None:
        pass

    def stop(self, p: int) -> None:
        pass

    def place(self, p: int, t: int, c: int, bonus: int) -> None:
        pass

    def bonus(self, p: int, bonus: int) -> None:
        pass

    def went_out(self, p: int, racks: int) -> None:
        pass

    def blocked(self, lost: list[int]) -> None:
        pass

    def round_end(self, round: int, totals: list[int]) -> None:
        pass

    def game_end(self, state: TriominosState) -> None:
        pass


#: The one quiet sink (it holds nothing, so one serves every state).
QUIET: Final = QuietTriominosEvents()
