"""The shipped data file of Samurai, `rulebooks/samurai.yaml`, and the
language's `links ATTR by COLUMN[, both ways]` that reads its map.

The file names its own schema (``schema: samurai``): a change that breaks
`schemas/samurai.schema.json` is refused with ``data/invalid`` at the line
of the offending value. That neighbours are listed from both ends is no
schema's business: a rulebook that reads the hexes with ``links neighbours
by id, both ways`` checks it. The invariants I1–I5 stated in the file's
header are re-checked here from the file itself.
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
SAMURAI = ROOT / "rulebooks" / "samurai.yaml"
TEXT = SAMURAI.read_text(encoding="utf-8")
DATA = yaml.safe_load(TEXT)
HEXES = {h["id"]: h for h in DATA["hexes"]}
EDO = 82

RULES = """\
game "Samurai data"
players 2 to 4
component hex from "samurai.yaml" at hexes
  links neighbours by id{both}
component tile from "samurai.yaml" at tiles
zone board: hex, public
variable result: any
setup
  set result = {probe}
phase play
  end game
scoring
  score = 0
"""


def rulebook(folder: Path, probe: str = "0", text: str = TEXT, both: str = ", both ways") -> str:
    (folder / "samurai.yaml").write_text(text, encoding="utf-8")
    source = RULES.format(probe=probe, both=both)
    (folder / "t.rules").write_text(source, encoding="utf-8")
    return source


def errors(folder: Path, text: str, both: str = ", both ways") -> list:
    with pytest.raises(RulebookErrors) as info:
        compile_ir(rulebook(folder, text=text, both=both), "t.rules", folder)
    return [(e.code, e.span.file, e.span.line, e.span.column) for e in info.value.errors]


def place(text: str, line_part: str, value: str) -> tuple[int, int]:
    """(line, column) of `value` on the one line that contains `line_part`."""
    found = [(n, line) for n, line in enumerate(text.splitlines(), 1)
             if line_part in line and not line.startswith("#")]
    assert len(found) == 1, line_part
    n, line = found[0]
    return n, line.index(value) + 1


def hex_line(i: int) -> str:
    return f"  - {{id: {i}, x:"


def broken(old: str, new: str, line_part: str) -> str:
    lines = TEXT.splitlines(keepends=True)
    n = next(k for k, line in enumerate(lines) if line_part in line)
    assert old in lines[n]
    lines[n] = lines[n].replace(old, new, 1)
    return "".join(lines)


# -- the shipped file ------------------------------------------------------------------

def test_the_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(
        json.loads((ROOT / "schemas" / "samurai.schema.json").read_text(encoding="utf-8")))


def test_the_shipped_file_is_the_shared_file_with_its_schema_line():
    assert DATA["schema"] == "samurai"
    assert [line for line in added_to_shared(TEXT, "samurai") if line.strip()] == ["schema: samurai"]


def test_the_shipped_file_loads_with_its_links_checked_both_ways(tmp_path):
    ir = compile_ir(rulebook(tmp_path), "t.rules", tmp_path)
    sizes = {c["name"]: len(c["rows"]) for c in ir["components"]}
    assert sizes == {"hex": 174, "tile": 20}
    hexes = next(c for c in ir["components"] if c["name"] == "hex")
    assert hexes["links"] == [{"node": "links", "at": [4, 3, 4, 36], "attr": "neighbours",
                               "by": "id", "both_ways": True}]


# -- formulas over the map ------------------------------------------------------------

def value_of(folder: Path, probe: str):
    rulebook(folder, probe)
    game = Game(compile_ir((folder / "t.rules").read_text(encoding="utf-8"), "t.rules", folder))
    state = game.new_game(2, seed=1)
    lay = game.program(2).lay
    return state.vars[lay.variables["result"].base], lay


@pytest.mark.parametrize("probe, expected", [
    ("Edo.id", EDO),                                                # a named hex; the others have none
    ("size(Edo.neighbours)", 6),
    ("all(n in Edo.neighbours where n.kind == \"land\")", True),    # I4: Edo is all land around
    ("contains(Edo.neighbours, Kyoto)", False),
    ("sorted(n in Edo.neighbours by n.id)[0].id", 78),
    ("all(n in Edo.neighbours where contains(n.neighbours, Edo))", True),
    ("count(h in hex where size(h.neighbours) == 6)",
     sum(len(h["neighbours"]) == 6 for h in DATA["hexes"])),
    ("sum(size(h.neighbours) for h in hex)", sum(len(h["neighbours"]) for h in DATA["hexes"])),
    ("count(h in hex where h.name != none)", 4),
])
def test_formulas_over_the_map(tmp_path, probe, expected):
    assert value_of(tmp_path, probe)[0] == expected


def test_neighbours_are_hexes(tmp_path):
    value, lay = value_of(tmp_path, "Edo.neighbours")
    assert lay.static_type["neighbours"] == "list:comp:hex"
    first, _ = lay.types["hex"]
    assert value == [first + i for i in HEXES[EDO]["neighbours"]]
    assert lay.display[first + EDO] == "Edo" and lay.display[first + 3] == "3"


# -- broken copies are refused where they are broken ------------------------------------

@pytest.mark.parametrize("line_part, old, new, at", [
    (hex_line(5), "kind: sea", "kind: lake", "lake"),                          # a wrong kind
    (hex_line(5), "size: 0", "size: 4", "4"),                                  # too many slots
    (hex_line(5), "min_players: 4", "min_players: 5", "5, islands"),
    (hex_line(5), "neighbours: [4, 6, 23, 24]", "neighbours: [4, 6, 23, 240]", "240"),
    (hex_line(5), "islands: [hokkaido]", "islands: [hokaido]", "hokaido"),
    ("{id: buddha2,", "castes: [buddha]", "castes: [monk]", "monk"),           # an unknown caste
    ("{id: buddha2,", "influence: 2", "influence: 5", "5, fast"),
    ("{id: buddha2,", "placement: land", "placement: air", "air"),
    # a misspelt field of a hex: at the hex
    (hex_line(5), "min_players:", "min_player:", "{id: 5"),
])
def test_one_broken_value_is_refused_at_its_line(tmp_path, line_part, old, new, at):
    text = broken(old, new, line_part)
    assert set(errors(tmp_path, text)) == {("data/invalid", "samurai.yaml", *place(text, line_part, at))}


def test_175_hexes_are_refused_at_the_list(tmp_path):
    last = next(line for line in TEXT.splitlines(keepends=True) if line.startswith(hex_line(173)))
    text = TEXT + last
    assert errors(tmp_path, text) == [("data/invalid", "samurai.yaml", *place(text, hex_line(0), "-"))]


def test_a_neighbour_listed_one_way_is_refused_at_the_list_that_lacks_it(tmp_path):
    # hex 1 lists hex 0; hex 0 no longer lists hex 1
    text = broken("neighbours: [1, 6, 20]", "neighbours: [6, 20]", hex_line(0))
    assert errors(tmp_path, text) == [("data/invalid", "samurai.yaml", *place(text, hex_line(0), "[6, 20]"))]
    compile_ir(rulebook(tmp_path, text=text, both=""), "t.rules", tmp_path)     # one way is fine


def test_a_missing_hex_leaves_links_to_nothing(tmp_path):
    # hex 0 listed by 1, 6 and 20; its own line gone: the schema counts 173 hexes first
    text = "".join(line for line in TEXT.splitlines(keepends=True) if not line.startswith(hex_line(0)))
    assert errors(tmp_path, text) == [("data/invalid", "samurai.yaml", *place(text, hex_line(1), "-"))]


# -- the invariants the file states (I1-I5 of its header) -------------------------------

def on_board(players: int) -> dict:
    return {i: h for i, h in HEXES.items() if h["min_players"] <= players}


def near(h: dict, board: dict) -> list:
    return [board[n] for n in h["neighbours"] if n in board]


def test_i1_174_hexes_ids_0_to_173_on_distinct_places():
    assert sorted(HEXES) == list(range(174)) and len(DATA["hexes"]) == 174
    assert len({(h["x"], h["y"]) for h in DATA["hexes"]}) == 174


def test_i2_neighbours_are_symmetric_and_the_geometric_adjacency():
    at = {(h["x"], h["y"]): i for i, h in HEXES.items()}
    for i, h in HEXES.items():
        x, y = h["x"], h["y"]
        steps = ([(1, -1), (1, 0), (-1, -1), (-1, 0), (0, -1), (0, 1)] if x % 2 == 0 else
                 [(1, 0), (1, 1), (-1, 0), (-1, 1), (0, -1), (0, 1)])
        geometric = {at[(x + dx, y + dy)] for dx, dy in steps if (x + dx, y + dy) in at}
        assert sorted(h["neighbours"]) == sorted(geometric), i
        assert all(i in HEXES[n]["neighbours"] for n in h["neighbours"]), i


@pytest.mark.parametrize("players, hexes, sea, land, villages, cities, edo, slots, supply", [
    (2, 91, 44, 30, 14, 2, 1, 21, 7),
    (3, 133, 64, 43, 23, 2, 1, 30, 10),
    (4, 174, 84, 56, 30, 3, 1, 39, 13),
])
def test_i3_the_board_and_the_supply_by_player_count(players, hexes, sea, land, villages, cities,
                                                      edo, slots, supply):
    board = on_board(players).values()
    kinds = collections.Counter(h["kind"] for h in board)
    settlements = collections.Counter(h["settlement"] for h in board if h["settlement"])
    assert (len(board), kinds["sea"], kinds["land"]) == (hexes, sea, land)
    assert (settlements["village"], settlements["city"], settlements["edo"]) == (villages, cities, edo)
    assert sum(h["size"] for h in board) == slots == 3 * supply
    assert DATA["supply_per_caste"][players] == supply
    assert {i for h in board for i in h["islands"]} >= set(DATA["islands_by_player_count"][players])


@pytest.mark.parametrize("players", [2, 3, 4])
def test_i4_settlements_have_six_neighbours_two_of_land_and_no_settlement(players):
    board = on_board(players)
    for h in board.values():
        if h["kind"] != "settlement":
            continue
        around = near(h, board)
        assert len(around) == 6, h["id"]
        assert sum(n["kind"] == "land" for n in around) >= 2, h["id"]
        assert not any(n["kind"] == "settlement" for n in around), h["id"]
    assert [n["kind"] for n in near(board[EDO], board)] == ["land"] * 6


@pytest.mark.parametrize("players", [2, 3, 4])
def test_i5_every_land_hex_touches_two_settlements(players):
    board = on_board(players)
    for h in board.values():
        if h["kind"] == "land":
            assert sum(n["kind"] == "settlement" for n in near(h, board)) == 2, h["id"]


def test_the_counts_of_the_box_match_the_lists():
    tiles = DATA["tiles"]
    kinds = collections.Counter(t["kind"] for t in tiles)
    counts = DATA["tile_counts"]
    assert {k: counts[k] for k in kinds} == kinds
    assert counts["total"] == len(tiles) == DATA["tiles_per_player_total"]
    assert counts["fast"] == sum(t["fast"] for t in tiles)
    assert len({t["id"] for t in tiles}) == 20
    named = {h["name"] for h in DATA["hexes"]} - {None}
    assert named == {"Edo"} | set(DATA["inferred_names"])


def test_a_settlement_without_slots_is_refused_at_its_line(tmp_path):
    """A village must hold 1 marker (SM §1): size 0 is refused at the hex's line."""
    text = broken("size: 1", "size: 0", hex_line(20))          # hex 20 is a village
    found = errors(tmp_path, text)
    line = next(k for k, row in enumerate(text.splitlines(), 1) if row.startswith(hex_line(20)))
    assert found and all(code == "data/invalid" and file == "samurai.yaml" and at[0] == line
                         for code, file, *at in found), found
