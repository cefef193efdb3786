"""`estimate = …` in the scoring section and the greedy player that reads it.

A score settled at the end (a harvest, a penalty per building still in
reserve) makes every step that pays later look like a loss one step ahead;
`game.estimate(state)` is the rulebook's own word for how a player stands
before the end, the score where it declares none, and the scores at the
end. Harvest (tests/games/harvest.rules) is the smallest such game; Paris
is the shipped one whose greedy player never took a building.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.ai.players import make_player
from interpreter.simulation.simulate import Plan, play_game

ROOT = Path(__file__).resolve().parent.parent
HARVEST = ROOT / "tests" / "games" / "harvest.rules"


@pytest.fixture(scope="module")
def harvest():
    return load_rulebook(str(HARVEST))


def play(game, players, seed=0):
    """Plays a 2-player game with the given player objects; the last state."""
    state = game.new_game(players=2, seed=seed)
    while not state.over:
        me = game.to_move(state)[0]
        bot = players[me]
        state = game.apply(state, bot.act(game, game.view(state, me),
                                          game.legal_actions(state, me)))
    return state


def test_the_estimate_stands_in_for_the_score_before_the_end(harvest):
    assert harvest.has_estimate
    state = harvest.new_game(players=2, seed=0)
    sow = next(a for a in harvest.legal_actions(state, 0) if a.name == "sow")
    state = harvest.apply(state, sow)
    assert harvest.scores(state) == (0, 0)
    assert harvest.estimate(state) == (3, 0)


def test_at_the_end_the_estimate_is_the_score(harvest):
    state = play(harvest, [make_player("greedy", seed=1), make_player("random", seed=2)])
    assert state.over
    assert harvest.estimate(state) == harvest.scores(state) == harvest.outcome(state).scores


def test_without_an_estimate_it_is_the_score(tmp_path):
    text = HARVEST.read_text(encoding="utf-8").replace("  estimate = food(p) + 3 * sown(p)\n", "")
    path = tmp_path / "harvest.rules"
    path.write_text(text, encoding="utf-8")
    game = load_rulebook(str(path))
    state = game.new_game(players=2, seed=0)
    state = game.apply(state, next(a for a in game.legal_actions(state, 0) if a.name == "sow"))
    assert not game.has_estimate and game.estimate(state) == game.scores(state) == (0, 0)


def test_a_variant_replaces_the_estimate(tmp_path):
    base = tmp_path / "harvest.rules"
    base.write_text(HARVEST.read_text(encoding="utf-8"), encoding="utf-8")
    (tmp_path / "lean.rules").write_text(
        'variant of "harvest.rules"\ngame "Lean harvest"\n\nscoring\n  estimate = food(p)\n',
        encoding="utf-8")
    game = load_rulebook(str(tmp_path / "lean.rules"))
    state = game.new_game(players=2, seed=0)
    state = game.apply(state, next(a for a in game.legal_actions(state, 0) if a.name == "sow"))
    assert game.estimate(state) == (0, 0) and game.scores(state) == (0, 0)


def test_greedy_sows_on_the_estimate_and_eats_on_the_score_alone(harvest):
    wise = make_player("greedy", seed=1)
    plain = make_player("greedy", seed=2, estimate=False)
    state = play(harvest, [wise, plain])
    # four grains sown are twelve at the harvest. On the score alone every
    # grain is eaten, but for the game's very last move, whose harvest is
    # one step ahead
    assert harvest.outcome(state).scores == (12, 6)
    state = play(harvest, [plain, wise])
    assert harvest.outcome(state).scores == (4, 12)


def test_greedy_builds_in_paris_and_beats_random():
    """The score of Paris takes 3 points for every building left in reserve,
    so greedy on the score alone never took one; on the rulebook's estimate
    it builds in every game and wins clearly (3 seeded games per seat)."""
    game = load_rulebook("paris")
    built, wins = [], 0
    for greedy_seat in (0, 1):
        seats = ["random", "random"]
        seats[greedy_seat] = "greedy"
        plan = Plan(players=2, seats=tuple(seats), seed=11)
        for i in range(3):
            record = play_game(game, plan, i)
            wins += record.win_share(greedy_seat)
            built.append(record.actions.get("build", 0))
    assert all(b > 0 for b in built)
    assert wins >= 5          # of 6: random wins about one game in twenty against it
    # the score alone, as before the estimate: no building is ever taken
    plain = make_player("greedy", seed=3, estimate=False)
    state = game.new_game(players=2, seed=11)
    taken = 0
    for _ in range(40):
        if not game.to_move(state):
            break
        me = game.to_move(state)[0]
        actions = game.legal_actions(state, me)
        action = plain.act(game, game.view(state, me), actions) if me == 0 else actions[0]
        taken += me == 0 and action.name == "take_building"
        state = game.apply(state, action)
    assert taken == 0
