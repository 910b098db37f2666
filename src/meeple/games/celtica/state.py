"""The Celtica position and its rules (rulings C1-C12).

Everything is small ints in lists: druid positions, per-seat counts of druid cards,
experience cards and parts by type, the display as counts by type, and explicit hidden orders
for the three draw piles (druid deck, experience deck, part supply). The Rng state lives in the
state because piles are reshuffled during play (C6, C7, C9).

What each seat may see lives in information.py, JSON in serialize.py; this module holds the
rules: whose decision it is, what is legal, and what an action does.
"""

from __future__ import annotations

from typing import Any

from meeple.core.errors import IllegalAction
from meeple.core.protocol import Event, State
from meeple.core.rng import Rng

from . import amulets, information, serialize
from .actions import (
    BUY,
    CULT,
    DONE,
    GIVE,
    KIND_BUY,
    KIND_CULT,
    KIND_DONE,
    KIND_GIVE,
    KIND_PLAY,
    KIND_SWAP,
    KIND_TAKE,
    NUM_ACTIONS,
    PLAYS_UPTO,
    SWAP,
    TAKE,
    BY_ID,
    Action,
)
from .board import CULT as LOC_CULT
from .board import FIND as LOC_FIND
from .board import RUIN as LOC_RUIN
from .board import Board, load_board
from .components import (
    COLOURS,
    COPIES_PER_PART,
    DISPLAY_SIZE,
    DRUID_CARDS_PER_COLOUR,
    EXPERIENCE_CARDS_PER_COLOUR,
    HAND_SIZE,
    NUM_COLOURS,
    NUM_PART_TYPES,
    PARTS,
    START_PARTS,
)

from .phases import CULT_PHASE, END_PHASE, GIVE_PHASE, OVER, PHASES, PLAY_PHASE, TAKE_PHASE

RANGE_C = range(NUM_COLOURS)
RANGE_P = range(NUM_PART_TYPES)


class CelticaState(State):
    __slots__ = (
        "game", "num_players", "options", "board", "goal", "loc_action", "loc_number",
        "pos", "home", "hands", "ncards", "exps", "nexp", "parts", "display", "ndisplay",
        "supply", "pdisc", "npdisc", "deck", "ddisc", "xdeck", "xdisc", "must",
        "phase", "player", "pending", "round", "final_round", "ender", "end_reason",
        "end_queue", "rng",
    )

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def blank(cls, game: Any, num_players: int, options: dict[str, Any], board: Board) -> "CelticaState":
        """A state with the board bound and empty piles; callers fill in the rest."""
        s = cls.__new__(cls)
        s.game = game
        s.num_players = num_players
        s.options = options
        s._bind_board(board)
        n = num_players
        s.pos = [0] * NUM_COLOURS
        s.home = 0
        s.hands = [[0] * NUM_COLOURS for _ in range(n)]
        s.ncards = [0] * n
        s.exps = [[0] * NUM_COLOURS for _ in range(n)]
        s.nexp = [0] * n
        s.parts = [[0] * NUM_PART_TYPES for _ in range(n)]
        s.display = [0] * NUM_PART_TYPES
        s.ndisplay = 0
        s.supply = []
        s.pdisc = [0] * NUM_PART_TYPES
        s.npdisc = 0
        s.deck = []
        s.ddisc = [0] * NUM_COLOURS
        s.xdeck = []
        s.xdisc = [0] * NUM_COLOURS
        s.must = [-1] * n
        s.phase = PLAY_PHASE
        s.player = 0
        s.pending = 0
        s.round = 1
        s.final_round = False
        s.ender = -1
        s.end_reason = ""
        s.end_queue = []
        s.rng = 0
        return s

    def _bind_board(self, board: Board) -> None:
        self.board = board
        self.goal = board.goal
        self.loc_action = board.actions
        self.loc_number = board.numbers

    @classmethod
    def setup(cls, game: Any, num_players: int, seed: int, options: dict[str, Any]) -> "CelticaState":
        """C4: shuffle the piles, 2 face-up parts per player, 9 in the display, 5 cards each."""
        board = load_board(options["board"])
        options = dict(options, board=board.layout())
        s = cls.blank(game, num_players, options, board)
        rng = Rng(seed)
        s.deck = [c for c in RANGE_C for _ in range(DRUID_CARDS_PER_COLOUR)]
        rng.shuffle(s.deck)
        s.xdeck = [c for c in RANGE_C for _ in range(EXPERIENCE_CARDS_PER_COLOUR)]
        rng.shuffle(s.xdeck)
        s.supply = [t for t in RANGE_P for _ in range(COPIES_PER_PART)]
        rng.shuffle(s.supply)
        s.rng = rng.state
        for seat in range(num_players):
            for _ in range(START_PARTS):
                s.parts[seat][s.supply.pop()] += 1
        for _ in range(DISPLAY_SIZE):
            s.display[s.supply.pop()] += 1
        s.ndisplay = DISPLAY_SIZE
        s._deal(0, None)
        return s

    # -- whose turn -----------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.phase == OVER else self.player

    @property
    def is_terminal(self) -> bool:
        return self.phase == OVER

    def legal_actions(self) -> list[Action]:
        phase = self.phase
        p = self.player
        if phase == PLAY_PHASE:
            hand = self.hands[p]
            ex = self.exps[p]
            m = self.must[p]
            if m >= 0:
                return list(PLAYS_UPTO[m][hand[m]][ex[m]])
            out: list[Action] = []
            for c in RANGE_C:
                if hand[c]:
                    out += PLAYS_UPTO[c][hand[c]][ex[c]]
            return out
        if phase == TAKE_PHASE:
            d = self.display
            return [TAKE[t] for t in RANGE_P if d[t]]
        if phase == GIVE_PHASE:
            mine = self.parts[p]
            return [GIVE[t] for t in RANGE_P if mine[t]]
        if phase == CULT_PHASE:
            return list(CULT)
        if phase == END_PHASE:
            return self._end_actions(p)
        return []

    def _end_actions(self, p: int) -> list[Action]:
        mine = self.parts[p]
        d = self.display
        shown = [t for t in RANGE_P if d[t]]
        out: list[Action] = []
        if self.nexp[p] >= 1:
            for g in RANGE_P:
                if mine[g]:
                    row = SWAP[g]
                    out.extend(row[t] for t in shown if t != g)
        if self.nexp[p] >= 2:
            out.extend(BUY[t] for t in shown)
        out.append(DONE)
        return out

    def action_id(self, action: Action) -> int:
        return action.id

    def action_from_id(self, action_id: int) -> Action:
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not 0 <= action_id < NUM_ACTIONS:
            raise IllegalAction("ids", f"no Celtica action with id {action_id!r} (ids 0-{NUM_ACTIONS - 1})")
        return BY_ID[action_id]

    # -- checking -------------------------------------------------------------------------------
    def _check(self, action: Action) -> None:
        kind = getattr(action, "KIND", None)
        phase = self.phase
        p = self.player
        try:
            known = kind is not None and 0 <= action.id < NUM_ACTIONS and BY_ID[action.id] == action
        except (AttributeError, TypeError):
            known = False
        if not known:
            raise IllegalAction("C5", f"{action!r} is not a Celtica action")
        wanted = {PLAY_PHASE: KIND_PLAY, TAKE_PHASE: KIND_TAKE, GIVE_PHASE: KIND_GIVE, CULT_PHASE: KIND_CULT}
        if phase == END_PHASE:
            if kind not in (KIND_SWAP, KIND_BUY, KIND_DONE):
                raise IllegalAction("C11", "the game is in its end phase: swap, buy or done")
        elif kind != wanted[phase]:
            rule = {PLAY_PHASE: "C5", TAKE_PHASE: "C6", GIVE_PHASE: "C7", CULT_PHASE: "C8"}[phase]
            raise IllegalAction(rule, f"now the player must {PHASES[phase].replace('_', ' ')}, not {action.to_json()['type']}")
        if kind == KIND_PLAY:
            c = action.colour  # type: ignore[union-attr]
            if self.must[p] >= 0 and c != self.must[p]:
                raise IllegalAction("C8", f"the card drawn at the cult site ({COLOURS[self.must[p]]}) must be played this turn")
            if action.cards > self.hands[p][c]:  # type: ignore[union-attr]
                raise IllegalAction("C5", f"only {self.hands[p][c]} {COLOURS[c]} druid card(s) in hand")
            if action.experience > self.exps[p][c]:  # type: ignore[union-attr]
                raise IllegalAction("C5", f"only {self.exps[p][c]} {COLOURS[c]} experience card(s) in hand")
        elif kind == KIND_TAKE:
            if not self.display[action.part]:  # type: ignore[union-attr]
                raise IllegalAction("C6", f"no {PARTS[action.part]} in the display")  # type: ignore[union-attr]
        elif kind == KIND_GIVE:
            if not self.parts[p][action.part]:  # type: ignore[union-attr]
                raise IllegalAction("C7", f"the player has no {PARTS[action.part]} to give up")  # type: ignore[union-attr]
        elif kind == KIND_SWAP:
            g, t = action.give, action.take  # type: ignore[union-attr]
            if self.nexp[p] < 1:
                raise IllegalAction("C11", "a swap costs one experience card")
            if g == t:
                raise IllegalAction("C11", "a swap must exchange different parts")
            if not self.parts[p][g]:
                raise IllegalAction("C11", f"the player has no {PARTS[g]} to swap")
            if not self.display[t]:
                raise IllegalAction("C11", f"no {PARTS[t]} in the display")
        elif kind == KIND_BUY:
            if self.nexp[p] < 2:
                raise IllegalAction("C11", "taking a part costs two experience cards")
            if not self.display[action.part]:  # type: ignore[union-attr]
                raise IllegalAction("C11", f"no {PARTS[action.part]} in the display")  # type: ignore[union-attr]
        elif kind == KIND_CULT and action.draw and not (self.deck or any(self.ddisc)):  # type: ignore[union-attr]
            raise IllegalAction("C8", "no druid card left to draw")

    # -- performing -----------------------------------------------------------------------------
    def _do(self, action: Action, log: list[Event] | None = None) -> None:
        kind = action.KIND
        p = self.player
        if kind == KIND_PLAY:
            self._play(p, action, log)  # type: ignore[arg-type]
        elif kind == KIND_TAKE:
            t = action.part  # type: ignore[union-attr]
            self.display[t] -= 1
            self.ndisplay -= 1
            self.parts[p][t] += 1
            if log is not None:
                log.append(Event("took", p, {"part": PARTS[t]}))
            self.pending -= 1
            if self.pending == 0 or self.ndisplay == 0:
                self._finish_find(p, log)
        elif kind == KIND_GIVE:
            t = action.part  # type: ignore[union-attr]
            self.parts[p][t] -= 1
            self.pdisc[t] += 1
            self.npdisc += 1
            if log is not None:
                log.append(Event("gave_up", p, {"part": PARTS[t]}))
            self.pending -= 1
            if self.pending == 0:
                self._finish_ruin(p, log)
        elif kind == KIND_CULT:
            if action.draw:  # type: ignore[union-attr]
                card = self._draw_druid(log)
                self.hands[p][card] += 1
                self.ncards[p] += 1
                self.must[p] = card
                if log is not None:
                    log.append(Event("cult_drew", p, {}, {"colour": COLOURS[card]}, (p,)))
            elif log is not None:
                log.append(Event("cult_passed", p))
            self._end_turn(p, log)
        elif kind == KIND_SWAP:
            g, t = action.give, action.take  # type: ignore[union-attr]
            self._spend_experience(p, 1)
            mine = self.parts[p]
            mine[g] -= 1
            mine[t] += 1
            self.display[t] -= 1
            self.display[g] += 1
            if log is not None:
                log.append(Event("swapped", p, {"give": PARTS[g], "take": PARTS[t]}))
            self._after_end_action(p, log)
        elif kind == KIND_BUY:
            t = action.part  # type: ignore[union-attr]
            self._spend_experience(p, 2)
            self.parts[p][t] += 1
            self.display[t] -= 1
            self.ndisplay -= 1
            if log is not None:
                log.append(Event("bought", p, {"part": PARTS[t]}))
            self._after_end_action(p, log)
        else:
            if log is not None:
                log.append(Event("end_done", p))
            self._next_end_player(log)

    #: The unchecked fast path (State.step) without the extra call.
    step = _do

    def _play(self, p: int, a: Any, log: list[Event] | None) -> None:
        """C5: discard the cards, move the druid, let the final location act."""
        c, k, e = a.colour, a.cards, a.experience
        self.hands[p][c] -= k
        self.ncards[p] -= k
        self.ddisc[c] += k
        if e:
            self.exps[p][c] -= e
            self.nexp[p] -= e
            self.xdisc[c] += e
        self.must[p] = -1
        start = self.pos[c]
        goal = self.goal
        if start == goal:
            # C5: a druid in the goal does not move; the cards are simply spent.
            if log is not None:
                log.append(Event("no_effect", p, {"colour": COLOURS[c], "cards": k, "experience": e}))
            self._end_turn(p, log)
            return
        dest = start + k + e
        if dest > goal:
            dest = goal  # C5: a move that would pass the goal ends on it
        self.pos[c] = dest
        if log is not None:
            log.append(Event("played", p, {"colour": COLOURS[c], "cards": k, "experience": e, "from": start,
                                           "to": dest, "location": self.board.kinds[dest],
                                           "number": self.loc_number[dest]}))
        if dest == goal:
            self.home += 1
            if log is not None:
                log.append(Event("druid_home", p, {"colour": COLOURS[c]}))
            if not self.final_round:
                self.final_round = True  # C10: the game ends with this round
                if log is not None:
                    log.append(Event("final_round", p))
        where = self.loc_action[dest]
        number = self.loc_number[dest]
        if where == LOC_FIND:
            n = number if number < self.ndisplay else self.ndisplay
            if n:
                self.phase = TAKE_PHASE
                self.pending = n
            else:
                self._finish_find(p, log)
        elif where == LOC_RUIN:
            have = sum(self.parts[p])
            n = number if number < have else have
            if n:
                self.phase = GIVE_PHASE
                self.pending = n
            else:
                self._finish_ruin(p, log)
        elif where == LOC_CULT and (self.deck or any(self.ddisc)):
            self.phase = CULT_PHASE
        else:
            self._end_turn(p, log)

    def _finish_find(self, p: int, log: list[Event] | None) -> None:
        """C6, C10: refill the display; the game ends at once if parts cannot be drawn."""
        self.pending = 0
        if self._refill(log):
            self._end_turn(p, log)
        else:
            self._end_game(p, "parts", log)

    def _finish_ruin(self, p: int, log: list[Event] | None) -> None:
        """C7: after giving up parts, draw one experience card (none if none is left)."""
        self.pending = 0
        if not self.xdeck and any(self.xdisc):
            self._reshuffle_experience(log)
        if self.xdeck:
            card = self.xdeck.pop()
            self.exps[p][card] += 1
            self.nexp[p] += 1
            if log is not None:
                log.append(Event("experience_drawn", p, {}, {"colour": COLOURS[card]}, (p,)))
        elif log is not None:
            log.append(Event("experience_none", p))
        self._end_turn(p, log)

    def _end_turn(self, p: int, log: list[Event] | None) -> None:
        """Pass the turn on (C9), or end the game when all five druids are home (C10)."""
        if self.home == NUM_COLOURS:
            self._end_game(p, "all_home", log)
            return
        ncards = self.ncards
        if not ncards[p] and log is not None:
            log.append(Event("player_out", p))
        n = self.num_players
        for i in range(1, n + 1):
            q = (p + i) % n
            if ncards[q]:
                self.player = q
                self.phase = PLAY_PHASE
                return
        # C9: everybody is out; p played the last druid card.
        if self.final_round:
            self._end_game(p, "goal", log)
        else:
            self.round += 1
            self._deal((p + 1) % n, log)

    def _deal(self, starter: int, log: list[Event] | None) -> None:
        """C9: each player draws 5 druid cards; `starter` begins the round."""
        n = self.num_players
        if log is not None:
            log.append(Event("round_start", starter, {"round": self.round}))
        for i in range(n):
            seat = (starter + i) % n
            hand = self.hands[seat]
            drawn = []
            for _ in range(HAND_SIZE):
                card = self._draw_druid(log)
                hand[card] += 1
                drawn.append(card)
            self.ncards[seat] += HAND_SIZE
            if log is not None:
                log.append(Event("dealt", seat, {"count": HAND_SIZE},
                                 {"cards": [COLOURS[c] for c in sorted(drawn)]}, (seat,)))
        self.player = starter
        self.phase = PLAY_PHASE

    # -- piles ----------------------------------------------------------------------------------
    def _shuffled(self, counts: list[int]) -> list[int]:
        items = [kind for kind, count in enumerate(counts) for _ in range(count)]
        rng = Rng(self.rng)
        rng.shuffle(items)
        self.rng = rng.state
        for i in range(len(counts)):
            counts[i] = 0
        return items

    def _draw_druid(self, log: list[Event] | None) -> int:
        """The top druid card; the discards are reshuffled when the deck is empty (C9)."""
        if not self.deck:
            self.deck = self._shuffled(self.ddisc)
            if log is not None:
                log.append(Event("reshuffled", None, {"pile": "druid"}))
        return self.deck.pop()

    def _reshuffle_experience(self, log: list[Event] | None) -> None:
        self.xdeck = self._shuffled(self.xdisc)
        if log is not None:
            log.append(Event("reshuffled", None, {"pile": "experience"}))

    def _refill(self, log: list[Event] | None) -> bool:
        """Fill the display to 9 (C6); False if parts had to be drawn and none were left (C10)."""
        need = DISPLAY_SIZE - self.ndisplay
        if not need:
            return True
        drawn = []
        display = self.display
        supply = self.supply
        ok = True
        for _ in range(need):
            if not supply:
                if not self.npdisc:
                    ok = False
                    break
                self.supply = supply = self._shuffled(self.pdisc)
                self.npdisc = 0
                if log is not None:
                    log.append(Event("reshuffled", None, {"pile": "parts"}))
            t = supply.pop()
            display[t] += 1
            drawn.append(t)
        self.ndisplay += len(drawn)
        if log is not None and drawn:
            log.append(Event("display_refilled", None, {"parts": [PARTS[t] for t in drawn]}))
        return ok

    def _spend_experience(self, p: int, count: int) -> None:
        """C11: spend experience cards (colours do not matter at the end; lowest first)."""
        ex = self.exps[p]
        for c in RANGE_C:
            while count and ex[c]:
                ex[c] -= 1
                self.xdisc[c] += 1
                self.nexp[p] -= 1
                count -= 1

    # -- the end ----------------------------------------------------------------------------------
    def _end_game(self, p: int, reason: str, log: list[Event] | None) -> None:
        """C10/C11: the game is over; the end phase starts left of the player who ended it."""
        self.ender = p
        self.end_reason = reason
        self.pending = 0
        n = self.num_players
        self.end_queue = [(p + 1 + i) % n for i in range(n)]
        if log is not None:
            log.append(Event("game_end", p, {"reason": reason}))
        self._start_end_turn(log)

    def _can_spend(self, q: int) -> bool:
        """Whether seat q has any end-phase action besides done."""
        nexp = self.nexp[q]
        if nexp >= 2 and self.ndisplay:
            return True
        if nexp >= 1:
            d = self.display
            for g, have in enumerate(self.parts[q]):
                if have:
                    for t in RANGE_P:
                        if d[t] and t != g:
                            return True
        return False

    def _start_end_turn(self, log: list[Event] | None) -> None:
        queue = self.end_queue
        while queue and not self._can_spend(queue[0]):
            queue.pop(0)
        if queue:
            self.player = queue[0]
            self.phase = END_PHASE
        else:
            self.phase = OVER
            self.player = -1
            if log is not None:
                log.append(Event("final", None, {"winners": self.winners(), "scores": self.scores()}))

    def _after_end_action(self, p: int, log: list[Event] | None) -> None:
        if not self._can_spend(p):
            self._next_end_player(log)

    def _next_end_player(self, log: list[Event] | None) -> None:
        """C11: refill the display (if possible) before the next player."""
        self.end_queue.pop(0)
        self._refill(log)
        self._start_end_turn(log)

    # -- results --------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return [min(mine) for mine in self.parts]

    def score_breakdown(self) -> list[dict[str, Any]]:
        return [amulets.breakdown(mine) for mine in self.parts]

    def standings(self) -> list[list[int]]:
        """Seats grouped best first under C12 (ties share a group)."""
        return amulets.ranking(self.parts)

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        return self.standings()[0]

    # -- information (information.py) -------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any]:
        return information.view(self, player)

    def determinize(self, observer: int, rng: Rng) -> "CelticaState":
        return information.determinize(self, observer, rng)

    # -- copying and serialization (serialize.py) ---------------------------------------------------
    def clone(self) -> "CelticaState":
        s = CelticaState.__new__(CelticaState)
        s.game = self.game
        s.num_players = self.num_players
        s.options = self.options
        s.board = self.board
        s.goal = self.goal
        s.loc_action = self.loc_action
        s.loc_number = self.loc_number
        s.pos = self.pos[:]
        s.home = self.home
        s.hands = [h[:] for h in self.hands]
        s.ncards = self.ncards[:]
        s.exps = [h[:] for h in self.exps]
        s.nexp = self.nexp[:]
        s.parts = [h[:] for h in self.parts]
        s.display = self.display[:]
        s.ndisplay = self.ndisplay
        s.supply = self.supply[:]
        s.pdisc = self.pdisc[:]
        s.npdisc = self.npdisc
        s.deck = self.deck[:]
        s.ddisc = self.ddisc[:]
        s.xdeck = self.xdeck[:]
        s.xdisc = self.xdisc[:]
        s.must = self.must[:]
        s.phase = self.phase
        s.player = self.player
        s.pending = self.pending
        s.round = self.round
        s.final_round = self.final_round
        s.ender = self.ender
        s.end_reason = self.end_reason
        s.end_queue = self.end_queue[:]
        s.rng = self.rng
        return s

    def to_json(self) -> dict[str, Any]:
        return serialize.to_json(self)

    @classmethod
    def from_json(cls, game: Any, obj: dict[str, Any]) -> "CelticaState":
        return serialize.from_json(cls, game, obj)

    def check_consistency(self) -> None:
        """RecordError unless every component is accounted for (C1, C2) and fields fit."""
        serialize.check_consistency(self)
