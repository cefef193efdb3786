"""A value of player type is a seat of the game or none: a `set` of one
that holds anything else is a rule error at that `set` — never a game that
runs on with a P3 at a table of two."""

from __future__ import annotations

import pytest

from interpreter import load_rulebook
from interpreter.errors import RuleError

GAME = """\
game "Seats"
players 2 to 4
variable start_player: player = none
variable rounds: number = 0
setup
  set start_player = SEAT
phase play
  turn start_player
    start_player takes an action
  end game
action wait
  add 1 to rounds
scoring
  score = rounds
"""


def game_with(tmp_path, seat: str):
    path = tmp_path / "seats.rules"
    path.write_text(GAME.replace("SEAT", seat), encoding="utf-8")
    return load_rulebook(str(path))


@pytest.mark.parametrize("seat", ["3", "size(players) + 1", "2 - 3", "rounds + 5"])
def test_a_set_of_a_player_past_the_last_seat_is_a_rule_error_at_the_set(tmp_path, seat):
    game = game_with(tmp_path, seat)
    with pytest.raises(RuleError) as err:
        game.new_game(players=2, seed=1)
    assert err.value.code == "rule/runtime"
    assert (err.value.span.line, err.value.span.column) == (6, 3)
    assert "not a player of this game (P0 to P1)" in err.value.message
    assert "players[" in err.value.hint


def test_the_same_seat_is_a_player_where_the_table_is_larger(tmp_path):
    game = game_with(tmp_path, "3")
    state = game.new_game(players=4, seed=1)
    assert game.to_move(state) == (3,)


def test_none_is_no_player_and_allowed(tmp_path):
    game = game_with(tmp_path, "none")
    with pytest.raises(RuleError) as err:     # the turn of nobody is the error, not the set
        game.new_game(players=2, seed=1)
    assert err.value.span.line == 8

