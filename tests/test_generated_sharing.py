"""A call the generated code makes twice in one formula with the same
arguments, or inside a loop without reading what the loop binds, is worked
out once (compiler/pysource.py, `PyFormulas.shared`): the same values and
the same errors, less work."""

from __future__ import annotations

import re

import pytest

from interpreter import load_rulebook
from interpreter.errors import RuleError

RULES = '''
game "Sharing"
players 2

component die
  | name | face |
  | d1   | 1    |
  | d2   | 2    |
  | d3   | 3    |

zone cup of each player: die, public
variable total of each player: number = 0

define held(p) = [d in cup(p) where d.face > 0]
define pair(p) = size(held(p)) + size(held(p))
define beats(p) = count(d in die where size(held(opponent(p))) < d.face)

setup
  move all die to cup(0)

phase play
  turn players[0]
    set total(players[0]) = pair(players[0]) * 10 + beats(players[0])
    set total(players[1]) = 100 * size(held(players[1])) + {last}

scoring
  score = total(p)
'''


def _game(tmp_path, last="0"):
    path = tmp_path / "sharing.rules"
    path.write_text(RULES.format(last=last), encoding="utf-8")
    return load_rulebook(str(path))


def test_a_call_made_twice_is_one_local(tmp_path):
    game = _game(tmp_path)
    text = game.program(2).python.text()
    pair = text[text.index("# define pair"):]
    pair = pair[:pair.index("\n\n")]
    # held(p) is written twice and kept in one local, worked out the first time
    assert len(set(re.findall(r"\((u\d+) := ", pair))) == 1 and pair.count(":= ") == 2, pair
    beats = text[text.index("# count(…)"):]
    beats = beats[:beats.index("\n\n")]
    loop = beats[beats.index("for "):]
    assert ":= " in loop and beats.index(" = k") < beats.index("for "), beats


def test_the_values_are_those_of_the_formulas(tmp_path):
    game = _game(tmp_path)
    state = game.new_game(2)
    # three dice in P0's cup: pair 6; none in P1's, so every face beats 0
    assert game.outcome(state).scores == (63, 0)


def test_an_error_of_a_kept_call_is_raised_where_it_was(tmp_path):
    game = _game(tmp_path, last="size(held(total(players[0])))")
    with pytest.raises(RuleError) as caught:
        game.new_game(2)
    assert caught.value.code.startswith("rule/")
    assert "63" in str(caught.value)


def test_a_ray_in_a_loop_walks_a_set_made_once():
    """Othello's `ray(c, d.dx, d.dy, discs(opponent(p)))` for each direction:
    the discs are looked up in one set, made the first time (and the
    games are the recorded ones: tests/test_golden.py)."""
    game = load_rulebook("othello")
    text = game.program(2).python.text()
    made = re.findall(r"^# (k\d+) = _members$", text, re.M)
    assert made, "no set of cells"
    loops = [chunk for chunk in text.split("\n\n") if f":= {made[0]}(" in chunk]
    assert loops and all(" = k" in c and c.index(" = k") < c.index("for ") for c in loops), loops


def test_the_cells_a_ray_walks_are_one_set_while_options_are_listed():
    """`ray` looks its cells up in a set (`Builtin.members`). While a
    state's options are listed it holds still, so the set of one list is
    made once for every cell and direction tried (Othello's 64 cells by 8
    directions); at any other time each call makes its own."""
    from interpreter.compiler.pysource import _members

    class Still:
        memo = None

    s = Still()
    cells = [1, 2, 3]
    assert _members(s, cells) == frozenset(cells)
    assert _members(s, cells) is not _members(s, cells)
    s.memo = {}
    once = _members(s, cells)
    assert once == frozenset(cells) and _members(s, cells) is once
    other = [1, 2, 3]
    assert _members(s, other) is not once           # another list: a set of its own
    assert _members(s, [[1], [2]]) == [[1], [2]]    # values no set can hold: as they are

