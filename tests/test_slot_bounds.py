"""Every slot is reached through an index checked where it is computed: a
per-player index is a seat of this game (a negative one never counts from
the end, none and other values are refused), a per-TYPE index is a piece of
that type, and a piece's attribute is one its type has. Where the compiler
knows the kind it is `rulebook/type` at the index; where only the game knows
it (a define's parameter, a value of kind any, a list of mixed pieces),
`rule/runtime` at the statement or formula being run, and never a write or a
read of another slot of the state."""

from __future__ import annotations

import json

import pytest

from interpreter import load_rulebook
from tests.scenario import place
from interpreter.errors import RuleError, RulebookErrors

GAME = """\
game "Slots"
players 2
component coin
  | name | value |
  | A    | 1     |
  | B    | 2     |
  has gold: number = 0
component tile
  | name |
  | T    |
zone deck: coin, hidden
zone hand of each player: coin, owner
zone side of each coin: tile, public
zone pile of each player and coin: tile, public
variable chips of each player: number = 0
variable flag: bool = no
variable worth of each coin: number = 0
variable nobody: player = none
variable total: any = 0
variable top: coin = none
permission bonus of each player
define worth_of(x) = worth(x)
define gold_of(x) = x.gold
define value_of(x) = x.value
define hand_of(p) = size(hand(p))
define side_of(x) = size(side(x))
define pile_of(p, c) = size(pile(p, c))
setup
  move all coin to deck
  STEP
phase play
  turn 0
    0 takes an action
  end game
action wait
  grant bonus to me
  spend bonus of me
scoring
  score = SCORE
"""


def rulebook(tmp_path, step="set total = 0", score="0"):
    path = tmp_path / "slots.rules"
    path.write_text(GAME.replace("STEP", step).replace("SCORE", score), encoding="utf-8")
    return path


# (what is run, a part of the line it is on, the message's words): each is
# rule/runtime at the statement (or the score's formula) that runs it (an
# index written as a number that is no seat is refused at load instead:
# tests/language/number-as-player.rules)
REFUSED = [
    ("set chips(total + 2) = 77", "P2 is not a player of this game (P0 to P1)"),
    ("add 1 to chips(0 - 1)", "-1 is not a player of this game (P0 to P1)"),
    ("set total = chips(total + 5)", "P5 is not a player of this game"),
    ("set total = size(hand(0 - 1))", "-1 is not a player of this game"),
    ("set total = hand_of(total + 2)", "P2 is not a player of this game"),
    ("set total = chips(nobody)", "none is not a player of this game"),
    ("move A to hand(total + 2)", "P2 is not a player of this game"),
    ("set flag = bonus(total + 3)", "P3 is not a player of this game"),
    ("grant bonus to total + 2", "P2 is not a player of this game"),
    # a value of kind any, which only the game knows
    ("set total = T\n  set total = worth_of(total)", "T is a tile, not a coin"),
    ("set total = 0 - 1\n  set total = side_of(total)", "-1 is no piece, not a coin"),
    ("set total = T\n  move T to side(total)", "T is a tile, not a coin"),
    ("set total = T\n  set total = pile_of(0, total)", "T is a tile, not a coin"),
    ("set total = pile_of(0 - 1, A)", "-1 is not a player of this game"),
    ("set total = 0 - 1\n  set total = value_of(total)", "-1 is no piece, so it has no attributes"),
    ("set total = 99\n  set total = value_of(total)", "99 is no piece, so it has no attributes"),
    ("set total = value_of(none)", "none is no piece, so it has no attributes"),
    ("set total = T\n  set total = gold_of(total)", "T is a tile, which has no attribute 'gold'"),
    ("set total = 0 - 1\n  set total = gold_of(total)", "-1 is no piece, so it has no attribute 'gold'"),
    ("set total = count(c in [A, T] where c.gold == 0)", "T is a tile, which has no attribute"),
    ("set total = sum(c.value for c in [A, 0 - 1])", "-1 is no piece"),
    # a value of another kind than its slot's: never a state its save cannot hold
    ("set total = 77\n  set flag = total", "77 is not yes or no"),
    ("set total = \"red\"\n  set chips(1) = total", "'red' is not a number"),
    ("for each c in [A, T]\n    set top = c", "T (a tile) is not a coin"),
    ("set total = 5\n  set top = total", "5 is not a coin"),
]


@pytest.mark.parametrize("step, words", REFUSED, ids=[r[0].splitlines()[-1] for r in REFUSED])
def test_an_index_of_another_kind_is_refused_at_its_statement(tmp_path, step, words):
    path = rulebook(tmp_path, step)
    with pytest.raises(RuleError) as info:
        load_rulebook(str(path)).new_game(players=2, seed=1)
    err = info.value
    assert err.code == "rule/runtime" and words in err.message, err
    last = step.splitlines()[-1].strip()       # the statement that is refused
    assert (err.span.line, err.span.column) == place(path.read_text(), last, last)
    assert err.hint


def test_a_set_of_an_attribute_a_piece_lacks_never_writes_another_slot(tmp_path):
    """The issue's case: `set c.gold` of a tile wrote the current player's slot."""
    step = "for each c in [A, T]\n    set c.gold = 42"
    path = rulebook(tmp_path, step, score="100 if current == 0 else 0")
    with pytest.raises(RuleError) as info:
        load_rulebook(str(path)).new_game(players=2, seed=1)
    assert info.value.code == "rule/runtime"
    assert "T is a tile, which has no attribute 'gold'" in info.value.message
    assert (info.value.span.line, info.value.span.column) == place(
        path.read_text(), "set c.gold", "set")


def test_a_read_in_the_score_is_refused_at_the_score(tmp_path):
    path = rulebook(tmp_path, score="chips(total + 2)")
    game = load_rulebook(str(path))
    state = game.new_game(players=2, seed=1)
    while not state.over:
        state = game.apply(state, game.legal_actions(state, game.to_move(state)[0])[0])
    with pytest.raises(RuleError) as info:
        game.outcome(state)
    assert info.value.code == "rule/runtime" and "P2 is not a player" in info.value.message
    assert (info.value.span.line, info.value.span.column) == place(
        path.read_text(), "score = chips", "chips")


def test_pieces_of_a_zone_and_seats_of_the_game_are_read_as_they_are(tmp_path):
    """What a zone holds, a type's pieces and the game's players are sure
    indices: read with no table in the generated code, and right."""
    step = ("move A to hand(1)\n  move B to hand(1)\n"
            "  set total = sum(sum(c.value + c.gold + worth(c) + size(side(c)) for c in hand(p)) "
            "for p in players)")
    game = load_rulebook(str(rulebook(tmp_path, step, score="total + hand_of(p)")))
    state = game.new_game(players=2, seed=1)
    assert game.scores(state) == (3, 5)


# written where the compiler knows the kinds: rulebook/type at the index
STATIC = [
    ("set chips(A) = 1", "A", "'chips' is one per player"),
    ("set worth(T) = 2", "T", "'worth' is one per coin"),
    ("set total = worth(T)", "T", "'worth' is one per coin"),
    ("set total = worth(0)", "0", "'worth' is one per coin"),
    ("set total = chips(T)", "T", "'chips' is one per player"),
    ("set T.gold = 3", "T.gold", "a tile has no attribute 'gold'"),
    ("set A.value = 3", "value", "'value' is fixed by its component table"),
    ("for each c in tile\n    set c.gold = 1", "c.gold", "a tile has no attribute 'gold'"),
    ("set total = size(side(T))", "T", "'side' is one per coin"),
    # a define's parameter has no kind, but a call's argument may
    ("set total = worth_of(T)", "worth_of(T)", "worth_of(a component (tile)): 'worth' is one per coin"),
    ("set total = gold_of(T)", "gold_of(T)", "gold_of(a component (tile)): a tile has no attribute"),
    ("set total = value_of(chips(0))", "value_of(", "value_of(a number): '.value' reads a component's"),
    ("set total = side_of(nobody)", "side_of(", "side_of(a player): 'side' is one per coin"),
]


@pytest.mark.parametrize("step, token, words", STATIC, ids=[r[0] for r in STATIC])
def test_an_index_of_a_known_other_kind_is_refused_at_load(tmp_path, step, token, words):
    path = rulebook(tmp_path, step)
    with pytest.raises(RulebookErrors) as info:
        load_rulebook(str(path)).new_game(players=2, seed=1)
    found = [(e.code, e.span.line, e.span.column, e.message) for e in info.value.errors]
    line = step.splitlines()[-1].strip()
    at = place(path.read_text(), line, token)
    assert any(code == "rulebook/type" and (n, c) == at and words in message
               for code, n, c, message in found), found


def test_an_attribute_fixed_for_one_type_and_kept_by_another_is_refused_where_it_is_fixed(
        tmp_path):
    text = GAME.replace("  | name |\n  | T    |\n", "  | name | gold |\n  | T    | 5    |\n")
    path = tmp_path / "slots.rules"
    path.write_text(text.replace("STEP", "for each c in [A, T]\n    set c.gold = 1")
                    .replace("SCORE", "0"), encoding="utf-8")
    with pytest.raises(RuleError) as info:
        load_rulebook(str(path)).new_game(players=2, seed=1)
    assert "T's 'gold' is fixed by the table of tile" in info.value.message


def test_the_generated_code_reads_unsure_indices_through_their_tables(tmp_path):
    game = load_rulebook(str(rulebook(tmp_path, "set total = worth_of(A) + hand_of(1)")))
    source = game.program(2).python.text()
    assert "the positions of the values of an index 'of each player'" in source
    assert "the positions of the values of an index 'of each coin'" in source


def test_a_refused_action_leaves_the_game_as_it_was_and_its_save_loads(tmp_path):
    text = GAME.replace("  spend bonus of me\n",
                        "  spend bonus of me\n  add 1 to chips(me)\n  set chips(total + 2) = 77\n")
    path = tmp_path / "slots.rules"
    path.write_text(text.replace("STEP", "set total = 0").replace("SCORE", "chips(p)"),
                    encoding="utf-8")
    game = load_rulebook(str(path))
    state = game.new_game(players=2, seed=1)
    before = json.dumps(game.state_to_json(state), sort_keys=True)
    action = game.legal_actions(state, 0)[0]
    with pytest.raises(RuleError) as info:
        game.apply(state, action)
    assert info.value.code == "rule/runtime" and "P2 is not a player" in info.value.message
    assert json.dumps(game.state_to_json(state), sort_keys=True) == before
    again = game.state_from_json(json.loads(before))
    assert game.legal_actions(again, 0) == [action]


def test_a_list_as_an_index_is_told_in_the_rulebook_s_words(tmp_path):
    path = rulebook(tmp_path, "set total = [0]\n  set total = hand_of(total)")
    with pytest.raises(RuleError) as info:
        load_rulebook(str(path)).new_game(players=2, seed=1)
    assert info.value.code == "rule/runtime"
    assert "a list where one value is needed" in info.value.message


SURE = """\
game "Sure"
players 2
component coin
  | name | value |
  | A    | 1     |
  | B    | 2     |
  has gold: number = 0
zone deck: coin, hidden
zone hand of each player: coin, owner
variable chips of each player: number = 0
setup
  move all coin to deck
  for each p in players
    deal 1 from deck to hand(p)
    set chips(p) = sum(c.value + c.gold for c in hand(p))
phase play
  turn 0
    0 takes an action
  end game
action take(c: one of hand(me))
  add c.value to chips(me)
scoring
  score = chips(p) + count(c in hand(p) where c.gold == 0)
"""


def test_the_generated_code_reads_seats_and_pieces_it_is_sure_of_without_tables(tmp_path):
    """The game's players, a zone's pieces, an action's player and a
    parameter chosen from a zone are sure: no table stands between them
    and their slots."""
    path = tmp_path / "sure.rules"
    path.write_text(SURE, encoding="utf-8")
    game = load_rulebook(str(path))
    text = game.program(2).python.text()
    assert "every piece, by itself" not in text and "the positions of the values" not in text
    state = game.new_game(players=2, seed=1)
    assert game.scores(state) == tuple(state.vars[game.program(2).lay.variables["chips"].base + p] + 1
                                       for p in range(2))
