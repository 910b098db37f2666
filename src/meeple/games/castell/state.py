"""The Castell position and its rules: set-up, turns, festivals and scoring.

Everything is open information except the order of the castellers in the bag (the bag's
contents follow from what is visible), so `view` shows the whole table and `determinize`
reshuffles only the bag. All randomness happens at set-up (K2, K3, K7, K10). Which steps are
legal, and why not, is `legality`'s job.
"""

from __future__ import annotations

from typing import Any, Self

from meeple.core.errors import DataError, IllegalAction, RecordError
from meeple.core.protocol import Event, Game, winners_by_key
from meeple.core.rng import Rng
from meeple.core.state import State
from meeple.core.statefields import Derived
from meeple.games.castell import actions as A
from meeple.games.castell import integrity, view
from meeple.games.castell.actions import SPACE, Action
from meeple.games.castell.components import (
    FIRST_FESTIVAL_ROUND,
    LAST_ROUND,
    NUM_REGIONS,
    PER_REGION,
    PRACTICE,
    REFILL_ROUNDS,
    REGIONS,
    SEG_ALL,
    SPECIAL_TOKENS,
    START_TEAM,
    TILES_PER_REGION,
    WHEEL_SEGMENTS,
    Components,
    Festival,
    components_for_option,
    parse_components_option,
)
from meeple.games.castell.events import QUIET, CastellEvents
from meeple.games.castell.legality import (
    MOVE_USED,
    PHASE_FESTIVAL,
    PHASE_TURNS,
    RECRUIT_USED,
    SPECIAL_USED,
    TRAIN_USED,
    why_illegal,
)
from meeple.games.castell.scoring import final_breakdown, prizes, size_token_winners
from meeple.games.castell.towers.cache import best_for_festival, needed, tower_for
from meeple.games.castell.towers.rules import COUNTS_LEN, MAX_SKILL, SIZES, SKILLS, Tower, festival_score
from meeple.games.castell.view_types import CastellView

NUM_SKILLS = len(SKILLS)


class CastellState(State[Action]):
    """A complete Castell position (mutable; `clone` copies). Rules as implemented:
    docs/games/castell.md. Castellers are counted per size (lists of COUNTS_LEN, index 0
    unused); regions, skills and tile kinds are indices into components.REGIONS, SKILLS and
    TILE_KINDS."""

    components_sha256: str  # fingerprint of the components the game was set up with
    round: int  # 1..LAST_ROUND
    phase: int  # PHASE_TURNS or PHASE_FESTIVAL (game over is `over`)
    first: int  # the seat holding the first player marker this round
    turn: int  # turns taken this round
    used: int  # bits: the steps taken this turn (legality.MOVE_USED ...)
    recruit_open: bool  # the last step was the first casteller of a Recruit action
    free_special: bool  # the Special tile gave a special action not yet taken
    bag: list[int]  # casteller sizes in hidden order; draws take the last one
    pool: list[list[int]]  # per region, castellers per size
    teams: list[list[int]]  # per seat, castellers per size
    skills: list[list[int]]  # per seat, the five skill levels
    pawn: list[int]  # per seat, its region (-1: not placed yet)
    tokens_left: list[int]  # per seat, special action tokens in hand
    board_tokens: list[list[int]]  # per region, per seat: special action tokens spent there
    player_board_tokens: list[list[int]]  # per seat, per region: tokens moved to the player board
    region_tiles: list[list[int]]  # per region, its local performance tiles (-1: claimed)
    claimed: list[list[int]]  # per seat, the local performance tiles it performed
    prizes: list[list[tuple[int, int]]]  # per seat, (region, value) of its festival prizes
    size_tokens: list[list[tuple[int, int]]]  # per seat, (region, size) of its size tokens
    best: list[int]  # per seat, its best festival score so far
    skill_at: tuple[int, ...]  # the board skill tiles (TILE_KINDS indices) around the wheel
    festivals: tuple[tuple[Festival, ...], ...]  # per round (index 0 unused), its festivals
    queue: list[int]  # seats still to decide on entering this round's festivals
    entries: list[tuple[int, int, Tower]]  # this round's entries: (seat, festival slot, tower)
    results: list[Any]  # per scored festival, a JSON object of what happened (never changed)
    components: Derived[Components]  # loaded from the option `components`, shared by clones
    wheel_side: Derived[tuple[int, ...]]  # the wheel's segments on the side in play
    __slots__ = tuple(__annotations__)  # the fields above: the pure build's instances have no dict

    def __post_init__(self) -> None:
        try:
            self.components = components_for_option(self.options["components"])
        except DataError as exc:  # `initial` loaded them already: this is a saved state's option
            raise RecordError(f"cannot load the state's components: {exc}") from None
        self.wheel_side = self.components.wheels[self.options["wheel"]]

    # -- set-up ---------------------------------------------------------------------------------
    @classmethod
    def initial(cls, game: Game[Any, Any], num_players: int, seed: int, options: dict[str, Any]) -> Self:
        """The rulebook's set-up A-F with rulings K2, K3, K7, K10; seat 0 starts."""
        components = components_for_option(options["components"])
        directory, _ = parse_components_option(options["components"])
        # Pin the content, the shipped data's too ("#sha256=..."), so a record of this game
        # replays only against the same components: a corrected data file must not silently
        # change the scores of saved games.
        options = {**options, "components": f"{directory}#sha256={components.sha256}"}
        n = num_players
        rng = Rng(seed)
        bag = [size for size in SIZES for _ in range(components.castellers[size])]
        rng.shuffle(bag)
        tiles = list(components.skill_tiles)
        rng.shuffle(tiles)
        decks = {d: [i for i, f in enumerate(components.festivals) if f.deck == d] for d in ("I", "II")}
        for deck in decks.values():
            rng.shuffle(deck)
        tokens = list(components.size_tokens)
        rng.shuffle(tokens)
        festivals: list[tuple[Festival, ...]] = [() for _ in range(LAST_ROUND + 1)]
        for rnd in range(FIRST_FESTIVAL_ROUND, LAST_ROUND + 1):
            entry = components.calendar.get(rnd)
            if entry is None:
                continue
            fests = []
            for _ in range(entry.festivals[n]):
                tile = decks[entry.deck].pop()
                taken, tokens = tuple(tokens[-entry.size_tokens:]), tokens[: -entry.size_tokens]
                fests.append(Festival(tile, components.festivals[tile].region, taken))
            festivals[rnd] = tuple(fests)
        local = list(range(len(components.local_tiles)))
        rng.shuffle(local)
        # K10: two tiles per region face up, the rest go back to the box.
        region_tiles = [[local.pop() for _ in range(TILES_PER_REGION)] for _ in REGIONS]
        state = cls(
            game=game, num_players=n, options=options, current=0, over=False,
            components_sha256=components.sha256, round=1, phase=PHASE_TURNS, first=0, turn=0, used=0,
            recruit_open=False, free_special=False, bag=bag, pool=[[0] * COUNTS_LEN for _ in REGIONS],
            teams=[], skills=[[0] * NUM_SKILLS for _ in range(n)], pawn=[-1] * n,
            tokens_left=[SPECIAL_TOKENS] * n, board_tokens=[[0] * n for _ in REGIONS],
            player_board_tokens=[[0] * NUM_REGIONS for _ in range(n)], region_tiles=region_tiles,
            claimed=[[] for _ in range(n)], prizes=[[] for _ in range(n)], size_tokens=[[] for _ in range(n)],
            best=[0] * n, skill_at=tuple(tiles), festivals=tuple(festivals), queue=[], entries=[], results=[],
        )
        state._fill_regions(QUIET)
        for _ in range(n):
            team = [0] * COUNTS_LEN
            for _ in range(START_TEAM):
                team[bag.pop()] += 1
            state.teams.append(team)
        return state

    def _fill_regions(self, events: CastellEvents, refill: str = "top_up") -> None:
        """K2: top every region up to 5/4/3 castellers while the bag lasts, in region order; with
        `refill="add"` (option `refill`, the translation's other reading) add 5/4/3 to each."""
        target = PER_REGION[self.num_players]
        bag = self.bag
        for r, pool in enumerate(self.pool):
            drawn = []
            missing = target if refill == "add" else target - sum(pool)
            while missing > 0 and bag:
                size = bag.pop()
                pool[size] += 1
                drawn.append(size)
                missing -= 1
            events.refill(r, drawn)

    def _start_turns(self) -> None:
        self.phase = PHASE_TURNS
        self.turn = 0
        self.current = self.first
        self.used = 0
        self.recruit_open = False
        self.free_special = False
        self.queue = []
        self.entries = []

    # -- small helpers --------------------------------------------------------------------------
    def segment_tile(self, segment: int) -> int:
        """K3: the board skill tile (a TILE_KINDS index) the wheel segment faces this round; the
        wheel turns one step clockwise at the start of every round from round 2 on."""
        return self.skill_at[(segment + self.round - 1) % WHEEL_SEGMENTS]

    def facing(self, source: int, region: int) -> int | None:
        """The tile kind a Train from `source` (0: own region, 1: All Regions) uses, or None."""
        code = region if source == 0 else SEG_ALL
        if code not in self.wheel_side:
            return None  # the advanced side has no All Regions segment
        return self.segment_tile(self.wheel_side.index(code))

    def best_tower(self, seat: int, fest: Festival) -> Tower | None:
        """The solver's best K8 tower for `seat` at `fest` (None: cannot enter)."""
        return best_for_festival(tuple(self.teams[seat]), tuple(self.skills[seat]), fest.sizes)

    def tile_tower(self, seat: int, tile: int) -> Tower | None:
        return tower_for(tuple(self.teams[seat]), tuple(self.skills[seat]), self.components.local_tiles[tile])

    def regions_held(self, seat: int) -> int:
        """K11: regions of the player board holding a prize, size token or special action token."""
        held = {r for r, v in enumerate(self.player_board_tokens[seat]) if v}
        held.update(r for r, _ in self.prizes[seat])
        held.update(r for r, _ in self.size_tokens[seat])
        return len(held)

    def bag_counts(self) -> list[int]:
        counts = [0] * COUNTS_LEN
        for size in self.bag:
            counts[size] += 1
        return counts

    # -- whose turn, and what they may do -----------------------------------------------------
    def legal_actions(self) -> list[Action]:
        if self.over:
            return []
        if self.phase == PHASE_FESTIVAL:
            here = self.pawn[self.current]
            entries: list[Action] = [A.ENTERS[i] for i, f in enumerate(self.festivals[self.round]) if f.region == here]
            entries.append(A.DECLINE)
            return entries
        return self._turn_actions()

    def _special_actions(self, p: int, region: int, out: list[Action]) -> None:
        pool = self.pool[region]
        out.extend(A.SINGLE_RECRUITS[s] for s in SIZES if pool[s])
        out.extend(A.EXTRA_MOVES[r] for r in self.components.neighbours[region])
        tiles = self.region_tiles[region]
        for slot in range(TILES_PER_REGION):
            if tiles[slot] >= 0 and self.tile_tower(p, tiles[slot]) is not None:
                out.append(A.PERFORMS[slot])

    def _turn_actions(self) -> list[Action]:
        p = self.current
        region = self.pawn[p]
        if region < 0:
            return list(A.MOVES)  # K4: round 1, the pawn goes anywhere before anything else
        out: list[Action] = []
        if self.free_special:
            self._special_actions(p, region, out)
            return out
        used = self.used
        if not used & MOVE_USED:
            out.extend(A.MOVES[r] for r in self.components.neighbours[region])
        if self.recruit_open or not used & RECRUIT_USED:
            pool = self.pool[region]
            out.extend(A.RECRUITS[s] for s in SIZES if pool[s])
        if not used & TRAIN_USED:
            skills = self.skills[p]
            for source in (0, 1):
                kind = self.facing(source, region)
                if kind is None:
                    continue
                row = A.TRAINS[source]
                if kind < NUM_SKILLS:
                    if skills[kind] < MAX_SKILL:
                        out.append(row[kind])
                elif kind == PRACTICE:
                    out.extend(row[k] for k in range(NUM_SKILLS) if 0 < skills[k] < MAX_SKILL)
                else:
                    out.append(row[A.SPECIAL_TARGET])
        if not used & SPECIAL_USED and self.tokens_left[p]:
            self._special_actions(p, region, out)
        out.append(A.END_TURN)
        return out

    def legal_action_ids(self) -> list[int]:
        return SPACE.action_ids(self.legal_actions())

    def action_id(self, action: object) -> int:
        return SPACE.action_id(action)

    def action_from_id(self, action_id: object) -> Action:
        return SPACE.action_from_id(action_id)

    # -- checking -------------------------------------------------------------------------------
    def _check(self, action: object) -> None:
        reason = why_illegal(self, action)
        if reason is not None:
            raise IllegalAction(*reason)

    def why_illegal(self, action: Any) -> tuple[str, str] | None:
        """The (ruling, message) that forbids `action` now, or None if it is legal."""
        return why_illegal(self, action)

    # -- performing -----------------------------------------------------------------------------
    def _do(self, action: Action, log: list[Event] | None) -> None:
        events = QUIET if log is None else CastellEvents(log)
        # Bare class patterns: capturing fields through __match_args__ costs the pure build's
        # playouts a tenth of their speed.
        match action:
            case A.EndTurn():
                events.end_turn(self.current)
                self._next_turn(events)
            case A.Enter() | A.Decline():
                self._decide(action, events)
            case A.Recruit():
                self._recruit(action.size, events)
            case A.Move():
                self.recruit_open = False
                self._move(action.region, events)
            case A.Train():
                self.recruit_open = False
                self._train(action.target, events)
            case A.SingleRecruit() | A.ExtraMove() | A.Perform():
                self.recruit_open = False
                self._special(action, events)

    def _recruit(self, size: int, events: CastellEvents) -> None:
        """K4 Recruit: one casteller; the second of a Recruit action closes it."""
        p = self.current
        region = self.pawn[p]
        self.pool[region][size] -= 1
        self.teams[p][size] += 1
        if self.recruit_open:
            self.recruit_open = False
        else:
            self.used |= RECRUIT_USED
            self.recruit_open = True
        events.recruit(p, size, region)

    def _move(self, region: int, events: CastellEvents) -> None:
        p = self.current
        placing = self.pawn[p] < 0
        self.used |= MOVE_USED
        self.pawn[p] = region
        events.move(p, region, placing)

    def _train(self, target: int, events: CastellEvents) -> None:
        p = self.current
        self.used |= TRAIN_USED
        if target == A.SPECIAL_TARGET:
            self.free_special = True
            events.train_special(p)
        else:
            self.skills[p][target] += 1
            events.train(p, target, self.skills[p][target])

    def _special(self, action: A.SingleRecruit | A.ExtraMove | A.Perform, events: CastellEvents) -> None:
        """A special action (K5): free from the Special tile, or paid with a token in the region."""
        p = self.current
        region = self.pawn[p]
        if self.free_special:
            self.free_special = False
            paid = False
        else:
            self.used |= SPECIAL_USED
            self.tokens_left[p] -= 1
            self.board_tokens[region][p] += 1
            paid = True
        match action:
            case A.SingleRecruit():
                self.pool[region][action.size] -= 1
                self.teams[p][action.size] += 1
                events.single_recruit(p, action.size, region, paid)
            case A.ExtraMove():
                self.pawn[p] = action.region
                events.extra_move(p, action.region, paid)
            case A.Perform():
                self._perform(p, region, action, paid, events)

    def _perform(self, p: int, region: int, action: A.Perform, paid: bool, events: CastellEvents) -> None:
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
        self.player_board_tokens[p][region] += moved
        events.perform(self, p, region, tile, action.tower, paid, moved)

    def _next_turn(self, events: CastellEvents) -> None:
        self.turn += 1
        self.used = 0
        self.recruit_open = False
        self.free_special = False
        if self.turn < self.num_players:
            self.current = (self.first + self.turn) % self.num_players
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
            self.current = queue[0]
        else:
            self._end_round(events)

    def _decide(self, action: A.Enter | A.Decline, events: CastellEvents) -> None:
        p = self.current
        if isinstance(action, A.Enter):
            fest = self.festivals[self.round][action.slot]
            tower = action.tower if action.tower is not None else self.best_tower(p, fest)
            assert tower is not None  # legality checked that the seat can enter
            self.entries.append((p, action.slot, tower))
            events.enter(p, fest.region, tower)
        else:
            events.decline(p)
        self.queue.pop(0)
        if self.queue:
            self.current = self.queue[0]
        else:
            self._end_round(events)

    def _score_festivals(self, events: CastellEvents) -> None:
        """K8 scores, K9 prizes and size tokens for every festival of the round."""
        for slot, fest in enumerate(self.festivals[self.round]):
            entrants = [(seat, tower) for seat, s, tower in self.entries if s == slot]
            scores = [festival_score(tower, fest.sizes) for _, tower in entrants]
            awards = prizes(scores, self.options["prize_ties"])
            # K13: a size shown on two or three tokens counts once in the score (fest.sizes is
            # the set of sizes), but each token is awarded on its own.
            won = size_token_winners([needed(t) for _, t in entrants], fest.tokens)
            placed: list[dict[str, Any]] = []
            discarded = [size for size, w in zip(fest.tokens, won) if w is None]
            result = {
                "round": self.round, "festival": self.components.festivals[fest.tile].id,
                "region": REGIONS[fest.region], "entrants": placed,
                "discarded": discarded,
            }
            for i, (seat, tower) in enumerate(entrants):
                if scores[i] > self.best[seat]:
                    self.best[seat] = scores[i]
                if awards[i]:
                    self.prizes[seat].append((fest.region, awards[i]))
                sizes = [size for size, w in zip(fest.tokens, won) if w == i]
                self.size_tokens[seat].extend((fest.region, size) for size in sizes)
                placed.append({
                    "seat": seat, "tower": [list(v) for v in tower], "score": scores[i], "prize": awards[i],
                    "size_tokens": sizes,
                })
                events.festival_score(seat, fest.region, scores[i], awards[i], sizes, self.best[seat])
            events.size_tokens_discarded(fest.region, discarded)
            self.results.append(result)

    def _end_round(self, events: CastellEvents) -> None:
        if self.festivals[self.round]:
            self._score_festivals(events)
        if self.round == LAST_ROUND:
            self.over = True
            self.queue = []
            self.entries = []
            events.game_over(self)
            return
        self.round += 1
        self.first = (self.first + 1) % self.num_players  # the first player marker passes clockwise
        events.round_start(self.first, self.round)
        if self.round in REFILL_ROUNDS:
            self._fill_regions(events, self.options["refill"])
        self._start_turns()

    # -- results --------------------------------------------------------------------------------
    def score_breakdown(self) -> list[dict[str, Any]]:
        stars = self.components.local_tiles
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
        if not self.over:
            return []
        return winners_by_key(self.scores())  # K11: a tie is a shared win

    # -- information and loading ----------------------------------------------------------------
    def view(self, player: object) -> CastellView:
        return view.view(self, player)

    def determinize(self, observer: object, rng: Rng) -> Self:
        return view.determinize(self, observer, rng)

    def validate(self) -> None:
        integrity.validate(self)
