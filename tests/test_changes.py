"""What a move changed, told to each viewer from its views (runtime/changes.py):
the pieces gained and lost in the zones it may look into, only how many in
the others, the cells of a board, the values that moved."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.runtime.changes import changes

from tests.scenario import hidden_from

ROOT = Path(__file__).resolve().parent.parent


def rules(name: str):
    return load_rulebook(str(ROOT / "rulebooks" / f"{name}.rules"))


def first(game, state, prefix: str):
    (player,) = game.to_move(state)
    return next(a for a in game.legal_actions(state, player) if str(a).startswith(prefix))


def test_a_secret_card_is_named_to_its_owner_and_counted_for_the_others():
    game = rules("hanamikoji")
    before = game.new_game(2, seed=3)
    (player,) = game.to_move(before)
    action = first(game, before, "secret")
    after = game.apply(before, action)
    card = str(action).split()[1]
    own = game.changes(before, after, player)
    other = game.changes(before, after, 1 - player)
    assert f"hand(P{player}): −{card}" in own and f"secret(P{player}): +{card}" in own
    assert f"hand(P{player}): 7 → 6 pieces" in other
    assert f"secret(P{player}): 0 → 1 pieces" in other
    # (the other player's own draw may be a card of the same name: it is theirs)
    assert not any(card in line for line in other if f"(P{player})" in line)


def test_a_board_tells_the_cells_that_changed_and_the_values_that_moved():
    game = rules("othello")
    before = game.new_game(2, seed=1)
    after = game.apply(before, game.legal_actions(before, 0)[0])
    told = game.changes(before, after, None)
    (board,) = [line for line in told if line.startswith("board: ")]
    assert board.count("P0") == 2           # the disc placed and the one it flips
    assert "score: P0 2 → 4, P1 2 → 1" in told


@pytest.mark.parametrize("name", ["hanamikoji", "festival-of-lights", "lanterns"])
def test_what_a_viewer_is_told_is_the_same_however_the_hidden_cards_lie(name):
    """The changes are worked out from views alone: permuting what a viewer
    cannot see before and after a move changes nothing of what it is told."""
    from tests.scenario import permute_hidden
    game = rules(name)
    rng = random.Random(0)
    state = game.new_game(game.min_players, seed=2)
    for _ in range(12):
        if game.outcome(state) is not None:
            break
        player = game.to_move(state)[0]
        after = game.apply(state, rng.choice(list(game.legal_actions(state, player))))
        for viewer in range(state.n):
            told = game.changes(state, after, viewer)
            if hidden_from(game, state, viewer):
                assert changes(game.view(permute_hidden(game, state, viewer, rng), viewer),
                               game.view(after, viewer)) == told
        state = after


def test_nothing_changed_is_told_as_nothing_and_names_sort_naturally():
    view = {"zones": [{"name": "row", "owner": None, "of": None, "count": 2, "cards": ["n5", "n39"]}],
            "variables": {"x": 1}, "player_variables": {"gold": {"P0": 3}}}
    assert changes(view, view) == []
    later = {"zones": [{"name": "row", "owner": None, "of": None, "count": 4,
                        "cards": ["n5", "n39", "n62", "n7"]}],
             "variables": {"x": 2}, "player_variables": {"gold": {"P0": 1}}}
    assert changes(view, later) == ["row: +n7 +n62", "x: 1 → 2", "gold: P0 3 → 1"]


def test_the_log_tells_each_move_with_what_it_changed_for_its_viewer():
    game = rules("hanamikoji")
    states = [game.new_game(2, seed=3)]
    actions = []
    for _ in range(3):
        (player,) = game.to_move(states[-1])
        actions.append(game.legal_actions(states[-1], player)[0])
        states.append(game.apply(states[-1], actions[-1]))
    for viewer in (0, 1, None):
        plain = game.log(states, actions, viewer)
        told = game.log(states, actions, viewer, changes=True)
        for k, (text, line) in enumerate(zip(plain, told)):
            lines = game.changes(states[k], states[k + 1], viewer)
            assert line == (f"{text} — {' · '.join(lines)}" if lines else text)
    # the other player's hand, as the first move changed it: only its count
    (mover,) = game.to_move(states[0])
    assert f"hand(P{mover}): 7 → 6 pieces" in game.log(states, actions, 1 - mover, changes=True)[0]


def test_log_full_prints_each_move_and_its_changes_under_it():
    from tests.scenario import typed
    text = typed(rules("kalah"), ["sow a3", "log full", "quit", "no"])
    tail = text[text.rindex("1. P0: sow a3"):]
    assert tail.splitlines()[1].startswith("  pit a3 seeds 4 → 0")
    assert "score P0 0 → 1" in tail.splitlines()[1]
