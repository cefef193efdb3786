"""Known facts of Yacht (rulebooks/yacht.rules), two players.

The rules: five dice; a turn rolls all five, then may roll any of them
again, at most twice more, and ends by scoring the dice in one of the
player's twelve empty boxes; twelve rounds of one turn each, P0 first; the
higher total wins, equal totals share the win. The boxes: ones … sixes (the
sum of the dice of that face), full house (three of a face and two of
another: the sum; five alike is no full house), four of a kind (the four
dice alike: their sum, five alike included), little straight (1 2 3 4 5:
30), big straight (2 3 4 5 6: 30), choice (the sum), yacht (five alike:
50); 0 when the dice do not fit.

The dice are rolled by hand here: a game started with chance nodes stops at
every die the rules roll and goes on with the face it is given.
"""

from __future__ import annotations

import random

import pytest

from interpreter import load_rulebook
from interpreter.errors import ActionError
from tests.references import reference
from tests.scenario import do, texts_of, value_of, var

BOXES = ("ones", "twos", "threes", "fours", "fives", "sixes", "full_house", "four_of_a_kind",
         "little_straight", "big_straight", "choice", "yacht")
DICE = ("d1", "d2", "d3", "d4", "d5")

# box, the dice, what they score there
WORKED = [
    ("ones", (1, 1, 2, 4, 5), 2),
    ("twos", (2, 2, 2, 5, 6), 6),
    ("threes", (3, 3, 3, 3, 1), 12),
    ("fours", (1, 2, 3, 5, 6), 0),
    ("fives", (5, 1, 5, 2, 3), 10),
    ("sixes", (6, 6, 6, 6, 6), 30),
    ("full_house", (2, 3, 2, 3, 3), 13),
    ("full_house", (3, 3, 3, 3, 2), 0),          # four and one
    ("full_house", (4, 4, 4, 4, 4), 0),          # five alike is no full house
    ("full_house", (1, 1, 2, 2, 3), 0),          # two pairs
    ("four_of_a_kind", (3, 3, 5, 3, 3), 12),     # the four threes, not the five
    ("four_of_a_kind", (6, 6, 6, 6, 6), 24),     # four of the five sixes
    ("four_of_a_kind", (2, 2, 2, 5, 5), 0),
    ("little_straight", (5, 3, 1, 2, 4), 30),
    ("little_straight", (2, 3, 4, 5, 6), 0),
    ("little_straight", (1, 2, 3, 4, 4), 0),
    ("big_straight", (6, 2, 5, 3, 4), 30),
    ("big_straight", (1, 2, 3, 4, 5), 0),
    ("choice", (1, 3, 4, 6, 6), 20),
    ("choice", (5, 5, 5, 5, 5), 25),
    ("yacht", (5, 5, 5, 5, 5), 50),
    ("yacht", (5, 5, 5, 5, 4), 0),
]


@pytest.fixture(scope="module")
def game():
    return load_rulebook("yacht")


@pytest.fixture(scope="module")
def ref():
    return reference("yacht")


def rolled(g, s, *faces):
    """The dice the rules roll now, each given its face, one chance node a
    die; afterwards someone decides."""
    for face in faces:
        assert g.is_chance(s), "fewer dice rolled than faces given"
        s = g.apply(s, g.parse_chance(s, f"random {face}"))
    assert not g.is_chance(s), "more dice rolled than faces given"
    return s


def start(g, *faces):
    """A game whose first roll shows `faces`."""
    return rolled(g, g.new_game(players=2, seed=0, chance=True), *faces)


def row(g, s) -> list:
    return [value_of(g, s, "face", d) for d in DICE]


def rerolls(g, s) -> list:
    return [t for t in texts_of(g, s) if t.startswith("reroll ")]


def scoring(g, s) -> list:
    return [t for t in texts_of(g, s) if t.startswith("score ")]


# == the boxes ===================================================================================

@pytest.mark.parametrize("box, dice, points", WORKED,
                         ids=[f"{box}-{''.join(map(str, dice))}" for box, dice, _ in WORKED])
def test_what_the_dice_score_in_each_box(game, ref, box, dice, points):
    s = do(game, start(game, *dice), f"score {box}")
    assert list(game.scores(s)) == [points, 0]
    assert f"P0 scores {points} for {box}" in [e["text"] for e in s.events]
    assert ref.points(tuple(sorted(dice)))[BOXES.index(box)] == points


def test_every_box_has_a_worked_example():
    assert {box for box, _, _ in WORKED} == set(BOXES)


# == a turn ======================================================================================

def test_a_turn_begins_with_all_five_dice_rolled_and_laid_out_lowest_first(game):
    s = start(game, 6, 2, 5, 2, 1)
    assert row(game, s) == [1, 2, 2, 5, 6]
    assert list(game.to_move(s)) == [0] and var(game, s, "rolls") == 1


def test_dice_to_roll_again_are_named_by_their_faces_lowest_first(game):
    s = start(game, 6, 2, 5, 2, 1)
    texts = rerolls(game, s)
    # every choice of some of 1, 2, 2, 5, 6 once: 2 * 3 * 2 * 2 - 1 (not none)
    assert len(texts) == len(set(texts)) == 23
    assert {"reroll 1", "reroll 22", "reroll 225", "reroll 12256"} <= set(texts)
    assert "reroll 252" not in texts and "reroll 222" not in texts
    assert scoring(game, s) == [f"score {box}" for box in BOXES]


def test_only_the_dice_named_are_rolled_again(game):
    s = do(game, start(game, 1, 2, 2, 5, 6), "reroll 225")
    s = rolled(game, s, 3, 3, 3)           # three dice, no more
    assert row(game, s) == [1, 3, 3, 3, 6]
    assert list(game.to_move(s)) == [0] and var(game, s, "rolls") == 2


def test_three_rolls_at_most_then_the_dice_must_be_scored(game):
    s = rolled(game, do(game, start(game, 1, 2, 3, 4, 6), "reroll 6"), 5)
    assert rerolls(game, s)                # the second roll: one more is allowed
    s = rolled(game, do(game, s, "reroll 1"), 1)
    assert row(game, s) == [1, 2, 3, 4, 5] and var(game, s, "rolls") == 3
    assert rerolls(game, s) == []
    assert texts_of(game, s) == [f"score {box}" for box in BOXES]
    with pytest.raises(ActionError) as refused:
        game.parse_action(s, 0, "reroll 5")
    assert refused.value.code == "action/illegal"


def test_scoring_ends_the_turn_after_any_roll(game):
    s = do(game, start(game, 4, 4, 4, 1, 2), "score fours")
    assert game.is_chance(s)               # P1's five dice
    s = rolled(game, s, 1, 1, 1, 1, 1)
    assert list(game.to_move(s)) == [1] and var(game, s, "rolls") == 1
    assert list(game.scores(s)) == [12, 0]


def test_a_box_is_filled_once_and_each_sheet_is_its_own(game):
    s = rolled(game, do(game, start(game, 4, 4, 4, 1, 2), "score fours"), 4, 4, 1, 1, 1)
    assert "score fours" in scoring(game, s)                       # P1's box is still empty
    s = rolled(game, do(game, s, "score fours"), 4, 4, 4, 4, 4)
    assert list(game.to_move(s)) == [0]
    assert "score fours" not in scoring(game, s) and len(scoring(game, s)) == 11
    assert list(game.scores(s)) == [12, 8]


# == the end =====================================================================================

def play_out(game, rolls_of):
    """Twelve rounds, each turn rolling `rolls_of(player, box)` and
    scoring it in the boxes in their order."""
    s = game.new_game(players=2, seed=0, chance=True)
    for box in BOXES:
        for player in (0, 1):
            s = rolled(game, s, *rolls_of(player, box))
            assert list(game.to_move(s)) == [player]
            s = do(game, s, f"score {box}")
    return s


def test_the_game_ends_after_twelve_rounds_and_the_higher_total_wins(game):
    s = play_out(game, lambda p, box: (6, 6, 6, 6, 6) if p == 1 else (1, 2, 3, 4, 5))
    out = game.outcome(s)
    assert out is not None and list(game.to_move(s)) == [] and s.round == 12
    # P0: 1 + 2 + 3 + 4 + 5 + 0, 0, 0, little straight 30, 0, choice 15, 0
    # P1: sixes 30, four of a kind 24, choice 30, yacht 50
    assert list(out.scores) == [60, 134] and list(out.winners) == [1]
    assert out.parts[0] == {"ones to sixes": 15, "the other boxes": 45}
    assert out.parts[1] == {"ones to sixes": 30, "the other boxes": 104}


def test_equal_totals_share_the_win(game):
    out = game.outcome(play_out(game, lambda p, box: (2, 3, 4, 5, 6)))
    assert out.scores[0] == out.scores[1] == 2 + 3 + 4 + 5 + 6 + 30 + 20
    assert sorted(out.winners) == [0, 1] and out.draw


def test_random_games_fill_every_box_once(game):
    for seed in range(4):
        rng = random.Random(seed)
        s = game.new_game(players=2, seed=seed)
        scored = 0
        while game.outcome(s) is None:
            actions = game.legal_actions(s, game.to_move(s)[0])
            assert 1 <= var(game, s, "rolls") <= 3
            action = actions[rng.randrange(len(actions))]
            scored += action.name == "score"
            s = game.apply(s, action)
        assert scored == 24
