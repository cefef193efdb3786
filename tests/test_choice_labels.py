"""`chooses NAME as "LABEL"`: a choice asked in the rulebook's words
(docs/language.md §6.15, §6.16).

The label changes the question only — the view's `pending.label` and the
REPL's prompt read `choose LABEL` — never the action: its text stays `NAME
VALUE`, and what a player typed before is still accepted. An empty label, or
one with braces, is `rulebook/invalid` at the label.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game, load_rulebook
from interpreter.errors import RuleStuck, RulebookErrors
from interpreter.language.loader import compile_ir
from interpreter.terminal.render import pending_text, render_to_text

GAME = """\
game "Labels"
players 2
component card
  | value | copies |
  | 1     | 2      |
  | 2     | 2      |
zone deck: card, public
zone kept of each player: card, public
setup
  move all card to deck
phase play
  players[0] chooses c{label}: one of deck
  move c to kept(0)
  each p in players chooses d{each_label}: one of deck
  for each p in players
    move d[p] to kept(p)
  players[1] chooses e: one of deck where e.value > 5
scoring
  score = size(kept(p))
"""


def load(label: str = ' as "a card to keep"', each_label: str = ' as "a card for yourself"') -> Game:
    text = GAME.format(label=label, each_label=each_label)
    return Game(compile_ir(text, "t.rules", Path(".")))


def errors(label: str, each_label: str = "") -> list:
    with pytest.raises(RulebookErrors) as info:
        load(label, each_label)
    return [(e.code, e.span.line, e.span.column) for e in info.value.errors]


def test_the_pending_label_reads_the_rulebooks_words():
    g = load()
    s = g.new_game(players=2, seed=1)
    assert g.view(s, 0)["pending"] == {"players": [0], "kind": "choice",
                                       "label": "choose a card to keep"}
    s = g.apply(s, g.parse_action(s, 0, "c 1"))
    for viewer in (0, 1, None):
        assert g.view(s, viewer)["pending"]["label"] == "choose a card for yourself"


def test_without_a_label_the_name_is_asked():
    g = load("", "")
    s = g.new_game(players=2, seed=1)
    assert g.view(s, 0)["pending"]["label"] == "choose c"
    s = g.apply(s, g.parse_action(s, 0, "c 1"))
    assert g.view(s, 1)["pending"]["label"] == "choose d"


def test_the_action_text_and_what_a_player_types_do_not_change():
    labelled, plain = load(), load("", "")
    for g in (labelled, plain):
        s = g.new_game(players=2, seed=1)
        assert [str(a) for a in g.legal_actions(s, 0)] == ["c 1", "c 2"]
        s = g.apply(s, g.parse_action(s, 0, "C 2"))
        s = g.apply(s, g.parse_action(s, 1, "d 1"))
        assert g.legal_actions(s, 0)[0].text_for(1) == "d ?"     # the pick stays hidden
        assert [str(a) for a in g.legal_actions(s, 0)] == ["d 1", "d 2"]


def test_the_label_is_in_the_ir_only_where_it_is_written():
    stmts = load(each_label="").ir["phases"][0]["body"]["stmts"]
    assert (stmts[0]["label"], stmts[0]["label_at"][:2]) == ("a card to keep", [12, 27])
    assert "label" not in stmts[2] and "label_at" not in stmts[2]
    assert "label" not in load("", "").ir["phases"][0]["body"]["stmts"][0]


def test_the_prompt_shows_the_label():
    g = load()
    s = g.new_game(players=2, seed=1)
    assert render_to_text(pending_text(g.view(s, 0)), width=120) == \
        "P0 to decide: choose a card to keep\n"


@pytest.mark.parametrize("label, each_label, where", [
    (' as ""', "", (12, 27)),
    (' as "   "', "", (12, 27)),
    (' as "a card for {p}"', "", (12, 27)),
    ("", ' as ""', (14, 34)),
])
def test_an_empty_label_or_one_with_braces_is_refused_at_the_label(label, each_label, where):
    assert errors(label, each_label) == [("rulebook/invalid", *where)]


def test_a_label_is_a_string():
    assert errors(" as keep")[0][0] == "rulebook/syntax"


def test_a_stuck_choice_names_its_label_and_its_name():
    g = load()
    s = g.new_game(players=2, seed=1)
    s = g.apply(s, g.parse_action(s, 0, "c 1"))
    s = g.apply(s, g.parse_action(s, 0, "d 1"))
    s = g.apply(s, g.parse_action(s, 1, "d 2"))
    with pytest.raises(RuleStuck) as info:
        g.legal_actions(s, 1)
    assert "choose e but" in str(info.value)
    labelled = Game(compile_ir(GAME.format(label="", each_label="").replace(
        "chooses e:", 'chooses e as "a card over 5":'), "t.rules", Path(".")))
    s = labelled.new_game(players=2, seed=1)
    s = labelled.apply(s, labelled.parse_action(s, 0, "c 1"))
    s = labelled.apply(s, labelled.parse_action(s, 0, "d 1"))
    s = labelled.apply(s, labelled.parse_action(s, 1, "d 2"))
    with pytest.raises(RuleStuck) as info:
        labelled.legal_actions(s, 1)
    assert "choose a card over 5 ('e')" in str(info.value)
    assert info.value.code == "rule/stuck" and info.value.span.line == 17


def test_samurai_asks_in_words_and_its_actions_name_what_is_chosen():
    g = load_rulebook("samurai")
    s = g.new_game(players=2, seed=1)
    assert g.view(s, 0)["pending"]["label"] == "choose a tile to keep"
    while g.view(s, None)["pending"]["label"] == "choose a tile to keep":
        p = g.to_move(s)[0]
        s = g.apply(s, g.legal_actions(s, p)[0])
    assert g.view(s, 0)["pending"]["label"] == "choose a settlement for a caste marker"
    texts = [str(a) for a in g.legal_actions(s, 0)]
    assert texts and all(t.startswith("settlement ") for t in texts)
    s = g.apply(s, g.parse_action(s, 0, texts[0]))
    assert g.view(s, 0)["pending"]["label"] == "choose the caste marker to put there"
    assert all(str(a).startswith("caste_marker ") for a in g.legal_actions(s, 0))


@pytest.mark.parametrize("rulebook", ["hanamikoji", "hearts", "lanterns", "samurai"])
def test_the_shipped_labels_are_plain_words(rulebook):
    def labels(block):
        for stmt in block["stmts"]:
            if "label" in stmt:
                yield stmt["label"]
            for key in ("then", "otherwise", "body"):
                if isinstance(stmt.get(key), dict):
                    yield from labels(stmt[key])
    ir = load_rulebook(rulebook).ir
    blocks = [ph["body"] for ph in ir["phases"]] + [a["body"] for a in ir["actions"] if a["body"]]
    blocks += [ir["setup"]] if ir["setup"] else []
    found = [label for b in blocks for label in labels(b)]
    assert found and all(label.strip() and label == label.strip() for label in found)
