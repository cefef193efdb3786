"""Choosing a set step by step (issue 26, item 5): a parameter that is a
set of pieces (`cards: 3 of hand(me)`) is chosen a piece at a time, in any
order — each step offers every piece still available, as far as some legal
action holds the picks so far as a multiset — and the action left is the
legal one whose set is the picks. The last step does not play: it shows the
action and asks (Enter or 'yes' plays it, 'back' goes back a step, anything
else is read as usual); a whole action typed is played at once. Parameters
are asked for by their label (`as "LABEL"`) or their name made readable; a
label is display only, no part of a save's fingerprint.

The `Choice` tests use lists of their own; the REPL tests play Hanamikoji,
whose gift is `cards: 3 of hand(me) as "cards to offer"`.
"""

from __future__ import annotations

from itertools import combinations
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.game.engine import Game
from interpreter.language.loader import compile_ir
from interpreter.presentation.options import Parameter, parameters
from interpreter.terminal.choosing import Choice
from interpreter.terminal.render import render_to_text

from tests.test_repl import Session, start

HAND = "G1 G2 G3 G6 G6 G7".split()
GIFTS = sorted({"gift " + " ".join(c) for c in combinations(HAND, 3)})
FORMS = {"gift": (Parameter("cards", "cards to give", many=True),)}


def gifts() -> Choice:
    return Choice.start(GIFTS + ["pass"], FORMS).narrow("gift")


def labels(choice) -> list:
    return [o.label for o in choice.options()]


# -- a set, a piece at a time -------------------------------------------------------------

def test_each_step_offers_every_piece_still_in_the_zone_whatever_came_before():
    choice = gifts()
    assert labels(choice) == ["G1", "G2", "G3", "G6", "G7"]
    after = choice.narrow("G6")
    # G1 to G3 come before G6 in the sorted text, and are still offered; so is the other G6
    assert labels(after) == ["G1", "G2", "G3", "G6", "G7"]
    assert len(after.left) == len([g for g in GIFTS if "G6" in g.split()])
    twice = after.narrow("G6")
    assert labels(twice) == ["G1", "G2", "G3", "G7"]          # no third G6 in the hand
    assert twice.prompt_text() == "gift G6 G6 …"


def test_the_action_left_is_the_legal_one_whose_set_is_the_picks():
    choice = gifts().narrow("G7").narrow("G1").narrow("G6")
    assert choice.done == "gift G1 G6 G7"                       # as the legal action writes it
    assert not choice.typed
    by_number = gifts().pick(5)                                 # G7
    assert labels(by_number.pick(1)) == ["G2", "G3", "G6"]
    assert by_number.pick(1).pick(3).done == "gift G1 G6 G7"    # G1, then G6


def test_pieces_may_be_typed_together_in_any_order():
    assert gifts().narrow("G7 G3 G1").done == "gift G1 G3 G7"
    assert gifts().narrow("g7, g6").prompt_text() == "gift G7 G6 …"
    assert gifts().narrow("G9") is None                          # no such piece: the REPL refuses it


PAIRS = [f"give {a} {b}" for a, b in combinations("ABCDEF", 2)] + ["give G Hx", "pass"]


def test_a_piece_no_action_still_holds_is_not_offered():
    choice = Choice.start(PAIRS, {"give": (Parameter("pair", many=True),)}).narrow("give")
    assert labels(choice) == list("ABCDEFG") + ["Hx"]
    assert labels(choice.narrow("C")) == ["A", "B", "D", "E", "F"]      # never G nor Hx
    assert choice.narrow("Hx").done == "give G Hx"
    assert choice.narrow("h").done == "give G Hx"           # the one piece that starts so
    assert choice.narrow("C a").done == "give A C"


def test_the_step_names_the_set_by_its_label_and_says_any_order():
    choice = gifts()
    assert choice.parameter() == "cards to give, one at a time, in any order"
    assert choice.narrow("G6").parameter() == "cards to give: the next one"
    text = render_to_text(choice.narrow("G6"), 100)
    assert text.startswith("gift G6 … — ") and "choose cards to give: the next one" in text


def test_a_value_of_many_words_that_is_no_set_keeps_its_order():
    forms = {"gift": (Parameter("cards"),)}                      # not declared a set
    choice = Choice.start(GIFTS + ["pass"], forms).narrow("gift")
    assert choice.narrow("G6").done == "gift G6 G6 G7"           # only what follows G6


# -- at the table ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def game():
    return load_rulebook("hanamikoji")


def hand_gifts(legal):
    return [str(a) for a in legal if a.name == "gift"]


def test_the_set_is_chosen_in_any_order_and_confirmed_with_enter(game):
    state, player, legal = start(game)
    target = hand_gifts(legal)[-1]                  # the highest cards
    cards = target.split()[1:]
    session = Session(game, ["", "gift", *reversed(cards), ""])
    out = session.run()
    assert [str(a) for a in session.repl.actions] == [target]
    assert f"{target} — the action chosen." in out
    assert f"P{player} play {target}?> \nP{player} plays: {target}" in out


def test_yes_plays_it_too_and_nothing_is_played_before(game):
    state, player, legal = start(game)
    target = hand_gifts(legal)[0]
    session = Session(game, ["", "gift", *target.split()[1:]])
    session.run()
    assert session.repl.actions == [] and session.repl.choice.done == target
    session = Session(game, ["", "gift", *target.split()[1:], "yes"])
    session.run()
    assert [str(a) for a in session.repl.actions] == [target]


def test_back_after_a_pick_unpicks_that_piece(game):
    state, player, legal = start(game)
    first, second = hand_gifts(legal)[-1].split()[1:3]
    session = Session(game, ["", "gift", second, first, "back"])
    out = session.run()
    after = out.split(f"P{player} gift {second} {first} …> back\n", 1)[1]
    assert after.startswith(f"gift {second} … — ")            # the second pick is undone
    assert f"P{player} gift {second} …> " in after
    assert session.repl.choice.prompt_text() == f"gift {second} …"
    assert first in [o.label for o in session.repl.choice.options()]


def test_back_at_the_confirmation_returns_to_the_step_before(game):
    state, player, legal = start(game)
    target = hand_gifts(legal)[-1]
    cards = target.split()[1:]
    session = Session(game, ["", "gift", *cards, "back", ""])
    out = session.run()
    after = out.split(f"P{player} play {target}?> back\n", 1)[1]
    prefix = "gift " + " ".join(cards[:2])
    assert after.startswith(f"{prefix} … — ")
    # the empty line after 'back' leaves the choice: nothing was played
    assert session.repl.actions == [] and session.repl.choice is None


def test_anything_else_at_the_confirmation_is_read_as_usual(game):
    state, player, legal = start(game)
    gifts_ = hand_gifts(legal)
    target, other = next((g, o) for g in gifts_ for o in gifts_
                         if o != g and o.split()[1:3] == g.split()[1:3])
    cards = target.split()[1:]
    # a command keeps the confirmation; another piece is a step after the one before
    session = Session(game, ["", "gift", *cards, "help", other.split()[3], ""])
    out = session.run()
    assert f"P{player} play {target}?> help\n" in out and "step by step" in out
    assert f"P{player} play {target}?> {other.split()[3]}\n{other} — the action chosen." in out
    assert [str(a) for a in session.repl.actions] == [other]


def test_a_whole_action_typed_is_played_at_once(game):
    state, player, legal = start(game)
    target = hand_gifts(legal)[-1]
    for lines in (["", target], ["", "gift", target.split()[1], target]):
        session = Session(game, lines)
        out = session.run()
        assert [str(a) for a in session.repl.actions] == [target]
        assert "the action chosen" not in out


def test_a_wrong_piece_is_refused_and_loses_nothing(game):
    state, player, legal = start(game)
    first = hand_gifts(legal)[-1].split()[1]
    session = Session(game, ["", "gift", first, "G9"])
    out = session.run()
    assert "error[action/" in out.split("> G9\n", 1)[1].splitlines()[0]
    assert session.repl.choice.prompt_text() == f"gift {first} …"
    assert session.repl.states == [state]


# -- labels ---------------------------------------------------------------------------------

SOURCE = '''game "Gifts"
players 2

component card
  | name | value |
  | A    | 1     |
  | B    | 2     |
  | C    | 3     |
  | D    | 4     |

zone deck: card, hidden
zone hand of each player: card, owner
zone given: card, public

setup
  move all card to deck
  for each p in players
    deal 2 from deck to hand(p)

phase play
  for each p in players
    turn p
      p takes an action
  end game

action give(cards: 2 of hand(me){label}, to_whom: one of players where to_whom != me)
  move cards to given

action keep(pair: 1 kinds of 2 from hand(me))
  move pair to given

scoring
  score = count(c in hand(p))
'''


def ir_of(label: str, source: str = SOURCE) -> dict:
    return compile_ir(source.replace("{label}", label), "gifts.rules", Path("."))


def test_a_label_is_in_the_ir_only_where_written():
    labelled = ir_of(' as "cards to give"')["actions"][0]["params"]
    plain = ir_of("")["actions"][0]["params"]
    assert labelled[0]["label"] == "cards to give" and "label" not in labelled[1]
    assert all("label" not in p for p in plain)


def test_the_forms_carry_labels_sets_and_readable_names():
    forms = parameters(ir_of(' as "cards to give"'))
    assert forms["give"] == (Parameter("cards", "cards to give", many=True),
                             Parameter("to_whom", "", many=False))
    assert forms["keep"] == (Parameter("pair", "", many=True),)     # 'K kinds of M': a set
    assert [p.title for p in forms["give"]] == ["cards to give", "to whom"]


def test_a_label_is_no_part_of_the_fingerprint():
    plain, labelled, other = (Game(ir_of(label)).fingerprint
                              for label in ("", ' as "cards to give"', ' as "gifts"'))
    assert plain == labelled == other
    renamed = SOURCE.replace("to_whom", "receiver")
    assert Game(ir_of("", renamed)).fingerprint != plain        # the rules' own names count
