"""Ranges `A to B` in a game: as the options of an action's parameter and of a
`chooses`, as the collection of a `for each`, and as an aggregate's source,
played a few steps through the `Game` API; where `to` belongs to a statement
(`move X to Y`, `add N to V`, `deal N from Z to W`) and where it makes a
range; and how a range too long for the limits, or for the step's budget of
formula work, stops. (Range values are table rows of tests/test_formulas.py;
the errors of a rulebook are files of tests/language/.)"""

from __future__ import annotations

import pytest

from interpreter.errors import ActionError, RuleError, RuleLoop, RulebookErrors
from interpreter.game.engine import Game
from interpreter.language.loader import compile_ir
from interpreter.language.syntax import parse

BIDS = """game "Column Bids"
players 2

component disc
  | colour | copies |
  | white  | 8      |

zone supply: disc, public
zone won of each player: disc, public

variable coins of each player: number = 5
variable claimed of each player: number = 0
variable steps: number = 0
variable huge: number = 1000000

define columns = 0 to 6
define cost(n) = sum(x for x in 1 to n)

setup
  move all disc to supply
  for each p in players
    deal 1 from supply to won(p)

phase play
  repeat 2 times
    for each p in players
      turn p
        p takes an action

action bid(n: one of 1 to coins(me))
  add 0 - n to coins(me)
  me chooses column as "a column": one of n - 1 to size(columns) - 1 where column >= n
  set claimed(me) = column
  for each x in 1 to n
    add x to steps
  deal 1 from supply to won(me)

action gamble(n: one of 1 to huge) once per game
  add n to steps

scoring
  score = coins(p) + claimed(p) + size(won(p)) + cost(2)
"""


def bids_game(text: str = BIDS) -> Game:
    return Game(compile_ir(text, "bids.rules", "."))


def texts(game, state, player):
    return [str(a) for a in game.legal_actions(state, player)]


def pick(game, state, player, text):
    return game.apply(state, game.parse_action(state, player, text))


def var(game, state, name, player=None):
    v = game.program(2).lay.variables[name]
    return state.vars[v.base + (player or 0)]


NO_GAMBLE = BIDS.replace("action gamble(n: one of 1 to huge) once per game\n  add n to steps\n", "")


def test_a_range_is_the_options_of_a_parameter_and_of_a_choice():
    game = bids_game(NO_GAMBLE)
    state = game.new_game(players=2, seed=1)
    assert texts(game, state, 0) == ["bid 1", "bid 2", "bid 3", "bid 4", "bid 5"]
    state = pick(game, state, 0, "bid 3")
    # 'one of n - 1 to 6 where column >= n': the columns from the bid up
    assert texts(game, state, 0) == ["column 3", "column 4", "column 5", "column 6"]
    state = pick(game, state, 0, "column 5")
    assert var(game, state, "coins", 0) == 2
    assert var(game, state, "claimed", 0) == 5
    assert var(game, state, "steps") == 1 + 2 + 3          # for each x in 1 to 3
    state = pick(game, state, 1, "bid 1")
    state = pick(game, state, 1, "column 1")
    assert texts(game, state, 0) == ["bid 1", "bid 2"]      # 1 to coins(me), now 2
    state = pick(game, state, 0, "bid 2")
    state = pick(game, state, 0, "column 6")
    state = pick(game, state, 1, "bid 4")
    assert texts(game, state, 1) == ["column 4", "column 5", "column 6"]
    state = pick(game, state, 1, "column 4")
    outcome = game.outcome(state)
    # coins + claimed + won discs + cost(2) = 1 + 2
    assert outcome.scores == (0 + 6 + 3 + 3, 0 + 4 + 3 + 3)


def test_an_option_outside_a_range_is_refused_with_its_reason():
    game = bids_game(NO_GAMBLE)
    state = game.new_game(players=2, seed=1)
    with pytest.raises(ActionError) as info:
        game.parse_action(state, 0, "bid 6")
    assert info.value.code == "action/illegal"
    assert info.value.hint == "possible now: 1, 2, 3, 4, 5"


def test_a_range_too_long_is_a_rule_error_at_the_range():
    """'one of 1 to huge' with huge a million: refused before a list of a
    million numbers is made, at the range, while the options are listed."""
    game = bids_game()
    state = game.new_game(players=2, seed=1)
    with pytest.raises(RuleError) as info:
        game.legal_actions(state, 0)
    line = BIDS.splitlines().index("action gamble(n: one of 1 to huge) once per game") + 1
    assert info.value.code == "rule/runtime"
    assert (info.value.span.line, info.value.span.column) == (line, 25)
    assert "1,000,000 numbers" in info.value.message


LOOP = """game "Counting"
players 2
variable total: number = 0
variable n: number = 100000
phase play
  set total = sum(size(1 to n) for x in 1 to 100)
  end game
scoring
  score = total
"""


def test_ranges_are_charged_to_the_budget_of_formula_work():
    """Each range charges one unit a number: a hundred ranges of 100,000
    numbers are more work than one step may do (rule/loop, runtime/budget.py)."""
    game = bids_game(LOOP)
    with pytest.raises(RuleLoop) as info:
        game.new_game(players=2, seed=1)
    assert info.value.code == "rule/loop" and info.value.span.line == 6


def _statement(text: str) -> dict:
    ast = parse(f'game "t"\nphase p\n  {text}\n')
    return ast["items"][1]["body"]["stmts"][0]


@pytest.mark.parametrize("text, kind, key, parts", [
    # the 'to' of a statement ends its first formula: no range there
    ("move 1 to 3", "move", "what", ("number", "number")),
    ("move first(deck) to hand(me)", "move", "what", ("call", "call")),
    ("add 1 to total", "add", "value", ("number", "name")),
    ("deal 1 from deck to hand(me)", "deal", "source", ("name", "call")),
    # after it, a formula may be a range (a zone is needed there: a type error)
    ("move c to 1 to 3", "move", "what", ("name", "range")),
    ("deal 2 from deck to 0 to 1", "deal", "source", ("name", "range")),
])
def test_to_of_a_statement_and_to_of_a_range(text, kind, key, parts):
    s = _statement(text)
    second = "target" if kind == "add" else "to"
    assert s["node"] == kind and (s[key]["node"], s[second]["node"]) == parts


@pytest.mark.parametrize("text", ["for each x in 0 to 6", "if size(1 to 3) == 3",
                                  "let xs = 1 to n + 1", "me chooses x: one of 1 to coins(me)",
                                  "me chooses x: 2 of 0 to 6", "repeat size(1 to n) times"])
def test_a_range_stands_where_a_formula_does(text):
    block = "    end game\n" if text.split()[0] in ("for", "if", "repeat") else ""
    parse(f'game "t"\nphase p\n  {text}\n{block}')


def test_the_ends_of_a_range_are_sums():
    s = _statement("let xs = 1 to n + 1")
    assert s["value"]["node"] == "range"
    assert s["value"]["low"]["node"] == "number" and s["value"]["high"]["node"] == "arith"


def test_moving_to_a_range_is_a_type_error_at_the_destination():
    text = BIDS.replace("  deal 1 from supply to won(me)\n", "  deal 1 from supply to 0 to 1\n")
    with pytest.raises(RulebookErrors) as info:
        compile_ir(text, "bids.rules", ".")
    assert [e.code for e in info.value.errors] == ["rulebook/type"]


def test_an_option_may_list_its_values_as_a_range(tmp_path):
    from interpreter import load_rulebook
    from interpreter.errors import OptionError
    path = tmp_path / "opt.rules"
    path.write_text('game "Opt"\nplayers 2\noption target = 15 one of 10 to 20\n'
                    'variable total: number = target\nphase play\n  end game\n'
                    'scoring\n  score = total\n', encoding="utf-8")
    game = load_rulebook(str(path), options={"target": 12})
    assert game.outcome(game.new_game(players=2, seed=1)).scores == (12, 12)
    with pytest.raises(OptionError):
        load_rulebook(str(path), options={"target": 21})
