"""Choosing one of many legal actions step by step, with no arithmetic
(issue: "a screen that fits"): the screen names each action with what its
parameters may be; a number, a name or the start of an action's text
narrows the list, a parameter at a time, until one action is left, which
Enter plays (tests/test_choosing_sets.py has the confirmation and the sets
chosen in any order). `back` goes back a step, an empty line leaves the
choice, a value not on the list is refused with a code and a hint and loses
nothing, and a whole action typed at any step is played at once. A short
list stays a numbered list (tests/test_repl.py).

The `Choice` tests use lists of their own; the REPL tests play
Hanamikoji, whose first decision offers dozens of actions.
"""

from __future__ import annotations

import pytest

from interpreter.errors import ActionError, UnknownAction
from interpreter.terminal.choosing import Choice, Parameter, step_by_step
from interpreter.terminal.render import render_to_text

from tests.test_repl import Session, forms, start

PUT = [f"put {t}, ({x},0), {r}" for t in "AB" for x in range(3) for r in range(2)] + ["pass"]
SHAPES = {"put": (Parameter("tile"), Parameter("at"), Parameter("turns"))}


def labels(choice) -> list:
    return [o.label for o in choice.options()]


def test_the_first_step_names_each_action_with_its_parameters():
    choice = Choice.start(PUT, SHAPES)
    assert labels(choice) == ["put", "pass"]
    assert choice.options()[0].about == "tile (2 values) · at (3 cells) · turns (2 values)"
    text = render_to_text(choice, 100)
    assert text.startswith(f"Legal actions ({len(PUT)}), step by step:")
    assert "  1. put" in text and "  2. pass" in text


def test_each_step_narrows_by_a_number_or_a_value_and_the_last_names_one_action():
    choice = Choice.start(PUT, SHAPES).narrow("1")                 # put
    assert (choice.parameter(), labels(choice)) == ("tile", ["A", "B"])
    choice = choice.narrow("b")                                    # case is ignored
    assert choice.prompt_text() == "put B, …"
    assert (choice.parameter(), labels(choice)) == ("at", ["(0,0)", "(1,0)", "(2,0)"])
    choice = choice.narrow("( 1, 0 )")                            # a cell, spaced
    assert labels(choice) == ["0", "1"] and not choice.numbered()   # numbers typed as they are
    assert choice.narrow("1").done == "put B, (1,0), 1"             # the value 1, not the first
    assert choice.narrow("2") is None                               # no such value


def test_the_start_of_an_action_narrows_at_any_step_and_a_whole_one_is_chosen_at_once():
    root = Choice.start(PUT, SHAPES)
    assert root.narrow("pu").prompt_text() == "put …"             # the start of a word
    assert root.narrow("put A, (2,0)").prompt_text() == "put A, (2,0), …"
    deep = root.narrow("put").narrow("A")
    assert deep.narrow("put A, (0,0), 1").done == "put A, (0,0), 1"    # typed from the start
    assert deep.narrow("put B, (0,0), 1") is None       # no longer possible (the REPL asks the engine)
    assert root.narrow("pass").done == "pass"
    assert root.narrow("zz") is None


def test_a_whole_action_is_chosen_though_longer_ones_begin_with_it():
    texts = ["reroll 1 2", "reroll 1 2 5", "reroll 1 2 6", "reroll 1", "score fours"]
    root = Choice.start(texts)
    assert root.narrow("reroll 1 2").done == "reroll 1 2"
    assert root.narrow("reroll").narrow("2").done == "reroll 1 2"       # at a later step too
    assert root.narrow("reroll 1 2 5").done == "reroll 1 2 5"
    assert root.narrow("reroll 1 2 ").done == "reroll 1 2"              # spacing aside
    assert len(root.narrow("reroll 1").left) == 1           # 'reroll 1' itself


def test_a_refusal_has_a_code_and_lists_the_choices():
    choice = Choice.start(PUT, SHAPES).narrow("put")
    refusal = choice.refusal("C")
    assert isinstance(refusal, UnknownAction) and refusal.code == "action/unknown"
    assert "A, B" in refusal.hint and "back" in refusal.hint
    with pytest.raises(UnknownAction) as err:
        choice.narrow("3")
    assert "choose 1 to 2" in err.value.hint


def test_values_of_many_words_that_are_no_set_are_chosen_a_word_at_a_time_in_order():
    cards = "C1 C2 C3 C4 C5 C6".split()
    gifts = [f"give {a} {b} {c}" for i, a in enumerate(cards) for j, b in enumerate(cards)
             if j > i for c in cards[j + 1:]]
    choice = Choice.start(gifts, {"give": (Parameter("cards"),)})
    assert len(gifts) == 20 and choice.parameter() == "the first word of cards"
    assert labels(choice) == ["C1", "C2", "C3", "C4"]
    choice = choice.narrow("C2")
    assert choice.parameter() == "the next word of cards" and labels(choice) == ["C3", "C4", "C5"]
    assert choice.narrow("2").narrow("1").done == "give C2 C4 C5"


def test_only_lists_too_long_for_the_screen_are_chosen_step_by_step():
    assert not step_by_step(PUT, 120)                              # 13 short ones fit in columns
    assert step_by_step([f"take {k}" for k in range(21)], 120)
    assert step_by_step([f"take {'x' * 60} {k}" for k in range(15)], 120)   # one per line: too tall
    assert not step_by_step([f"take {'x' * 60} {k}" for k in range(12)], 120)


# -- at the table ---------------------------------------------------------------------------

@pytest.fixture(scope="module")
def game():
    from interpreter import load_rulebook
    return load_rulebook("hanamikoji")


def first_of(legal, name):
    return [str(a) for a in legal if a.name == name]


def test_the_screen_offers_the_names_and_a_number_narrows_to_one(game):
    state, player, legal = start(game)
    names = list(dict.fromkeys(a.name for a in legal))
    number = names.index("gift") + 1
    session = Session(game, ["", str(number)])
    out = session.run()
    assert f"Legal actions ({len(legal)}), step by step" in out
    assert f"  {number}. gift" in out and "cards to offer (" in out     # the label
    assert f"P{player} gift …> " in out                  # the prompt says what is chosen
    assert "gift … — " in out and "choose cards to offer, one at a time, in any order" in out
    assert session.repl.actions == []


def test_numbers_all_the_way_play_the_action_they_lead_to_and_say_it(game):
    state, player, legal = start(game)
    names = list(dict.fromkeys(a.name for a in legal))
    gift = first_of(legal, "gift")
    session = Session(game, ["", str(names.index("gift") + 1), "1", "1", "1", ""])
    out = session.run()
    assert [str(a) for a in session.repl.actions] == [gift[0]]
    assert f"P{player} play {gift[0]}?> \nP{player} plays: {gift[0]}" in out


def test_back_goes_a_step_back_and_an_empty_line_leaves_the_choice(game):
    state, player, legal = start(game)
    gift = first_of(legal, "gift")[0].split()
    session = Session(game, ["", "gift", gift[1], "back", "back", "gift", ""])
    out = session.run()
    steps = out.split(f"P{player} gift {gift[1]} …> back\n", 1)[1]
    assert steps.startswith("gift … — ")                  # one step back: the first card again
    assert f"P{player} gift …> back\nBack to all {len(legal)} legal actions." in out
    assert f"P{player} gift …> \nBack to all {len(legal)} legal actions." in out
    assert session.repl.actions == [] and session.repl.choice is None


def test_a_wrong_value_is_refused_with_its_code_and_loses_nothing(game):
    state, player, legal = start(game)
    session = Session(game, ["", "gift", "ZZ", "99", "1"])
    out = session.run()
    after = out.split(f"P{player} gift …> ZZ\n", 1)[1]
    assert "error[action/illegal]" in after.splitlines()[0]     # the engine says why
    assert "error[action/unknown]: there is no choice number 99 here" in out
    assert f"P{player} gift …> 1\n" in out                 # still choosing the gift
    assert session.repl.states == [state]


def test_a_whole_action_typed_during_a_choice_is_played_at_once(game):
    state, player, legal = start(game)
    target = str(legal[-1])
    session = Session(game, ["", "gift", target])
    session.run()
    assert [str(a) for a in session.repl.actions] == [target]


def test_a_whole_action_in_another_spelling_is_read_by_the_engine(game):
    state, player, legal = start(game)
    gift = first_of(legal, "gift")[0]
    name, *cards = gift.split()
    reordered = " ".join([name.upper(), *reversed(cards)])   # cards in any order (HK rules)
    session = Session(game, ["", reordered])
    session.run()
    assert [str(a) for a in session.repl.actions] == [gift]


def test_an_illegal_whole_action_keeps_the_engines_reason(game):
    state, player, legal = start(game)
    session = Session(game, ["", "gift G9 G9 G9"])
    out = session.run()
    assert "error[action/illegal]" in out
    assert session.repl.actions == []


def test_help_tells_how_to_choose_step_by_step(game):
    out = Session(game, ["", "help"]).run()
    assert "step by step" in out.split("> help")[1] and "'back'" in out.split("> help")[1]


def test_choosing_prints_no_new_table(game):
    state, player, legal = start(game)
    out = Session(game, ["", "gift", "1"]).run()
    assert out.count("Hanamikoji · round") == 1


def test_the_forms_name_the_parameters(game):
    state, player, legal = start(game)
    assert forms(game)["gift"] == (Parameter("cards", "cards to offer", many=True),)
    assert forms(game)["competition"] == (Parameter("pairs", "pairs to offer", groups=True),)   # groups: no set
    choice = Choice.start([str(a) for a in legal], forms(game)).narrow("gift")
    assert "cards to offer" in choice.parameter()
    assert isinstance(choice.refusal("x"), ActionError)
