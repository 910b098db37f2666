"""Triqueta's game state and rules.

Hidden information lives only here: the towers' contents (T2: nobody knows them; the draw order
is fixed at setup, which is the same as drawing uniformly at random), each seat's face-down
tokens, the token a player is looking at, and tokens that left the game unseen (T6, T9).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.errors import IllegalAction, RecordError
from ...core.protocol import Event, State, check_seat, winners_by_key
from ...core.rng import Rng
from .actions import (
    ALL_MOVES,
    DISCARD,
    DRAW,
    DRAW_MOVE,
    KEEP,
    MOVE_ID,
    PLACE,
    TAKE,
    TAKE_MOVES,
    Move,
    discard_move,
    keep_move,
    place_move,
)
from .components import ANIMALS, MAX_FACE_DOWN, TOKENS_PER_ANIMAL, TOWERS, VALUES, all_tokens
from .scoring import animal_points, best_face_down_choice, collection_points

if TYPE_CHECKING:
    from .game import TriquetaGame


class TriquetaState(State):
    __slots__ = (
        "game", "num_players", "options", "seed", "duo", "towers", "round", "rows", "out",
        "players_in", "current", "rock", "trees", "counts", "face_down", "returned", "gone",
        "pending", "used_kind", "finished", "final",
    )

    # -- setup ----------------------------------------------------------------------------------
    @classmethod
    def new(cls, game: "TriquetaGame", num_players: int, seed: int, options: dict[str, Any]) -> "TriquetaState":
        tokens = all_tokens()
        Rng(seed).shuffle(tokens)
        s = cls.__new__(cls)
        s.game, s.num_players, s.options, s.seed = game, num_players, options, seed
        s.duo = bool(options.get("duo", False))
        # T2: four towers of 15; a draw pops the end of the current tower.
        s.towers = [tokens[i * 15:(i + 1) * 15] for i in range(TOWERS)]
        s.round = 0  # T3: round r (0-based) uses tower r; tower 0 is the one without a tree.
        s.rows = [[] for _ in range(num_players)]
        s.out = [False] * num_players
        s.players_in = num_players
        s.current = 0  # T1: seat 0 holds the starting rock and begins.
        s.rock = 0
        s.trees = [0] * num_players
        s.counts = [[0] * len(ANIMALS) for _ in range(num_players)]
        s.face_down = [[] for _ in range(num_players)]
        s.returned = [[] for _ in range(num_players)]  # T9: returned face down by their owner
        s.gone = []  # T6: left in a tower at a round's end, never seen
        s.pending = []  # tokens the current player drew and has not yet dealt with
        s.used_kind = ""  # T9: the kind of action already done with the first duo token
        s.finished = False
        s.final = None
        return s

    def clone(self) -> "TriquetaState":
        s = TriquetaState.__new__(TriquetaState)
        s.game, s.num_players, s.options, s.seed, s.duo = self.game, self.num_players, self.options, self.seed, self.duo
        s.towers = [t[:] for t in self.towers]
        s.round = self.round
        s.rows = [r if r is None else r[:] for r in self.rows]
        s.out = self.out[:]
        s.players_in = self.players_in
        s.current = self.current
        s.rock = self.rock
        s.trees = self.trees[:]
        s.counts = [c[:] for c in self.counts]
        s.face_down = [f[:] for f in self.face_down]
        s.returned = [r[:] for r in self.returned]
        s.gone = self.gone[:]
        s.pending = self.pending[:]
        s.used_kind = self.used_kind
        s.finished = self.finished
        s.final = self.final
        return s

    # -- turn structure -----------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.finished else self.current

    @property
    def is_terminal(self) -> bool:
        return self.finished

    def legal_actions(self) -> list[Move]:
        if self.finished:
            return []
        rows = self.rows
        pending = self.pending
        if not pending:
            # Action B is always possible; Action A only while the tower has tokens (T5).
            moves = [TAKE_MOVES[r] for r in range(len(rows)) if rows[r] is not None]
            if self.towers[self.round]:
                moves.append(DRAW_MOVE)
            return moves
        can_keep = len(self.face_down[self.current]) < MAX_FACE_DOWN
        used = self.used_kind
        moves = []
        for slot in range(len(pending)):
            if pending[slot] < 0:
                continue
            if used != PLACE:
                moves.extend(place_move(r, slot) for r in range(len(rows)) if rows[r] is not None)
            if can_keep and used != KEEP:
                moves.append(keep_move(slot))
            if self.duo and used != DISCARD:
                moves.append(discard_move(slot))
        return moves

    def action_id(self, action: Move) -> int:
        return MOVE_ID[action]

    def action_from_id(self, action_id: int) -> Move:
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not 0 <= action_id < len(ALL_MOVES):
            raise IllegalAction("ids", f"no Triqueta action id {action_id!r} (0 to {len(ALL_MOVES) - 1})")
        return ALL_MOVES[action_id]

    def _check(self, action: Any) -> None:
        if not isinstance(action, Move) or action not in MOVE_ID:
            raise IllegalAction("moves", f"{action!r} is not a Triqueta move")
        kind, row, slot = action
        rows = self.rows
        if kind in (TAKE, DRAW):
            if self.pending:
                raise IllegalAction("Action A", "you drew a token: place it in a row or keep it face down first")
            if kind == TAKE and (row >= len(rows) or rows[row] is None):
                raise IllegalAction("T5", f"row {row + 1} is not in play")
            if kind == DRAW and not self.towers[self.round]:
                raise IllegalAction("T5", "the current tower is empty: you must take a row")
            return
        if not self.pending:
            raise IllegalAction("Action A", "draw a token before placing or keeping one")
        if slot >= len(self.pending) or self.pending[slot] < 0:
            raise IllegalAction("T9", f"there is no drawn token in slot {slot + 1}")
        if kind == self.used_kind:
            raise IllegalAction("T9", "the two drawn tokens need two different actions")
        if kind == PLACE and (row >= len(rows) or rows[row] is None):
            raise IllegalAction("T5", f"row {row + 1} is not in play")
        if kind == KEEP and len(self.face_down[self.current]) >= MAX_FACE_DOWN:
            raise IllegalAction("T4", "you already keep 2 tokens face down")
        if kind == DISCARD and not self.duo:
            raise IllegalAction("T9", "returning a token to the box is only part of the duo variant")

    # -- performing moves -----------------------------------------------------------------------
    def _do(self, action: Move, log: list[Event] | None) -> None:
        kind = action[0]
        p = self.current
        if kind == DRAW:
            tower = self.towers[self.round]
            drawn = [tower.pop()]
            if self.duo and tower:
                drawn.append(tower.pop())
            self.pending = drawn
            self.used_kind = ""
            if log is not None:
                log.append(Event("draw", p, {"count": len(drawn)}, {"animals": drawn}, (p,)))
            return
        if kind == TAKE:
            self._take(p, action[1], log)
            return
        slot = action[2]
        token = self.pending[slot]
        if kind == PLACE:
            self.rows[action[1]].append(token)
            if log is not None:
                log.append(Event("place", p, {"animal": token, "row": action[1]}))
        elif kind == KEEP:
            self.face_down[p].append(token)
            if log is not None:
                log.append(Event("keep", p, {}, {"animal": token}, (p,)))
        else:
            self.returned[p].append(token)
            if log is not None:
                log.append(Event("discard", p, {}, {"animal": token}, (p,)))
        if len(self.pending) == 1:
            self.pending = []
        else:
            self.pending[slot] = -1
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

    def _take(self, p: int, row: int, log: list[Event] | None) -> None:
        taken = self.rows[row]
        counts = self.counts[p]
        for token in taken:
            counts[token] += 1
        self.rows[row] = None
        self.out[p] = True
        self.players_in -= 1
        if log is not None:
            log.append(Event("take", p, {"row": row, "animals": sorted(taken)}))
        if self.players_in:
            self._pass_turn(p)
            return
        # The last player takes the last row and the starting rock; the round ends.
        self.rock = p
        leftover = self.towers[self.round]
        self.gone.extend(leftover)  # T6: left unseen
        self.towers[self.round] = []
        if log is not None:
            log.append(Event("round_end", p, {"round": self.round + 1, "unseen": len(leftover)}))
        self.round += 1
        if self.round == TOWERS:
            self._finish(log)
            return
        self.trees[p] += 1  # T3: the rock holder takes the next tower's tree tile
        if log is not None:
            log.append(Event("tree", p, {"round": self.round + 1}))
        self.rows = [[] for _ in range(self.num_players)]
        self.out = [False] * self.num_players
        self.players_in = self.num_players
        self.current = p

    def _finish(self, log: list[Event] | None) -> None:
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
            if log is not None:
                log.append(
                    Event("reveal", seat, {"animals": sorted(added), "boxed": len(hidden) - len(added)})
                )
        self.final = final
        self.finished = True
        if log is not None:
            log.append(Event("game_end", None, {"scores": self.scores(), "winners": self.winners()}))

    # -- results ------------------------------------------------------------------------------
    def _public_points(self, seat: int) -> int:
        return collection_points(self.counts[seat]) + (1 if self.rock == seat else 0) + self.trees[seat]

    def _points_with_face_down(self, seat: int) -> int:
        """The score this seat would have if the game ended now (T7 applied): a live preview
        only its owner may see."""
        trial = list(self.counts[seat])
        hidden = self.face_down[seat]
        for index in best_face_down_choice(trial, hidden):
            trial[hidden[index]] += 1
        return collection_points(trial) + (1 if self.rock == seat else 0) + self.trees[seat]

    def scores(self) -> list[int]:
        """Visible score of each seat; once the game is over, the final score (T7 applied)."""
        return [self._public_points(seat) for seat in range(self.num_players)]

    def score_breakdown(self) -> list[dict[str, Any]]:
        rows = []
        for seat in range(self.num_players):
            counts = self.counts[seat]
            parts: dict[str, Any] = {a: animal_points(counts[i], VALUES[i]) for i, a in enumerate(ANIMALS)}
            parts["counts"] = {a: counts[i] for i, a in enumerate(ANIMALS)}
            parts["rock"] = 1 if self.rock == seat else 0
            parts["trees"] = self.trees[seat]
            if self.final is not None:
                parts["face_down_added"] = len(self.final[seat]["added"])
                parts["face_down_boxed"] = self.final[seat]["boxed"]
            parts["total"] = self._public_points(seat)
            rows.append(parts)
        return rows

    def winners(self) -> list[int]:
        """T8: highest score; tie -> most animal tokens; still tied -> all win."""
        if not self.finished:
            return []
        return winners_by_key([(self._public_points(s), sum(self.counts[s])) for s in range(self.num_players)])

    # -- information ----------------------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any]:
        check_seat(self, player)
        players = []
        for seat in range(self.num_players):
            entry: dict[str, Any] = {
                "collection": list(self.counts[seat]),
                "face_down_count": len(self.face_down[seat]),
                "returned_count": len(self.returned[seat]),
                "out": self.out[seat],
                "trees": self.trees[seat],
                "score": self._public_points(seat),
            }
            if seat == player:
                entry["face_down"] = sorted(self.face_down[seat])
                entry["returned"] = sorted(self.returned[seat])
                entry["score_with_face_down"] = self._points_with_face_down(seat)
            players.append(entry)
        drawer_sees = player is not None and player == self.current and not self.finished
        view: dict[str, Any] = {
            "game": "triqueta",
            "num_players": self.num_players,
            "duo": self.duo,
            "round": min(self.round, TOWERS - 1) + 1,
            "rounds": TOWERS,
            "current_player": self.current_player,
            "rock": self.rock,
            "towers": [len(t) for t in self.towers],
            "current_tower": min(self.round, TOWERS - 1),
            "rows": [None if r is None else list(r) for r in self.rows],
            "players": players,
            "pending_count": sum(1 for t in self.pending if t >= 0),
            "finished": self.finished,
            "unseen_count": len(self.gone),
            "viewer": player,
        }
        if drawer_sees:
            view["pending"] = list(self.pending)
            view["used_kind"] = self.used_kind
        if self.finished:
            view["final"] = self.final
            view["winners"] = self.winners()
        return view

    def determinize(self, observer: int, rng: Rng) -> "TriquetaState":
        """Re-deal every token `observer` has not seen into the places it could be."""
        check_seat(self, observer, allow_none=False)
        s = self.clone()
        pool = [TOKENS_PER_ANIMAL] * len(ANIMALS)
        seen: list[int] = []
        for seat in range(self.num_players):
            seen.extend(a for a in range(len(ANIMALS)) for _ in range(self.counts[seat][a]))
        for row in self.rows:
            if row:
                seen.extend(row)
        seen.extend(self.face_down[observer])
        seen.extend(self.returned[observer])
        observer_drew = observer == self.current and not self.finished
        if observer_drew:
            seen.extend(t for t in self.pending if t >= 0)
        for token in seen:
            pool[token] -= 1
        unknown = [a for a in range(len(ANIMALS)) for _ in range(pool[a])]
        rng.shuffle(unknown)
        it = iter(unknown)
        for tower in s.towers:
            tower[:] = [next(it) for _ in tower]
        s.gone = [next(it) for _ in s.gone]
        for seat in range(self.num_players):
            if seat != observer:
                s.face_down[seat] = [next(it) for _ in s.face_down[seat]]
                s.returned[seat] = [next(it) for _ in s.returned[seat]]
        if not observer_drew:
            s.pending = [next(it) if t >= 0 else t for t in s.pending]
        leftover = sum(1 for _ in it)
        if leftover:
            raise AssertionError(f"determinize left {leftover} tokens unplaced")
        return s

    # -- serialization --------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "game": "triqueta",
            "num_players": self.num_players,
            "seed": self.seed,
            "options": dict(self.options),
            "towers": [list(t) for t in self.towers],
            "round": self.round,
            "rows": [None if r is None else list(r) for r in self.rows],
            "out": list(self.out),
            "current": self.current,
            "rock": self.rock,
            "trees": list(self.trees),
            "counts": [list(c) for c in self.counts],
            "face_down": [list(f) for f in self.face_down],
            "returned": [list(r) for r in self.returned],
            "gone": list(self.gone),
            "pending": list(self.pending),
            "used_kind": self.used_kind,
            "finished": self.finished,
            "final": self.final,
        }

    @classmethod
    def from_json(cls, game: "TriquetaGame", obj: dict[str, Any]) -> "TriquetaState":
        n = obj["num_players"]
        game.check_players(n)
        s = cls.__new__(cls)
        s.game, s.num_players, s.seed = game, n, int(obj["seed"])
        s.options = game.resolve_options(obj["options"])
        s.duo = bool(s.options["duo"])
        s.towers = [[int(t) for t in tower] for tower in obj["towers"]]
        s.round = int(obj["round"])
        s.rows = [None if r is None else [int(t) for t in r] for r in obj["rows"]]
        s.out = [bool(x) for x in obj["out"]]
        s.players_in = s.out.count(False)
        s.current = int(obj["current"])
        s.rock = int(obj["rock"])
        s.trees = [int(x) for x in obj["trees"]]
        s.counts = [[int(x) for x in c] for c in obj["counts"]]
        s.face_down = [[int(x) for x in f] for f in obj["face_down"]]
        s.returned = [[int(x) for x in r] for r in obj["returned"]]
        s.gone = [int(x) for x in obj["gone"]]
        s.pending = [int(x) for x in obj["pending"]]
        s.used_kind = str(obj["used_kind"])
        s.finished = bool(obj["finished"])
        s.final = obj["final"]
        s._validate()
        return s

    def _validate(self) -> None:
        """Reject a state whose tokens do not add up to the 60 of the box."""
        n = self.num_players
        shapes = (self.rows, self.out, self.trees, self.counts, self.face_down, self.returned)
        if any(len(x) != n for x in shapes) or len(self.towers) != TOWERS:
            raise RecordError("Triqueta state: per-seat lists do not match the player count")
        if not 0 <= self.current < n or not 0 <= self.rock < n or not 0 <= self.round <= TOWERS:
            raise RecordError("Triqueta state: seat or round out of range")
        total = [0] * len(ANIMALS)
        for group in (*self.towers, *(r for r in self.rows if r), *self.face_down, *self.returned, self.gone):
            for token in group:
                if not 0 <= token < len(ANIMALS):
                    raise RecordError(f"Triqueta state: no animal {token}")
                total[token] += 1
        for token in self.pending:
            if token >= 0:
                total[token] += 1
        for counts in self.counts:
            for a, c in enumerate(counts):
                total[a] += c
        if total != [TOKENS_PER_ANIMAL] * len(ANIMALS):
            raise RecordError("Triqueta state: the 60 animal tokens are not all accounted for")
