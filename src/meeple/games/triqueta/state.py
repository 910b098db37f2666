"""A Triqueta position and the rules of a turn and a round (T1-T9).

Hidden information lives only here: the towers' contents (T2: nobody knows them; the draw order
is fixed at setup, which is the same as drawing uniformly at random), each seat's face-down
tokens, the tokens a player is looking at, and tokens that left the game unseen (T6, T9).
"""

from __future__ import annotations

from typing import Any, Self, cast

from meeple.core.errors import IllegalAction
from meeple.core.protocol import Event, Game, winners_by_key
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.core.statefields import Derived, Shared
from meeple.games.triqueta import integrity, view
from meeple.games.triqueta.actions import (
    DISCARD,
    DRAW_ACTION,
    KEEP,
    PLACE,
    SPACE,
    TAKE_ACTIONS,
    Action,
    Discard,
    Draw,
    Keep,
    Place,
    Take,
    discard_action,
    keep_action,
    place_action,
)
from meeple.games.triqueta.components import (
    ANIMALS,
    MAX_FACE_DOWN,
    NUM_ANIMALS,
    TOKENS_PER_TOWER,
    TOWERS,
    VALUES,
    all_tokens,
)
from meeple.games.triqueta.events import QUIET, TriquetaEvents
from meeple.games.triqueta.scoring import (
    ROCK_POINTS,
    animal_points,
    best_face_down_choice,
    seat_points,
    with_face_down,
)
from meeple.games.triqueta.view_types import TriquetaView

#: `pending` slot of a duo token already dealt with.
USED = -1


class TriquetaState(State[Action]):
    """One game of Triqueta. Rules as implemented: docs/games/triqueta.md. An animal token is
    its index in components.ANIMALS."""

    seed: int  # the seed the towers were shuffled from (T2)
    towers: list[list[int]]  # T2: four towers of 15; a draw pops the end of the current tower
    round: int  # T3: round r (0-based) uses tower r; tower 0 is the one without a tree
    rows: list[list[int] | None]  # one row marker per player; None once taken this round
    out: list[bool]  # per seat: has taken a row this round (Action B)
    rock: int  # the seat holding the starting rock (T1, T3)
    trees: list[int]  # tree tiles per seat (T3)
    counts: list[list[int]]  # per seat, how many of each animal it collected face up
    face_down: list[list[int]]  # per seat, tokens kept face down (T4); after T7 the boxed ones
    returned: list[list[int]]  # T9: per seat, tokens returned face down to the box
    gone: list[int]  # T6: tokens left in a tower at a round's end, never seen
    pending: list[int]  # tokens the current player drew and has not dealt with (USED once done)
    used_kind: str  # T9: the kind of action already done with the first duo token, else ""
    final: Shared[list[dict[str, Any]] | None]  # T7 per seat {"added", "boxed"}, once over
    duo: Derived[bool]  # option (T9), kept here for the legal-move loop
    players_in: Derived[int]  # seats still in the round (not out)
    __slots__ = tuple(__annotations__)  # the fields above: the pure build's instances have no dict

    def __post_init__(self) -> None:
        self.duo = self.options["duo"]
        self.players_in = self.out.count(False)

    # -- set-up ---------------------------------------------------------------------------------
    @classmethod
    def initial(cls, game: Game[Any, Any], num_players: int, seed: int, options: dict[str, Any]) -> Self:
        """A new game: the towers built from `seed`; seat 0 holds the starting rock and begins (T1)."""
        tokens = all_tokens()
        Rng(seed).shuffle(tokens)
        n = num_players
        return cls(
            game=game, num_players=n, options=options, current=0, over=False, seed=seed,
            towers=[tokens[i * TOKENS_PER_TOWER:(i + 1) * TOKENS_PER_TOWER] for i in range(TOWERS)],
            round=0, rows=[[] for _ in range(n)], out=[False] * n, rock=0, trees=[0] * n,
            counts=[[0] * NUM_ANIMALS for _ in range(n)], face_down=[[] for _ in range(n)],
            returned=[[] for _ in range(n)], gone=[], pending=[], used_kind="", final=None,
        )

    # -- whose turn, and what they may do -------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        rows = self.rows
        pending = self.pending
        if not pending:
            # Action B is always possible; Action A only while the tower has tokens (T5).
            found = [TAKE_ACTIONS[r] for r in range(len(rows)) if rows[r] is not None]
            if self.towers[self.round]:
                found.append(DRAW_ACTION)
            return found
        can_keep = len(self.face_down[self.current]) < MAX_FACE_DOWN
        used = self.used_kind
        found = []
        for slot in range(len(pending)):
            if pending[slot] < 0:
                continue
            if used != PLACE:
                found.extend(place_action(r, slot) for r in range(len(rows)) if rows[r] is not None)
            if can_keep and used != KEEP:
                found.append(keep_action(slot))
            if self.duo and used != DISCARD and len(pending) == 2:  # T9: not the tower's last token
                found.append(discard_action(slot))
        return found

    def legal_action_ids(self) -> list[int]:
        return SPACE.action_ids(self.legal_actions())

    def action_id(self, action: object) -> int:
        return SPACE.action_id(action)

    def action_from_id(self, action_id: object) -> Action:
        return SPACE.action_from_id(action_id)

    # -- checking -------------------------------------------------------------------------------
    def _check(self, action: object) -> None:
        if SPACE.id_or_none(action) is None:
            raise IllegalAction("moves", f"{action!r} is not a Triqueta action")
        rows = self.rows
        match cast(Action, action):
            case Take(row):
                self._check_unopened()
                if row >= len(rows) or rows[row] is None:
                    raise IllegalAction("T5", f"row {row + 1} is not in play")
            case Draw():
                self._check_unopened()
                if not self.towers[self.round]:
                    raise IllegalAction("T5", "the current tower is empty: you must take a row")
            case Place(row, slot):
                self._check_drawn(PLACE, slot)
                if row >= len(rows) or rows[row] is None:
                    raise IllegalAction("T5", f"row {row + 1} is not in play")
            case Keep(slot):
                self._check_drawn(KEEP, slot)
                if len(self.face_down[self.current]) >= MAX_FACE_DOWN:
                    raise IllegalAction("T4", "you already keep 2 tokens face down")
            case Discard(slot):
                self._check_drawn(DISCARD, slot)
                if not self.duo:
                    raise IllegalAction("T9", "returning a token to the box is only part of the duo variant")
                if len(self.pending) == 1:
                    raise IllegalAction("T9", "the tower's last token may be placed or kept, not returned to the box")

    def _check_unopened(self) -> None:
        if self.pending:
            raise IllegalAction("Action A", "you drew a token: place it in a row or keep it face down first")

    def _check_drawn(self, kind: str, slot: int) -> None:
        if not self.pending:
            raise IllegalAction("Action A", "draw a token before placing or keeping one")
        if slot >= len(self.pending) or self.pending[slot] < 0:
            raise IllegalAction("T9", f"there is no drawn token in slot {slot + 1}")
        if kind == self.used_kind:
            raise IllegalAction("T9", "the two drawn tokens need two different actions")

    # -- doing ----------------------------------------------------------------------------------
    def _do(self, action: Action, log: list[Event] | None) -> None:
        p = self.current
        events = QUIET if log is None else TriquetaEvents(log)
        # Bare class patterns: capturing fields through __match_args__ costs the pure build's
        # playouts a tenth of their speed; the commonest kinds come first.
        match action:
            case Take():
                self._take(p, action.row, events)
                return
            case Draw():
                tower = self.towers[self.round]
                drawn = [tower.pop()]
                if self.duo and tower:
                    drawn.append(tower.pop())
                self.pending = drawn
                self.used_kind = ""
                events.draw(p, drawn)
                return
            case Place():
                row, slot = action.row, action.slot
                token = self.pending[slot]
                placed = self.rows[row]
                assert placed is not None  # checked: the row is in play
                placed.append(token)
                events.place(p, token, row)
                kind = PLACE
            case Keep():
                slot = action.slot
                token = self.pending[slot]
                self.face_down[p].append(token)
                events.keep(p, token)
                kind = KEEP
            case Discard():
                slot = action.slot
                token = self.pending[slot]
                self.returned[p].append(token)
                events.discard(p, token)
                kind = DISCARD
        if len(self.pending) == 1:
            self.pending = []
        else:
            self.pending[slot] = USED
            if self.pending[0] < 0 and self.pending[1] < 0:
                self.pending = []
            else:
                self.used_kind = kind
                return  # the second duo token still needs its action
        self.used_kind = ""
        self._pass_turn(p)

    def _pass_turn(self, p: int) -> None:
        """Next seat clockwise that is still in the round (maybe the same player, T5)."""
        n = self.num_players
        out = self.out
        q = (p + 1) % n
        while out[q]:
            q = (q + 1) % n
        self.current = q

    def _take(self, p: int, row: int, events: TriquetaEvents) -> None:
        taken = self.rows[row]
        assert taken is not None  # checked: the row is in play
        counts = self.counts[p]
        for token in taken:
            counts[token] += 1
        self.rows[row] = None
        self.out[p] = True
        self.players_in -= 1
        events.take(p, row, taken)
        if self.players_in:
            self._pass_turn(p)
            return
        # The last player takes the last row and the starting rock; the round ends.
        self.rock = p
        leftover = self.towers[self.round]
        self.gone.extend(leftover)  # T6: left unseen
        self.towers[self.round] = []
        events.round_end(p, self.round + 1, len(leftover))
        self.round += 1
        if self.round == TOWERS:
            self._finish(events)
            return
        self.trees[p] += 1  # T3: the rock holder takes the next tower's tree tile
        events.tree(p, self.round + 1)
        self.rows = [[] for _ in range(self.num_players)]
        self.out = [False] * self.num_players
        self.players_in = self.num_players
        self.current = p

    def _finish(self, events: TriquetaEvents) -> None:
        """T7: each face-down token is added or boxed to maximise (score, tokens)."""
        final = []
        for seat in range(self.num_players):
            hidden = self.face_down[seat]
            chosen = best_face_down_choice(self.counts[seat], hidden)
            added = [hidden[i] for i in chosen]
            # Boxed tokens stay face down (hidden) and out of the score.
            self.face_down[seat] = [t for i, t in enumerate(hidden) if i not in chosen]
            for token in added:
                self.counts[seat][token] += 1
            final.append({"added": sorted(added), "boxed": len(hidden) - len(added)})
            events.reveal(seat, added, len(hidden) - len(added))
        self.final = final
        self.over = True
        events.game_end(self)

    # -- results --------------------------------------------------------------------------------
    def points(self, seat: int) -> int:
        """The seat's visible score; once the game is over, its final score (T7 applied)."""
        return seat_points(self.counts[seat], self.rock == seat, self.trees[seat])

    def points_with_face_down(self, seat: int) -> int:
        """The score this seat would have if the game ended now (T7 applied): a live preview
        only its owner may see."""
        counts = with_face_down(self.counts[seat], self.face_down[seat])
        return seat_points(counts, self.rock == seat, self.trees[seat])

    def scores(self) -> list[int]:
        """Visible score of each seat; once the game is over, the final score (T7 applied)."""
        return [self.points(seat) for seat in range(self.num_players)]

    def score_breakdown(self) -> list[dict[str, Any]]:
        found = []
        for seat in range(self.num_players):
            counts = self.counts[seat]
            parts: dict[str, Any] = {a: animal_points(counts[i], VALUES[i]) for i, a in enumerate(ANIMALS)}
            parts["counts"] = {a: counts[i] for i, a in enumerate(ANIMALS)}
            parts["rock"] = ROCK_POINTS if self.rock == seat else 0
            parts["trees"] = self.trees[seat]
            if self.final is not None:
                parts["face_down_added"] = len(self.final[seat]["added"])
                parts["face_down_boxed"] = self.final[seat]["boxed"]
            parts["total"] = self.points(seat)
            found.append(parts)
        return found

    def winners(self) -> list[int]:
        """T8: highest score; tie -> most animal tokens; still tied -> all win."""
        if not self.over:
            return []
        return winners_by_key([(self.points(s), sum(self.counts[s])) for s in range(self.num_players)])

    # -- information and loading ----------------------------------------------------------------
    def view(self, player: object) -> TriquetaView:
        return view.view(self, player)

    def determinize(self, observer: object, rng: Rng) -> Self:
        return view.determinize(self, observer, rng)

    def validate(self) -> None:
        integrity.validate(self)
