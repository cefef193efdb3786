"""tools/reference/dots_and_boxes.py against rulebooks/dots-and-boxes.rules:
seeded random games replayed in the reference agree at every decision (who
decides, the texts of the options) and on the final scores.

Dots and Boxes deals nothing and draws no chance, so the reference's own
first state is the rulebook's: no line drawn, P0 to move.
"""

from __future__ import annotations

import random

import pytest

from interpreter import load_rulebook
from tests.references import reference, replay

SEEDS = range(20)
LINES, BOXES = 60, 25


@pytest.fixture(scope="module")
def game():
    return load_rulebook("dots-and-boxes")


@pytest.fixture(scope="module")
def ref():
    return reference("dots_and_boxes")


def deal(game, state, ref):
    return ref.new_game(2, 0)


def test_first_state_is_the_rulebooks(game, ref):
    state = game.new_game(players=2, seed=0)
    mirror = deal(game, state, ref)
    assert ref.current_player(mirror) == game.to_move(state)[0] == 0
    assert {ref.move_text(mirror, m) for m in ref.legal_moves(mirror)} == \
        {str(a) for a in game.legal_actions(state, 0)}
    assert ref.scores(mirror) == [0, 0]


def test_reference_plays_the_rulebook(game, ref):
    decisions = [replay(game, ref, 2, seed, deal) for seed in SEEDS]
    assert decisions == [LINES] * len(SEEDS)        # every game draws every line


def test_one_line_completing_two_boxes_scores_both_and_moves_again(ref):
    state = ref.new_game(2, 0)
    spot = {ref.move_text(state, m): m for m in ref.legal_moves(state)}
    # the sides of (1,1) and (3,1) but the one they share, (2,1), in turns
    for text in ("draw (1,0)", "draw (0,1)", "draw (1,2)", "draw (3,0)", "draw (4,1)",
                 "draw (3,2)"):
        ref.apply(state, spot[text])
    assert ref.current_player(state) == 0 and ref.scores(state) == [0, 0]
    ref.apply(state, spot["draw (2,1)"])
    assert ref.scores(state) == [2, 0] and ref.current_player(state) == 0
    ref.apply(state, spot["draw (9,10)"])
    assert ref.current_player(state) == 1


def test_reference_ends_with_every_box_completed(ref):
    for seed in range(40):
        state = ref.new_game(2, seed)
        rng = random.Random(seed)
        moves = 0
        while not ref.is_over(state):
            legal = ref.legal_moves(state)
            assert len(legal) == LINES - moves
            assert len({ref.move_text(state, m) for m in legal}) == len(legal)
            ref.apply(state, legal[rng.randrange(len(legal))])
            moves += 1
        assert moves == LINES and sum(ref.scores(state)) == BOXES
