"""The greedy Triqueta bot: a real heuristic, and honest about hidden information."""

from meeple.ai.bots import make_bot
from meeple.ai.match import play_game
from meeple.core.rng import Rng
from meeple.games.triqueta import heuristics
from tests.triqueta.helpers import BEAR, DEER, GAME, OWL, new, place, set_next_draws, take


def test_greedy_beats_random_clearly():
    greedy, rand = make_bot("greedy"), make_bot("random")
    wins = 0.0
    for index in range(40):
        seats = [greedy, rand] if index % 2 == 0 else [rand, greedy]
        _, result = play_game(GAME, seats, seed=index)
        wins += result.win_shares()[seats.index(greedy)]
    assert wins >= 34


def test_greedy_takes_a_row_that_completes_a_triqueta():
    state = new(3)
    state.counts[0][BEAR] = 2
    state.rows[1] = [BEAR]
    state.rows[2] = [OWL]
    assert heuristics.choose(state, Rng(0)) == take(1)


def test_greedy_poisons_a_row_the_next_player_needs():
    # Seat 1 has 3 bears and 2 owls: row 0 (an owl) would give it a second triqueta. Seat 0,
    # with no face-down keeps left, draws a bear and puts it into row 0: a 4th bear spoils it.
    state = new(3)
    state.counts[1][BEAR] = 3
    state.counts[1][OWL] = 2
    state.rows[0] = [OWL]
    state.face_down[0] = [DEER, DEER]
    set_next_draws(state, [BEAR])
    state.apply(state.legal_actions()[-1])  # draw
    assert heuristics.choose(state, Rng(0)) == place(0)


def test_greedy_decision_ignores_what_it_cannot_see():
    for seed in range(30):
        state = GAME.new_game(4, seed=seed)
        rng = Rng(seed)
        for _ in range(seed % 25):
            if state.is_terminal:
                break
            state.step(rng.choice(state.legal_actions()))
        if state.is_terminal:
            continue
        seat = state.current
        decisions = {heuristics.choose(state.determinize(seat, Rng(k)), Rng(0)) for k in range(4)}
        assert decisions == {heuristics.choose(state, Rng(0))}


def test_evaluate_gives_a_distribution_favouring_the_leader():
    state = new(3)
    state.counts[2][OWL] = 3
    values = heuristics.evaluate(state)
    assert abs(sum(values) - 1) < 1e-9 and max(values) == values[2]
