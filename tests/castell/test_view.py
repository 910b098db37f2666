"""Views: the whole table for everyone, the bag's order for no one, a seat's own tower preview
for that seat only; determinize reshuffles just the bag."""

from __future__ import annotations

import inspect
import json

import pytest

import meeple.cli.render.castell as render
from meeple.core.errors import OptionError
from meeple.core.rng import Rng
from meeple.games.castell.components import Festival
from meeple.games.castell.towers.cache import best_for_festival, tallest
from meeple.games.castell.towers.rules import festival_score
from tests.castell.helpers import last_turn, new, placed, region, team


def test_views_are_json_safe_and_hide_only_the_bag_order():
    s = new(3, seed=2)
    for seat in (None, 0, 1, 2):
        data = s.view(seat)
        assert json.loads(json.dumps(data)) == data
        assert data["seat"] == seat
        assert data["bag"]["count"] == len(s.bag)
        assert "order" not in json.dumps(data["bag"])
    shuffled = s.clone()
    Rng(9).shuffle(shuffled.bag)
    assert shuffled.view(1) == s.view(1)  # the bag's order never shows


def test_tower_preview_is_in_the_seats_own_view_only():
    s = new(2, seed=3)
    assert "tower_preview" not in s.view(None)
    for seat in (0, 1):
        preview = s.view(seat)["tower_preview"]
        tower = tallest(tuple(s.teams[seat]), tuple(s.skills[seat]))
        assert preview["tower"] == [list(level) for level in tower or ()]
        assert preview["festival"] is None and preview["score"] is None


def test_tower_preview_shows_the_best_festival_tower_where_the_pawn_stands():
    s = placed(where="valls")
    s.teams[0] = team(s10=3, s9=2, s8=1, s3=1)
    s.skills[0] = [1, 0, 0, 0, 0]
    fest = Festival(0, region("valls"), (8, 3))
    last_turn(s, 5, (fest,))
    preview = s.view(s.current)["tower_preview"]
    tower = best_for_festival(tuple(s.teams[s.current]), tuple(s.skills[s.current]), fest.sizes)
    assert tower is not None
    assert preview["tower"] == [list(level) for level in tower]
    assert preview["region"] == "valls" and preview["score"] == festival_score(tower, fest.sizes)


def test_the_renderer_reads_only_the_view():
    """The renderer may use the game's move labels (describe: text from a move's JSON and the
    catalog) and the view's declared types, but no engine module, so it draws from the view
    alone: the types are imported for the type checker only."""
    source = inspect.getsource(render)
    allowed = ("meeple.games.castell.describe", "from meeple.games.castell.view_types import")
    engine = [line for line in source.splitlines()
              if "meeple.games" in line and not any(name in line for name in allowed)]
    assert not engine, engine
    assert not hasattr(render, "CastellView")


def test_determinize_reshuffles_only_the_bag():
    s = new(3, seed=4)
    sample = s.determinize(1, Rng(7))
    assert sorted(sample.bag) == sorted(s.bag)
    assert sample.view(1) == s.view(1)
    assert sample.teams == s.teams and sample.pool == s.pool


@pytest.mark.parametrize("seat", [3, -1, True, "0"])
def test_views_of_seats_that_do_not_exist_are_refused(seat):
    with pytest.raises(OptionError):
        new(3).view(seat)
