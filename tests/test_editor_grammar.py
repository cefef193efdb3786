"""The syntax-highlighting grammar for editors (editors/rulebook.tmLanguage.json):
valid JSON in TextMate's shape, every keyword of grammar/rulebook.lark in
one of its keyword patterns, and comments, strings with their {placeholders},
numbers and builtins matched where a rulebook writes them. (TextMate's
patterns are Oniguruma's; the ones here are also Python's.)
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter.stdlib.builtins import AGGREGATES, FUNCTIONS
from interpreter.editor.index import keywords

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = json.loads((ROOT / "editors" / "rulebook.tmLanguage.json").read_text(encoding="utf-8"))
REPO = GRAMMAR["repository"]


def patterns(rule: dict) -> list:
    """Every pattern with a `match` under a rule, includes followed."""
    found = []
    if "include" in rule:
        found += patterns(REPO[rule["include"].lstrip("#")])
    if "match" in rule:
        found.append(rule)
    for inner in rule.get("patterns", []):
        found += patterns(inner)
    return found


def scope_of(word: str) -> set:
    return {p["name"] for p in patterns(REPO["keywords"]) if re.fullmatch(p["match"], word)}


def test_it_is_a_textmate_grammar_for_rules_files():
    assert GRAMMAR["scopeName"] == "source.rulebook"
    assert GRAMMAR["fileTypes"] == ["rules"]
    for rule in GRAMMAR["patterns"]:
        assert rule["include"].lstrip("#") in REPO


def test_the_grammar_of_the_language_has_these_keywords():
    assert {"zone", "phase", "chooses", "otherwise", "yes", "may", "takes"} <= set(keywords())


@pytest.mark.parametrize("word", keywords())
def test_every_keyword_of_the_grammar_is_highlighted_once(word):
    assert len(scope_of(word)) == 1, f"'{word}' is in {scope_of(word) or 'no keyword pattern'}"


def test_a_keyword_inside_a_name_is_not_one():
    assert not scope_of("zones") and not scope_of("hand_size")


def test_comments_strings_placeholders_and_numbers():
    assert re.search(REPO["comment"]["match"], '  move all item to deck   # HK-E5').group() == \
        "# HK-E5"
    string = REPO["string"]
    assert string["begin"] == '"'
    placeholder = next(p for p in string["patterns"] if "placeholder" in p["name"])
    found = re.findall(placeholder["match"], '"{g}: {a} {at_a} – {{not}} {b}"')
    assert [name for _, name, _ in found] == ["g", "a", "at_a", "not", "b"]
    escape = next(p for p in string["patterns"] if "escape" in p["name"])
    assert re.findall(escape["match"], "{{not}}") == ["{{", "}}"]
    number = REPO["number"]["match"]
    assert re.findall(number, "| -1 | 2 | G7 | x2 |") == ["-1", "2"]


def test_builtins_are_highlighted_where_they_are_called():
    function = next(p for p in patterns(REPO["builtins"]) if "function" in p["name"])
    for name in set(FUNCTIONS) | set(AGGREGATES):
        assert re.match(function["match"], name + "(x)").group() == name
    assert re.match(function["match"], "count") is None    # a name, not a call
