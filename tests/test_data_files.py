"""The shipped data file of Lanterns, `rulebooks/lanterns.yaml`, and what
the language reads from it.

The file names its own schema (``schema: lanterns``), so a change that
breaks `schemas/lanterns.schema.json` is refused with ``data/invalid`` at the
line of the offending value; the tests break one thing at a time in a copy
and assert the line. The invariants I1–I5 stated in the file's header are
re-checked here, since a schema cannot count edges or sum stacks. The last
tests read the file through a rulebook (``at KEY``) and check that words in
list cells name components.
"""

from __future__ import annotations

import collections
import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from interpreter.game.engine import Game
from interpreter.errors import RulebookErrors
from interpreter.language.loader import compile_ir
from tests.spec_ids import added_to_shared

ROOT = Path(__file__).resolve().parent.parent
LANTERNS = ROOT / "rulebooks" / "lanterns.yaml"
TEXT = LANTERNS.read_text(encoding="utf-8")
DATA = yaml.safe_load(TEXT)
COLOURS = ["red", "white", "black", "blue", "green", "purple", "orange"]

RULES = """\
game "Lanterns data"
players 2 to 4
component colour
{colours}
component lake_tile from "lanterns.yaml" at lake_tiles
component start_tile from "lanterns.yaml" at start_tile
zone lake: lake_tile, public
variable result: any
setup
  set result = {probe}
phase play
  end game
scoring
  score = 0
"""


def rulebook(folder: Path, probe: str = "0", text: str = TEXT) -> str:
    (folder / "lanterns.yaml").write_text(text, encoding="utf-8")
    names = "\n".join(f"  | {c} |" for c in ["name"] + COLOURS)
    source = RULES.format(colours=names, probe=probe)
    (folder / "t.rules").write_text(source, encoding="utf-8")
    return source


def errors(folder: Path, text: str) -> list:
    with pytest.raises(RulebookErrors) as info:
        compile_ir(rulebook(folder, text=text), "t.rules", folder)
    return [(e.code, e.span.file, e.span.line, e.span.column) for e in info.value.errors]


def place(text: str, line_part: str, value: str) -> tuple[int, int]:
    """(line, column) of `value` on the one line that contains `line_part`
    (and is no comment)."""
    found = [(n, line) for n, line in enumerate(text.splitlines(), 1)
             if line_part in line and not line.startswith("#")]
    assert len(found) == 1, line_part
    n, line = found[0]
    return n, line.index(value) + 1


# -- the shipped file ------------------------------------------------------------------

def test_the_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(
        json.loads((ROOT / "schemas" / "lanterns.schema.json").read_text(encoding="utf-8")))


def test_the_shipped_file_is_the_shared_file_with_its_schema_line():
    assert DATA["schema"] == "lanterns"
    assert [line for line in added_to_shared(TEXT, "lanterns") if line.strip()] == ["schema: lanterns"]


def test_the_shipped_file_validates(tmp_path):
    ir = compile_ir(rulebook(tmp_path), "t.rules", tmp_path)
    sizes = {c["name"]: len(c["rows"]) for c in ir["components"]}
    assert sizes == {"colour": 7, "lake_tile": 35, "start_tile": 1}


@pytest.mark.parametrize("line_part, old, new, at", [
    # a tile with 3 edges: at the list
    ("{id: 5, sides_cw: [blue, black, orange, green]", "[blue, black, orange, green]",
     "[blue, black, orange]", "[blue"),
    # an unknown colour: at the word
    ("{id: 7, sides_cw: [orange, white, green, red]", "[orange, white", "[pink, white", "pink"),
    # a token with 5 dots: at the 5
    ("- {value: 7, dots: 4}", "dots: 4", "dots: 5", "5"),
    # art that is not one of the four pictures
    ("{id: 26,", "art: koi", "art: carp", "carp"),
    # a misspelt field of a tile: at the tile
    ("{id: 9,", "platform:", "platfrom:", "{id: 9"),
])
def test_one_broken_value_is_refused_at_its_line(tmp_path, line_part, old, new, at):
    lines = TEXT.splitlines(keepends=True)
    n = next(k for k, line in enumerate(lines) if line_part in line)
    lines[n] = lines[n].replace(old, new, 1)
    broken = "".join(lines)
    # (a misspelt key is both unknown and a missing one: two errors, one place)
    assert set(errors(tmp_path, broken)) == {
        ("data/invalid", "lanterns.yaml", *place(broken, line_part.replace(old, new), at))}


def test_34_lake_tiles_are_refused_at_the_list(tmp_path):
    broken = "".join(line for line in TEXT.splitlines(keepends=True) if "{id: 36," not in line)
    first_tile = place(broken, "{id: 2, sides_cw", "-")
    assert errors(tmp_path, broken) == [("data/invalid", "lanterns.yaml", *first_tile)]


def test_a_missing_part_is_refused_at_the_top_of_the_document(tmp_path):
    broken = TEXT.replace("favour_tokens: 20\n", "")
    assert errors(tmp_path, broken) == [("data/invalid", "lanterns.yaml", *place(broken, "schema: lanterns", "s"))]


def test_the_own_schema_is_checked_before_the_records_are_read(tmp_path):
    # a record the components schema would refuse too: reported once, by the file's schema
    broken = TEXT.replace("{id: 2, sides_cw: [purple, blue, white, green]", "{id: 2, sides_cw: [[purple], blue, white, green]")
    assert errors(tmp_path, broken) == [
        ("data/invalid", "lanterns.yaml", *place(broken, "{id: 2, sides_cw", "[purple]"))]


# -- the invariants the file states (I1-I5 of its header) -------------------------------

def test_i1_35_regular_tiles_with_unique_ids_2_to_36():
    assert sorted(t["id"] for t in DATA["lake_tiles"]) == list(range(2, 37))
    assert DATA["start_tile"]["id"] == 1


def test_i2_every_colour_on_20_edges_of_the_regular_tiles():
    edges = collections.Counter(c for t in DATA["lake_tiles"] for c in t["sides_cw"])
    assert edges == {c: 20 for c in COLOURS} and sum(edges.values()) == 140
    edges.update(DATA["start_tile"]["sides_cw"])
    assert {c for c, k in edges.items() if k == 21} == {"red", "white", "black", "blue"}


def test_i3_eleven_platforms_by_picture():
    platforms = [t for t in DATA["lake_tiles"] if t["platform"]]
    assert len(platforms) == 11
    assert collections.Counter(t["art"] for t in platforms) == {"koi": 3, "flower": 2, "panda": 3, "dragon": 3}
    assert all(t["art"] is None for t in DATA["lake_tiles"] if not t["platform"])
    assert DATA["start_tile"]["platform"] is False


@pytest.mark.parametrize("kind, sums", [
    ("four_of_a_kind", (53, 46, 35)), ("three_pairs", (61, 53, 40)), ("seven_unique", (69, 60, 45))])
def test_i4_dotted_tokens_and_stack_sums(kind, sums):
    tokens = DATA["dedications"][kind]["tokens"]
    dots = collections.Counter(t["dots"] for t in tokens)
    assert (dots[3], dots[4]) == (2, 1)
    for players, want in zip((4, 3, 2), sums):
        kept = [t for t in tokens if t["dots"] <= {4: 4, 3: 3, 2: 0}[players]]
        assert sum(t["value"] for t in kept) == want
        assert len(kept) == DATA["by_players"][players]["dedication_stack_size"]
    values = [t["value"] for t in tokens]
    assert values == sorted(values, reverse=True), "listed top to bottom, highest on top"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_i5_tiles_used_dealt_and_removed(players):
    row = DATA["by_players"][players]
    assert row["lake_tiles_used"] == players * row["tiles_in_hand"] + row["draw_stack"]
    assert row["lake_tiles_used"] == players * row["placements_per_player"]
    assert row["tiles_removed"] == 35 - row["lake_tiles_used"]


# -- reading the file from a rulebook ----------------------------------------------------

def value_of(folder: Path, probe: str):
    rulebook(folder, probe)
    game = Game(compile_ir((folder / "t.rules").read_text(encoding="utf-8"), "t.rules", folder))
    state = game.new_game(2, seed=1)
    lay = game.program(2).lay
    return state.vars[lay.variables["result"].base], lay


@pytest.mark.parametrize("probe, expected", [
    ("first(start_tile).sides_cw[0] == red", True),                      # words in a list name components
    ("first(start_tile).sides_cw[1] == red", False),
    ("contains(first(start_tile).sides_cw, blue)", True),
    ("size(start_tile)", 1),                                             # one record, one component
    ("count(t in lake_tile where t.platform)", 11),
    ("count(t in lake_tile where t.art == \"koi\")", 3),
    ("count(t in lake_tile where contains(t.sides_cw, orange))",
     sum("orange" in t["sides_cw"] for t in DATA["lake_tiles"])),
    ("sum(count(s in t.sides_cw where s == red) for t in lake_tile)", 20),
])
def test_formulas_over_the_data(tmp_path, probe, expected):
    assert value_of(tmp_path, probe)[0] == expected


@pytest.mark.parametrize("probe", [
    "first(start_tile).sides_cw[0] == \"red\"",          # a component is no word
    "contains(first(start_tile).sides_cw, \"red\")",
    "first(start_tile).sides_cw[0] == 1",
    "first(start_tile).sides_cw.name",                   # a list has no attributes
])
def test_a_wrong_kind_with_list_items_is_a_type_error(tmp_path, probe):
    with pytest.raises(RulebookErrors) as info:
        value_of(tmp_path, probe)
    assert [(e.code, e.span.line) for e in info.value.errors] == [("rulebook/type", 17)]


def test_a_list_column_has_a_precise_type(tmp_path):
    _, lay = value_of(tmp_path, "0")
    assert lay.static_type["sides_cw"] == "list:comp:colour"
    assert lay.static_type["id"] == "number"
