"""What happens in a game of Triqueta, declared once: one method per event kind (meeple.core.events).

Each method takes the raw values the rules hold; its docstring names the catalog key
(`event.<key>` in the locale files) and who may see the secret part, if any. An animal token is
its index in components.ANIMALS, a row its 0-based index. `QUIET` is the sink of `State.step`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from meeple.core.events import Recorder

if TYPE_CHECKING:
    from meeple.games.triqueta.state import TriquetaState


class TriquetaEvents(Recorder):
    """Records Triqueta's events into a log."""

    def draw(self, p: int, drawn: list[int]) -> None:
        """`draw`: p drew one token (two in the duo variant, T9); how many is public, the animals
        are secret to p. `drawn` is copied: the duo's pending slots are later marked used."""
        self.add("draw", p, {"count": len(drawn)}, {"animals": list(drawn)}, (p,))

    def place(self, p: int, token: int, row: int) -> None:
        """`place`: p placed a drawn token face up in a row; all public."""
        self.add("place", p, {"animal": token, "row": row})

    def keep(self, p: int, token: int) -> None:
        """`keep`: p kept a drawn token face down (T4); the animal is secret to p."""
        self.add("keep", p, {}, {"animal": token}, (p,))

    def discard(self, p: int, token: int) -> None:
        """`discard`: p returned a drawn token to the box face down (T9); the animal is secret to p."""
        self.add("discard", p, {}, {"animal": token}, (p,))

    def take(self, p: int, row: int, taken: list[int]) -> None:
        """`take`: p took a row and is out of the round (Action B); all public, animals sorted."""
        self.add("take", p, {"row": row, "animals": sorted(taken)})

    def round_end(self, p: int, round: int, unseen: int) -> None:
        """`round_end`: round `round` (from 1) ended, p took the starting rock and `unseen` tokens
        left the tower unseen (T6); all public."""
        self.add("round_end", p, {"round": round, "unseen": unseen})

    def tree(self, p: int, round: int) -> None:
        """`tree`: the rock holder p took the tree tile of round `round` (from 1, T3); public."""
        self.add("tree", p, {"round": round})

    def reveal(self, seat: int, added: list[int], boxed: int) -> None:
        """`reveal`: at the end the seat's face-down tokens were added or boxed (T7); public, the
        added animals sorted, the boxed ones only counted (they stay hidden)."""
        self.add("reveal", seat, {"animals": sorted(added), "boxed": boxed})

    def game_end(self, state: TriquetaState) -> None:
        """`game_end`: the game is over; final scores and winners (T8), public."""
        self.add("game_end", None, {"scores": state.scores(), "winners": state.winners()})


class QuietTriquetaEvents(TriquetaEvents):
    """The search path's sink: every event method does nothing, and it keeps no log."""

    def draw(self, p: int, drawn: list[int]) -> None:
        pass

    def place(self, p: int, token: int, row: int) -> None:
        pass

    def keep(self, p: int, token: int) -> None:
        pass

    def discard(self, p: int, token: int) -> None:
        pass

    def take(self, p: int, row: int, taken: list[int]) -> None:
        pass

    def round_end(self, p: int, round: int, unseen: int) -> None:
        pass

    def tree(self, p: int, round: int) -> None:
        pass

    def reveal(self, seat: int, added: list[int], boxed: int) -> None:
        pass

    def game_end(self, state: TriquetaState) -> None:
        pass


#: The one quiet sink (it holds nothing, so one serves every state).
QUIET: Final = QuietTriquetaEvents()
