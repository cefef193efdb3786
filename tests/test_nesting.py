"""Deep nesting is refused at load with its own code and span, never with a
Python RecursionError: a long 'else if' chain, blocks inside blocks, lists
inside lists, a long sum, a pile of minus signs. Up to the limit, every stage
(checks, schema, compiler, the running game) handles it, even when the
caller is already deep in its own stack."""

from __future__ import annotations

import pytest

from interpreter import load_rulebook
from interpreter.errors import RuleError, RulebookErrors
from interpreter.language.syntax import MAX_NESTING
from tests import scenario

BASE = """game "Deep"
players 2
variable total: number = 0
phase play
  turn 0
    0 takes an action
action go
{body}
scoring
  score = {score}
"""
STEP = "  add 1 to total"


def else_if_chain(n):
    lines = ["  if total == 0", "    add 1 to total"]
    for i in range(1, n):
        lines += [f"  else if total == {i}", "    add 1 to total"]
    return BASE.format(body="\n".join(lines), score="total")


def nested_blocks(n):
    lines = ["  " + "  " * i + "if total >= 0" for i in range(n)] + ["  " + "  " * n + "add 1 to total"]
    return BASE.format(body="\n".join(lines), score="total")


def nested_lists(n):
    return BASE.format(body=STEP, score="size(" + "[" * n + "1" + "]" * n + ")")


def long_sum(n):
    return BASE.format(body=STEP, score=" + ".join(["total"] * n))


def minus_signs(n):
    return BASE.format(body=STEP, score="-" * n + "total")


# kind, rulebook of nesting n, the deepest n accepted (measured), where a refusal points
KINDS = [
    pytest.param(else_if_chain, 97, (203, 9), id="else-if-chain"),
    pytest.param(nested_blocks, 97, (106, 202), id="nested-blocks"),
    pytest.param(nested_lists, 195, (10, 212), id="nested-lists"),
    pytest.param(long_sum, 197, (10, 11), id="long-sum"),
    pytest.param(minus_signs, 196, (10, 208), id="minus-signs"),
]


def write(tmp_path, text):
    path = tmp_path / "deep.rules"
    path.write_text(text, encoding="utf-8")
    return path


def from_deep_in_the_stack(frames, run):
    return from_deep_in_the_stack(frames - 1, run) if frames else run()


def play(game):
    return game.outcome(scenario.play(game, game.new_game(players=2, seed=1), scenario.first_choice))


@pytest.mark.parametrize("make,deepest,at", KINDS)
def test_nesting_up_to_the_limit_loads_and_plays(tmp_path, make, deepest, at):
    path = write(tmp_path, make(deepest))
    outcome = from_deep_in_the_stack(300, lambda: play(load_rulebook(str(path))))
    assert len(outcome.scores) == 2


@pytest.mark.parametrize("make,deepest,at", KINDS)
def test_nesting_past_the_limit_is_refused_where_it_piles_up(tmp_path, make, deepest, at):
    with pytest.raises(RulebookErrors) as info:
        load_rulebook(str(write(tmp_path, make(deepest + 1))))
    assert [e.code for e in info.value.errors] == ["rulebook/too-deep"]
    assert str(MAX_NESTING) in info.value.errors[0].message
    # far past the limit, within the tokens a rulebook may hold (20,000); the
    # file of blocks grows as n²
    far = {nested_blocks: 300, else_if_chain: 1500}.get(make, 3000)
    with pytest.raises(RulebookErrors) as info:
        load_rulebook(str(write(tmp_path, make(far))))
    error = info.value.errors[0]
    assert error.code == "rulebook/too-deep" and error.hint
    assert (error.span.line, error.span.column) == at


def past_the_limit_midway(terms):
    """A run of `terms` operators whose second product passes the limit of
    numbers, then comes back under it: the partial result is refused there."""
    big = "1" + "0" * 20
    return BASE.format(body=STEP, score=f"total * {big} * {big}" + " - total" * (terms - 2))


@pytest.mark.parametrize("terms", [3, 40])
def test_a_long_run_of_operators_refuses_a_partial_result_past_the_limit(tmp_path, terms):
    """A long run of '+', '-' and '*' is written as one folded tuple; it still
    checks every partial result, and names the node that went past the limit,
    exactly as the short run written nested does."""
    game = load_rulebook(str(write(tmp_path, past_the_limit_midway(terms))))
    with pytest.raises(RuleError) as info:
        play(game)
    assert info.value.code == "rule/limit"
    span, product = info.value.span, "total * 1" + "0" * 20 + " * 1" + "0" * 20
    assert (span.line, span.column, span.end_line, span.end_column) == \
        (10, 11, 10, 11 + len(product))


def test_a_long_sum_at_the_limit_adds_up(tmp_path):
    game = load_rulebook(str(write(tmp_path, BASE.format(
        body=STEP, score=" + ".join(["total"] * 150) + " - total * 3"))))
    assert play(game).scores == (147, 147)


def test_a_formula_python_refuses_is_refused_at_load_with_its_span(tmp_path, monkeypatch):
    """Where Python cannot compile a formula's code (nested deeper than its
    parser takes, here made to refuse every formula), the rulebook is refused
    at load, rulebook/too-deep at the formula: there is no other runtime."""
    from interpreter.compiler import pysource
    add = pysource.Module.add

    def refusing(self, source, filename=None, note=""):
        if note.startswith("formula at line 10"):
            raise SyntaxError("too many nested parentheses")
        return add(self, source, filename, note)
    monkeypatch.setattr(pysource.Module, "add", refusing)
    with pytest.raises(RulebookErrors) as info:
        load_rulebook(str(write(tmp_path, long_sum(3))))
    [error] = info.value.errors
    assert error.code == "rulebook/too-deep" and error.hint
    assert (error.span.line, error.span.column) == (10, 11)
