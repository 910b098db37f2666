"""What happens in a game of Castell, declared once: one method per event kind (meeple.core.events).

Each method takes the raw values the rules hold; its docstring names the catalog key
(`event.<key>` in the locale files). Castell has no hidden information in its events: every part
is public. Regions and skills are indices into components.REGIONS and towers.rules.SKILLS, shown
by name. `QUIET` is the sink of `State.step`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from meeple.core.events import Recorder
from meeple.games.castell.components import REGIONS
from meeple.games.castell.towers.rules import SKILLS, Tower

if TYPE_CHECKING:
    from meeple.games.castell.state import CastellState


class CastellEvents(Recorder):
    """Records Castell's events into a log."""

    def refill(self, region: int, drawn: list[int]) -> None:
        """`refill`: castellers of these sizes (sorted) were drawn from the bag into a region
        (K2); none when nothing was drawn."""
        if drawn:
            self.add("refill", None, {"region": REGIONS[region], "sizes": sorted(drawn)})

    def end_turn(self, p: int) -> None:
        """`end_turn`: p ended the turn (K4)."""
        self.add("end_turn", p)

    def recruit(self, p: int, size: int, region: int) -> None:
        """`recruit`: p recruited a casteller of this size from the region (K4 Recruit)."""
        self.add("recruit", p, {"size": size, "region": REGIONS[region]})

    def move(self, p: int, region: int, placing: bool) -> None:
        """`place_pawn` when p placed the pawn (round 1), else `move`: p moved it to the region (K4)."""
        self.add("place_pawn" if placing else "move", p, {"region": REGIONS[region]})

    def train_special(self, p: int) -> None:
        """`train_special`: p trained on the Special tile and gets a free special action (K4)."""
        self.add("train_special", p, {})

    def train(self, p: int, skill: int, level: int) -> None:
        """`train`: p raised a skill to `level` (K4 Train)."""
        self.add("train", p, {"skill": SKILLS[skill], "level": level})

    def single_recruit(self, p: int, size: int, region: int, paid: bool) -> None:
        """`single_recruit`: p's special action recruited one casteller (K5); `paid` with a token."""
        self.add("single_recruit", p, {"size": size, "region": REGIONS[region], "paid": paid})

    def extra_move(self, p: int, region: int, paid: bool) -> None:
        """`extra_move`: p's special action moved the pawn once more (K5); `paid` with a token."""
        self.add("extra_move", p, {"region": REGIONS[region], "paid": paid})

    def perform(
        self, state: CastellState, p: int, region: int, tile: int, tower: Tower | None, paid: bool, moved: int
    ) -> None:
        """`perform`: p claimed a local performance tile (K5, K10) with `tower` (None: the one the
        solver finds), moving `moved` special action tokens to the player board."""
        local = state.components.local_tiles[tile]
        built = tower if tower is not None else state.tile_tower(p, tile)
        self.add("perform", p, {
            "tile": local.id, "stars": local.stars, "region": REGIONS[region], "paid": paid, "tokens": moved,
            "tower": [list(level) for level in built or ()],
        })

    def enter(self, p: int, region: int, tower: Tower) -> None:
        """`enter`: p entered the festival in the region with this tower (K8)."""
        self.add("enter", p, {"region": REGIONS[region], "tower": [list(v) for v in tower]})

    def decline(self, p: int) -> None:
        """`decline`: p did not enter a festival (K8)."""
        self.add("decline", p)

    def festival_score(self, seat: int, region: int, score: int, prize: int, sizes: list[int], best: int) -> None:
        """`festival_score`: the seat's tower scored at the region's festival (K8), with its prize
        and size tokens (K9) and its best score so far."""
        self.add("festival_score", seat, {
            "region": REGIONS[region], "score": score, "prize": prize, "size_tokens": sizes, "best": best,
        })

    def size_tokens_discarded(self, region: int, sizes: list[int]) -> None:
        """`size_tokens_discarded`: the festival's size tokens nobody won (K9); none when all were won."""
        if sizes:
            self.add("size_tokens_discarded", None, {"region": REGIONS[region], "sizes": sizes})

    def game_over(self, state: CastellState) -> None:
        """`game_over`: the last round is over; final scores and winners (K11)."""
        self.add("game_over", None, {"scores": state.scores(), "winners": state.winners()})

    def round_start(self, first: int, round: int) -> None:
        """`round_start`: round `round` begins; `first` holds the first player marker."""
        self.add("round_start", first, {"round": round})


class QuietCastellEvents(CastellEvents):
    """The search path's sink: every event method does nothing, and it keeps no log."""

    def refill(self, region: int, drawn: list[int]) -> None:
        pass

    def end_turn(self, p: int) -> None:
        pass

    def recruit(self, p: int, size: int, region: int) -> None:
        pass

    def move(self, p: int, region: int, placing: bool) -> None:
        pass

    def train_special(self, p: int) -> None:
        pass

    def train(self, p: int, skill: int, level: int) -> None:
        pass

    def single_recruit(self, p: int, size: int, region: int, paid: bool) -> None:
        pass

    def extra_move(self, p: int, region: int, paid: bool) -> None:
        pass

    def perform(
        self, state: CastellState, p: int, region: int, tile: int, tower: Tower | None, paid: bool, moved: int
    ) -> None:
        pass

    def enter(self, p: int, region: int, tower: Tower) -> None:
        pass

    def decline(self, p: int) -> None:
        pass

    def festival_score(self, seat: int, region: int, score: int, prize: int, sizes: list[int], best: int) -> None:
        pass

    def size_tokens_discarded(self, region: int, sizes: list[int]) -> None:
        pass

    def game_over(self, state: CastellState) -> None:
        pass

    def round_start(self, first: int, round: int) -> None:
        pass


#: The one quiet sink (it holds nothing, so one serves every state).
QUIET: Final = QuietCastellEvents()
