"""What happens in a game of Celtica, declared once: one method per event kind (meeple.core.events).

Each method takes the raw values the rules hold; its docstring names the catalog key
(`event.<key>` in the locale files) and who may see the secret part, if any. Colours and part
types are indices into components.COLOURS and PARTS, shown by name. `QUIET` is the sink of
`State.step`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from meeple.core.events import Recorder
from meeple.games.celtica.components import COLOURS, HAND_SIZE, PARTS

if TYPE_CHECKING:
    from meeple.games.celtica.state import CelticaState


class CelticaEvents(Recorder):
    """Records Celtica's events into a log."""

    def played(self, state: CelticaState, p: int, c: int, k: int, e: int, start: int, dest: int) -> None:
        """`played`: p played k druid cards and e experience cards of colour c and the druid moved
        from `start` to `dest` (C5), with that location's kind and number; public."""
        self.add("played", p, {"colour": COLOURS[c], "cards": k, "experience": e, "from": start, "to": dest,
                               "location": state.board.kinds[dest], "number": state.site_numbers[dest]})

    def no_effect(self, p: int, c: int, k: int, e: int) -> None:
        """`no_effect`: p spent cards of colour c whose druid is already in the goal (C5); public."""
        self.add("no_effect", p, {"colour": COLOURS[c], "cards": k, "experience": e})

    def druid_home(self, p: int, c: int) -> None:
        """`druid_home`: p moved the druid of colour c into the goal (C5); public."""
        self.add("druid_home", p, {"colour": COLOURS[c]})

    def final_round(self, p: int) -> None:
        """`final_round`: p brought the first druid home; this round is the last (C10); public."""
        self.add("final_round", p)

    def took(self, p: int, t: int) -> None:
        """`took`: p took a part of type t from the display at a find site (C6); public."""
        self.add("took", p, {"part": PARTS[t]})

    def gave_up(self, p: int, t: int) -> None:
        """`gave_up`: p gave up a part of type t at a ruin (C7); public."""
        self.add("gave_up", p, {"part": PARTS[t]})

    def experience_drawn(self, p: int, card: int) -> None:
        """`experience_drawn`: p drew an experience card after a ruin (C7); its colour is secret to p."""
        self.add("experience_drawn", p, {}, {"colour": COLOURS[card]}, (p,))

    def experience_none(self, p: int) -> None:
        """`experience_none`: no experience card was left for p to draw (C7); public."""
        self.add("experience_none", p)

    def cult_drew(self, p: int, card: int) -> None:
        """`cult_drew`: p drew a druid card at a cult site (C8); its colour is secret to p."""
        self.add("cult_drew", p, {}, {"colour": COLOURS[card]}, (p,))

    def cult_passed(self, p: int) -> None:
        """`cult_passed`: p drew no card at a cult site (C8); public."""
        self.add("cult_passed", p)

    def player_out(self, p: int) -> None:
        """`player_out`: p has no druid card left and is out of the round (C9); public."""
        self.add("player_out", p)

    def round_start(self, starter: int, round: int) -> None:
        """`round_start`: round `round` begins with `starter` (C9); public."""
        self.add("round_start", starter, {"round": round})

    def dealt(self, seat: int, drawn: list[int]) -> None:
        """`dealt`: the seat drew a hand of HAND_SIZE druid cards (C9); the count is public, the
        colours (sorted) are secret to the seat."""
        self.add("dealt", seat, {"count": HAND_SIZE}, {"cards": [COLOURS[c] for c in sorted(drawn)]}, (seat,))

    def reshuffled(self, pile: str) -> None:
        """`reshuffled`: a pile (`druid`, `experience` or `parts`) was reshuffled from its
        discards (C6, C7, C9); public."""
        self.add("reshuffled", None, {"pile": pile})

    def display_refilled(self, drawn: list[int]) -> None:
        """`display_refilled`: the parts drawn into the display, in order (C6, C11); public. No
        event when none was drawn."""
        if drawn:
            self.add("display_refilled", None, {"parts": [PARTS[t] for t in drawn]})

    def swapped(self, p: int, g: int, t: int) -> None:
        """`swapped`: in the end phase p spent one experience card to swap a part g for t from
        the display (C11); public."""
        self.add("swapped", p, {"give": PARTS[g], "take": PARTS[t]})

    def bought(self, p: int, t: int) -> None:
        """`bought`: in the end phase p spent two experience cards on a part t (C11); public."""
        self.add("bought", p, {"part": PARTS[t]})

    def end_done(self, p: int) -> None:
        """`end_done`: p is done spending in the end phase (C11); public."""
        self.add("end_done", p)

    def game_end(self, p: int, reason: str) -> None:
        """`game_end`: p's turn ended the game (C10); the reason (`goal`, `all_home` or `parts`)
        is public. The end phase (C11) follows."""
        self.add("game_end", p, {"reason": reason})

    def final(self, state: CelticaState) -> None:
        """`final`: the end phase is over; winners (C12) and scores, public."""
        self.add("final", None, {"winners": state.winners(), "scores": state.scores()})


class QuietCelticaEvents(CelticaEvents):
    """The search path's sink: every event method does nothing, and it keeps no log."""

    def played(self, state: CelticaState, p: int, c: int, k: int, e: int, start: int, dest: int) -> None:
        pass

    def no_effect(self, p: int, c: int, k: int, e: int) -> None:
        pass

    def druid_home(self, p: int, c: int) -> None:
        pass

    def final_round(self, p: int) -> None:
        pass

    def took(self, p: int, t: int) -> None:
        pass

    def gave_up(self, p: int, t: int) -> None:
        pass

    def experience_drawn(self, p: int, card: int) -> None:
        pass

    def experience_none(self, p: int) -> None:
        pass

    def cult_drew(self, p: int, card: int) -> None:
        pass

    def cult_passed(self, p: int) -> None:
        pass

    def player_out(self, p: int) -> None:
        pass

    def round_start(self, starter: int, round: int) -> None:
        pass

    def dealt(self, seat: int, drawn: list[int]) -> None:
        pass

    def reshuffled(self, pile: str) -> None:
        pass

    def display_refilled(self, drawn: list[int]) -> None:
        pass

    def swapped(self, p: int, g: int, t: int) -> None:
        pass

    def bought(self, p: int, t: int) -> None:
        pass

    def end_done(self, p: int) -> None:
        pass

    def game_end(self, p: int, reason: str) -> None:
        pass

    def final(self, state: CelticaState) -> None:
        pass


#: The one quiet sink (it holds nothing, so one serves every state).
QUIET: Final = QuietCelticaEvents()
