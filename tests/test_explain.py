"""Promise 3 for typed actions: a refused action says which value broke
which rule, at the rulebook's line, and the state is left as it was."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.errors import ActionError
from interpreter.runtime.explain import split_arguments, text_key, value_key

RULES = Path(__file__).parent / "engine" / "explain.rules"


@pytest.fixture(scope="module")
def game():
    return load_rulebook(str(RULES))


def refused(game, state, text, player=0):
    before = game.state_to_json(state)
    with pytest.raises(ActionError) as info:
        game.parse_action(state, player, text)
    assert game.state_to_json(state) == before
    return info.value


def line_of(marker: str) -> int:
    for number, line in enumerate(RULES.read_text().splitlines(), 1):
        if marker in line:
            return number
    raise AssertionError(marker)


@pytest.mark.parametrize("text, param", [
    ("put 9, (0,0), 0", "c"),         # not in hand
    ("put 1, (4,4), 0", "at"),        # not next to the board
    ("put 1, (0,0), 5", "turns"),
])
def test_the_first_value_off_its_options_is_named_at_its_rule(game, text, param):
    state = game.new_game(2, 0)
    err = refused(game, state, text)
    assert err.code == "action/illegal"
    assert f"'{param}'" in err.message
    assert err.span.line == line_of("# RULE-PUT")
    source = RULES.read_text().splitlines()[err.span.line - 1]
    assert source[:err.span.column - 1].rstrip().endswith(f"{param}:")   # the caret under its choice
    assert source[err.span.column - 1:].startswith("one of")
    assert err.hint.startswith("possible now:")


def test_an_occupied_cell_is_refused_after_a_placement(game):
    state = game.new_game(2, 0)
    state = game.apply(state, game.parse_action(state, 0, "put 1, (0,0), 0"))
    err = refused(game, state, "put 2, (0,0), 0")
    assert err.code == "action/illegal" and "'at'" in err.message
    assert "(0,1)" in err.hint and "(0,0)" not in err.hint


def test_a_requirement_that_does_not_hold_is_named(game):
    state = game.new_game(2, 0)
    err = refused(game, state, "buy 1")
    assert err.code == "action/illegal"
    assert err.span.line == line_of("# RULE-BUY")


def test_an_action_not_offered_at_this_step(game):
    state = game.new_game(2, 0)
    state = game.apply(state, game.parse_action(state, 0, "put 1, (0,0), 0"))
    err = refused(game, state, "buy 2")
    assert err.code == "action/illegal" and "cannot be taken" in err.message
    assert "put" in err.hint


def test_a_wrong_number_of_values(game):
    state = game.new_game(2, 0)
    err = refused(game, state, "put 1")
    assert err.code == "action/unknown" and "3 values" in err.message


def test_a_player_not_to_move(game):
    state = game.new_game(2, 0)
    err = refused(game, state, "put 1, (0,0), 0", player=1)
    assert err.code == "action/not-your-turn"


def test_cells_and_groups_are_read_whatever_the_spacing():
    assert split_arguments("1, (0, -1), 2") == ["1", "(0, -1)", "2"]
    assert value_key("( 0 ,-1 )") == value_key("(0,-1)")
    assert value_key("b a | c d") == value_key("d c|a b")
    assert text_key("PUT 1,(0, 0),  2") == text_key("put 1, (0,0), 2")
