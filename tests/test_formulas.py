"""Table-driven formula tests: ``(source, expected)`` rows, errors included.

Each formula becomes the last line of tests/formulas/formulas.rules
(``define probe = SOURCE``), whose setup ends with ``set result = probe``;
the test checks the rulebook, starts a game and reads ``result``. So every
formula goes through the whole pipeline — parser, checker, schema,
compiler — and is evaluated by a real statement, where runtime errors
become ``rule/runtime``. The fixture's header describes the position.
(The fixture is parsed once; each formula is parsed on its own line number
and added to a copy of the fixture's syntax tree.)

Expected values: numbers, booleans, symbols (str), players (int), ``None``,
lists; ``C("R1")`` is the component named R1. ``Runtime`` expects a
``rule/runtime`` error, ``Static("code")`` a static error with that code.
"""

from __future__ import annotations

import copy
import functools
from dataclasses import dataclass
from pathlib import Path

import pytest

from interpreter.language.checks import check as check_ir
from interpreter.game.engine import Game
from interpreter.errors import RuleError, RulebookError, RulebookErrors
from interpreter.language.loader import compile_ir
from interpreter.language.schema import validate_ir
from interpreter.language.syntax import parse

FIXTURE = Path(__file__).resolve().parent / "formulas" / "formulas.rules"
PROBE = "define probe = 0\n"


@dataclass(frozen=True)
class C:
    """The component with this name."""
    name: str


@dataclass(frozen=True)
class Static:
    code: str


Runtime = RuleError


@functools.lru_cache(maxsize=1)
def fixture() -> tuple[dict, int]:
    """The fixture's syntax tree without the probe, and the probe's line."""
    text = FIXTURE.read_text(encoding="utf-8")
    assert text.endswith(PROBE)
    text = text[: -len(PROBE)]
    return parse(text, FIXTURE.name), text.count("\n") + 1


def evaluate(source: str, players: int = 2, options: dict | None = None):
    tree, line = fixture()
    ast = copy.deepcopy(tree)
    try:
        probe = parse("\n" * (line - 1) + f"define probe = {source}\n", FIXTURE.name)
    except RulebookError as e:
        raise RulebookErrors([e]) from None
    ast["items"].extend(probe["items"])
    ir = check_ir(ast, FIXTURE.name, FIXTURE.parent)
    validate_ir(ir)
    game = Game(ir, options)
    state = game.new_game(players, seed=1)
    lay = game.program(players).lay
    return state.vars[lay.variables["result"].base], lay


def resolve(expected, lay):
    if isinstance(expected, C):
        return lay.instances[expected.name]
    if isinstance(expected, list):
        return [resolve(x, lay) for x in expected]
    return expected


def check(source, expected, players=2, options=None):
    if isinstance(expected, Static):
        with pytest.raises(RulebookErrors) as info:
            evaluate(source, players, options)
        assert expected.code in [e.code for e in info.value.errors], str(info.value)
        return
    if expected is Runtime:
        with pytest.raises(RuleError) as info:
            evaluate(source, players, options)
        assert info.value.code == "rule/runtime" and info.value.span is not None
        return
    value, lay = evaluate(source, players, options)
    want = resolve(expected, lay)
    assert value == want and type(value) is type(want), f"{source} = {value!r}, expected {want!r}"


def rows(*table):
    """Rows are (source, expected) or (source, expected, players)."""
    return [pytest.param(*row, id=f"{row[0]} [{row[2]}p]" if len(row) > 2 else row[0])
            for row in table]


def xfail(row, reason):
    return pytest.param(*row, id=row[0], marks=pytest.mark.xfail(strict=True, reason=reason))


# -- arithmetic, comparisons, logic --------------------------------------------------

ARITHMETIC = rows(
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("2 - 3 - 4", -5),
    ("7 // 2", 3),
    ("-7 // 2", -4),                       # floor division, like the rules' "rounded down"
    ("7 % 3", 1),
    ("-7 % 3", 2),
    ("-(2 + 3)", -5),
    ("-counter", -7),
    ("-first(deck)", Static("rulebook/type")),   # not the engine's number for the card
    ("-players[1]", Static("rulebook/type")),    # a player is a seat, not a number
    ("-nobody", Static("rulebook/type")),
    ("-yes", Static("rulebook/type")),
    ("not first(deck)", Static("rulebook/type")),
    ("not 3", Static("rulebook/type")),
    ("not players[1]", Static("rulebook/type")),
    ("10 - -3", 13),
    ("1 // 0", Runtime),
    ("5 % 0", Runtime),
    ("counter * 2 + bonus", 17),
    ("abs(3 - 10)", 7),
)

COMPARISONS = rows(
    ("1 < 2", True),
    ("2 <= 2", True),
    ("3 > 4", False),
    ("3 >= 4", False),
    ("1 == 1", True),
    ("1 != 1", False),
    ("red == red", True),
    ("red == blue", False),
    ("none == none", True),
    ("nobody == none", True),
    ("R1 == R1", True),
    ("R1 == R2", False),
    ("none < 3", Runtime),                  # nothing is less than a number
)

LOGIC = rows(
    ("yes and no", False),
    ("yes or no", True),
    ("not no", True),
    ("not 1 == 2", True),                   # 'not' binds looser than '=='
    ("1 == 1 and 2 == 3 or yes", True),     # 'and' binds tighter than 'or'
    ("no and 1 // 0 == 0", False),          # the right side is not evaluated
    ("yes or 1 // 0 == 0", True),
    ("true and false", False),
)

OTHERWISE = rows(
    ("none otherwise 5", 5),
    ("3 otherwise 5", 3),
    ("0 otherwise 5", 0),                   # 0 is a value, not "nothing"
    ("[] otherwise [1]", [1]),
    ("nobody otherwise players[1]", 1),
    ("none otherwise none otherwise 2", 2),
)


@pytest.mark.parametrize("source, expected", ARITHMETIC + COMPARISONS + LOGIC + OTHERWISE)
def test_operators(source, expected):
    check(source, expected)


# -- aggregates ------------------------------------------------------------------------

AGGREGATES = rows(
    ("count(c in card)", 6),
    ("count(c in card where c.colour == red)", 2),
    ("count(c in empty_pile)", 0),
    ("count(x in [1, 2, 3] where x > 1)", 2),
    ("sum(c.value for c in card)", 21),
    ("sum(c.value for c in card where c.colour == blue)", 7),
    ("sum(c.value for c in empty_pile)", 0),
    ("sum(x in [1, 2, 3])", 6),              # without 'for', the elements themselves
    ("sum(x for x in [1, 2, 3])", 6),
    ("min(c.value for c in card)", 1),
    ("max(c.value for c in hand(players[0]))", 2),
    ("min(c.value for c in empty_pile)", None),
    ("max(c.value for c in empty_pile)", None),
    ("any(c in card where c.value > 5)", True),
    ("any(c in card where c.value > 9)", False),
    ("any(c in empty_pile)", False),
    ("any(c in deck)", True),
    ("all(c in card where c.value > 0)", True),
    ("all(c in card where c.colour == red)", False),
    ("all(c in empty_pile where c.value > 100)", True),   # nothing breaks the rule
    ("[c in card where c.value >= 5]", [C("G5"), C("G6")]),
    ("filter(c in card where c.value >= 5)", [C("G5"), C("G6")]),
    ("[c in empty_pile where yes]", []),
    ("each(c.value for c in hand(players[0]))", [1, 2]),
    ("each(c.colour for c in empty_pile)", []),
    ("each(c.value for c in card where c.colour == green)", [5, 6]),
    ("count(t in bag where t.kind == coin)", 3),
    ("count(t in token)", 5),
)

MAJORITIES = rows(
    ("majority(c in card by c.value)", C("G6")),
    ("minority(c in card by c.value)", C("R1")),
    ("majority(p in players by points(p))", None),             # a tie: nobody
    ("majority(c in card where c.colour == red by c.value)", C("R2")),
    ("majority(x in [1, 3, 2, 3] by x)", None),                 # the two 3s tie
    ("minority(c in card by c.colour == red)", None),          # four cards share "not red"
    ("majority(c in empty_pile by c.value)", None),
    ("best(c in card by c.colour == blue)", [C("B3"), C("B4")]),
    ("worst(c in card by c.value)", [C("R1")]),
    ("best(p in players by points(p))", [0, 1]),
    ("best(c in empty_pile by c.value)", []),
    ("worst(c in empty_pile by c.value)", []),
    ("best(p in players by points(p))", [0, 1], 3),             # P2 has no points
    ("worst(p in players by points(p))", [2], 3),
    ("majority(p in players by size(hand(p)))", 0, 3),
    ("minority(p in players by size(hand(p)))", 2, 3),
)


@pytest.mark.parametrize("source, expected", AGGREGATES + MAJORITIES[:12])
def test_aggregates(source, expected):
    check(source, expected)


@pytest.mark.parametrize("source, expected, players", MAJORITIES[12:])
def test_aggregates_with_more_players(source, expected, players):
    check(source, expected, players)


# -- builtins ----------------------------------------------------------------------------

BUILTINS = rows(
    ("opponent(players[0])", 1),
    ("opponent(players[1])", 0),
    ("opponent(players[0])", Runtime, 3),                     # only in a 2-player game
    ("next_player(players[1])", 0, 2),
    ("next_player(players[1])", 2, 3),
    ("next_player(players[0], 2)", 2, 3),
    ("previous_player(players[0])", 2, 3),
    ("previous_player(players[0], 4)", 2, 3),
    ("turn_order(players[1])", [1, 2, 0], 3),
    ("turn_order(players[0])", [0, 1]),
    ("size(hand(players[0]))", 2),
    ("size([])", 0),
    ("size(players)", 4, 4),
    ("size(deck)", 3),
    ("contains(hand(players[0]), R1)", True),
    ("contains(hand(players[0]), B3)", False),
    ("contains([1, 2], 3)", False),
    ("first(hand(players[0]))", C("R1")),
    ("last(deck)", C("G6")),                                   # the top of an ordered zone
    ("first(empty_pile)", None),
    ("last([])", None),
    ("is_empty(empty_pile)", True),
    ("is_empty(deck)", False),
    ("distinct([3, 1, 3, 2, 1])", [3, 1, 2]),
    ("distinct(each(c.colour for c in card))", ["red", "blue", "green"]),
    ("smaller(3, 1, 2)", 1),
    ("larger(3, 1, 2)", 3),
    ("larger(size(deck), 10)", 10),
    ("random(players)", Static("rulebook/invalid")),          # a define may not draw
    ("size(deck, 1)", Static("rulebook/arity")),
    ("opponent()", Static("rulebook/arity")),
    ("smaller(1)", Static("rulebook/arity")),
)


@pytest.mark.parametrize("source, expected, players",
                         [pytest.param(*(p.values + (2,))[:3], id=p.id) for p in BUILTINS])
def test_builtins(source, expected, players):
    check(source, expected, players)


# -- components, defines, tables, options, names ---------------------------------------

COMPONENTS = rows(
    ("R1.value", 1),
    ("G5.colour", "green"),
    ("G5.owner", 1),
    ("R1.owner", None),
    ("first(deck).value", 4),
    ("last(deck).colour", "green"),
    ("sum(c.value for c in card where c.owner == none)", 16),
    ("hand(players[0])[1]", C("R2")),
    ("first(empty_pile).value", Runtime),                     # the value of nothing
    ("players[1].value", Static("rulebook/type")),            # a player has no attributes
    ("first(bag).owner", Static("rulebook/type")),            # tokens have no owner
    ("none.value", Static("rulebook/type")),
)

DEFINES = rows(
    ("double(21)", 42),
    ("add(2, 3)", 5),
    ("add(double(2), 1)", 5),
    ("quad(3)", 12),
    ("shadow(1)", 2),                                         # the parameter, not the variable
    ("size(reds)", 2),
    ("reds", [C("R1"), C("R2")]),
    ("double()", Static("rulebook/arity")),
    ("double", Static("rulebook/arity")),
    ("add(1)", Static("rulebook/arity")),
)

NAMES = rows(
    ("counter", 7),
    ("nobody", None),
    ("points(players[1])", 5),
    ("points(players[0]) + points(players[1])", 10),
    ("players", [0, 1]),
    ("players[1]", 1),
    ("[10, 20, 30][2]", 30),
    ("player_count", 2),
    ("mode", "calm"),
    ("mode == calm", True),
    ("bonus + 1", 4),
    ("current", None),                                        # nobody's turn during the setup
    ("turn", 0),
    ("round", 0),
    ("points", Static("rulebook/arity")),                     # one per player: whose?
    ("countr", Static("rulebook/unknown-name")),
)


@pytest.mark.parametrize("source, expected", COMPONENTS + DEFINES + NAMES)
def test_components_defines_and_names(source, expected):
    check(source, expected)


@pytest.mark.parametrize("source, players, expected", [
    ("hand_size", 2, 3),
    ("hand_size", 3, 2),
    ("hand_size", 4, 1),
    ("label", 2, "duo"),
    ("label", 3, "trio"),
    ("label", 4, None),                                       # '-' in the table
    ("label == duo", 2, True),
    ("label == duo", 3, False),
    ("label == none", 4, True),
    ("open", 2, True),                                        # yes / no cells are values
    ("open", 3, False),
    ("hand_size * player_count", 3, 6),
    ("players", 3, [0, 1, 2]),
    ("player_count", 4, 4),
])
def test_by_players_table_values(source, players, expected):
    check(source, expected, players)


@pytest.mark.parametrize("options, source, expected", [
    ({}, "mode", "calm"),
    ({"mode": "wild"}, "mode", "wild"),
    ({"mode": "wild"}, "mode == calm", False),
    ({"bonus": "10"}, "bonus * 2", 20),
])
def test_option_values(options, source, expected):
    check(source, expected, 2, options)


# -- components are not numbers ------------------------------------------------------------
# Components are ids at run time, so the compiler refuses formulas that would
# mix them up with numbers, players or yes/no.

@pytest.mark.parametrize("source", [
    "count(c in card where c)",
    "R1 == players[0]",
    "R1 == 0",
    "R1 + 1",
    "contains(hand(players[0]), players[0])",
    "not R1",
    "R1 < R2",
])
def test_components_are_not_numbers(source):
    check(source, Static("rulebook/type"))


@pytest.mark.parametrize("source, expected", [
    ("count(c in card where c != none)", 6),
    ("R1 == R1", True),
    ("majority(p in players by nobody)", None),
    ("majority(p in [players[0]] by nobody)", None),
])
def test_components_compared_as_components_and_none_keys(source, expected):
    check(source, expected)


# -- out of range ------------------------------------------------------------------------

@pytest.mark.parametrize("source", ["players[5]", "[1, 2][-3]", "hand(players[0])[2]"])
def test_an_index_out_of_range_is_a_runtime_error(source):
    check(source, Runtime)


def test_a_runtime_error_points_at_the_statement_that_evaluates_the_formula():
    with pytest.raises(RuleError) as info:
        evaluate("1 // 0")
    line = next(i for i, text in enumerate(FIXTURE.read_text().splitlines(), 1)
                if text.strip() == "set result = probe")
    assert (info.value.span.file, info.value.span.line) == (FIXTURE.name, line)


def test_the_probe_is_evaluated_like_the_fixture_file_itself():
    """The shortcut (a parsed fixture plus a parsed probe) gives what the
    whole file gives through the loader."""
    text = FIXTURE.read_text(encoding="utf-8")[: -len(PROBE)] + "define probe = sum(c.value for c in deck)\n"
    ir = compile_ir(text, FIXTURE.name, FIXTURE.parent)
    game = Game(ir)
    state = game.new_game(2, seed=1)
    lay = game.program(2).lay
    assert state.vars[lay.variables["result"].base] == evaluate("sum(c.value for c in deck)")[0] == 15


@pytest.mark.parametrize("source, expected", [
    ("1 if 2 > 1 else 3", 1),
    ("1 if 2 < 1 else 3", 3),
    ("(1 if no else 2) + 10", 12),
    ("R1 if size(hand(players[0])) == 2 else none", C("R1")),
    ("'a' if yes else 'b' if no else 'c'", Static("rulebook/syntax")),
    ("1 if yes else 2 if no else 3", 1),
    ("sorted(c in card by c.value)", [C("R1"), C("R2"), C("B3"), C("B4"), C("G5"), C("G6")]),
    ("sorted(c in card by 0 - c.value)", [C("G6"), C("G5"), C("B4"), C("B3"), C("R2"), C("R1")]),
    ("sorted(c in card where c.colour == red by c.value)", [C("R1"), C("R2")]),
    ("sorted(c in card by c.colour)", [C("B3"), C("B4"), C("G5"), C("G6"), C("R1"), C("R2")]),
    ("reverse([1, 2, 3])", [3, 2, 1]),
    ("reverse(deck)", [C("G6"), C("G5"), C("B4")]),
    ("sorted(c in card)", Static("rulebook/arity")),
    ("1 if R1 else 2", Static("rulebook/type")),
])
def test_conditional_sorted_and_reverse(source, expected):
    check(source, expected)


def test_the_schema_knows_every_aggregate_and_formula_kind():
    """The IR schema, the builtin table and the compiler list the same names."""
    from interpreter.stdlib.builtins import AGGREGATES
    from interpreter.language.data import schema
    from interpreter.language.formulas import FormulaChecker
    defs = schema("rulebook.schema.json")["$defs"]
    assert set(defs["aggregate"]["properties"]["fn"]["enum"]) == set(AGGREGATES)
    kinds = set(defs["expr"]["properties"]["node"]["enum"])
    assert kinds == {name[2:] for name in dir(FormulaChecker) if name.startswith("e_")}


@pytest.mark.parametrize("source, expected", [
    ("none and yes", False), ("yes and none", False), ("none or no", False),
    ("none or yes", True), ("(mode == calm) and none", False), ("(mode == wild) or none", False),
])
def test_and_or_give_yes_or_no_even_with_none(source, expected):
    check(source, expected)


# -- ranges ----------------------------------------------------------------------------------
# 'A to B': the whole numbers from A up to B, a list; its ends are sums, and it
# stands as a whole formula (in parentheses inside another one).

RANGES = rows(
    ("1 to 3", [1, 2, 3]),
    ("3 to 3", [3]),
    ("5 to 3", []),                                  # B below A: empty
    ("-2 to 1", [-2, -1, 0, 1]),
    ("1 to bonus + 1", [1, 2, 3, 4]),                # 1 to (bonus + 1)
    ("counter - 5 to counter - 4", [2, 3]),
    ("0 to player_count - 1", [0, 1]),
    ("1 to counter", [1, 2, 3, 4, 5, 6, 7]),         # an end read from the state
    ("size(1 to counter)", 7),
    ("sum(x * 2 for x in 1 to 3)", 12),
    ("sum(x in 1 to counter)", 28),
    ("max(x for x in 0 to points(players[0]))", 5),
    ("[x in 1 to 10 where x % 3 == 0]", [3, 6, 9]),
    ("each(x * x for x in 1 to 4)", [1, 4, 9, 16]),
    ("count(x in 5 to 3)", 0),
    ("contains(1 to 6, counter)", False),
    ("contains(1 to counter, counter)", True),
    ("(1 to 3) == [1, 2, 3]", True),
    ("(1 to 3)[1]", 2),
    ("reverse(1 to 3)", [3, 2, 1]),
    ("first(counter to 3) otherwise 0", 0),
    ("[(1 to 2), (4 to 5)]", [[1, 2], [4, 5]]),      # a list of ranges, each in parentheses
    ("size(1 to 100000)", 100000),
    ("1 to nobody", Runtime),                        # a player variable that is none
    ("1 to counter * 100000", Runtime),              # 700,000 numbers: at most 100,000
    ("1 to R1", Static("rulebook/type")),
    ("yes to 3", Static("rulebook/type")),
    ("1 to none", Static("rulebook/type")),
    ("red to 3", Static("rulebook/type")),
    ("1 to 100001", Static("rulebook/limit")),       # fixed ends: refused at load
    ("[0 to 6]", Static("rulebook/syntax")),
    ("1 to 3 to 5", Static("rulebook/syntax")),
    ("range(1, 3)", Static("rulebook/unknown-name")),
)


@pytest.mark.parametrize("source, expected", RANGES)
def test_ranges(source, expected):
    check(source, expected)


@pytest.mark.parametrize("source", ["1 to nobody", "nobody to 3", "(nobody) to 3"])
def test_a_wrong_end_of_a_range_is_reported_at_that_end(source):
    """A range's end that is none while the game runs is rule/runtime at
    the end itself, not only at the statement."""
    _, line = fixture()
    with pytest.raises(RuleError) as info:
        evaluate(source)
    assert info.value.code == "rule/runtime"
    column = len("define probe = ") + 1 + source.index("nobody")
    assert (info.value.span.line, info.value.span.column) == (line, column)
