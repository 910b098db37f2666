"""A Triominos position and the rules of a turn, a round and a match (M6-M10)."""

from __future__ import annotations

from typing import Any, Self, cast

from meeple.core.errors import IllegalAction
from meeple.core.protocol import Event, Game, winners_by_key
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.core.statefields import Derived
from meeple.games.triominos import integrity, view
from meeple.games.triominos.actions import DRAW, PASS, PLACES, SPACE, STOP, Action, Draw, Pass, Place, Stop, placement
from meeple.games.triominos.components import NAME, NUM_TILES, SUM
from meeple.games.triominos.events import QUIET, TriominosEvents
from meeple.games.triominos.geometry import NUM_CELLS, ORIGIN
from meeple.games.triominos.placements import Board
from meeple.games.triominos.scoring import (
    BONUS_PART,
    BONUS_POINTS,
    DRAW_PENALTY,
    DRAWS,
    GOING_OUT,
    MAX_DRAWS,
    NO_PLAY,
    OPP_RACKS,
    OUT_BONUS,
    PARTS,
    RACK_LEFT,
    STOP_PENALTY,
    TILES,
    breakdown,
)
from meeple.games.triominos.view_types import TriominosView


def rack_size(num_players: int) -> int:
    """M8: 9 tiles each with 2 players, 7 with 3 or 4."""
    return 9 if num_players == 2 else 7


class TriominosState(State[Action]):
    """One game of Triominos (one round, or a match of rounds). Rules as implemented:
    docs/games/triominos.md. Tiles are their index in components.NUMS."""

    rng: int  # Rng state for the deals of later rounds (match mode)
    round: int  # the round being played, from 1
    pool: list[int]  # tiles not dealt, in hidden order; draws take the last one
    racks: list[list[int]]  # each seat's tiles
    board: Board  # this round's placed tiles and their bookkeeping (M2-M5)
    draws: int  # tiles drawn this turn (M6)
    last_drawn: int  # the tile drawn last this turn, -1 if none (drawn_tile_only)
    idle: int  # turns in a row ended without placing while the pool was empty (M9)
    drawn: list[int]  # tiles each seat drew this round after the opening draw
    opening: tuple[tuple[tuple[int, int], ...], ...]  # this round's M8 draws: per go, (seat, tile)s
    opener: int  # the seat that opened this round (M8)
    totals: list[int]  # each seat's score over the rounds
    parts: list[list[list[int]]]  # per round, per seat, one amount per scoring.PARTS entry
    over_target: bool  # M10: some total exceeded the target at some point
    results: list[dict[str, Any]]  # per finished round: {"round", "end": "out"|"blocked", "player"}
    drawn_tile_only: Derived[bool]  # option (M6 variant), kept here for the legal-move loop
    match: Derived[bool]  # option (M10): rounds repeat until a total exceeds the target
    target: Derived[int]  # option (M10)
    __slots__ = tuple(__annotations__)  # the fields above: the pure build's instances have no dict

    def __post_init__(self) -> None:
        self.drawn_tile_only = self.options["drawn_tile_only"]
        self.match = self.options["match"]
        self.target = self.options["target"]

    # -- set-up -------------------------------------------------------------------------------
    @classmethod
    def initial(cls, game: Game[Any, Any], num_players: int, seed: int, options: dict[str, Any]) -> Self:
        """A new game: the first round dealt from `seed`."""
        state = cls(
            game=game, num_players=num_players, options=options, current=0, over=False, rng=seed, round=0,
            pool=[], racks=[], board=Board(), draws=0, last_drawn=-1, idle=0, drawn=[], opening=(), opener=0,
            totals=[0] * num_players, parts=[], over_target=False, results=[],
        )
        state.start_round(QUIET)
        return state

    def start_round(self, events: TriominosEvents) -> None:
        """Deal, then M8's opening draw: highest sum opens, ties among the highest redraw, the
        drawn tiles go back into the pool (which is shuffled again so their places are hidden)."""
        rng = Rng(self.rng)
        n = self.num_players
        tiles = list(range(NUM_TILES))
        rng.shuffle(tiles)
        k = rack_size(n)
        self.racks = [tiles[i * k:(i + 1) * k] for i in range(n)]
        pool = tiles[n * k:]
        contenders = list(range(n))
        aside: list[int] = []
        opening: list[tuple[tuple[int, int], ...]] = []
        while True:
            if len(pool) < len(contenders):
                pool.extend(aside)
                aside.clear()
                rng.shuffle(pool)
            go = tuple([(seat, pool.pop()) for seat in contenders])
            aside.extend(t for _, t in go)
            opening.append(go)
            best = max(SUM[t] for _, t in go)
            contenders = [seat for seat, t in go if SUM[t] == best]
            if len(contenders) == 1:
                break
        pool.extend(aside)
        rng.shuffle(pool)
        self.rng = rng.state
        self.pool = pool
        self.round += 1
        self.board = Board()
        self.opening = tuple(opening)
        self.opener = self.current = contenders[0]
        self.draws = 0
        self.last_drawn = -1
        self.idle = 0
        self.drawn = [0] * n
        self.parts.append([[0] * len(PARTS) for _ in range(n)])
        events.round_start(self.round)
        events.opening_draws(opening)
        events.opener(self.current)

    # -- whose turn, and what they may do -----------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        p = self.current
        board = self.board
        if not board.history:
            return [placement(t, ORIGIN, 0) for t in sorted(self.racks[p])]  # M8: any rack tile
        fits = board.fits
        acts: list[Action] = []
        tiles = (self.last_drawn,) if self.drawn_tile_only and self.draws else sorted(self.racks[p])
        made = PLACES
        for t in tiles:
            first = t * NUM_CELLS
            for c, r in fits[t].items():
                action = made.get((first + c) * 3 + r)  # actions.place_key, inlined: the hot loop
                acts.append(placement(t, c, r) if action is None else action)
        if self.draws < MAX_DRAWS:
            acts.append(DRAW if self.pool else PASS)
        else:
            acts.append(STOP)
        return acts

    def legal_action_ids(self) -> list[int]:
        return SPACE.action_ids(self.legal_actions())

    def action_id(self, action: object) -> int:
        return SPACE.action_id(action)

    def action_from_id(self, action_id: object) -> Action:
        """The id's action, a placement turned the way it fits (`Board.fits`; see actions)."""
        action = SPACE.action_from_id(action_id)
        if isinstance(action, Place):
            return placement(action.tile, action.cell, self.board.fits[action.tile].get(action.cell, 0))
        return action

    # -- checking -------------------------------------------------------------------------------
    def _check(self, action: object) -> None:
        p = self.current
        if SPACE.id_or_none(action) is None:
            raise IllegalAction("rules", f"{action!r} is not a Triominos action")
        move: Action = cast(Action, action)
        match move:
            case Place(t, c, r):
                self._check_place(p, t, c, r)
            case _ if self.board.empty:
                raise IllegalAction("M8", "the opener must place a tile")
            case Draw():
                if self.draws >= MAX_DRAWS:
                    raise IllegalAction("M6", "at most three draws per turn")
                if not self.pool:
                    raise IllegalAction("M7", "the pool is empty: place a tile or pass")
            case Pass():
                if self.draws >= MAX_DRAWS:
                    raise IllegalAction("M6", "after the third draw the turn ends with stop (-10), not pass")
                if self.pool:
                    raise IllegalAction("M7", "passing is only possible when the pool is empty: draw instead")
            case Stop():
                if self.draws < MAX_DRAWS:
                    raise IllegalAction("M6", "stop ends a turn only after the third draw")

    def _check_place(self, p: int, t: int, c: int, r: int) -> None:
        if t not in self.racks[p]:
            raise IllegalAction("M6", f"tile {NAME[t]} is not on your rack")
        board = self.board
        if board.empty:
            if c != ORIGIN or r != 0:
                raise IllegalAction("M8", "the opening tile goes on the origin cell (0,0) up, rotation 0")
            return
        if self.drawn_tile_only and self.draws and t != self.last_drawn:
            raise IllegalAction("M6", "with drawn_tile_only, after a draw only the drawn tile may be placed")
        if not board.fits_at(t, c, r):
            raise IllegalAction("M2", board.why_not(t, c, r))

    # -- doing ----------------------------------------------------------------------------------
    def _score(self, seat: int, part: int, amount: int) -> None:
        self.totals[seat] += amount
        self.parts[-1][seat][part] += amount
        if self.totals[seat] > self.target:
            self.over_target = True  # M10: strictly more than the target

    def _do(self, action: Action, log: list[Event] | None) -> None:
        p = self.current
        events = QUIET if log is None else TriominosEvents(log)
        # Bare class patterns: capturing fields through __match_args__ costs the pure build's
        # playouts a tenth of their speed.
        match action:
            case Place():
                self._place(p, action.tile, action.cell, action.rot, events)
            case Draw():
                t = self.pool.pop()
                self.racks[p].append(t)
                self.draws += 1
                self.drawn[p] += 1
                self.last_drawn = t
                self._score(p, DRAWS, -DRAW_PENALTY)  # M6
                events.draw(p, t)
            case Pass():
                events.passed(p)  # M7
                self._end_idle_turn(events)
            case Stop():
                self._score(p, NO_PLAY, -STOP_PENALTY)  # M6
                events.stop(p)
                self._end_idle_turn(events)

    def _place(self, p: int, t: int, c: int, r: int, events: TriominosEvents) -> None:
        """M2-M5: the tile leaves the rack for the board and scores; going out ends the round."""
        self.racks[p].remove(t)
        bonus = self.board.place(t, c, r)
        self._score(p, TILES, SUM[t])  # M3
        self.idle = 0
        events.place(p, t, c, bonus)
        if bonus:
            self._score(p, BONUS_PART[bonus], BONUS_POINTS[bonus])  # M4, M5
            events.bonus(p, bonus)
        if not self.racks[p]:
            self._go_out(p, events)
        else:
            self._next_turn()

    def _next_turn(self) -> None:
        self.current = (self.current + 1) % self.num_players
        self.draws = 0
        self.last_drawn = -1

    def _end_idle_turn(self, events: TriominosEvents) -> None:
        """A turn ended without a placement; M9: the round is blocked once every player in turn
        has done so with the pool empty."""
        if self.pool:
            self.idle = 0
        else:
            self.idle += 1
            if self.idle >= self.num_players:
                self._blocked(events)
                return
        self._next_turn()

    def _go_out(self, p: int, events: TriominosEvents) -> None:
        """M9: +25 and the sum of every opponent's rack."""
        racks = sum(SUM[t] for seat, rack in enumerate(self.racks) if seat != p for t in rack)
        self._score(p, GOING_OUT, OUT_BONUS)
        self._score(p, OPP_RACKS, racks)
        events.went_out(p, racks)
        self.results.append({"round": self.round, "end": "out", "player": p})
        self._end_round(events)

    def _blocked(self, events: TriominosEvents) -> None:
        """M9: nobody can (or will) place and the pool is empty: each loses their rack's sum."""
        lost = []
        for seat, rack in enumerate(self.racks):
            value = sum(SUM[t] for t in rack)
            self._score(seat, RACK_LEFT, -value)
            lost.append(value)
        events.blocked(lost)
        self.results.append({"round": self.round, "end": "blocked", "player": None})
        self._end_round(events)

    def _end_round(self, events: TriominosEvents) -> None:
        """Single round: the game ends. M10 match: next round unless a total passed the target."""
        events.round_end(self.round, self.totals)
        if self.match and not self.over_target:
            self.start_round(events)
            return
        self.over = True
        self.draws = 0
        self.last_drawn = -1
        events.game_end(self)

    # -- results --------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.totals)

    def score_breakdown(self) -> list[dict[str, Any]]:
        return [breakdown(self.parts, self.totals, seat) for seat in range(self.num_players)]

    def winners(self) -> list[int]:
        if not self.over:
            return []
        return winners_by_key(self.totals)

    # -- information and loading ----------------------------------------------------------------
    def view(self, player: object) -> TriominosView:
        return view.view(self, player)

    def determinize(self, observer: object, rng: Rng) -> Self:
        return view.determinize(self, observer, rng)

    def validate(self) -> None:
        integrity.validate(self)

