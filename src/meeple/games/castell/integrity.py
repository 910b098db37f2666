"""Checks of a loaded Castell state beyond the field types: the components it was made with,
ranges, the castellers and special action tokens conserved (K2, K5), tiles in one place (K3,
K10), and whose turn it is.

Anything that would make a later step hang, crawl or raise is refused here: a skill tile
`skill_at[2] = 10**20` (the wheel would raise when it faces it), a team larger than any game can
gather (the tower solver's time grows fast with the team: 105 castellers took 16.7 s a solve).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from meeple.core.checks import check_length, check_range
from meeple.core.errors import RecordError
from meeple.games.castell.components import (
    LAST_ROUND,
    MAX_TEAM,
    NUM_REGIONS,
    SPECIAL_TOKENS,
    TILES_PER_REGION,
)
from meeple.games.castell.legality import MOVE_USED, PHASE_FESTIVAL, PHASE_TURNS, RECRUIT_USED, SPECIAL_USED, TRAIN_USED
from meeple.games.castell.scoring import PRIZE_TABLE
from meeple.games.castell.towers.rules import COUNTS_LEN, MAX_SIZE, MAX_SKILL, MIN_SIZE, SKILLS

if TYPE_CHECKING:
    from meeple.games.castell.state import CastellState

ALL_USED = MOVE_USED | RECRUIT_USED | TRAIN_USED | SPECIAL_USED
PRIZE_VALUES = frozenset(v for values in PRIZE_TABLE.values() for v in values)
#: A festival score is a point per level and per casteller: never more than twice the team.
MAX_SCORE = 2 * MAX_TEAM



def _counts(row: list[int], what: str) -> None:
    """Castellers per size: COUNTS_LEN whole numbers >= 0, index 0 (no size) empty."""
    check_length(row, COUNTS_LEN, what)
    check_range(row[0], 0, 0, f"{what}[0]")
    for size in range(MIN_SIZE, COUNTS_LEN):
        check_range(row[size], 0, MAX_TEAM, f"{what}[{size}]")


def _size(size: int, what: str) -> None:
    check_range(size, MIN_SIZE, MAX_SIZE, what)


def validate(state: CastellState) -> None:
    """Raise RecordError naming the field unless the just-loaded `state` is consistent."""
    components = state.components
    if state.components_sha256 != components.sha256:
        raise RecordError("the state was saved with different Castell components (fingerprint differs)")
    n = state.num_players
    check_range(state.round, 1, LAST_ROUND, "round")
    check_range(state.phase, PHASE_TURNS, PHASE_FESTIVAL, "phase")
    check_range(state.first, 0, n - 1, "first")
    check_range(state.turn, 0, n, "turn")
    check_range(state.current, 0, n - 1, "current")
    check_range(state.used, 0, ALL_USED, "used")
    _castellers(state)
    _tokens(state)
    _tiles(state)
    _festivals(state)
    _whose_turn(state)


def _castellers(state: CastellState) -> None:
    """K2: the castellers in the bag, the regions and the teams are the components' supply."""
    n = state.num_players
    supply = state.components.castellers
    for i, size in enumerate(state.bag):
        _size(size, f"bag[{i}]")
    check_length(state.pool, NUM_REGIONS, "pool")
    for r, row in enumerate(state.pool):
        _counts(row, f"pool[{r}]")
    check_length(state.teams, n, "teams")
    for seat, row in enumerate(state.teams):
        _counts(row, f"teams[{seat}]")
        check_range(sum(row), 0, MAX_TEAM, f"teams[{seat}] (castellers in all)")
    counts = state.bag_counts()
    for size in range(MIN_SIZE, COUNTS_LEN):
        held = counts[size] + sum(row[size] for row in state.pool) + sum(row[size] for row in state.teams)
        if held != supply[size]:
            raise RecordError(
                f"bag, pool, teams: {held} castellers of size {size}, the supply has {supply[size]} (K2)"
            )
    check_length(state.skills, n, "skills")
    for seat, levels in enumerate(state.skills):
        check_length(levels, len(SKILLS), f"skills[{seat}]")
        for k, level in enumerate(levels):
            check_range(level, 0, MAX_SKILL, f"skills[{seat}][{k}]")
    check_length(state.pawn, n, "pawn")
    for seat, region in enumerate(state.pawn):
        check_range(region, -1 if state.round == 1 else 0, NUM_REGIONS - 1, f"pawn[{seat}]")


def _tokens(state: CastellState) -> None:
    """K5: each player's special action tokens are in hand, on the map or on a player board."""
    n = state.num_players
    check_length(state.tokens_left, n, "tokens_left")
    for seat, count in enumerate(state.tokens_left):
        check_range(count, 0, SPECIAL_TOKENS, f"tokens_left[{seat}]")
    check_length(state.board_tokens, NUM_REGIONS, "board_tokens")
    for r, row in enumerate(state.board_tokens):
        check_length(row, n, f"board_tokens[{r}]")
        for seat, count in enumerate(row):
            check_range(count, 0, SPECIAL_TOKENS, f"board_tokens[{r}][{seat}]")
    check_length(state.player_board_tokens, n, "player_board_tokens")
    for seat, row in enumerate(state.player_board_tokens):
        check_length(row, NUM_REGIONS, f"player_board_tokens[{seat}]")
        for r, count in enumerate(row):
            check_range(count, 0, SPECIAL_TOKENS * n, f"player_board_tokens[{seat}][{r}]")
    total = sum(state.tokens_left) + sum(map(sum, state.board_tokens)) + sum(map(sum, state.player_board_tokens))
    if total != SPECIAL_TOKENS * n:
        raise RecordError(
            f"tokens_left, board_tokens, player_board_tokens: {total} tokens, not {SPECIAL_TOKENS * n} (K5)"
        )


def _tiles(state: CastellState) -> None:
    """K3: the wheel's skill tiles are the components' set; K10: a local performance tile is
    face up in one region or performed by one player; prizes and size tokens in range."""
    components = state.components
    n = state.num_players
    check_length(state.skill_at, len(components.skill_tiles), "skill_at")
    if sorted(state.skill_at) != sorted(components.skill_tiles):
        raise RecordError(f"skill_at must hold the components' skill tiles {sorted(components.skill_tiles)} (K3)")
    last = len(components.local_tiles) - 1
    check_length(state.region_tiles, NUM_REGIONS, "region_tiles")
    seen: set[int] = set()
    for r, row in enumerate(state.region_tiles):
        check_length(row, TILES_PER_REGION, f"region_tiles[{r}]")
        for slot, tile in enumerate(row):
            check_range(tile, -1, last, f"region_tiles[{r}][{slot}]")
            if tile >= 0 and tile in seen:
                raise RecordError(f"region_tiles[{r}][{slot}]: tile {tile} is in two places (K10)")
            seen.add(tile)
    for name, rows in (("claimed", state.claimed),):
        check_length(rows, n, name)
        for seat, row in enumerate(rows):
            for i, tile in enumerate(row):
                check_range(tile, 0, last, f"{name}[{seat}][{i}]")
                if tile in seen:
                    raise RecordError(f"{name}[{seat}][{i}]: tile {tile} is in two places (K10)")
                seen.add(tile)
    check_length(state.prizes, n, "prizes")
    for seat, won in enumerate(state.prizes):
        for i, (region, value) in enumerate(won):
            check_range(region, 0, NUM_REGIONS - 1, f"prizes[{seat}][{i}] region")
            if value not in PRIZE_VALUES:
                raise RecordError(f"prizes[{seat}][{i}] value must be one of {sorted(PRIZE_VALUES)}, not {value}")
    check_length(state.size_tokens, n, "size_tokens")
    for seat, taken in enumerate(state.size_tokens):
        for i, (region, size) in enumerate(taken):
            check_range(region, 0, NUM_REGIONS - 1, f"size_tokens[{seat}][{i}] region")
            _size(size, f"size_tokens[{seat}][{i}] size")
    check_length(state.best, n, "best")
    for seat, score in enumerate(state.best):
        check_range(score, 0, MAX_SCORE, f"best[{seat}]")


def _festivals(state: CastellState) -> None:
    """K7: the calendar's festivals are festival tiles of the components, held in their region."""
    tiles = state.components.festivals
    check_length(state.festivals, LAST_ROUND + 1, "festivals")
    for rnd, fests in enumerate(state.festivals):
        for i, fest in enumerate(fests):
            what = f"festivals[{rnd}][{i}]"
            check_range(fest.tile, 0, len(tiles) - 1, f"{what} tile")
            if fest.region != tiles[fest.tile].region:
                raise RecordError(f"{what}: the festival's region must be its tile's region (K7)")
            for k, size in enumerate(fest.tokens):
                _size(size, f"{what} sizes[{k}]")
    slots = len(state.festivals[state.round])
    for i, (seat, slot, tower) in enumerate(state.entries):
        check_range(seat, 0, state.num_players - 1, f"entries[{i}] seat")
        check_range(slot, 0, slots - 1, f"entries[{i}] slot")
        if not tower or not all(tower):
            raise RecordError(f"entries[{i}]: a tower needs levels, each with castellers")
        if sum(map(len, tower)) > MAX_TEAM:
            raise RecordError(f"entries[{i}]: a tower of more than {MAX_TEAM} castellers")
        for level in tower:
            for size in level:
                _size(size, f"entries[{i}] tower size")
    for i, result in enumerate(state.results):
        if type(result) is not dict:
            raise RecordError(f"results[{i}] must be an object, not {result!r}")


def _whose_turn(state: CastellState) -> None:
    """K4: turns go round from the first player; K8: the entry queue decides in order."""
    n = state.num_players
    for i, seat in enumerate(state.queue):
        check_range(seat, 0, n - 1, f"queue[{i}]")
    if state.over:
        if state.round != LAST_ROUND or state.queue:
            raise RecordError("over: the game ends after the entries of the last round")
        return
    if state.phase == PHASE_FESTIVAL:
        if not state.queue or state.current != state.queue[0] or state.turn != n:
            raise RecordError("queue, current: in the festival phase the first seat of the queue decides (K8)")
    elif state.turn >= n or state.current != (state.first + state.turn) % n:
        raise RecordError("current, turn: the seat to act must be the turn's seat from the first player (K4)")
