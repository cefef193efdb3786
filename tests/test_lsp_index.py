"""What the language server answers, without the protocol: the index of a
rulebook (interpreter/editor/index.py), hover, definition and
completion at a place (answers.py), and the diagnostics, which must be
validate's (diagnostics.py). Places are written as the text around
them, `at(TEXT, "needle")`, so a test reads like a cursor in an editor.
pygls is not needed: the core runs without it, and `rulebook lsp` then
says so with its code.
"""

from __future__ import annotations

import builtins
import sys
from pathlib import Path

import pytest

from interpreter.game.load import load_rulebook
from interpreter.errors import RulebookErrors
from interpreter.editor import answers, diagnostics as lsp_diagnostics, index as lsp_index, model as lsp_model
from interpreter.editor.model import Source
from interpreter.terminal import cli

ROOT = Path(__file__).resolve().parent.parent
HANAMIKOJI = ROOT / "rulebooks" / "hanamikoji.rules"

SMALL = """\
game "Small"
players 2 to 3
option rounds = 2 one of [1, 2, 3]

component colour
  | name |
  | red  |
  | blue |

component card
  | colour | value | copies |
  | red    | 1     | 2      |
  | blue   | 2     | 2      |

zone deck: card, hidden, ordered
zone hand of each player: card, owner
variable points of each player: number = 0
define worth(c) = c.value * 2

setup
  shuffle deck

phase play
  for each p in players
    deal 1 from deck to hand(p)
  repeat rounds times
    for each p in players
      turn p
        p takes an action from play_card
  go to finish

phase finish
  end game

action play_card(card: one of hand(me))
  add worth(card) to points(me)
  announce "{me} plays {card}"

scoring
  score = points(p) + count(c in hand(p) where c.colour == red)
"""


def at(text: str, needle: str, offset: int = 0, nth: int = 0) -> tuple[int, int]:
    """The 1-based (line, column) of the `nth` `needle` in `text`, plus `offset` characters."""
    i = -1
    for _ in range(nth + 1):
        i = text.index(needle, i + 1)
    i += offset
    return text.count("\n", 0, i) + 1, i - text.rfind("\n", 0, i)


@pytest.fixture(scope="module")
def small(tmp_path_factory):
    path = tmp_path_factory.mktemp("small") / "small.rules"
    path.write_text(SMALL, encoding="utf-8")
    return lsp_index.build(SMALL, str(path)), Source(SMALL)


@pytest.fixture(scope="module")
def hanamikoji():
    text = HANAMIKOJI.read_text(encoding="utf-8")
    return lsp_index.build(text, str(HANAMIKOJI)), Source(text), text


def hover_at(indexed, needle, offset=0, nth=0):
    index, source = indexed[0], indexed[1]
    text = source.text
    found = answers.hover(index, source, *at(text, needle, offset, nth))
    return found[0] if found else None


def definition_at(indexed, needle, offset=0, nth=0):
    index, source = indexed[0], indexed[1]
    place = answers.definition(index, source, *at(source.text, needle, offset, nth))
    return place and (Path(place.file).name, place.line, place.column)


def labels_at(indexed, needle, offset=0, nth=0, text=None):
    index = indexed[0]
    source = Source(text) if text is not None else indexed[1]
    return [c.label for c in answers.completions(index, source, *at(source.text, needle,
                                                                     offset, nth))]


# -- places: the language's columns and the protocol's -------------------------

@pytest.mark.parametrize("line, column, utf16, utf8", [
    ("abc", 3, 2, 2),
    ("é = 1", 2, 1, 2),             # é: one UTF-16 unit, two UTF-8 bytes
    ("🎴 x", 3, 3, 5),              # 🎴: outside the BMP, two UTF-16 units
    ("a🎴🎴b", 4, 5, 9),
    ("ab", 5, 4, 4),                # past the end: counted as it is
])
def test_columns_convert_to_code_units_and_back(line, column, utf16, utf8):
    source = Source(f"first\n{line}\n")
    assert source.to_lsp(2, column) == (1, utf16)
    assert source.to_lsp(2, column, lsp_model.UTF8) == (1, utf8)
    assert source.to_lsp(2, column, lsp_model.UTF32) == (1, column - 1)
    assert source.from_lsp(1, utf16) == (2, column)
    assert source.from_lsp(1, utf8, lsp_model.UTF8) == (2, column)


# -- hover -----------------------------------------------------------------------

def test_hover_shows_the_line_that_declares_a_name(small):
    assert "zone deck: card, hidden, ordered" in hover_at(small, "shuffle deck", 8)
    assert "variable points of each player: number = 0" in hover_at(small, "points(me)")
    option = hover_at(small, "repeat rounds", 8)
    assert "option rounds = 2 one of [1, 2, 3]" in option and "default: 2" in option
    assert "one of: 1, 2, 3" in option


def test_hover_on_a_define_shows_it_with_its_parameters(small):
    text = hover_at(small, "worth(card)")
    assert "define worth(c) = c.value * 2" in text and "parameters: c" in text


def test_hover_on_an_action_shows_its_parameters(small):
    text = hover_at(small, "from play_card", 6)
    assert "action play_card(card: one of hand(me))" in text and "parameters: card" in text


def test_hover_on_a_component_lists_its_columns_and_pieces(small):
    text = hover_at(small, "zone deck: card", 11)
    assert "**component** `card`" in text
    assert "attributes: colour, value" in text and "4 pieces" in text


def test_hover_on_builtins_gives_their_one_line_doc(small, hanamikoji):
    from interpreter.stdlib.builtins import AGGREGATES, CONSTANTS, FUNCTIONS
    assert FUNCTIONS["opponent"].doc in hover_at(hanamikoji, "opponent(winner)")
    assert AGGREGATES["count"] in hover_at(small, "count(c in")
    assert CONSTANTS["players"] in hover_at(small, "in players", 3)


def test_hover_on_a_local_name_shows_where_it_is_bound(small, hanamikoji):
    assert "for each p in players" in hover_at(small, "hand(p)", 5)
    assert "let leader = majority(" in hover_at(hanamikoji, "if leader", 3)
    assert "chooses take as" in hover_at(hanamikoji, "move take", 5)
    assert "the player being scored" in hover_at(hanamikoji, "score = charm(p)", 14)


def test_hover_on_a_piece_and_a_table_row(hanamikoji):
    piece = hover_at(hanamikoji, "| G4     | 3      |", 2)
    assert "**piece** `G4`" in piece and "charm 3" in piece
    assert "by players: 2 players: 6" in hover_at(hanamikoji, "deal hand_size", 5)


def test_hover_on_nothing_says_nothing(small):
    assert hover_at(small, '"Small"', 2) is None
    assert hover_at(small, "  end game", 0) is None


# -- definition ------------------------------------------------------------------

@pytest.mark.parametrize("needle, offset, nth, where", [
    ("shuffle deck", 8, 0, (15, 6)),              # a zone
    ("worth(card)", 0, 0, (18, 8)),               # a define
    ("points(me)", 0, 0, (17, 10)),               # a variable
    ("repeat rounds", 8, 0, (3, 8)),              # an option
    ("from play_card", 6, 0, (35, 8)),            # an action
    ("go to finish", 6, 0, (32, 7)),              # a phase
    ("zone deck: card", 11, 0, (10, 11)),         # a component type
    ("| red    | 1", 2, 0, (7, 5)),               # a piece named in a table row
    ("== red", 3, 0, (7, 5)),                     # a piece named in a formula
    ("hand(p)", 5, 0, (24, 12)),                  # a loop's name
    ("worth(card)", 6, 0, (35, 18)),              # an action's parameter
    ("c.value", 0, 0, (18, 14)),                  # a define's parameter
    ("c.value", 2, 0, (11, 14)),                  # a column: its header cell
    ("c.colour", 0, 0, (40, 29)),                 # an aggregate's element
])
def test_definition_goes_to_the_declaration(small, needle, offset, nth, where):
    assert definition_at(small, needle, offset, nth) == ("small.rules",) + where


def test_definition_of_a_builtin_is_none(small):
    assert definition_at(small, "count(c in") is None


def test_definitions_in_hanamikoji(hanamikoji):
    text = hanamikoji[2]
    assert definition_at(hanamikoji, "go to round", 6)[1:] == at(text, "phase round", 6)
    assert definition_at(hanamikoji, "geisha_won(p) >=")[1:] == at(text, "define geisha_won", 7)
    assert definition_at(hanamikoji, "| G7     | 5      |", 2)[1:] == at(text, "| G7   | 5", 2)
    assert definition_at(hanamikoji, "favour == p)")[1:] == at(text, "has favour", 4)
    assert definition_at(hanamikoji, "move cards to trade_off", 5)[1:] == \
        at(text, "action trade_off(cards", 17)


def test_definition_in_a_variant_leads_into_its_base(tmp_path):
    (tmp_path / "base.rules").write_text(SMALL, encoding="utf-8")
    text = 'variant of "base.rules"\noption rounds = 3\ndefine worth(c) = c.value + size(deck)\n'
    index = lsp_index.build(text, str(tmp_path / "variant.rules"))
    place = answers.definition(index, Source(text), *at(text, "deck", 1))
    assert (Path(place.file).name, place.line, place.column) == ("base.rules", 15, 6)
    assert "zone deck: card" in answers.hover(index, Source(text), *at(text, "deck", 1))[0]
    # a change the base cannot take: its names are still known
    broken = text + "phase nowhere\n  end game\n"
    index = lsp_index.build(broken, str(tmp_path / "variant.rules"))
    assert "deck" in index.names and "play_card" in index.actions


def test_definition_of_a_piece_from_a_data_file_is_its_record():
    paris = ROOT / "rulebooks" / "paris.rules"
    text = paris.read_text(encoding="utf-8")
    index = lsp_index.build(text, str(paris))
    place = answers.definition(index, Source(text), *at(text, "[LEVITATION,", 1))
    assert Path(place.file).name == "paris.yaml"
    data = (ROOT / "rulebooks" / "paris.yaml").read_text(encoding="utf-8").splitlines()
    assert data[place.line - 1][place.column - 1:].startswith("LEVITATION")


# -- completion ------------------------------------------------------------------

def test_completion_offers_locals_declared_names_builtins_and_keywords(small):
    labels = labels_at(small, "turn p", 5)
    assert {"p", "deck", "hand", "worth", "rounds", "card", "red", "count", "opponent",
            "players", "announce"} <= set(labels)
    assert "c" not in labels and "card" in labels     # an aggregate's element is not in scope
    assert labels.index("p") < labels.index("deck") < labels.index("count") < labels.index("if")


def test_completion_narrows_to_the_word_being_typed(small):
    assert labels_at(small, "hand(p)\n  repeat", 2) == ["hand", "has"]
    assert labels_at(small, "hand(p)\n  repeat", 3) == ["hand"]
    assert labels_at(small, "points(me)", 3) == ["points"]
    labels = labels_at(small, "points(me)", 1)
    assert labels[:3] == ["points", "player_count", "players"]        # declared, then builtin
    assert {"previous_player", "phase", "permission"} <= set(labels[3:])
    assert all(label.startswith("p") for label in labels)


def test_completion_after_a_dot_lists_the_attributes_of_the_type(small, hanamikoji):
    assert labels_at(small, "c.colour", 2) == ["colour", "value"]         # of a card
    assert labels_at(small, "c.colour", 3) == ["colour"]
    assert labels_at(small, "c.value", 2) == ["colour", "name", "value"]  # of any type
    text = hanamikoji[2].replace("    let had = g.favour", "    let had = g.")
    assert labels_at(hanamikoji, "g.\n", 2, text=text) == ["charm", "favour", "name"]


def test_completion_of_phases_actions_and_placeholders(small):
    assert labels_at(small, "go to finish", 6) == ["finish", "play"]
    assert labels_at(small, "from play_card", 5) == ["play_card"]
    assert set(labels_at(small, "{card}", 1)) >= {"me", "card", "deck", "players"}
    assert "if" not in labels_at(small, "{card}", 1)
    assert labels_at(small, '"Small"', 3) == []                 # inside a plain string
    assert labels_at(small, "phase play", 8) == []              # a new name


def test_a_line_being_typed_keeps_the_names(hanamikoji):
    text = hanamikoji[2].replace("    let had = g.favour\n",
                                 "    let had = g.favour\n    let y = g.\n")
    index = lsp_index.build(text, str(HANAMIKOJI))
    assert index is not None and not index.fresh
    source = Source(text)
    assert [c.label for c in answers.completions(index, source, *at(text, "y = g.", 6))] == \
        ["charm", "favour", "name"]
    names = [c.label for c in answers.completions(index, source, *at(text, "y = g.", 4))]
    assert {"had", "g", "a", "b", "geisha"} <= set(names) and "at_a" not in names


def test_a_bracket_left_open_keeps_the_names(hanamikoji):
    text = hanamikoji[2].replace("    let had = g.favour\n",
                                 "    let had = g.favour\n    let y = size(hand(\n")
    index = lsp_index.build(text, str(HANAMIKOJI))
    labels = [c.label for c in answers.completions(index, Source(text),
                                                   *at(text, "size(hand(", 10))]
    assert {"had", "g", "deck", "hand"} <= set(labels)


def test_an_unreadable_text_keeps_the_last_index(hanamikoji):
    index = hanamikoji[0]
    broken = "zone :\n" * 20
    kept = lsp_index.refresh(index, broken, str(HANAMIKOJI))
    assert kept is index and not kept.fresh
    assert "geisha" in kept.names
    assert lsp_index.refresh(index, "(((\n", str(HANAMIKOJI)) is index   # nothing left
    empty = lsp_index.refresh(None, broken, str(HANAMIKOJI))
    assert empty.names == {} and not empty.fresh


def test_every_shipped_rulebook_is_indexed():
    """Each game, and one variant of each game that has some."""
    variants = {}
    for path in sorted((ROOT / "rulebooks" / "variants").glob("*.rules")):
        variants.setdefault(path.name.split("-")[0], path)
    for path in sorted((ROOT / "rulebooks").glob("*.rules")) + list(variants.values()):
        index = lsp_index.build(path.read_text(encoding="utf-8"), str(path))
        assert index is not None and index.fresh, path
        assert index.phases and index.names, path


# -- diagnostics: validate's errors ----------------------------------------------

def _validate(path: Path) -> list:
    with pytest.raises(RulebookErrors) as caught:
        load_rulebook(str(path))
    return [(e.code, e.span.line, e.span.column) for e in caught.value.errors]


def test_diagnostics_are_validates_errors(tmp_path):
    text = (SMALL.replace("shuffle deck", "shuffle dek").replace("= points(p)", "= point(p)")
            .replace("add worth(card)", "add worth(card, 1)"))
    path = tmp_path / "small.rules"
    path.write_text(text, encoding="utf-8")
    found = lsp_diagnostics.diagnostics(text, path)
    assert list(found) == [str(path)]
    shown = [(d["code"], d["range"]["start"]["line"] + 1, d["range"]["start"]["character"] + 1)
             for d in found[str(path)]]
    assert shown == _validate(path)
    dek = found[str(path)][0]
    assert dek["severity"] == 1 and dek["source"] == "rulebook"
    assert dek["message"] == "unknown zone 'dek'\nhint: did you mean 'deck'?" or \
        dek["message"].startswith("unknown name 'dek'\nhint: did you mean 'deck'")
    assert dek["range"]["end"] == {"line": 20, "character": 13}


def test_a_type_error_of_the_compiler_is_reported(tmp_path):
    text = SMALL.replace("add worth(card) to points(me)", "add red to points(me)")
    path = tmp_path / "small.rules"
    found = lsp_diagnostics.diagnostics(text, path)[str(path)]
    assert [d["code"] for d in found] == ["rulebook/type"]


def test_a_syntax_error_is_a_diagnostic_with_its_column_in_utf16(tmp_path):
    text = SMALL.replace('game "Small"', 'game "Small 🎴"\nzone 🎴: card')
    found = lsp_diagnostics.diagnostics(text, tmp_path / "s.rules")[str(tmp_path / "s.rules")]
    (d,) = found
    assert d["code"] == "rulebook/syntax"
    assert d["range"]["start"] == {"line": 1, "character": 5}


def test_an_included_data_files_errors_are_on_it_and_on_the_include(tmp_path):
    (tmp_path / "tiles.yaml").write_text("- name: a\n  copies: -3\n", encoding="utf-8")
    text = SMALL.replace("component colour\n", 'component tile from "tiles.yaml"\n\ncomponent colour\n')
    path = tmp_path / "small.rules"
    found = lsp_diagnostics.diagnostics(text, path)
    data = str(tmp_path / "tiles.yaml")
    (in_file,) = found[data]
    assert in_file["code"] == "data/invalid"
    assert in_file["range"]["start"] == {"line": 1, "character": 10}
    (summary,) = found[str(path)]
    assert summary["code"] == "data/invalid" and "tiles.yaml" in summary["message"]
    assert summary["range"]["start"] == {"line": 4, "character": 20}   # the quoted file name
    assert summary["relatedInformation"][0]["location"]["uri"] == Path(data).as_uri()


def test_a_data_file_is_checked_once_while_unchanged_and_again_when_it_changes(tmp_path,
                                                                               monkeypatch):
    from interpreter.language import data
    checked = []
    real = data.jsonschema.Draft202012Validator

    def validator(schema):                  # the records' check against the schema
        checked.append(schema)
        return real(schema)
    monkeypatch.setattr(data.jsonschema, "Draft202012Validator", validator)
    tiles = tmp_path / "tiles.yaml"
    tiles.write_text("- name: a\n  copies: 3\n", encoding="utf-8")
    text = SMALL.replace("component colour\n", 'component tile from "tiles.yaml"\n\ncomponent colour\n')
    path = tmp_path / "small.rules"
    assert lsp_diagnostics.diagnostics(text, path) == {str(path): []}
    assert len(checked) == 1
    edited = text.replace('game "Small"', 'game "Smaller"')     # the rulebook edited
    assert lsp_diagnostics.diagnostics(edited, path) == {str(path): []}
    assert len(checked) == 1                                     # its data file not again
    tiles.write_text("- name: a\n  copies: -3\n", encoding="utf-8")
    found = lsp_diagnostics.diagnostics(edited, path)
    assert [d["code"] for d in found[str(tiles)]] == ["data/invalid"] and len(checked) == 2
    tiles.write_text("- name: b\n  copies: 3\n", encoding="utf-8")     # fixed again
    assert lsp_diagnostics.diagnostics(edited, path) == {str(path): []} and len(checked) == 3


def test_a_variants_base_errors_are_on_the_base_and_on_variant_of(tmp_path):
    (tmp_path / "base.rules").write_text(SMALL.replace("score = points(p)", "score = pts(p)"),
                                         encoding="utf-8")
    text = 'variant of "base.rules"\noption rounds = 3\n'
    path = tmp_path / "variant.rules"
    found = lsp_diagnostics.diagnostics(text, path)
    (in_base,) = found[str(tmp_path / "base.rules")]
    assert in_base["code"] == "rulebook/unknown-name" and in_base["range"]["start"]["line"] == 39
    (summary,) = found[str(path)]
    assert summary["range"]["start"] == {"line": 0, "character": 11}


# -- the command without pygls -----------------------------------------------------

def test_rulebook_lsp_without_pygls_is_a_coded_error(monkeypatch, capsys):
    real_import = builtins.__import__

    def no_pygls(name, *args, **kwargs):
        if name.split(".")[0] in ("pygls", "lsprotocol"):
            raise ImportError(f"No module named '{name}'")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_pygls)
    for name in [m for m in sys.modules if m.split(".")[0] in ("pygls", "lsprotocol")]:
        monkeypatch.delitem(sys.modules, name)
    assert cli.main(["lsp"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error[lsp/pygls-missing]")
    assert "pip install 'rulebook[lsp]'" in err
