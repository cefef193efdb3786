"""Aggregates that select their elements by an attribute's column or by a
zone of each element before the rest of WHERE (a speed-up of the compiler)
mean exactly what the plain formulas mean — 'all' included, whose WHERE is
the test every element must pass, not a filter."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import load_rulebook

RULES = Path(__file__).parent / "engine" / "selection.rules"

CASES = [
    ('count(s in board where s.kind == "land")', 3),
    ('count(s in board where s.kind == "land" and is_empty(on(s)))', 2),
    ('count(s in board where is_empty(on(s)) and s.kind == "land")', 2),
    ('count(s in board where not is_empty(on(s)))', 1),
    ('count(s in board where s.mark == 7)', 1),
    ('count(s in board where s.kind == "land" and s.mark == 0 and is_empty(on(s)))', 1),
    ('all(s in board where s.kind == "land")', False),
    ('all(s in board where is_empty(on(s)))', False),
    ('all(s in board where s.kind == "land" or s.kind == "sea")', True),
    ('any(s in board where s.kind == "sea" and not is_empty(on(s)))', False),
    ('any(s in board where s.kind == "land" and not is_empty(on(s)))', True),
    ('sum(s.id for s in board where s.kind == "land" and is_empty(on(s)))', 5),
    ('each(s.id for s in board where is_empty(on(s)) and s.id > 1)', [2, 4]),
    ('[s in board where s.kind == "land" and s.id != 1]', "ids 3 4"),
]


@pytest.fixture(scope="module")
def game():
    return load_rulebook(str(RULES))


@pytest.mark.parametrize("formula, expected", CASES)
def test_selected_aggregates_mean_what_they_say(game, formula, expected, tmp_path):
    text = RULES.read_text().replace("  score = 0", f"  score = 0\n  winners = [0] if ({formula}) == ({_literal(expected)}) else [1]")
    path = tmp_path / "selection.rules"
    path.write_text(text)
    g = load_rulebook(str(path))
    s = g.new_game(2, 0)
    s = g.apply(s, g.legal_actions(s, 0)[0])
    assert g.outcome(s).winners == (0,), formula


def _literal(v) -> str:
    if v is True or v is False:
        return "yes" if v else "no"
    if isinstance(v, list):
        return "[" + ", ".join(map(str, v)) + "]"
    if isinstance(v, str) and v.startswith("ids"):
        ids = v.split()[1:]
        return "[" + ", ".join(f'first([t in spot where t.id == {i}])' for i in ids) + "]"
    return str(v)
