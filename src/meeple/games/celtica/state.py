"""The Celtica position and its rules (rulings C1-C12).

Everything is small ints in lists: druid positions, per-seat counts of druid cards,
experience cards and parts by type, the display as counts by type, and explicit hidden orders
for the three draw piles (druid deck, experience deck, part supply). The Rng state lives in the
state because piles are reshuffled during play (C6, C7, C9).

What each seat may see lives in view.py, the checks of a loaded state in integrity.py; this module
holds the rules: whose decision it is, what is legal, and what an action does.
"""

from __future__ import annotations

from typing import Any, Self, cast

from meeple.core.errors import IllegalAction
from meeple.core.protocol import Event, Game
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.core.statefields import Derived
from meeple.games.celtica import integrity, scoring, view
from meeple.games.celtica.actions import (
    BUY,
    CULT,
    DONE,
    GIVE,
    PLAYS_UPTO,
    SPACE,
    SWAP,
    TAKE,
    Action,
    Buy,
    Cult,
    Done,
    GiveUp,
    Play,
    Swap,
    Take,
)
from meeple.games.celtica.board_file import load_board
from meeple.games.celtica.components import (
    COLOURS,
    COPIES_PER_PART,
    DISPLAY_SIZE,
    DRUID_CARDS_PER_COLOUR,
    EXPERIENCE_CARDS_PER_COLOUR,
    FIND,
    HAND_SIZE,
    NUM_COLOURS,
    NUM_PART_TYPES,
    PARTS,
    RUIN,
    START_PARTS,
    Board,
)
from meeple.games.celtica.components import CULT as CULT_SITE
from meeple.games.celtica.events import QUIET, CelticaEvents
from meeple.games.celtica.phases import CULT_PHASE, END_PHASE, GIVE_PHASE, PHASES, PLAY_PHASE, TAKE_PHASE
from meeple.games.celtica.view_types import CelticaView

RANGE_C = range(NUM_COLOURS)
RANGE_P = range(NUM_PART_TYPES)
#: The kind of action each phase before the end phase asks for, and the ruling that says so.
PHASE_KIND: dict[int, type] = {PLAY_PHASE: Play, TAKE_PHASE: Take, GIVE_PHASE: GiveUp, CULT_PHASE: Cult}
PHASE_RULE = {PLAY_PHASE: "C5", TAKE_PHASE: "C6", GIVE_PHASE: "C7", CULT_PHASE: "C8"}


class CelticaState(State[Action]):
    """One game of Celtica. Rules as implemented: docs/games/celtica.md. Colours are ints 0-4
    (components.COLOURS), part types ints 0-8 (components.PARTS); `current` is the seat whose
    decision `phase` is."""

    druids: list[int]  # each druid's location on the path, by colour (0 start, board goal)
    druids_home: int  # druids in the goal (C10)
    hands: list[list[int]]  # per seat, druid cards held per colour (secret)
    cards_held: list[int]  # per seat, druid cards held (public)
    experience: list[list[int]]  # per seat, experience cards held per colour (secret)
    experience_held: list[int]  # per seat, experience cards held (public)
    parts: list[list[int]]  # per seat, amulet parts held per type (public, C2)
    display: list[int]  # face-up parts per type (C6)
    display_size: int  # parts in the display
    supply: list[int]  # part types in hidden order; draws take the last
    part_discards: list[int]  # parts given up at ruins, per type (public, C7)
    num_part_discards: int  # parts in part_discards
    druid_deck: list[int]  # druid card colours in hidden order; draws take the last
    druid_discards: list[int]  # played druid cards per colour (face up)
    experience_deck: list[int]  # experience card colours in hidden order; draws take the last
    experience_discards: list[int]  # used experience cards per colour (face up)
    owed_colour: list[int]  # per seat, the colour of the card drawn at a cult site it must play next (C8), -1 none
    phase: int  # the kind of decision pending (phases.py)
    pending: int  # parts still to take (find site) or give up (ruin) this turn
    round: int  # the round being played, from 1 (C9)
    final_round: bool  # a druid reached the goal: the game ends with this round (C10)
    ender: int  # the seat that ended the game, -1 while it runs (C11)
    end_reason: str  # one of phases.END_REASONS, "" while the game runs (C10)
    end_queue: list[int]  # seats still to act in the end phase, the current one first (C11)
    rng: int  # Rng state for later reshuffles (C6, C7, C9)
    board: Derived[Board]  # the path named by options["board"] (C3)
    goal: Derived[int]  # the goal's index on the path
    site_actions: Derived[tuple[int, ...]]  # per location: components.START/FIND/RUIN/CULT
    site_numbers: Derived[tuple[int, ...]]  # per location: parts taken or given up, else 0
    __slots__ = tuple(__annotations__)  # the fields above: the pure build's instances have no dict

    def __post_init__(self) -> None:
        board = load_board(self.options["board"])
        self.board = board
        self.goal = board.goal
        self.site_actions = board.actions
        self.site_numbers = board.numbers

    # -- construction -------------------------------------------------------------------------
    @classmethod
    def initial(cls, game: Game[Any, Any], num_players: int, seed: int, options: dict[str, Any]) -> Self:
        """C4: shuffle the piles, 2 face-up parts per player, 9 in the display, 5 cards each.
        The board is pinned inline in the options, so a record replays without its file."""
        options = dict(options, board=load_board(options["board"]).layout())
        n = num_players
        rng = Rng(seed)
        druid_deck = [c for c in RANGE_C for _ in range(DRUID_CARDS_PER_COLOUR)]
        rng.shuffle(druid_deck)
        experience_deck = [c for c in RANGE_C for _ in range(EXPERIENCE_CARDS_PER_COLOUR)]
        rng.shuffle(experience_deck)
        supply = [t for t in RANGE_P for _ in range(COPIES_PER_PART)]
        rng.shuffle(supply)
        parts = [[0] * NUM_PART_TYPES for _ in range(n)]
        for seat in range(n):
            for _ in range(START_PARTS):
                parts[seat][supply.pop()] += 1
        display = [0] * NUM_PART_TYPES
        for _ in range(DISPLAY_SIZE):
            display[supply.pop()] += 1
        state = cls(
            game=game, num_players=n, options=options, current=0, over=False,
            druids=[0] * NUM_COLOURS, druids_home=0,
            hands=[[0] * NUM_COLOURS for _ in range(n)], cards_held=[0] * n,
            experience=[[0] * NUM_COLOURS for _ in range(n)], experience_held=[0] * n,
            parts=parts, display=display, display_size=DISPLAY_SIZE, supply=supply,
            part_discards=[0] * NUM_PART_TYPES, num_part_discards=0,
            druid_deck=druid_deck, druid_discards=[0] * NUM_COLOURS,
            experience_deck=experience_deck, experience_discards=[0] * NUM_COLOURS,
            owed_colour=[-1] * n, phase=PLAY_PHASE, pending=0, round=1, final_round=False,
            ender=-1, end_reason="", end_queue=[], rng=rng.state,
        )
        state._deal(0, QUIET)
        return state

    # -- whose turn -----------------------------------------------------------------------------
    @property
    def is_terminal(self) -> bool:
        return self.over

    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        phase = self.phase
        p = self.current
        if phase == PLAY_PHASE:
            hand = self.hands[p]
            experience = self.experience[p]
            owed = self.owed_colour[p]
            if owed >= 0:
                return list(PLAYS_UPTO[owed][hand[owed]][experience[owed]])
            out: list[Action] = []
            for c in RANGE_C:
                if hand[c]:
                    out += PLAYS_UPTO[c][hand[c]][experience[c]]
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
        if self.experience_held[p] >= 1:
            for g in RANGE_P:
                if mine[g]:
                    row = SWAP[g]
                    out.extend(row[t] for t in shown if t != g)
        if self.experience_held[p] >= 2:
            out.extend(BUY[t] for t in shown)
        out.append(DONE)
        return out

    def legal_action_ids(self) -> list[int]:
        return SPACE.action_ids(self.legal_actions())

    def action_id(self, action: object) -> int:
        return SPACE.action_id(action)

    def action_from_id(self, action_id: object) -> Action:
        return SPACE.action_from_id(action_id)

    # -- checking -------------------------------------------------------------------------------
    def _check(self, action: object) -> None:
        if SPACE.id_or_none(action) is None:
            raise IllegalAction("C5", f"{action!r} is not a Celtica action")
        action = cast(Action, action)
        phase = self.phase
        p = self.current
        if phase == END_PHASE:
            if not isinstance(action, (Swap, Buy, Done)):
                raise IllegalAction("C11", "the game is in its end phase: swap, buy or done")
        elif type(action) is not PHASE_KIND[phase]:
            rule = PHASE_RULE[phase]
            wanted = PHASES[phase].replace("_", " ")
            raise IllegalAction(rule, f"now the player must {wanted}, not {action.to_json()['type']}")
        match action:
            case Play(c, cards, experience):
                owed = self.owed_colour[p]
                if owed >= 0 and c != owed:
                    raise IllegalAction("C8", f"the card drawn at the cult site ({COLOURS[owed]}) must be played now")
                if cards > self.hands[p][c]:
                    raise IllegalAction("C5", f"only {self.hands[p][c]} {COLOURS[c]} druid card(s) in hand")
                if experience > self.experience[p][c]:
                    raise IllegalAction("C5", f"only {self.experience[p][c]} {COLOURS[c]} experience card(s) in hand")
            case Take(t):
                if not self.display[t]:
                    raise IllegalAction("C6", f"no {PARTS[t]} in the display")
            case GiveUp(t):
                if not self.parts[p][t]:
                    raise IllegalAction("C7", f"the player has no {PARTS[t]} to give up")
            case Swap(g, t):
                if self.experience_held[p] < 1:
                    raise IllegalAction("C11", "a swap costs one experience card")
                if g == t:
                    raise IllegalAction("C11", "a swap must exchange different parts")
                if not self.parts[p][g]:
                    raise IllegalAction("C11", f"the player has no {PARTS[g]} to swap")
                if not self.display[t]:
                    raise IllegalAction("C11", f"no {PARTS[t]} in the display")
            case Buy(t):
                if self.experience_held[p] < 2:
                    raise IllegalAction("C11", "taking a part costs two experience cards")
                if not self.display[t]:
                    raise IllegalAction("C11", f"no {PARTS[t]} in the display")
            case Cult(draw):
                if draw and not (self.druid_deck or any(self.druid_discards)):
                    raise IllegalAction("C8", "no druid card left to draw")
            case Done():
                pass

    # -- performing -----------------------------------------------------------------------------
    def _do(self, action: Action, log: list[Event] | None = None) -> None:
        p = self.current
        events = QUIET if log is None else CelticaEvents(log)
        # Bare class patterns: capturing fields through __match_args__ costs the pure build's
        # playouts a tenth of their speed.
        match action:
            case Play():
                self._play(p, action, events)
            case Take():
                t = action.part
                self.display[t] -= 1
                self.display_size -= 1
                self.parts[p][t] += 1
                events.took(p, t)
                self.pending -= 1
                if self.pending == 0 or self.display_size == 0:
                    self._finish_find(p, events)
            case GiveUp():
                t = action.part
                self.parts[p][t] -= 1
                self.part_discards[t] += 1
                self.num_part_discards += 1
                events.gave_up(p, t)
                self.pending -= 1
                if self.pending == 0:
                    self._finish_ruin(p, events)
            case Cult():
                if action.draw:
                    card = self._draw_druid(events)
                    self.hands[p][card] += 1
                    self.cards_held[p] += 1
                    self.owed_colour[p] = card
                    events.cult_drew(p, card)
                else:
                    events.cult_passed(p)
                self._end_turn(p, events)
            case Swap():
                g, t = action.give, action.take
                self._spend_experience(p, 1)
                mine = self.parts[p]
                mine[g] -= 1
                mine[t] += 1
                self.display[t] -= 1
                self.display[g] += 1
                events.swapped(p, g, t)
                self._after_end_action(p, events)
            case Buy():
                t = action.part
                self._spend_experience(p, 2)
                self.parts[p][t] += 1
                self.display[t] -= 1
                self.display_size -= 1
                events.bought(p, t)
                self._after_end_action(p, events)
            case Done():
                events.end_done(p)
                self._next_end_player(events)

    def step(self, action: Action) -> None:
        """The unchecked fast path (State.step), one call less where the state is compiled."""
        self._do(action, None)

    def _play(self, p: int, a: Play, events: CelticaEvents) -> None:
        """C5: discard the cards, move the druid, let the final location act."""
        c, k, e = a.colour, a.cards, a.experience
        self.hands[p][c] -= k
        self.cards_held[p] -= k
        self.druid_discards[c] += k
        if e:
            self.experience[p][c] -= e
            self.experience_held[p] -= e
            self.experience_discards[c] += e
        self.owed_colour[p] = -1
        start = self.druids[c]
        goal = self.goal
        if start == goal:
            # C5: a druid in the goal does not move; the cards are simply spent.
            events.no_effect(p, c, k, e)
            self._end_turn(p, events)
            return
        dest = start + k + e
        if dest > goal:
            dest = goal  # C5: a move that would pass the goal ends on it
        self.druids[c] = dest
        events.played(self, p, c, k, e, start, dest)
        if dest == goal:
            self.druids_home += 1
            events.druid_home(p, c)
            if not self.final_round:
                self.final_round = True  # C10: the game ends with this round
                events.final_round(p)
        where = self.site_actions[dest]
        number = self.site_numbers[dest]
        if where == FIND:
            n = number if number < self.display_size else self.display_size
            if n:
                self.phase = TAKE_PHASE
                self.pending = n
            else:
                self._finish_find(p, events)
        elif where == RUIN:
            have = sum(self.parts[p])
            n = number if number < have else have
            if n:
                self.phase = GIVE_PHASE
                self.pending = n
            else:
                self._finish_ruin(p, events)
        elif where == CULT_SITE and (self.druid_deck or any(self.druid_discards)):
            self.phase = CULT_PHASE
        else:
            self._end_turn(p, events)

    def _finish_find(self, p: int, events: CelticaEvents) -> None:
        """C6, C10: refill the display; the game ends at once if parts cannot be drawn."""
        self.pending = 0
        if self._refill(events):
            self._end_turn(p, events)
        else:
            self._end_game(p, "parts", events)

    def _finish_ruin(self, p: int, events: CelticaEvents) -> None:
        """C7: after giving up parts, draw one experience card (none if none is left)."""
        self.pending = 0
        if not self.experience_deck and any(self.experience_discards):
            self._reshuffle_experience(events)
        if self.experience_deck:
            card = self.experience_deck.pop()
            self.experience[p][card] += 1
            self.experience_held[p] += 1
            events.experience_drawn(p, card)
        else:
            events.experience_none(p)
        self._end_turn(p, events)

    def _end_turn(self, p: int, events: CelticaEvents) -> None:
        """Pass the turn on (C9), or end the game when all five druids are home (C10)."""
        if self.druids_home == NUM_COLOURS:
            self._end_game(p, "all_home", events)
            return
        cards_held = self.cards_held
        if not cards_held[p]:
            events.player_out(p)
        n = self.num_players
        for i in range(1, n + 1):
            q = (p + i) % n
            if cards_held[q]:
                self.current = q
                self.phase = PLAY_PHASE
                return
        # C9: everybody is out; p played the last druid card.
        if self.final_round:
            self._end_game(p, "goal", events)
        else:
            self.round += 1
            self._deal((p + 1) % n, events)

    def _deal(self, starter: int, events: CelticaEvents) -> None:
        """C9: each player draws 5 druid cards; `starter` begins the round."""
        n = self.num_players
        events.round_start(starter, self.round)
        for i in range(n):
            seat = (starter + i) % n
            hand = self.hands[seat]
            drawn = []
            for _ in range(HAND_SIZE):
                card = self._draw_druid(events)
                hand[card] += 1
                drawn.append(card)
            self.cards_held[seat] += HAND_SIZE
            events.dealt(seat, drawn)
        self.current = starter
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

    def _draw_druid(self, events: CelticaEvents) -> int:
        """The top druid card; the discards are reshuffled when the deck is empty (C9)."""
        if not self.druid_deck:
            self.druid_deck = self._shuffled(self.druid_discards)
            events.reshuffled("druid")
        return self.druid_deck.pop()

    def _reshuffle_experience(self, events: CelticaEvents) -> None:
        self.experience_deck = self._shuffled(self.experience_discards)
        events.reshuffled("experience")

    def _refill(self, events: CelticaEvents) -> bool:
        """Fill the display to 9 (C6); False if parts had to be drawn and none were left (C10)."""
        need = DISPLAY_SIZE - self.display_size
        if not need:
            return True
        drawn = []
        display = self.display
        supply = self.supply
        ok = True
        for _ in range(need):
            if not supply:
                if not self.num_part_discards:
                    ok = False
                    break
                self.supply = supply = self._shuffled(self.part_discards)
                self.num_part_discards = 0
                events.reshuffled("parts")
            t = supply.pop()
            display[t] += 1
            drawn.append(t)
        self.display_size += len(drawn)
        events.display_refilled(drawn)
        return ok

    def _spend_experience(self, p: int, count: int) -> None:
        """C11: spend experience cards (colours do not matter at the end; lowest first)."""
        ex = self.experience[p]
        for c in RANGE_C:
            while count and ex[c]:
                ex[c] -= 1
                self.experience_discards[c] += 1
                self.experience_held[p] -= 1
                count -= 1

    # -- the end ----------------------------------------------------------------------------------
    def _end_game(self, p: int, reason: str, events: CelticaEvents) -> None:
        """C10/C11: the game is over; the end phase starts left of the player who ended it."""
        self.ender = p
        self.end_reason = reason
        self.phase = END_PHASE
        self.pending = 0
        n = self.num_players
        self.end_queue = [(p + 1 + i) % n for i in range(n)]
        events.game_end(p, reason)
        self._start_end_turn(events)

    def _can_spend(self, q: int) -> bool:
        """Whether seat q has any end-phase action besides done."""
        held = self.experience_held[q]
        if held >= 2 and self.display_size:
            return True
        if held >= 1:
            d = self.display
            for g, have in enumerate(self.parts[q]):
                if have:
                    for t in RANGE_P:
                        if d[t] and t != g:
                            return True
        return False

    def _start_end_turn(self, events: CelticaEvents) -> None:
        queue = self.end_queue
        while queue and not self._can_spend(queue[0]):
            queue.pop(0)
        if queue:
            self.current = queue[0]
            self.phase = END_PHASE
        else:
            self.over = True  # the end phase is done: `current` stays the last seat to act
            events.final(self)

    def _after_end_action(self, p: int, events: CelticaEvents) -> None:
        if not self._can_spend(p):
            self._next_end_player(events)

    def _next_end_player(self, events: CelticaEvents) -> None:
        """C11: refill the display (if possible) before the next player."""
        self.end_queue.pop(0)
        self._refill(events)
        self._start_end_turn(events)

    # -- results --------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return [min(mine) for mine in self.parts]

    def score_breakdown(self) -> list[dict[str, Any]]:
        return [dict(scoring.breakdown(mine)) for mine in self.parts]

    def standings(self) -> list[list[int]]:
        """Seats grouped best first under C12 (ties share a group)."""
        return scoring.ranking(self.parts)

    def winners(self) -> list[int]:
        if not self.over:
            return []
        return self.standings()[0]

    # -- information (view.py) and loading (integrity.py) ------------------------------------------
    def view(self, player: object) -> CelticaView:
        return view.view(self, player)

    def determinize(self, observer: object, rng: Rng) -> Self:
        return view.determinize(self, observer, rng)

    def validate(self) -> None:
        integrity.validate(self)
