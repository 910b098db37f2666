"""Hidden information: hands, pile orders and cult-site cards reach only their owners; the
re-sampling for search keeps what the observer knows."""

from __future__ import annotations

from meeple.core.conformance import canonical
from meeple.core.rng import Rng
from meeple.games.celtica.actions import CULT, GIVE, PLAY
from tests.celtica.helpers import BLACK, GAME, GREY, RED, WHITE, hand, part_counts, position


def test_views_hold_only_the_seats_own_hand():
    s = GAME.new_game(4, seed=8)
    for seat in range(4):
        view = s.view(seat)
        for other, entry in enumerate(view["players"]):
            assert ("hand" in entry) == (other == seat) and ("experience" in entry) == (other == seat)
        assert isinstance(view["druid_deck"], int) and isinstance(view["supply"], int)
    spectator = canonical(s.view(None))
    assert '"hand"' not in spectator and '"must_play"' not in spectator


def test_view_does_not_depend_on_other_hands_or_pile_order():
    s = GAME.new_game(3, seed=2)
    t = s.clone()
    t.hands[1], t.hands[2] = t.hands[2], t.hands[1]
    t.supply.reverse()
    t.druid_deck.reverse()
    assert s.view(0) == t.view(0) and s.view(None) == t.view(None)
    assert s.view(1) != t.view(1)


def test_C8_cult_card_is_secret_but_the_obligation_is_public():
    s = position(druids=(1, 0, 0, 0, 0), hands=[hand(RED, GREY), hand(GREY), hand(BLACK)], deck_top=[WHITE])
    s.apply(PLAY[RED][1][0])
    s.apply(CULT[1])
    assert s.view(1)["players"][0]["owes_card"] is True
    assert s.view(0)["players"][0]["must_play"] == "white"
    colours = set()
    for seed in range(40):
        sample = s.determinize(1, Rng(seed))
        owed = sample.owed_colour[0]
        assert owed >= 0 and sample.hands[0][owed] >= 1
        assert sample.view(1) == s.view(1)
        colours.add(owed)
    assert len(colours) > 1  # seat 1 cannot know the colour


def test_determinize_keeps_own_hand_and_resamples_the_rest():
    s = GAME.new_game(4, seed=13)
    others = set()
    for seed in range(20):
        sample = s.determinize(2, Rng(seed))
        assert sample.hands[2] == s.hands[2] and sample.experience[2] == s.experience[2]
        assert sample.cards_held == s.cards_held and sorted(sample.supply) == sorted(s.supply)
        assert len(sample.druid_deck) == len(s.druid_deck)
        assert sample.view(2) == s.view(2)
        others.add(tuple(map(tuple, sample.hands)))
    assert len(others) > 10


def test_C7_given_up_parts_are_public_because_collections_are_face_up():
    """Design choice (see docs): the discard pile lies face down, but everyone watched the
    parts leave a face-up collection, so the discards' contents are in every view."""
    s = position(druids=(7, 0, 0, 0, 0), hands=[hand(RED), hand(GREY), hand(GREY)],
                 parts=[part_counts(1, 2, 3), [0] * 9, [0] * 9])
    s.apply(PLAY[RED][1][0])
    s.apply(GIVE[2])
    events = s.apply(GIVE[3])
    assert s.view(1)["part_discards"] == part_counts(2, 3)
    assert next(e.for_seat(1) for e in events if e.key == "gave_up")["params"] == {"part": "part3"}


def test_dealt_cards_are_secret_to_others():
    s = position(hands=[hand(RED), [0] * 5, [0] * 5], deck_top=[GREY] * 5)
    events = s.apply(PLAY[RED][1][0])
    events += s.apply(s.legal_actions()[0])
    dealt = {e.player: e for e in events if e.key == "dealt"}
    assert dealt[1].for_seat(1)["params"]["cards"] == ["grey"] * 5
    for seat in (None, 0, 2):
        assert "cards" not in dealt[1].for_seat(seat)["params"] and dealt[1].for_seat(seat)["hidden"]


def test_determinize_depends_only_on_the_view_and_the_rng():
    """Two states a seat cannot tell apart give that seat the same sample for the same seed."""
    for seed in range(5):
        s = GAME.new_game(3, seed=seed)
        rng = Rng(seed)
        for _ in range(30 + 7 * seed):
            s.apply(rng.choice(s.legal_actions()))
        assert not s.is_terminal
        me = s.current
        other = s.determinize(me, Rng(100 + seed))
        assert other.view(me) == s.view(me) and other.to_json() != s.to_json()
        a, b = s.determinize(me, Rng(7)).to_json(), other.determinize(me, Rng(7)).to_json()
        assert canonical(a) == canonical(b)
