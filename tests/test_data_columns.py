"""Reading some keys of data records, and options that pick pieces.

`component T from "f.yaml" at K with KEY [as NAME], …` keeps only the keys
named, renamed where written (docs/language.md §5); records may hold nested
lists, whose words are known words. `option NAME: K of TYPE = [A, B, …]` is
the list of K named pieces of TYPE, checked where it is written and when a
game is made with other values.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_rulebook
from interpreter.errors import OptionError, RulebookErrors
from interpreter.language.loader import compile_ir
from tests.scenario import names, var
from tests.test_grids import errors, place, source

PLAIN = "- {id: X, n: 1, extra: {a: 1}}\n- {id: Y, n: 2, extra: {a: 2}}\n"    # a list, no 'at'
ONE = "one: {id: Z, n: 5, extra: {b: 1}}\n"                                   # one record
DATA = """\
cards:
  - {id: ACE, points: 3, colour: red, params: {a: 1}, pattern: [[red, blue], [green, blue]]}
  - {id: KING, points: 2, colour: blue, params: {a: 2}, pattern: [[blue, blue], [red, amber]]}
jokers:
  - {id: JOKER, wild: true}
"""


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("columns")
    for name, text in (("cards", DATA), ("plain", PLAIN), ("one", ONE)):
        (path / f"{name}.yaml").write_text(text, encoding="utf-8")
    return path


def read(folder: Path, decls: str, formula: str = "0"):
    """The value of `formula` in a rulebook of `decls`, and the checked rulebook."""
    text = source(decls + "variable result: any = none\n", "  set result = " + formula + "\n")
    ir = compile_ir(text, "t.rules", folder)
    game = Game(ir)
    state = game.new_game(2, seed=1)
    return state.vars[game.program(2).lay.variables["result"].base], ir


def columns(ir, name: str) -> list:
    return next(c["columns"] for c in ir["components"] if c["name"] == name)


# -- with KEY [as NAME] ---------------------------------------------------------------

FROM = 'component card from "cards.yaml" at cards with '


@pytest.mark.parametrize("picked, kept", [
    ("id, points", ["id", "points"]),
    ("points, id", ["points", "id"]),
    ("id as name, points as value", ["name", "value"]),
    ("id as name, pattern", ["name", "pattern"]),
    ("colour", ["colour"]),
])
def test_with_keeps_only_the_keys_named(folder, picked, kept):
    _, ir = read(folder, FROM + picked + "\n")
    assert columns(ir, "card") == kept


@pytest.mark.parametrize("formula, expected", [
    ("ACE.points + KING.points", 5),                       # the renamed id: named constants
    ("sum(c.points for c in card where c != ACE)", 2),
    ("KING.name == \"KING\"", True),
    ("KING.pattern[1][1] == amber", True),                  # a word inside a nested list
    ("contains(ACE.pattern[0], blue)", True),
    ("contains(ACE.pattern[1], amber)", False),
    ("size(KING.pattern)", 2),
    ("each(size(row) for row in ACE.pattern)", [2, 2]),
])
def test_renamed_names_and_nested_lists_read_in_formulas(folder, formula, expected):
    assert read(folder, FROM + "id as name, points, pattern\n", formula)[0] == expected


@pytest.mark.parametrize("picked, formula, token", [
    ("id as name, points", "ACE.colour", "colour"),        # a key not picked is no attribute
    ("id as name, points", "card[0].id", "id"),            # nor is the key renamed
    ("id as name, points", "amber", "amber"),              # words of lists not read: unknown
])
def test_what_is_not_picked_is_an_unknown_name(folder, picked, formula, token):
    text = source(FROM + picked + f"\ndefine probe = {formula}\n")
    assert errors(text, folder) == [("rulebook/unknown-name", "t.rules",
                                     *place(text, "define probe", token))]


def test_without_as_name_an_id_is_a_word_not_a_piece(folder):
    assert read(folder, FROM + "id, points\n", "first(card).id == ACE")[0] is True
    with pytest.raises(RulebookErrors) as info:
        read(folder, FROM + "id, points\n", "ACE.points")
    assert [e.code for e in info.value.errors] == ["rulebook/type"]


def test_a_nested_mapping_loads_only_when_it_is_not_picked(folder):
    assert read(folder, FROM + "id as name, points\n", "size(card)")[0] == 2
    for decls in (FROM + "id as name, params\n", 'component card from "cards.yaml" at cards\n'):
        assert errors(source(decls), folder) == [
            ("data/invalid", "cards.yaml", *place(DATA, "ACE", "{a: 1}")),
            ("data/invalid", "cards.yaml", *place(DATA, "KING", "{a: 2}"))]


def test_a_key_no_record_has_is_refused_at_the_key(folder):
    text = source(FROM + "id as name, pionts, colour as tint\n")
    assert errors(text, folder) == [("rulebook/unknown-name", "t.rules",
                                     *place(text, "with", "pionts"))]


@pytest.mark.parametrize("decls, formula, expected", [
    ('component t from "plain.yaml" with id as name, n\n', "[X.n, Y.n]", [1, 2]),
    ('component t from "one.yaml" at one with n, id as name\n', "[Z.n, size(t)]", [5, 1]),
])
def test_with_reads_a_plain_list_and_a_single_record(folder, decls, formula, expected):
    assert read(folder, decls, formula)[0] == expected


def test_several_keys_at_once_read_the_keys_of_every_list(folder):
    decls = 'component card from "cards.yaml" at cards, jokers with id as name, wild, points\n'
    assert read(folder, decls, "[JOKER.wild, ACE.wild, JOKER.points, size(card)]")[0] == \
        [True, None, None, 3]
    text = source('component card from "cards.yaml" at cards, jokers with id, tame\n')
    assert errors(text, folder) == [("rulebook/unknown-name", "t.rules",
                                     *place(text, "with", "tame"))]


@pytest.mark.parametrize("picked", ["id as points, points", "points, id as points"])
def test_two_keys_read_as_one_name_are_refused(folder, picked):
    with pytest.raises(RulebookErrors) as info:
        read(folder, FROM + picked + "\n")
    assert [e.code for e in info.value.errors] == ["rulebook/duplicate-name"]


# -- option NAME: K of TYPE = [A, B, …] ---------------------------------------------------

PICKS = """\
game "Picks"
players 2

component card
  | name | value |
  | A    | 1     |
  | B    | 2     |
  | C    | 3     |
  | D    | 4     |

option chosen: 2 of card = [A, C]
zone box: card, public
zone used: card, public
variable total: number = 0

setup
  move all card to box
  move chosen to used
  set total = sum(c.value for c in chosen)

phase play
  end game

scoring
  score = total if contains(chosen, A) else 0
"""


@pytest.fixture(scope="module")
def picks(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("picks") / "picks.rules"
    path.write_text(PICKS, encoding="utf-8")
    return path


def in_play(game: Game):
    state = game.new_game(2, seed=1)
    return names(game, state, "used"), names(game, state, "box"), var(game, state, "total"), \
        game.scores(state)


@pytest.mark.parametrize("options, used, box, total, scores", [
    (None, ["A", "C"], ["B", "D"], 4, (4, 4)),
    ({"chosen": ["B", "D"]}, ["B", "D"], ["A", "C"], 6, (0, 0)),
    ({"chosen": "D, B"}, ["D", "B"], ["A", "C"], 6, (0, 0)),             # text, in its order
    ({"chosen": "[A,D]"}, ["A", "D"], ["B", "C"], 5, (5, 5)),
])
def test_the_option_is_the_list_of_its_pieces(picks, options, used, box, total, scores):
    game = load_rulebook(picks, options=options)
    assert in_play(game) == (used, box, total, scores)
    assert in_play(Game(game.ir, options=options)) == (used, box, total, scores)


@pytest.mark.parametrize("value", [
    "A", "A, A", "A, E", "a, c", ["A", "B", "C"], [], "", 5, ["A", 1], ["A", "value"],
])
def test_bad_values_given_for_the_option_are_refused(picks, value):
    with pytest.raises(OptionError) as info:
        load_rulebook(picks, options={"chosen": value})
    assert info.value.code == "option/invalid"


def test_an_unknown_piece_given_has_a_hint(picks):
    with pytest.raises(OptionError) as info:
        Game(load_rulebook(picks).ir, options={"chosen": ["A", "CC"]})
    assert info.value.hint == "did you mean 'C'?"


@pytest.mark.parametrize("line, wrong", [
    ("option chosen: 2 of card = [A, E]", [("rulebook/unknown-name", "E")]),
    ("option chosen: 2 of card = [A, value]", [("rulebook/unknown-name", "value")]),
    ("option chosen: 2 of card = [C, A, C]", [("rulebook/invalid", "C, A, C]"),       # the count
                                              ("rulebook/invalid", "C]")]),           # the repeat
    ("option chosen: 2 of card = [A]", [("rulebook/invalid", "A]")]),
    ("option chosen: 2 of crad = [A, C]", [("rulebook/unknown-name", "crad")]),
])
def test_a_wrong_list_is_refused_where_it_is_written(line, wrong):
    text = PICKS.replace("option chosen: 2 of card = [A, C]", line)
    row = text.splitlines().index(line) + 1
    assert errors(text) == [(code, "t.rules", row, line.index(token) + 1) for code, token in wrong]


def test_a_variant_replaces_the_pieces(picks):
    variant = picks.parent / "second-set.rules"
    variant.write_text('variant of "picks.rules"\noption chosen: 2 of card = [D, B]\n',
                       encoding="utf-8")
    game = load_rulebook(variant)
    assert game.options["chosen"] == ["D", "B"]
    assert in_play(game) == (["D", "B"], ["A", "C"], 6, (0, 0))
    assert in_play(load_rulebook(variant, options={"chosen": "A, C"}))[0] == ["A", "C"]
    wrong = picks.parent / "wrong-set.rules"
    wrong.write_text('variant of "picks.rules"\noption chosen: 2 of card = [D, E]\n',
                     encoding="utf-8")
    with pytest.raises(RulebookErrors) as info:
        load_rulebook(wrong)
    assert [(e.code, e.span.line, e.span.column) for e in info.value.errors] == [
        ("rulebook/unknown-name", 2, 32)]
    assert info.value.errors[0].span.file.endswith("wrong-set.rules")


def test_the_pieces_may_be_named_by_a_data_file(folder):
    decls = FROM + "id as name, points\noption hand: 1 of card = [KING]\n"
    assert read(folder, decls, "[size(hand), first(hand).points, contains(hand, ACE)]")[0] == \
        [1, 2, False]


@pytest.mark.parametrize("base,variant", [
    ("option mode = fast one of [fast, slow]\n", "option mode: 1 of card = [B]\n"),
    ("", "option chosen = A\n"),
])
def test_a_variant_keeps_an_options_kind(tmp_path, base, variant):
    """A value option stays a value and a choice of pieces a choice: the
    variant's line is refused, at its name, before anything runs."""
    (tmp_path / "base.rules").write_text(PICKS.replace(
        "option chosen: 2 of card = [A, C]\n", "option chosen: 2 of card = [A, C]\n" + base),
        encoding="utf-8")
    (tmp_path / "v.rules").write_text('variant of "base.rules"\n' + variant, encoding="utf-8")
    with pytest.raises(RulebookErrors) as info:
        load_rulebook(tmp_path / "v.rules")
    [err] = info.value.errors
    assert "keeps its kind" in err.message and err.span.line == 2