"""The shipped data file of Paris: City of Light, `rulebooks/paris.yaml`,
its schema and what `rulebooks/paris.rules` makes of it.

The file names its own schema (``schema: paris``): a change that breaks
`schemas/paris.schema.json` is refused with ``data/invalid`` at the line and
column of the offending value; the tests break one thing at a time in a copy
and assert the place. What a schema cannot say is checked here or by the
rulebook: a building that is not one connected shape is refused by the
rulebook's ``shape cells``; the postcards in play are its option ``postcards``,
checked by name; the numbers of the game's specification (rule
IDs PA-*) are re-checked from the file itself.
"""

from __future__ import annotations

import collections
import json
import re
import shutil
from pathlib import Path

import jsonschema
import pytest
import yaml

from interpreter import Game, load_rulebook
from interpreter.stdlib import shapes
from interpreter.errors import OptionError, RulebookErrors
from interpreter.language.loader import compile_ir
from tests.scenario import names, var
from tests.spec_ids import added_to_shared

ROOT = Path(__file__).resolve().parent.parent
PARIS = ROOT / "rulebooks" / "paris.yaml"
RULES_FILE = ROOT / "rulebooks" / "paris.rules"
TEXT = PARIS.read_text(encoding="utf-8")
RULES_TEXT = RULES_FILE.read_text(encoding="utf-8")
DATA = yaml.safe_load(TEXT)
SCHEMA = json.loads((ROOT / "schemas" / "paris.schema.json").read_text(encoding="utf-8"))
POSTCARDS = [c["id"] for c in DATA["postcards"]]
BUILDINGS = {b["id"]: b for b in DATA["buildings"]}
OPTION_LINE = "option postcards: 8 of postcard = "
# PA-D10: the first-game set as the spec lists it
FIRST_GAME = {"LEVITATION", "METROPOLITAIN", "JARDIN_DES_PLANTES", "SACRE_COEUR",
              "BOUQUINISTES_SUR_LA_SEINE", "LAMPADAIRE", "FONTAINE_DES_MERS", "LE_PENSEUR"}

# A rulebook that only reads the file: the schema is checked at the first read.
PROBE = """\
game "Paris data"
players 2
component tile from "paris.yaml" at cobblestone_tiles with id, cells
phase play
  end game
scoring
  score = 0
"""


def broken(line_part: str, old: str, new: str, text: str = TEXT) -> tuple[str, int, str]:
    """The text with `old` replaced by `new` on the one line (no comment) that
    contains `line_part`; also that line's number and new text."""
    lines = text.splitlines(keepends=True)
    found = [k for k, line in enumerate(lines)
             if line_part in line and not line.lstrip().startswith("#")]
    assert len(found) == 1, line_part
    k = found[0]
    assert old in lines[k], old
    lines[k] = lines[k].replace(old, new, 1)
    return "".join(lines), k + 1, lines[k]


def at(line_no: int, line: str, value: str) -> tuple[int, int]:
    """(line, column) of the first `value` on that line."""
    return line_no, line.index(value) + 1


def probe_errors(folder: Path, text: str) -> list:
    (folder / "paris.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(RulebookErrors) as info:
        compile_ir(PROBE, "t.rules", folder)
    return [(e.code, e.span.file, e.span.line, e.span.column) for e in info.value.errors]


def paris_copy(folder: Path, yaml_text: str = TEXT, rules_text: str = RULES_TEXT) -> Path:
    """A copy of the rulebook and its data in `folder`; the path of the rules."""
    (folder / "paris.yaml").write_text(yaml_text, encoding="utf-8")
    (folder / "paris.rules").write_text(rules_text, encoding="utf-8")
    return folder / "paris.rules"


def rulebook_errors(folder: Path, yaml_text: str = TEXT, rules_text: str = RULES_TEXT) -> list:
    path = paris_copy(folder, yaml_text, rules_text)
    with pytest.raises(RulebookErrors) as info:
        compile_ir(rules_text, "paris.rules", path.parent)
    return info.value.errors


def where(errors) -> list:
    return [(e.code, e.span.file, e.span.line, e.span.column) for e in errors]


@pytest.fixture(scope="module")
def game() -> Game:
    return load_rulebook(RULES_FILE)


# -- the shipped file ------------------------------------------------------------------

def test_the_schema_is_valid_draft_2020_12():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_the_shipped_file_is_the_shared_file_with_its_schema_line():
    assert DATA["schema"] == "paris"
    assert [line for line in added_to_shared(TEXT, "paris") if line.strip()] == ["schema: paris"]


def test_the_schema_accepts_the_shipped_file(tmp_path):
    assert list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(DATA)) == []
    shutil.copy(PARIS, tmp_path / "paris.yaml")
    ir = compile_ir(PROBE, "t.rules", tmp_path)
    assert [(c["name"], len(c["rows"])) for c in ir["components"]] == [("tile", 8)]


def test_the_shipped_rulebook_reads_the_file(game):
    """`rulebook validate rulebooks/paris.rules` passes with the schema line."""
    sizes = {c["name"]: len(c["rows"]) for c in game.ir["components"]}
    assert {k: sizes[k] for k in ("tile", "piece", "postcard", "plus2_beam", "plus1_beam",
                                  "square3_beam")} == {
        "tile": 8, "piece": 21, "postcard": 12, "plus2_beam": 8, "plus1_beam": 4, "square3_beam": 8}


# -- broken copies are refused where they are broken ------------------------------------

@pytest.mark.parametrize("line_part, old, new, value", [
    # PA-D1: a tile is 2 rows of 2 cells
    ("{id: T1,", "[[opponent, own], [mixed, own]]", "[[opponent, own, own], [mixed, own]]",
     "[opponent, own, own]"),                                            # a row of 3 cells
    ("{id: T1,", "[[opponent, own], [mixed, own]]", "[[opponent, own]]", "[[opponent"),   # 1 row
    ("{id: T1,", "[mixed, own]", "[mixd, own]", "mixd"),                 # an unknown cell type
    ("{id: T2,", "id: T2", "id: T1", "T1"),                              # a tile twice
    ("{id: T2,", "blue_id: B2", "blue_id: B3", "B3"),                    # another tile's name
    # PA-S1, PA-D10: the first-game postcards are 8 different postcards
    ("first_game_postcards:", "LAMPADAIRE", "LAMPADAIR", "LAMPADAIR"),
    ("first_game_postcards:", "LE_PENSEUR", "LEVITATION", "[LEVITATION"),
    ("first_game_postcards:", ", FONTAINE_DES_MERS]", "]", "[LEVITATION"),
    # PA-D2, PA-G3: a building's shape, size and orientations
    ("{id: CORNER,", "[0, 1], [1, 1]]", "[1, 0], [1, 1]]", "[[1, 0]"),    # a cell twice
    ("{id: LINE,", "size: 3", "size: 7", "7"),                           # too big
    ("{id: LINE,", "size: 3", "size: 2", "2"),                           # too small
    ("{id: SQUARE,", "size: 4", "size: 5", "[[0, 0]"),                   # 4 cells, not 5
    ("{id: SQUARE,", "[1, 1]]", "[1, -1]]", "-1"),                       # a negative coordinate
    ("{id: ZIGZAG,", "orientations: 2", "orientations: 3", "3"),
    ("{id: LINE,", "orientations:", "orientation:", "{id: LINE"),        # a misspelt field
    # special pieces and postcards name each other by known ids
    ("{id: painter,", "card: LE_PEINTRE", "card: LE_PEINTR", "LE_PEINTR"),
    ("piece: painter", "painter", "paintre", "paintre"),
    ("{id: garden,", "allowed_under: [own, mixed]", "allowed_under: [own, mixd]", "mixd"),
    ("{id: fountain,", "building: false}", "building: false, size: 2}", "{id: fountain"),
    ("flip: when_permission_used", "when_permission_used", "when_used", "when_used"),
    # PA-D8: a lit cell is an [dx, dy] offset
    ("{offset: [2, 0], blocked", "[[1, 0]]", "[[1, 0, 0]]", "[1, 0, 0]"),
])
def test_one_broken_value_is_refused_at_its_line(tmp_path, line_part, old, new, value):
    text, line_no, line = broken(line_part, old, new)
    assert set(probe_errors(tmp_path, text)) == {
        ("data/invalid", "paris.yaml", *at(line_no, line, value))}


def test_a_missing_pattern_is_refused_at_the_patterns(tmp_path):
    """PA-D8: the option 'large_light' chooses one of the three patterns."""
    text, _, _ = broken("PLUS1:", "PLUS1:", "PLUS_1:")
    line_no, line = next((n, row) for n, row in enumerate(text.splitlines(), 1)
                         if row.startswith("  SUBSTITUTE_PLUS2:"))
    assert set(probe_errors(tmp_path, text)) == {("data/invalid", "paris.yaml",
                                                  *at(line_no, line, "SUBSTITUTE_PLUS2"))}


def test_a_disconnected_building_is_refused_by_the_rulebooks_shape_check(tmp_path):
    """PA-D2, PA-G3: the schema counts a building's cells, the rulebook's
    ``shape cells`` joins them: CORNER with a cell off the corner is two
    parts, refused at its cells in the data file."""
    text, line_no, line = broken("{id: CORNER,", "[[1, 0], [0, 1], [1, 1]]",
                                 "[[1, 0], [0, 2], [1, 1]]")
    assert list(jsonschema.Draft202012Validator(SCHEMA).iter_errors(yaml.safe_load(text))) == []
    assert where(rulebook_errors(tmp_path, text)) == [
        ("data/invalid", "paris.yaml", *at(line_no, line, "[[1, 0], [0, 2]"))]


def test_a_schema_error_is_reported_once_through_the_rulebook(tmp_path):
    """paris.rules reads the file seven times; a broken tile is one data error."""
    text, line_no, line = broken("{id: T4,", "[opponent, mixed]", "[opponent, mixed, own]")
    data_errors = [e for e in rulebook_errors(tmp_path, text) if e.span.file == "paris.yaml"]
    assert where(data_errors) == [
        ("data/invalid", "paris.yaml", *at(line_no, line, "[opponent, mixed, own]"))]


# -- the option that picks the postcards in play (PA-S1, PA-D10) ------------------------

def test_pa_s1_the_option_picks_eight_different_known_postcards(tmp_path):
    """One copy of the rules, three mistakes in the option's list, each refused
    where it is: an unknown name (with a hint), a name twice, seven names."""
    rules, line_no, _ = broken(OPTION_LINE, "LAMPADAIRE,", "LAMPADAIR,", RULES_TEXT)
    rules, _, _ = broken(OPTION_LINE, "FONTAINE_DES_MERS]", "LEVITATION]", rules)
    rules, _, line = broken(OPTION_LINE, "LE_PENSEUR, ", "", rules)
    errors = sorted(rulebook_errors(tmp_path, rules_text=rules), key=lambda e: e.span.column)
    count, unknown, repeated = errors
    assert where([unknown]) == [
        ("rulebook/unknown-name", "paris.rules", *at(line_no, line, "LAMPADAIR"))]
    assert unknown.hint == "did you mean 'LAMPADAIRE'?"
    assert where([repeated]) == [
        ("rulebook/invalid", "paris.rules", line_no, line.rindex("LEVITATION") + 1)]
    # the count is refused on the option's line (at the option, not at its list)
    assert where([count])[0][:3] == ("rulebook/invalid", "paris.rules", line_no)


def test_pa_s1_an_unknown_postcard_given_as_option_is_refused():
    picked = sorted(FIRST_GAME - {"LAMPADAIRE"}) + ["LAMPADAIR"]
    with pytest.raises(OptionError) as info:
        load_rulebook(RULES_FILE, options={"postcards": picked})
    assert info.value.code == "option/invalid"
    assert info.value.hint == "did you mean 'LAMPADAIRE'?"


@pytest.mark.parametrize("picked", [
    sorted(FIRST_GAME)[:7],                                              # seven
    sorted(FIRST_GAME)[:7] + ["LEVITATION"],                             # one twice
    sorted(FIRST_GAME)[:7] + ["LE_PEINTRE", "CHARTIER"],                 # nine
    "LEVITATION, METROPOLITAIN",                                         # as text, two
])
def test_pa_s1_the_option_needs_eight_different_postcards(game, picked):
    with pytest.raises(OptionError) as info:
        Game(game.ir, options={"postcards": picked})
    assert info.value.code == "option/invalid"


def test_pa_s1_the_first_game_sets_up_the_first_game_postcards(game):
    """PA-S1, PA-S2, PA-S3: the cards of the data's first game, their pieces on
    them, the 12 buildings in the pool; the rulebook's counts are the data's."""
    state = game.new_game(2, seed=1)
    pieces = {c["id"]: c["piece"] for c in DATA["postcards"]}
    assert game.options["postcards"] == DATA["first_game_postcards"]
    assert names(game, state, "in_play") == DATA["first_game_postcards"]
    assert sorted(names(game, state, "out_of_game")) == sorted(set(POSTCARDS) - FIRST_GAME)
    assert sorted(names(game, state, "on_cards")) == sorted(
        pieces[c] for c in DATA["first_game_postcards"] if pieces[c])
    assert names(game, state, "pool") == list(BUILDINGS)
    for p in (0, 1):
        assert var(game, state, "chimneys", p) == DATA["chimneys_per_player"]
        assert var(game, state, "tokens", p) == DATA["action_tokens_per_player"]
        assert len(names(game, state, f"pile({p})")) + len(names(game, state, f"hand({p})")) == \
            DATA["tiles_per_player"]
    assert len(names(game, state, "hand(0)")) == game.options["hand_size"] == DATA["hand_size"]
    assert game.options["unplaced_penalty"] == DATA["unplaced_building_penalty"]
    assert game.options["large_light"] in DATA["large_streetlight_patterns"]


def test_pa_s1_another_choice_of_postcards_is_in_play(game):
    picked = ["LE_PEINTRE", "CHARTIER", "MOULIN_ROUGE", "LA_GRANDE_LUMIERE",
              "LEVITATION", "SACRE_COEUR", "LAMPADAIRE", "LE_PENSEUR"]
    other = Game(game.ir, options={"postcards": ", ".join(picked)})
    state = other.new_game(2, seed=1)
    assert names(other, state, "in_play") == picked
    assert sorted(names(other, state, "on_cards")) == [
        "dancer", "large_streetlight", "mixed_space", "painter", "statue", "streetlight"]


# -- the spec's numbers -----------------------------------------------------------------

TALLY = re.compile(r"# own (\d) opp (\d) mixed (\d) light (\d)\s*$")
SHORT = {"own": "own", "opponent": "opp", "mixed": "mixed", "streetlight": "light"}


def test_pa_d1_eight_tiles_per_player_of_16_own_7_opponent_5_mixed_4_light_cells():
    tiles = DATA["cobblestone_tiles"]
    assert [t["id"] for t in tiles] == [f"T{n}" for n in range(1, 9)]
    assert [(t["blue_id"], t["orange_id"]) for t in tiles] == [
        (f"B{n}", f"O{n}") for n in range(1, 9)]
    assert len(tiles) == DATA["tiles_per_player"] == 8
    total = collections.Counter(c for t in tiles for row in t["cells"] for c in row)
    assert total == {"own": 16, "opponent": 7, "mixed": 5, "streetlight": 4}
    # both sets on the board: blue 23, orange 23, mixed 10, streetlight 8 of 64
    board = (total["own"] + total["opponent"], 2 * total["mixed"], 2 * total["streetlight"])
    assert board == (23, 10, 8)


def test_pa_d1_each_tiles_comment_counts_its_cells():
    tallies = [TALLY.search(line) for line in TEXT.splitlines() if line.startswith("  - {id: T")]
    assert len(tallies) == 8 and all(tallies)
    for tile, tally in zip(DATA["cobblestone_tiles"], tallies):
        counts = collections.Counter(SHORT[c] for row in tile["cells"] for c in row)
        assert [counts[k] for k in ("own", "opp", "mixed", "light")] == \
            [int(n) for n in tally.groups()], tile["id"]


def test_pa_d1_the_worked_examples_board_b_from_the_tiles():
    """§7 Board B (all tiles at r = 0) drawn from the data: the orange set is
    the blue set with the colours swapped."""
    slots = "B3 O1 B8 O4 / O7 B6 O2 B1 / B4 O8 B7 O3 / O5 B2 O6 B5"
    rows = ["bLbobbLo", "bomobobm", "LobLmoob", "omobobmb", "LbooLboL", "omobbmob", "momboLmb",
            "boboboob"]
    by_name = {t[k]: (t, k) for t in DATA["cobblestone_tiles"] for k in ("blue_id", "orange_id")}
    board = [[""] * 8 for _ in range(8)]
    for sy, row in enumerate(slots.split(" / ")):
        for sx, name in enumerate(row.split()):
            tile, key = by_name[name]
            own, opp = ("b", "o") if key == "blue_id" else ("o", "b")
            letter = {"own": own, "opponent": opp, "mixed": "m", "streetlight": "L"}
            for dy in (0, 1):
                for dx in (0, 1):
                    board[2 * sy + dy][2 * sx + dx] = letter[tile["cells"][dy][dx]]
    assert ["".join(r) for r in board] == rows


def test_pa_d2_twelve_buildings_of_sizes_3_x2_4_x4_5_x4_6_x2():
    assert len(BUILDINGS) == len(DATA["buildings"]) == 12
    assert collections.Counter(b["size"] for b in DATA["buildings"]) == {3: 2, 4: 4, 5: 4, 6: 2}


@pytest.mark.parametrize("name", list(BUILDINGS))
def test_pa_g3_a_buildings_size_orientations_and_drawing_agree_with_its_cells(name):
    b = BUILDINGS[name]
    cells = [tuple(c) for c in b["cells"]]
    assert b["size"] == len(cells) == len(set(cells))
    assert min(x for x, _ in cells) == 0 and min(y for _, y in cells) == 0   # base orientation
    assert b["orientations"] == len(shapes.orientations(b["cells"]))
    drawn = {(x, y) for y, row in enumerate(b["ascii"].split(" / ")) for x, ch in enumerate(row)
             if ch == "#"}
    assert drawn == set(cells)


def test_pa_d2_mirroring_would_add_orientations_to_four_buildings():
    chiral = {name for name, b in BUILDINGS.items()
              if len(shapes.orientations(b["cells"], True)) > len(shapes.orientations(b["cells"]))}
    assert chiral == {"SMALL_L", "ZIGZAG", "CHONK", "BIG_L"}


def test_pa_s1_twelve_postcards_nine_pieces_each_on_its_card():
    pieces = DATA["special_pieces"]
    assert len(POSTCARDS) == len(set(POSTCARDS)) == 12 and len(pieces) == 9
    on_card = {c["id"]: c["piece"] for c in DATA["postcards"]}
    assert {p["card"]: p["id"] for p in pieces} == {c: p for c, p in on_card.items() if p}
    assert {c for c, p in on_card.items() if p is None} == {
        "LEVITATION", "METROPOLITAIN", "SACRE_COEUR"}


def test_pa_d10_the_first_game_postcards_are_the_starred_ones():
    assert set(DATA["first_game_postcards"]) == FIRST_GAME
    assert len(DATA["first_game_postcards"]) == DATA["postcards_in_play"] == 8
    assert {c["id"] for c in DATA["postcards"] if c["starred"]} == FIRST_GAME
    default = re.search(re.escape(OPTION_LINE) + r"\[(.*)\]", RULES_TEXT).group(1)
    assert default.split(", ") == DATA["first_game_postcards"]


def test_pa_d9_stamp_values():
    stamps = {c["id"]: c["stamp_points"] for c in DATA["postcards"]}
    assert {c for c, s in stamps.items() if s} == {"LEVITATION", "METROPOLITAIN", "CHARTIER"}
    assert {stamps[c] for c in ("LEVITATION", "METROPOLITAIN", "CHARTIER")} == {2}


def test_pa_d8_every_dark_cell_lies_between_the_light_and_the_lit_cell():
    for pattern, beams in DATA["large_streetlight_patterns"].items():
        for beam in beams:
            dx, dy = beam["offset"]
            for mx, my in beam["blocked_by_building_at"]:
                assert dx * my == dy * mx and 0 < mx * mx + my * my < dx * dx + dy * dy, pattern
                assert mx * dx >= 0 and my * dy >= 0, pattern
    plus2 = DATA["large_streetlight_patterns"]["SUBSTITUTE_PLUS2"]
    assert sorted(abs(b["offset"][0]) + abs(b["offset"][1]) for b in plus2) == [1] * 4 + [2] * 4
