"""K10 local performance tiles: the shipped data, the loader's checks, meeting a tile."""

import itertools
from pathlib import Path

import pytest

from meeple.core.errors import DataError
from meeple.games.castell.towers import (
    LocalTile,
    castellers_needed,
    load_local_tiles,
    satisfies_tile,
    tower_for_tile,
    validate,
)
from meeple.games.castell.towers.solver import ShapeGoal, ShowGoal, search
from tests.castell.helpers import SUPPLY

TILES = load_local_tiles()
ALL5 = (5, 5, 5, 5, 5)
SHIPPED = Path(__file__).parents[2] / "src/meeple/games/castell/data/local_performances.toml"


def test_K10_shipped_set_has_32_tiles_16_of_each_kind():
    assert len(TILES) == 32
    assert sum(t.kind == "shape" for t in TILES) == 16
    assert sum(t.kind == "skill" for t in TILES) == 16
    assert len({t.id for t in TILES}) == 32


def test_K10_stars_2_to_7():
    assert {t.stars for t in TILES} == {2, 3, 4, 5, 6, 7}


def test_K10_contents_are_marked_reconstructed_except_example_F():
    rulebook = [t for t in TILES if t.provenance == "rulebook"]
    assert [(t.kind, t.min_levels, t.uses) for t in rulebook] == [("skill", 6, (0, 1, 2, 1, 0))]
    assert all(t.provenance == "reconstructed" for t in TILES if t not in rulebook)
    assert "reconstructed" in SHIPPED.read_text(encoding="utf-8").split("[[tile]]")[0].lower()


def test_K10_skill_shows_need_more_levels_than_stars():
    assert all(t.min_levels == t.stars + 1 for t in TILES if t.kind == "skill")


@pytest.mark.parametrize("tile", TILES, ids=lambda t: t.id)
def test_K10_every_tile_achievable_with_skills_5_and_the_supply(tile):
    tower = tower_for_tile(SUPPLY, ALL5, tile)
    assert tower is not None and satisfies_tile(tower, ALL5, tile)
    assert all(n <= have for n, have in zip(castellers_needed(tower), SUPPLY))


def difficulty(tile):
    """Fewest total skill levels with which the whole supply builds the tile."""
    for total in range(26):
        for levels in itertools.product(range(6), repeat=5):
            if sum(levels) != total:
                continue
            shape = tile.kind == "shape"
            goal = ShapeGoal(tile.widths) if shape else ShowGoal(tile.min_levels, tile.uses, levels)
            if search(SUPPLY, levels, goal) is not None:
                return total
    raise AssertionError(f"{tile.id} cannot be built")


def test_K10_stars_rise_with_difficulty():
    for kind in ("shape", "skill"):
        rated = sorted((difficulty(t), t.stars, t.id) for t in TILES if t.kind == kind)
        stars = [s for _, s, _ in rated]
        assert stars == sorted(stars), rated
        assert rated[0][0] < rated[-1][0]


def test_K10_example_F_terrassa_show():
    tile = next(t for t in TILES if t.provenance == "rulebook")
    tower = ((9,) * 8 + (10,), (7, 7, 7, 7, 8), (7, 7, 7, 7), (5, 5, 5), (3, 3), (1,))
    assert satisfies_tile(tower, (0, 1, 2, 1, 2), tile)
    assert not satisfies_tile(tower[:5], (0, 1, 2, 1, 2), tile)  # only 5 levels
    assert not satisfies_tile(((9,) * 8 + (10,), (7, 7, 7, 8), (5, 5, 5), (3, 3), (2,), (1,)),
                              (0, 1, 2, 1, 2), tile)  # no Strength use, one Mix use
    assert tower_for_tile(SUPPLY, (0, 1, 2, 1, 2), tile) is not None
    assert tower_for_tile(SUPPLY, (0, 1, 2, 0, 5), tile) is None  # Strength 0 cannot show it
    assert tower_for_tile(SUPPLY, (0, 1, 2, 1, 1), tile) is None  # too few levels fit


def test_K10_shape_tile_needs_exact_widths():
    tile = LocalTile("s", "shape", 2, (4, 3, 2, 1), 4, (0,) * 5, "test")
    tower = ((9, 9, 9, 9), (7, 7, 7), (5, 5), (2,))
    assert satisfies_tile(tower, (0, 0, 0, 0, 1), tile)
    assert not satisfies_tile(tower, (0, 0, 0, 0, 0), tile)  # illegal without Width 1
    assert not satisfies_tile(tower[:3], (0, 0, 0, 0, 1), tile)
    assert not satisfies_tile(tower + ((1,),), (1, 0, 0, 0, 1), tile)


def test_K10_tower_for_tile_respects_the_team():
    tile = LocalTile("s", "shape", 2, (3, 2, 1), 3, (0,) * 5, "test")
    assert tower_for_tile({5: 3, 4: 2, 1: 1}, (0,) * 5, tile) == ((5, 5, 5), (4, 4), (1,))
    assert tower_for_tile({5: 3, 4: 1, 1: 1}, (0,) * 5, tile) is None
    tower = tower_for_tile(SUPPLY, (0,) * 5, tile)
    assert tower is not None and validate(tower, (0,) * 5).legal


# --- the loader's checks


GOOD_SHAPE = '[[tile]]\nid = "{id}"\nkind = "shape"\nstars = 2\nwidths = [3, 2, 1]\nprovenance = "user"\n'


def write(tmp_path, text):
    path = tmp_path / "tiles.toml"
    path.write_text(text, encoding="utf-8")
    return str(path)


def fourteen(extra=""):
    return "".join(GOOD_SHAPE.format(id=f"t{i}") for i in range(13)) + extra


def test_load_accepts_a_user_set_of_14(tmp_path):
    tiles = load_local_tiles(write(tmp_path, fourteen(GOOD_SHAPE.format(id="t13"))))
    assert len(tiles) == 14 and tiles[0].widths == (3, 2, 1) and tiles[0].provenance == "user"


@pytest.mark.parametrize("tile_text, field", [
    ('id = "x"\nkind = "tower"\nstars = 2\nwidths = [1]\nprovenance = "u"', "kind"),
    ('id = "x"\nkind = "shape"\nstars = 0\nwidths = [1]\nprovenance = "u"', "stars"),
    ('id = "x"\nkind = "shape"\nstars = 10\nwidths = [1]\nprovenance = "u"', "stars"),
    ('id = "x"\nkind = "shape"\nstars = 3\nwidths = [1, 2]\nprovenance = "u"', "widths"),
    ('id = "x"\nkind = "shape"\nstars = 3\nwidths = [0]\nprovenance = "u"', "widths"),
    ('id = "x"\nkind = "shape"\nstars = 3\nwidths = [1, 1, 1, 1, 1, 1, 1]\nprovenance = "u"', "widths"),
    ('id = "x"\nkind = "shape"\nstars = 3\nwidths = [20, 19, 18, 17, 16, 15]\nprovenance = "u"', "widths"),
    ('id = "x"\nkind = "shape"\nstars = 3\nprovenance = "u"', "widths"),
    ('id = "x"\nkind = "shape"\nstars = 3\nwidths = [2]\nuses = [0, 0, 0, 0, 0]\nprovenance = "u"', "uses"),
    ('id = "x"\nkind = "skill"\nstars = 3\nmin_levels = 4\nuses = [0, 0, 1, 0]\nprovenance = "u"', "uses"),
    ('id = "x"\nkind = "skill"\nstars = 3\nmin_levels = 4\nuses = [0, 0, 6, 0, 0]\nprovenance = "u"', "uses"),
    ('id = "x"\nkind = "skill"\nstars = 3\nmin_levels = 0\nuses = [0, 0, 1, 0, 0]\nprovenance = "u"', "min_levels"),
    ('id = "x"\nkind = "skill"\nstars = 3\nmin_levels = 4\nuses = [0, 0, 1, 0, 0]', "provenance"),
    ('id = "x"\nkind = "skill"\nstars = 3\nmin_levels = 4\nuses = [0, 0, 1, 0, 0]\ncolour = 1\nprovenance = "u"',
     "colour"),
    ('id = ""\nkind = "shape"\nstars = 2\nwidths = [1]\nprovenance = "u"', "id"),
])
def test_load_names_file_tile_and_field(tmp_path, tile_text, field):
    path = write(tmp_path, fourteen("[[tile]]\n" + tile_text + "\n"))
    with pytest.raises(DataError) as err:
        load_local_tiles(path)
    message = str(err.value)
    assert path in message and "tile #14" in message and f"'{field}'" in message
    assert "\n" not in message


def test_load_rejects_duplicate_ids(tmp_path):
    path = write(tmp_path, fourteen(GOOD_SHAPE.format(id="t3")))
    with pytest.raises(DataError, match=r"'t3'.*'id' is used twice"):
        load_local_tiles(path)


def test_load_rejects_too_few_tiles(tmp_path):
    with pytest.raises(DataError, match="13 tiles, need at least 14"):
        load_local_tiles(write(tmp_path, fourteen()))


def test_load_rejects_bad_toml_and_missing_files(tmp_path):
    with pytest.raises(DataError, match="not valid TOML"):
        load_local_tiles(write(tmp_path, "[[tile]\n"))
    with pytest.raises(DataError, match="cannot read"):
        load_local_tiles(str(tmp_path / "absent.toml"))
    with pytest.raises(DataError, match="is a directory, not a regular file"):
        load_local_tiles(str(tmp_path))
    binary = tmp_path / "binary.toml"
    binary.write_bytes(b"\xff\xfe\x00tile")
    with pytest.raises(DataError, match="not UTF-8"):
        load_local_tiles(str(binary))
    with pytest.raises(DataError, match=r"\[\[tile\]\]"):
        load_local_tiles(write(tmp_path, 'tile = "x"\n'))


def test_load_shipped_file_by_path_equals_default():
    assert load_local_tiles(str(SHIPPED)) == TILES
