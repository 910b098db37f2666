"""A Triominos position: racks, pool, board, turn, scores; the rules of a turn and a round."""

from __future__ import annotations

from typing import Any

from meeple.core.errors import IllegalAction
from meeple.core.protocol import Event, State, check_seat, winners_by_key
from meeple.core.rng import Rng

from .actions import DRAW, PASS, STOP, Action, Draw, Pass, Place, Stop
from .board import Board
from .geometry import NUM_WINDOW, ORIGIN, UP, WINDOW_CELLS, WINDOW_INDEX, cell_xyd
from .scoring import (
    BONUS_NAME,
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
from .tiles import NAME, NUM_TILES, SUM, shown


def rack_size(num_players: int) -> int:
    """M8: 9 tiles each with 2 players, 7 with 3 or 4."""
    return 9 if num_players == 2 else 7


class TriominosState(State):
    """One game of Triominos (one round, or a match of rounds). Rules as implemented:
    docs/games/triominos.md; fields are documented inline."""

    __slots__ = (
        "game", "num_players", "options", "rng", "round", "pool", "racks", "board", "player",
        "draws", "last_drawn", "idle", "drawn", "opening", "opener", "totals", "parts",
        "over_target", "results", "_drawn_only", "_target", "_match",
    )

    def __init__(self, game: Any, num_players: int, options: dict[str, Any]) -> None:
        self.game = game
        self.num_players = num_players
        self.options = options
        self._drawn_only: bool = options["drawn_tile_only"]
        self._match: bool = options["match"]
        self._target: int = options["target"]
        self.rng = 0  # Rng state for later rounds (match mode)
        self.round = 0
        self.pool: list[int] = []  # hidden order; draws take the last tile
        self.racks: list[list[int]] = [[] for _ in range(num_players)]
        self.board = Board()
        self.player = 0  # -1 once the game is over
        self.draws = 0  # tiles drawn this turn (M6)
        self.last_drawn = -1  # the tile drawn last this turn (drawn_tile_only)
        self.idle = 0  # turns in a row ended without placing while the pool was empty (M9)
        self.drawn = [0] * num_players  # tiles each seat drew this round after the opening draw
        self.opening: list[list[list[int]]] = []  # this round's M8 draws: [[seat, tile], ...] per go
        self.opener = 0
        self.totals = [0] * num_players
        self.parts: list[list[list[int]]] = []  # per round, per seat, one int per PARTS entry
        self.over_target = False  # M10: some total exceeded the target at some point
        self.results: list[dict[str, Any]] = []  # per finished round: how it ended

    # -- set-up -------------------------------------------------------------------------------
    def start_round(self, log: list[Event] | None) -> None:
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
        opening: list[list[list[int]]] = []
        while True:
            if len(pool) < len(contenders):
                pool.extend(aside)
                aside.clear()
                rng.shuffle(pool)
            go = [[seat, pool.pop()] for seat in contenders]
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
        self.opening = opening
        self.opener = self.player = contenders[0]
        self.draws = 0
        self.last_drawn = -1
        self.idle = 0
        self.drawn = [0] * n
        self.parts.append([[0] * len(PARTS) for _ in range(n)])
        if log is not None:
            log.append(Event("round_start", None, {"round": self.round}))
            for go in opening:
                for seat, t in go:
                    log.append(Event("opening_draw", seat, {"who": seat, "tile": NAME[t], "sum": SUM[t]}))
            log.append(Event("opener", self.player, {"who": self.player}))

    # -- whose turn -----------------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.player < 0 else self.player

    def legal_actions(self) -> list[Action]:
        p = self.player
        if p < 0:
            return []
        board = self.board
        if not board.history:
            return [Place(t, ORIGIN, 0) for t in sorted(self.racks[p])]  # M8: any rack tile
        fits = board.fits
        acts: list[Action] = []
        tiles = (self.last_drawn,) if self._drawn_only and self.draws else sorted(self.racks[p])
        for t in tiles:
            for c, r in fits[t].items():
                acts.append(Place(t, c, r))
        if self.draws < MAX_DRAWS:
            acts.append(DRAW if self.pool else PASS)
        else:
            acts.append(STOP)
        return acts

    def action_id(self, action: Action) -> int:
        if type(action) is Place:
            return action.tile * NUM_WINDOW + WINDOW_INDEX[action.cell]
        if type(action) is Draw:
            return NUM_TILES * NUM_WINDOW
        if type(action) is Pass:
            return NUM_TILES * NUM_WINDOW + 1
        if type(action) is Stop:
            return NUM_TILES * NUM_WINDOW + 2
        raise IllegalAction("ids", f"{action!r} is not a Triominos action")

    def action_from_id(self, action_id: int) -> Action:
        base = NUM_TILES * NUM_WINDOW
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not 0 <= action_id < base + 3:
            raise IllegalAction("ids", f"no action id {action_id!r} (ids run 0..{base + 2})")
        if action_id >= base:
            return (DRAW, PASS, STOP)[action_id - base]
        t, w = divmod(action_id, NUM_WINDOW)
        c = WINDOW_CELLS[w]
        return Place(t, c, self.board.fits[t].get(c, 0))

    # -- checking -------------------------------------------------------------------------------
    def _check(self, action: Action) -> None:
        p = self.player
        kind = type(action)
        if kind is Place:
            t, c, r = action
            if not (0 <= t < NUM_TILES) or t not in self.racks[p]:
                raise IllegalAction("M6", f"tile {NAME[t] if 0 <= t < NUM_TILES else t} is not on your rack")
            board = self.board
            if board.empty:
                if c != ORIGIN or r != 0:
                    raise IllegalAction("M8", "the opening tile goes on the origin cell (0,0) up, rotation 0")
                return
            if self._drawn_only and self.draws and t != self.last_drawn:
                raise IllegalAction("M6", "with drawn_tile_only, after a draw only the drawn tile may be placed")
            if not board.fits_at(t, c, r):
                raise IllegalAction("M2", board.why_not(t, c, r))
            return
        if self.board.empty:
            raise IllegalAction("M8", "the opener must place a tile")
        if kind is Draw:
            if self.draws >= MAX_DRAWS:
                raise IllegalAction("M6", "at most three draws per turn")
            if not self.pool:
                raise IllegalAction("M7", "the pool is empty: place a tile or pass")
            return
        if kind is Pass:
            if self.draws >= MAX_DRAWS:
                raise IllegalAction("M6", "after the third draw the turn ends with stop (-10), not pass")
            if self.pool:
                raise IllegalAction("M7", "passing is only possible when the pool is empty: draw instead")
            return
        if kind is Stop:
            if self.draws < MAX_DRAWS:
                raise IllegalAction("M6", "stop ends a turn only after the third draw")
            return
        raise IllegalAction("rules", f"{action!r} is not a Triominos action")

    # -- doing ----------------------------------------------------------------------------------
    def _score(self, seat: int, part: int, amount: int) -> None:
        self.totals[seat] += amount
        self.parts[-1][seat][part] += amount
        if self.totals[seat] > self._target:
            self.over_target = True  # M10: strictly more than the target

    def _do(self, action: Action, log: list[Event] | None) -> None:
        p = self.player
        kind = type(action)
        if kind is Place:
            t, c, r = action
            self.racks[p].remove(t)
            bonus = self.board.place(t, c, r)
            self._score(p, TILES, SUM[t])  # M3
            if bonus:
                self._score(p, BONUS_PART[bonus], BONUS_POINTS[bonus])  # M4, M5
            self.idle = 0
            if log is not None:
                x, y, d = cell_xyd(c)
                log.append(
                    Event(
                        "place",
                        p,
                        {
                            "who": p,
                            "tile": NAME[t],
                            "x": x,
                            "y": y,
                            "dir": "up" if d == UP else "down",
                            "points": SUM[t] + (BONUS_POINTS[bonus] if bonus else 0),
                        },
                    )
                )
                if bonus:
                    log.append(Event(BONUS_NAME[bonus], p, {"who": p, "points": BONUS_POINTS[bonus]}))
            if not self.racks[p]:
                self._go_out(p, log)
            else:
                self._next_turn()
        elif kind is Draw:
            t = self.pool.pop()
            self.racks[p].append(t)
            self.draws += 1
            self.drawn[p] += 1
            self.last_drawn = t
            self._score(p, DRAWS, -DRAW_PENALTY)  # M6
            if log is not None:
                log.append(
                    Event("draw", p, {"who": p, "penalty": DRAW_PENALTY}, secret={"tile": NAME[t]}, visible_to=(p,))
                )
        elif kind is Pass:
            if log is not None:
                log.append(Event("pass", p, {"who": p}))  # M7
            self._end_idle_turn(log)
        else:
            self._score(p, NO_PLAY, -STOP_PENALTY)  # M6
            if log is not None:
                log.append(Event("stop", p, {"who": p, "penalty": STOP_PENALTY}))
            self._end_idle_turn(log)

    def _next_turn(self) -> None:
        self.player = (self.player + 1) % self.num_players
        self.draws = 0
        self.last_drawn = -1

    def _end_idle_turn(self, log: list[Event] | None) -> None:
        """A turn ended without a placement; M9: the round is blocked once every player in turn
        has done so with the pool empty."""
        if self.pool:
            self.idle = 0
        else:
            self.idle += 1
            if self.idle >= self.num_players:
                self._blocked(log)
                return
        self._next_turn()

    def _go_out(self, p: int, log: list[Event] | None) -> None:
        """M9: +25 and the sum of every opponent's rack."""
        racks = sum(SUM[t] for seat, rack in enumerate(self.racks) if seat != p for t in rack)
        self._score(p, GOING_OUT, OUT_BONUS)
        self._score(p, OPP_RACKS, racks)
        if log is not None:
            log.append(Event("went_out", p, {"who": p, "bonus": OUT_BONUS, "racks": racks}))
        self.results.append({"round": self.round, "end": "out", "player": p})
        self._end_round(log)

    def _blocked(self, log: list[Event] | None) -> None:
        """M9: nobody can (or will) place and the pool is empty: each loses their rack's sum."""
        lost = []
        for seat, rack in enumerate(self.racks):
            value = sum(SUM[t] for t in rack)
            self._score(seat, RACK_LEFT, -value)
            lost.append(value)
        if log is not None:
            log.append(Event("blocked", None, {"racks": lost}))
        self.results.append({"round": self.round, "end": "blocked", "player": None})
        self._end_round(log)

    def _end_round(self, log: list[Event] | None) -> None:
        """Single round: the game ends. M10 match: next round unless a total passed the target."""
        if log is not None:
            log.append(Event("round_end", None, {"round": self.round, "scores": list(self.totals)}))
        if self._match and not self.over_target:
            self.start_round(log)
            return
        self.player = -1
        self.draws = 0
        self.last_drawn = -1
        if log is not None:
            log.append(Event("game_end", None, {"winners": self.winners(), "scores": list(self.totals)}))

    # -- results --------------------------------------------------------------------------------
    def scores(self) -> list[int]:
        return list(self.totals)

    def score_breakdown(self) -> list[dict[str, Any]]:
        return [breakdown(self.parts, self.totals, seat) for seat in range(self.num_players)]

    def winners(self) -> list[int]:
        if self.player >= 0:
            return []
        return winners_by_key(self.totals)

    # -- information ----------------------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any]:
        check_seat(self, player)
        board = []
        for t, c, r in self.board.history:
            x, y, d = cell_xyd(c)
            board.append({"tile": NAME[t], "x": x, "y": y, "dir": "up" if d == UP else "down", "rot": r, "corners": list(shown(t, r))})
        out: dict[str, Any] = {
            "game": "triominos",
            "num_players": self.num_players,
            "seat": player,
            "options": dict(self.options),
            "round": self.round,
            "current_player": self.current_player,
            "draws_this_turn": self.draws,
            "pool": len(self.pool),
            "rack_sizes": [len(r) for r in self.racks],
            "drawn_this_round": list(self.drawn),
            "board": board,
            "open": self.open_cells(),
            "scores": list(self.totals),
            "breakdown": self.score_breakdown(),
            "opening": [[[seat, NAME[t]] for seat, t in go] for go in self.opening],
            "opener": self.opener,
            "results": [dict(r) for r in self.results],
            "winners": self.winners(),
        }
        if player is not None:
            out["rack"] = [NAME[t] for t in sorted(self.racks[player])]
            if player == self.player and self.last_drawn >= 0:
                out["last_drawn"] = NAME[self.last_drawn]
        return out

    def open_cells(self) -> list[list[Any]]:
        """The empty cells next to the board as [x, y, "up"|"down"], top row first, then left to
        right (public: they follow from the board)."""
        cells = sorted((-y, 2 * x + y + d, x, y, d) for x, y, d in map(cell_xyd, self.board.open))
        return [[x, y, "up" if d == UP else "down"] for _, _, x, y, d in cells]

    def determinize(self, observer: int, rng: Rng) -> "TriominosState":
        """Re-deal every tile the observer cannot see (opponents' racks and the pool, sizes kept).

        What the observer knows and the sample keeps: own rack, the board, rack sizes, pool size,
        and that this round's opening-draw tiles went back into the pool after the racks were
        dealt, so an opponent can hold at most as many of them as tiles drawn since (M8)."""
        check_seat(self, observer, allow_none=False)
        s = self.clone()
        opponents = [j for j in range(self.num_players) if j != observer]
        # Sorted first: the sample must depend on what the observer knows, not on the hidden order.
        unseen = sorted([t for j in opponents for t in self.racks[j]] + self.pool)
        rng.shuffle(unseen)
        opened = {t for go in self.opening for _, t in go}
        free = {j: len(self.racks[j]) for j in opponents}
        cap = {j: min(len(self.racks[j]), self.drawn[j]) for j in opponents}
        pool_free = len(self.pool)
        racks: dict[int, list[int]] = {j: [] for j in opponents}
        pool: list[int] = []
        rest = []
        for t in unseen:
            if t not in opened:
                rest.append(t)
                continue
            weights = [(j, min(cap[j], free[j])) for j in opponents]
            total = pool_free + sum(w for _, w in weights)
            pick = rng.below(total)
            if pick < pool_free:
                pool.append(t)
                pool_free -= 1
                continue
            pick -= pool_free
            for j, w in weights:
                if pick < w:
                    racks[j].append(t)
                    cap[j] -= 1
                    free[j] -= 1
                    break
                pick -= w
        for j in opponents:
            need = free[j]
            racks[j].extend(rest[:need])
            del rest[:need]
            s.racks[j] = racks[j]
        pool.extend(rest)
        rng.shuffle(pool)
        s.pool = pool
        s.rng = rng.next64()  # later rounds' shuffles are unknown too
        if s.player >= 0 and s.player != observer and s.last_drawn >= 0:
            s.last_drawn = rng.choice(s.racks[s.player])
        return s

    # -- copying and serialization --------------------------------------------------------------
    def clone(self) -> "TriominosState":
        s = TriominosState.__new__(TriominosState)
        s.game = self.game
        s.num_players = self.num_players
        s.options = self.options
        s._drawn_only = self._drawn_only
        s._match = self._match
        s._target = self._target
        s.rng = self.rng
        s.round = self.round
        s.pool = self.pool[:]
        s.racks = [r[:] for r in self.racks]
        s.board = self.board.clone()
        s.player = self.player
        s.draws = self.draws
        s.last_drawn = self.last_drawn
        s.idle = self.idle
        s.drawn = self.drawn[:]
        s.opening = self.opening  # replaced, never mutated
        s.opener = self.opener
        s.totals = self.totals[:]
        s.parts = [[row[:] for row in rnd] for rnd in self.parts]
        s.over_target = self.over_target
        s.results = self.results[:]
        return s

    def to_json(self) -> dict[str, Any]:
        board = []
        for t, c, r in self.board.history:
            x, y, d = cell_xyd(c)
            board.append([NAME[t], x, y, d, r])
        return {
            "game": "triominos",
            "num_players": self.num_players,
            "options": dict(self.options),
            "rng": self.rng,
            "round": self.round,
            "pool": [NAME[t] for t in self.pool],
            "racks": [[NAME[t] for t in rack] for rack in self.racks],
            "board": board,
            "player": self.player,
            "draws": self.draws,
            "last_drawn": NAME[self.last_drawn] if self.last_drawn >= 0 else None,
            "idle": self.idle,
            "drawn": list(self.drawn),
            "opening": [[[seat, NAME[t]] for seat, t in go] for go in self.opening],
            "opener": self.opener,
            "totals": list(self.totals),
            "parts": [[list(row) for row in rnd] for rnd in self.parts],
            "over_target": self.over_target,
            "results": [dict(r) for r in self.results],
        }
