"""The Castell position and its rules: set-up, turns, festivals and scoring.

Everything is open information except the order of the castellers in the bag (the bag's
contents follow from what is visible), so `view` shows the whole table and `determinize`
reshuffles only the bag. All randomness happens at set-up (K2, K3, K7, K10).
"""

from __future__ import annotations

from typing import Any

from meeple.core.errors import IllegalAction, RecordError
from meeple.core.protocol import Event, State, check_seat, winners_by_key
from meeple.core.rng import Rng

from . import actions as A
from .components import (
    FIRST_FESTIVAL_ROUND,
    LAST_ROUND,
    REGIONS,
    SEG_ALL,
    TILE_KINDS,
    Components,
)
from .scoring import final_breakdown, prizes, size_token_winners
from .solver_cache import best_for_festival, tower_for
from .towers import SKILLS, Tower, castellers_needed, eligible, festival_score, satisfies_tile, validate

#: K2 castellers per region at set-up and after refills, by player count; each player draws 7.
PER_REGION = {2: 3, 3: 4, 4: 5}
START_TEAM = 7
REFILL_ROUNDS = (3, 5, 7, 9)
SPECIAL_TOKENS = 7  # K5
MAX_LEVEL = 5
PRACTICE, SPECIAL = 5, 6  # TILE_KINDS indices
# Turn action bits (K4: each action at most once per turn).
MOVE, RECRUIT, TRAIN, SPECIAL_ACTION = 1, 2, 4, 8
PHASE_TURNS, PHASE_FESTIVAL, PHASE_OVER = 0, 1, 2
PHASES = ("turns", "festival", "over")
NEEDED_CACHE: dict[Tower, tuple[int, ...]] = {}


def needed(tower: Tower) -> tuple[int, ...]:
    """Castellers per size a tower takes (memoised: the solver's towers repeat a lot)."""
    counts = NEEDED_CACHE.get(tower)
    if counts is None:
        if len(NEEDED_CACHE) > 100_000:
            NEEDED_CACHE.clear()
        counts = NEEDED_CACHE[tower] = castellers_needed(tower)
    return counts


class Festival:
    """One festival on the calendar: its tile, region and size tokens (K7)."""

    __slots__ = ("tile", "region", "tokens", "sizes")

    def __init__(self, tile: int, region: int, tokens: tuple[int, ...]) -> None:
        self.tile = tile
        self.region = region
        self.tokens = tokens  # the size tokens under the tile (a size may repeat)
        self.sizes = tuple(sorted(set(tokens)))  # the sizes the audience wants

    def to_json(self) -> list[Any]:
        return [self.tile, self.region, list(self.tokens)]


class CastellState(State):
    """A complete Castell position (mutable; `clone` copies)."""

    __slots__ = (
        "game", "num_players", "options", "comp", "wheel_side", "round", "phase", "first", "turn",
        "cur", "used", "recruit_open", "free_special", "bag", "pool", "teams", "skills", "pawn",
        "tokens_left", "board_tokens", "pboard_tokens", "region_tiles", "claimed", "prizes",
        "size_tokens", "best", "skill_at", "festivals", "queue", "entries", "results",
    )

    # -- construction ---------------------------------------------------------------------------
    def __init__(self, game: Any, num_players: int, options: dict[str, Any], comp: Components) -> None:
        self.game = game
        self.num_players = num_players
        self.options = options
        self.comp = comp
        self.wheel_side: tuple[int, ...] = comp.wheels[options["wheel"]]

    @classmethod
    def setup(cls, game: Any, n: int, seed: int, options: dict[str, Any], comp: Components) -> "CastellState":
        """The rulebook's set-up A-F with rulings K2, K3, K7, K10; seat 0 starts."""
        s = cls(game, n, options, comp)
        rng = Rng(seed)
        bag = [size for size in range(1, 11) for _ in range(comp.castellers[size])]
        rng.shuffle(bag)
        s.bag = bag
        s.pool = [[0] * 11 for _ in REGIONS]
        s._fill_regions(None)
        tiles = list(comp.skill_tiles)
        rng.shuffle(tiles)
        s.skill_at = tuple(tiles)
        decks = {d: [i for i, f in enumerate(comp.festivals) if f.deck == d] for d in ("I", "II")}
        for deck in decks.values():
            rng.shuffle(deck)
        tokens = list(comp.size_tokens)
        rng.shuffle(tokens)
        s.festivals = [() for _ in range(LAST_ROUND + 1)]
        for rnd in range(FIRST_FESTIVAL_ROUND, LAST_ROUND + 1):
            entry = comp.calendar.get(rnd)
            if entry is None:
                continue
            fests = []
            for _ in range(entry.festivals[n]):
                tile = decks[entry.deck].pop()
                taken, tokens = tuple(tokens[-entry.size_tokens:]), tokens[: -entry.size_tokens]
                fests.append(Festival(tile, comp.festivals[tile].region, taken))
            s.festivals[rnd] = tuple(fests)
        local = list(range(len(comp.local_tiles)))
        rng.shuffle(local)
        s.region_tiles = [[local.pop(), local.pop()] for _ in REGIONS]  # K10: the rest go back to the box
        s.teams = []
        for _ in range(n):
            team = [0] * 11
            for _ in range(START_TEAM):
                team[bag.pop()] += 1
            s.teams.append(team)
        s.skills = [[0] * 5 for _ in range(n)]
        s.pawn = [-1] * n
        s.tokens_left = [SPECIAL_TOKENS] * n
        s.board_tokens = [[0] * n for _ in REGIONS]
        s.pboard_tokens = [[0] * 7 for _ in range(n)]
        s.claimed = [[] for _ in range(n)]
        s.prizes = [[] for _ in range(n)]
        s.size_tokens = [[] for _ in range(n)]
        s.best = [0] * n
        s.round = 1
        s.first = 0
        s.results = []
        s._start_turns()
        return s

    def _fill_regions(self, log: list[Event] | None) -> None:
        """K2: top every region up to 5/4/3 castellers while the bag lasts, in region order."""
        target = PER_REGION[self.num_players]
        bag = self.bag
        for r, pool in enumerate(self.pool):
            drawn = []
            missing = target - sum(pool)
            while missing > 0 and bag:
                size = bag.pop()
                pool[size] += 1
                drawn.append(size)
                missing -= 1
            if log is not None and drawn:
                log.append(Event("refill", None, {"region": REGIONS[r], "sizes": sorted(drawn)}))

    def _start_turns(self) -> None:
        self.phase = PHASE_TURNS
        self.turn = 0
        self.cur = self.first
        self.used = 0
        self.recruit_open = False
        self.free_special = False
        self.queue: list[int] = []
        self.entries: list[tuple[int, int, Tower]] = []

    # -- small helpers --------------------------------------------------------------------------
    def segment_tile(self, segment: int) -> int:
        """K3: the board skill tile (a TILE_KINDS index) the wheel segment faces this round; the
        wheel turns one step clockwise at the start of every round from round 2 on."""
        return self.skill_at[(segment + self.round - 1) % 8]

    def facing(self, source: int, region: int) -> int | None:
        """The tile kind a Train from `source` (0: own region, 1: All Regions) uses, or None."""
        code = region if source == 0 else SEG_ALL
        if code not in self.wheel_side:
            return None  # the advanced side has no All Regions segment
        return self.segment_tile(self.wheel_side.index(code))

    def round_festivals(self) -> tuple[Festival, ...]:
        return self.festivals[self.round]

    def team_tuple(self, seat: int) -> tuple[int, ...]:
        return tuple(self.teams[seat])

    def best_tower(self, seat: int, fest: Festival) -> Tower | None:
        """The solver's best K8 tower for `seat` at `fest` (None: cannot enter)."""
        return best_for_festival(tuple(self.teams[seat]), tuple(self.skills[seat]), fest.sizes)

    def tile_tower(self, seat: int, tile: int) -> Tower | None:
        return tower_for(tuple(self.teams[seat]), tuple(self.skills[seat]), self.comp.local_tiles[tile])

    def regions_held(self, seat: int) -> int:
        """K11: regions of the player board holding a prize, size token or special action token."""
        held = {r for r, v in enumerate(self.pboard_tokens[seat]) if v}
        held.update(r for r, _ in self.prizes[seat])
        held.update(r for r, _ in self.size_tokens[seat])
        return len(held)

    # -- protocol: turn order -------------------------------------------------------------------
    @property
    def current_player(self) -> int | None:
        return None if self.phase == PHASE_OVER else self.cur

    def legal_actions(self) -> list[Any]:
        if self.phase == PHASE_TURNS:
            return self._turn_actions()
        if self.phase == PHASE_FESTIVAL:
            fests = self.festivals[self.round]
            here = self.pawn[self.cur]
            return [A.ENTERS[i] for i, f in enumerate(fests) if f.region == here] + [A.DECLINE]
        return []

    def _special_actions(self, p: int, region: int, out: list[Any]) -> None:
        pool = self.pool[region]
        out.extend(A.SRECRUITS[s] for s in range(1, 11) if pool[s])
        out.extend(A.XMOVES[r] for r in self.comp.neighbours[region])
        tiles = self.region_tiles[region]
        for slot in (0, 1):
            if tiles[slot] >= 0 and self.tile_tower(p, tiles[slot]) is not None:
                out.append(A.PERFORMS[slot])

    def _turn_actions(self) -> list[Any]:
        p = self.cur
        region = self.pawn[p]
        if region < 0:
            return list(A.MOVES)  # K4: round 1, the pawn goes anywhere before anything else
        out: list[Any] = []
        if self.free_special:
            self._special_actions(p, region, out)
            return out
        used = self.used
        if not used & MOVE:
            out.extend(A.MOVES[r] for r in self.comp.neighbours[region])
        if self.recruit_open or not used & RECRUIT:
            pool = self.pool[region]
            out.extend(A.RECRUITS[s] for s in range(1, 11) if pool[s])
        if not used & TRAIN:
            skills = self.skills[p]
            for source in (0, 1):
                kind = self.facing(source, region)
                if kind is None:
                    continue
                row = A.TRAINS[source]
                if kind < 5:
                    if skills[kind] < MAX_LEVEL:
                        out.append(row[kind])
                elif kind == PRACTICE:
                    out.extend(row[k] for k in range(5) if 0 < skills[k] < MAX_LEVEL)
                else:
                    out.append(row[A.SPECIAL_TARGET])
        if not used & SPECIAL_ACTION and self.tokens_left[p]:
            self._special_actions(p, region, out)
        out.append(A.END_TURN)
        return out

    def action_id(self, action: Any) -> int:
        return A.action_id(action)

    def action_from_id(self, action_id: int) -> Any:
        if isinstance(action_id, bool) or not isinstance(action_id, int) or not 0 <= action_id < A.NUM_ACTIONS:
            raise IllegalAction("ids", f"no Castell action id {action_id!r} (ids are 0..{A.NUM_ACTIONS - 1})")
        return A.BY_ID[action_id]

    # -- checking -------------------------------------------------------------------------------
    def _check(self, action: Any) -> None:
        reason = self.why_illegal(action)
        if reason is not None:
            raise IllegalAction(*reason)

    def why_illegal(self, action: Any) -> tuple[str, str] | None:
        """The (rule, message) that forbids `action` now, or None if it is legal."""
        cls = type(action)
        if cls not in (A.Move, A.Recruit, A.Train, A.SingleRecruit, A.ExtraMove, A.Perform, A.EndTurn, A.Enter, A.Decline):
            return ("actions", f"{action!r} is not a Castell action")
        if self.phase == PHASE_OVER:
            return ("end", "the game is over")
        p = self.cur
        region = self.pawn[p]
        if self.phase == PHASE_FESTIVAL:
            if cls is A.Decline:
                return None
            if cls is not A.Enter:
                return ("K8", "after the turns only festival entries (enter or decline) are possible")
            fests = self.festivals[self.round]
            if action.slot >= len(fests):
                return ("K8", f"there is no festival {action.slot + 1} this round")
            fest = fests[action.slot]
            if fest.region != region:
                return ("K8", f"your pawn is not in {REGIONS[fest.region]}, where that festival is held")
            if action.tower is None:
                return None if self.best_tower(p, fest) is not None else ("K8", "you cannot build an eligible tower")
            why = self._tower_problem(p, action.tower)
            if why is not None:
                return why
            if not eligible(action.tower, fest.sizes):
                return ("K8", f"a festival tower needs 4 levels and every size of {list(fest.sizes)}")
            return None
        if cls in (A.Enter, A.Decline):
            return ("K8", "festival entries are decided after all turns of the round")
        if region < 0 and cls is not A.Move:
            return ("K4", "place your pawn (Move) before anything else in round 1")
        special = cls in (A.SingleRecruit, A.ExtraMove, A.Perform)
        if self.free_special and not special:
            return ("K4", "first take the free special action the Special tile gave you")
        if special and not self.free_special:
            if self.used & SPECIAL_ACTION:
                return ("K4", "you already took a special action this turn")
            if not self.tokens_left[p]:
                return ("K5", "you have no special action tokens left")
        if cls is A.Move:
            if self.used & MOVE:
                return ("K4", "you already moved this turn")
            if region >= 0 and action.region not in self.comp.neighbours[region]:
                return ("K1", f"{REGIONS[action.region]} is not next to {REGIONS[region]}")
            return None
        if cls is A.Recruit or cls is A.SingleRecruit:
            if cls is A.Recruit and self.used & RECRUIT and not self.recruit_open:
                return ("K4", "you already recruited this turn (up to 2, one right after the other)")
            if not self.pool[region][action.size]:
                return ("K4", f"no casteller of size {action.size} in {REGIONS[region]}")
            return None
        if cls is A.Train:
            if self.used & TRAIN:
                return ("K4", "you already trained this turn")
            kind = self.facing(action.source, region)
            if kind is None:
                return ("K3", "the advanced wheel has no All Regions segment")
            level = self.skills[p][action.target] if action.target < 5 else 0
            if kind < 5 and action.target != kind:
                return ("K4", f"that wheel segment faces {TILE_KINDS[kind]}, not {A.TRAIN_TARGETS[action.target]}")
            if kind == PRACTICE and not 0 < level:
                return ("K4", "Practice raises only a skill already at level 1 or more")
            if kind == SPECIAL and action.target != A.SPECIAL_TARGET:
                return ("K4", "that wheel segment faces Special: it gives a free special action")
            if kind != SPECIAL and action.target == A.SPECIAL_TARGET:
                return ("K4", f"that wheel segment faces {TILE_KINDS[kind]}, not Special")
            if kind != SPECIAL and level >= MAX_LEVEL:
                return ("K4", f"{SKILLS[action.target]} is already at level {MAX_LEVEL}")
            return None
        if cls is A.ExtraMove:
            if action.region not in self.comp.neighbours[region]:
                return ("K5", f"{REGIONS[action.region]} is not next to {REGIONS[region]}")
            return None
        if cls is A.Perform:
            tile = self.region_tiles[region][action.slot]
            if tile < 0:
                return ("K10", f"the local performance in slot {action.slot + 1} of {REGIONS[region]} is taken")
            if action.tower is None:
                if self.tile_tower(p, tile) is None:
                    return ("K10", "you cannot build a tower that meets that local performance")
                return None
            why = self._tower_problem(p, action.tower)
            if why is not None:
                return why
            if not satisfies_tile(action.tower, tuple(self.skills[p]), self.comp.local_tiles[tile]):
                return ("K10", "that tower does not meet the local performance tile")
            return None
        return None  # EndTurn: pawn placed and no free special pending

    def _tower_problem(self, p: int, tower: Tower) -> tuple[str, str] | None:
        check = validate(tower, tuple(self.skills[p]))
        if not check.legal:
            return ("K6", check.message or "illegal tower")
        have = self.teams[p]
        for size, count in enumerate(needed(tower)):
            if count > have[size]:
                return ("K6", f"the tower needs {count} castellers of size {size}, your team has {have[size]}")
        return None

    # -- performing -----------------------------------------------------------------------------
    def _do(self, action: Any, log: list[Event] | None) -> None:
        cls = type(action)
        p = self.cur
        if cls is A.EndTurn:
            if log is not None:
                log.append(Event("end_turn", p))
            self._next_turn(log)
            return
        if cls is A.Enter or cls is A.Decline:
            self._decide(action, log)
            return
        region = self.pawn[p]
        if cls is A.Recruit:
            self.pool[region][action.size] -= 1
            self.teams[p][action.size] += 1
            if self.recruit_open:
                self.recruit_open = False
            else:
                self.used |= RECRUIT
                self.recruit_open = True
            if log is not None:
                log.append(Event("recruit", p, {"size": action.size, "region": REGIONS[region]}))
            return
        self.recruit_open = False
        if cls is A.Move:
            self.used |= MOVE
            self.pawn[p] = action.region
            if log is not None:
                key = "place_pawn" if region < 0 else "move"
                log.append(Event(key, p, {"region": REGIONS[action.region]}))
            return
        if cls is A.Train:
            self.used |= TRAIN
            if action.target == A.SPECIAL_TARGET:
                self.free_special = True
                if log is not None:
                    log.append(Event("train_special", p, {}))
            else:
                self.skills[p][action.target] += 1
                if log is not None:
                    log.append(Event("train", p, {"skill": SKILLS[action.target], "level": self.skills[p][action.target]}))
            return
        # A special action (K5): free from the Special tile, or paid with a token in the region.
        if self.free_special:
            self.free_special = False
            paid = False
        else:
            self.used |= SPECIAL_ACTION
            self.tokens_left[p] -= 1
            self.board_tokens[region][p] += 1
            paid = True
        if cls is A.SingleRecruit:
            self.pool[region][action.size] -= 1
            self.teams[p][action.size] += 1
            if log is not None:
                log.append(Event("single_recruit", p, {"size": action.size, "region": REGIONS[region], "paid": paid}))
        elif cls is A.ExtraMove:
            self.pawn[p] = action.region
            if log is not None:
                log.append(Event("extra_move", p, {"region": REGIONS[action.region], "paid": paid}))
        else:
            self._perform(p, region, action, paid, log)

    def _perform(self, p: int, region: int, action: A.Perform, paid: bool, log: list[Event] | None) -> None:
        """K10: claim the tile; special action tokens in the region move to the player board
        (option `performance_tokens`: the player's own (K10) or everyone's (the rulebook text))."""
        slot = action.slot
        tile = self.region_tiles[region][slot]
        self.region_tiles[region][slot] = -1
        self.claimed[p].append(tile)
        tokens = self.board_tokens[region]
        seats = range(self.num_players) if self.options["performance_tokens"] == "all" else (p,)
        moved = 0
        for seat in seats:
            moved += tokens[seat]
            tokens[seat] = 0
        self.pboard_tokens[p][region] += moved
        if log is not None:
            lt = self.comp.local_tiles[tile]
            tower = action.tower if action.tower is not None else self.tile_tower(p, tile)
            log.append(Event("perform", p, {
                "tile": lt.id, "stars": lt.stars, "region": REGIONS[region], "paid": paid, "tokens": moved,
                "tower": [list(level) for level in tower or ()],
            }))

    def _next_turn(self, log: list[Event] | None) -> None:
        self.turn += 1
        self.used = 0
        self.recruit_open = False
        self.free_special = False
        if self.turn < self.num_players:
            self.cur = (self.first + self.turn) % self.num_players
            return
        # K8: after all turns, entry decisions in round order from players able to enter.
        fests = self.festivals[self.round]
        queue = []
        if fests:
            for k in range(self.num_players):
                seat = (self.first + k) % self.num_players
                here = self.pawn[seat]
                for fest in fests:
                    if fest.region == here and self.best_tower(seat, fest) is not None:
                        queue.append(seat)
                        break
        if queue:
            self.phase = PHASE_FESTIVAL
            self.queue = queue
            self.cur = queue[0]
        else:
            self._end_round(log)

    def _decide(self, action: Any, log: list[Event] | None) -> None:
        p = self.cur
        if type(action) is A.Enter:
            fest = self.festivals[self.round][action.slot]
            tower = action.tower if action.tower is not None else self.best_tower(p, fest)
            self.entries.append((p, action.slot, tower))
            if log is not None:
                log.append(Event("enter", p, {"region": REGIONS[fest.region], "tower": [list(v) for v in tower]}))
        elif log is not None:
            log.append(Event("decline", p))
        self.queue.pop(0)
        if self.queue:
            self.cur = self.queue[0]
        else:
            self._end_round(log)

    def _score_festivals(self, log: list[Event] | None) -> None:
        """K8 scores, K9 prizes and size tokens for every festival of the round."""
        for slot, fest in enumerate(self.festivals[self.round]):
            entrants = [(seat, tower) for seat, s, tower in self.entries if s == slot]
            scores = [festival_score(tower, fest.sizes) for _, tower in entrants]
            awards = prizes(scores)
            won = size_token_winners([needed(t) for _, t in entrants], fest.tokens)
            result = {
                "round": self.round, "festival": self.comp.festivals[fest.tile].id, "region": REGIONS[fest.region],
                "entrants": [], "discarded": [size for size, w in zip(fest.tokens, won) if w is None],
            }
            for i, (seat, tower) in enumerate(entrants):
                if scores[i] > self.best[seat]:
                    self.best[seat] = scores[i]
                if awards[i]:
                    self.prizes[seat].append((fest.region, awards[i]))
                sizes = [size for size, w in zip(fest.tokens, won) if w == i]
                self.size_tokens[seat].extend((fest.region, size) for size in sizes)
                result["entrants"].append({
                    "seat": seat, "tower": [list(v) for v in tower], "score": scores[i], "prize": awards[i],
                    "size_tokens": sizes,
                })
                if log is not None:
                    log.append(Event("festival_score", seat, {
                        "region": REGIONS[fest.region], "score": scores[i], "prize": awards[i], "size_tokens": sizes,
                        "best": self.best[seat],
                    }))
            if log is not None and result["discarded"]:
                log.append(Event("size_tokens_discarded", None, {"region": REGIONS[fest.region], "sizes": result["discarded"]}))
            self.results.append(result)

    def _end_round(self, log: list[Event] | None) -> None:
        if self.festivals[self.round]:
            self._score_festivals(log)
        if self.round == LAST_ROUND:
            self.phase = PHASE_OVER
            self.queue = []
            self.entries = []
            if log is not None:
                log.append(Event("game_over", None, {"scores": self.scores(), "winners": self.winners()}))
            return
        self.round += 1
        self.first = (self.first + 1) % self.num_players  # the first player marker passes clockwise
        if log is not None:
            log.append(Event("round_start", self.first, {"round": self.round}))
        if self.round in REFILL_ROUNDS:
            self._fill_regions(log)
        self._start_turns()

    # -- results --------------------------------------------------------------------------------
    def score_breakdown(self) -> list[dict[str, Any]]:
        stars = self.comp.local_tiles
        return [
            final_breakdown(
                self.best[p], self.regions_held(p), (v for _, v in self.prizes[p]),
                (s for _, s in self.size_tokens[p]), (stars[t].stars for t in self.claimed[p]),
            )
            for p in range(self.num_players)
        ]

    def scores(self) -> list[int]:
        return [parts["total"] for parts in self.score_breakdown()]

    def winners(self) -> list[int]:
        if self.phase != PHASE_OVER:
            return []
        return winners_by_key(self.scores())  # K11: a tie is a shared win

    # -- information ----------------------------------------------------------------------------
    def view(self, player: int | None) -> dict[str, Any]:
        """The whole table (Castell hides only the bag's order; its contents follow from the rest)."""
        check_seat(self, player)
        data = self._public()
        data["you"] = player
        return data

    def bag_counts(self) -> list[int]:
        counts = [0] * 11
        for size in self.bag:
            counts[size] += 1
        return counts

    def _public(self) -> dict[str, Any]:
        comp = self.comp
        n = self.num_players
        tiles = comp.local_tiles
        breakdown = self.score_breakdown()
        side = self.options["wheel"]
        return {
            "game": "castell",
            "round": self.round,
            "phase": PHASES[self.phase],
            "current_player": self.current_player,
            "first_player": self.first,
            "components": comp.sha256,
            "regions": [
                {
                    "id": REGIONS[r],
                    "neighbours": [REGIONS[x] for x in comp.neighbours[r]],
                    "castellers": self.pool[r][1:],
                    "tiles": [None if t < 0 else _tile_json(tiles[t]) for t in self.region_tiles[r]],
                    "tokens": list(self.board_tokens[r]),
                }
                for r in range(7)
            ],
            "roads": [[REGIONS[a], REGIONS[b], style] for a, b, style in comp.roads],
            "wheel": {
                "side": side,
                "rotation": (self.round - 1) % 8,
                "segments": [_segment_name(code) for code in self.wheel_side],
                "tiles": [TILE_KINDS[k] for k in self.skill_at],
                "facing": {_segment_name(code): TILE_KINDS[self.segment_tile(i)] for i, code in enumerate(self.wheel_side)},
            },
            "calendar": [
                {"round": rnd, "festivals": [
                    {"id": comp.festivals[f.tile].id, "region": REGIONS[f.region], "sizes": list(f.tokens)}
                    for f in self.festivals[rnd]
                ]}
                for rnd in range(FIRST_FESTIVAL_ROUND, LAST_ROUND + 1)
            ],
            "players": [
                {
                    "pawn": REGIONS[self.pawn[p]] if self.pawn[p] >= 0 else None,
                    "team": self.teams[p][1:],
                    "skills": dict(zip(SKILLS, self.skills[p])),
                    "special_tokens": self.tokens_left[p],
                    "board": {
                        REGIONS[r]: {
                            "tokens": self.pboard_tokens[p][r],
                            "prizes": [v for rr, v in self.prizes[p] if rr == r],
                            "size_tokens": [s for rr, s in self.size_tokens[p] if rr == r],
                        }
                        for r in range(7)
                    },
                    "performances": [_tile_json(tiles[t]) for t in self.claimed[p]],
                    "best_tower": self.best[p],
                    "score": breakdown[p],
                }
                for p in range(n)
            ],
            "bag": {"count": len(self.bag), "castellers": self.bag_counts()[1:]},
            "turn": {
                "used": [name for bit, name in ((MOVE, "move"), (RECRUIT, "recruit"), (TRAIN, "train"),
                                                 (SPECIAL_ACTION, "special")) if self.used & bit],
                "recruit_open": self.recruit_open,
                "free_special": self.free_special,
            },
            "festival": {
                "queue": list(self.queue),
                "entries": [{"seat": s, "slot": slot, "tower": [list(v) for v in t]} for s, slot, t in self.entries],
            },
            "results": self.results,
            "winners": self.winners(),
        }

    def determinize(self, observer: int, rng: Rng) -> "CastellState":
        check_seat(self, observer, allow_none=False)
        sample = self.clone()
        sample.bag = sorted(self.bag)  # canonical first, so the sample ignores the hidden order
        rng.shuffle(sample.bag)  # the only unseen thing: the order of the bag
        return sample

    # -- copying and serialization --------------------------------------------------------------
    def clone(self) -> "CastellState":
        c = CastellState.__new__(CastellState)
        c.game = self.game
        c.num_players = self.num_players
        c.options = self.options
        c.comp = self.comp
        c.wheel_side = self.wheel_side
        c.round = self.round
        c.phase = self.phase
        c.first = self.first
        c.turn = self.turn
        c.cur = self.cur
        c.used = self.used
        c.recruit_open = self.recruit_open
        c.free_special = self.free_special
        c.bag = self.bag[:]
        c.pool = [row[:] for row in self.pool]
        c.teams = [row[:] for row in self.teams]
        c.skills = [row[:] for row in self.skills]
        c.pawn = self.pawn[:]
        c.tokens_left = self.tokens_left[:]
        c.board_tokens = [row[:] for row in self.board_tokens]
        c.pboard_tokens = [row[:] for row in self.pboard_tokens]
        c.region_tiles = [row[:] for row in self.region_tiles]
        c.claimed = [row[:] for row in self.claimed]
        c.prizes = [row[:] for row in self.prizes]
        c.size_tokens = [row[:] for row in self.size_tokens]
        c.best = self.best[:]
        c.skill_at = self.skill_at
        c.festivals = self.festivals  # never mutated after set-up
        c.queue = self.queue[:]
        c.entries = self.entries[:]
        c.results = self.results[:]  # entries (dicts) are never changed once written
        return c

    def to_json(self) -> dict[str, Any]:
        return {
            "game": "castell",
            "num_players": self.num_players,
            "options": dict(self.options),
            "components_sha256": self.comp.sha256,
            "round": self.round,
            "phase": self.phase,
            "first": self.first,
            "turn": self.turn,
            "cur": self.cur,
            "used": self.used,
            "recruit_open": self.recruit_open,
            "free_special": self.free_special,
            "bag": self.bag[:],
            "pool": [row[:] for row in self.pool],
            "teams": [row[:] for row in self.teams],
            "skills": [row[:] for row in self.skills],
            "pawn": self.pawn[:],
            "tokens_left": self.tokens_left[:],
            "board_tokens": [row[:] for row in self.board_tokens],
            "pboard_tokens": [row[:] for row in self.pboard_tokens],
            "region_tiles": [row[:] for row in self.region_tiles],
            "claimed": [row[:] for row in self.claimed],
            "prizes": [[list(x) for x in row] for row in self.prizes],
            "size_tokens": [[list(x) for x in row] for row in self.size_tokens],
            "best": self.best[:],
            "skill_at": list(self.skill_at),
            "festivals": [[f.to_json() for f in fests] for fests in self.festivals],
            "queue": self.queue[:],
            "entries": [[s, slot, [list(v) for v in t]] for s, slot, t in self.entries],
            "results": list(self.results),
        }

    @classmethod
    def from_json(cls, game: Any, obj: dict[str, Any], comp: Components) -> "CastellState":
        if obj["components_sha256"] != comp.sha256:
            raise RecordError("the state was saved with different Castell components (fingerprint differs)")
        options = dict(obj["options"])
        s = cls(game, int(obj["num_players"]), options, comp)
        for key in ("round", "phase", "first", "turn", "cur", "used"):
            setattr(s, key, int(obj[key]))
        s.recruit_open = bool(obj["recruit_open"])
        s.free_special = bool(obj["free_special"])
        for key in ("bag", "pawn", "tokens_left", "best", "queue"):
            setattr(s, key, [int(x) for x in obj[key]])
        for key in ("pool", "teams", "skills", "board_tokens", "pboard_tokens", "region_tiles", "claimed"):
            setattr(s, key, [[int(x) for x in row] for row in obj[key]])
        s.prizes = [[(int(r), int(v)) for r, v in row] for row in obj["prizes"]]
        s.size_tokens = [[(int(r), int(v)) for r, v in row] for row in obj["size_tokens"]]
        s.skill_at = tuple(int(x) for x in obj["skill_at"])
        s.festivals = [tuple(Festival(int(t), int(r), tuple(int(x) for x in tok)) for t, r, tok in fests)
                       for fests in obj["festivals"]]
        s.entries = [(int(seat), int(slot), tuple(tuple(int(x) for x in v) for v in t)) for seat, slot, t in obj["entries"]]
        s.results = list(obj["results"])
        s._check_shape()
        return s

    def _check_shape(self) -> None:
        """Reject a decoded state whose pieces do not fit together (a corrupt save)."""
        n = self.num_players
        ok = (
            len(self.teams) == n and len(self.skills) == n and len(self.pawn) == n and len(self.pool) == 7
            and all(len(row) == 11 for row in self.teams + self.pool) and len(self.skill_at) == 8
            and len(self.festivals) == LAST_ROUND + 1 and 1 <= self.round <= LAST_ROUND
            and 0 <= self.phase <= 2 and 0 <= self.cur < n
            and all(0 <= t < len(self.comp.local_tiles) for row in self.region_tiles for t in row if t >= 0)
        )
        if not ok:
            raise RecordError("malformed Castell state: its parts do not fit together")


def _segment_name(code: int) -> str:
    return "all" if code == SEG_ALL else "none" if code < 0 else REGIONS[code]


def _tile_json(tile: Any) -> dict[str, Any]:
    return {
        "id": tile.id, "kind": tile.kind, "stars": tile.stars, "widths": list(tile.widths),
        "min_levels": tile.min_levels, "uses": list(tile.uses),
    }
