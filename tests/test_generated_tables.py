"""Component tables that generate their rows: `each` cells (one row per
combination of their values, docs/language.md §4.5) and name patterns
("{colour}{value}"). The pieces a generated table makes are counted, named
and read here, and compared with the same table written out row by row.
(Its mistakes are files of tests/language/: table-*.rules.)"""

from __future__ import annotations

from interpreter.game.engine import Game
from interpreter.language.loader import compile_ir

COLOURS = ["yellow", "blue", "white", "green", "red"]

EXPEDITIONS = """game "Expeditions"
players 2 to 3

component card                                   # 60 cards and a joker
  | name              | colour                                 | value        | kind       | copies |
  | "{colour}{value}" | each [yellow, blue, white, green, red] | each 2 to 10 | expedition | 1      |
  | -                 | each [yellow, blue, white, green, red] | 0            | wager      | 3      |
  | joker             | none                                   | 0            | joker      | 1      |

component marker of each player                  # one for each step of a track, -2 to 2
  | step         |
  | each -2 to 2 |

zone deck: card, hidden, ordered

setup
  move all card to deck

phase play
  end game

scoring
  score = 0
"""


def layout(text: str, players: int = 2):
    game = Game(compile_ir(text, "t.rules", "."))
    return game.program(players).lay


def pieces(lay, kind: str) -> list:
    first, count = lay.types[kind]
    return list(range(first, first + count))


def test_every_colour_with_every_value_and_three_wagers_a_colour():
    lay = layout(EXPEDITIONS)
    cards = pieces(lay, "card")
    assert len(cards) == 5 * 9 + 5 * 3 + 1
    colour, value, kind = (lay.static[a] for a in ("colour", "value", "kind"))
    expeditions = [c for c in cards if kind[c] == "expedition"]
    # the first column's values outermost, in the order written
    assert [(colour[c], value[c]) for c in expeditions] == \
        [(col, v) for col in COLOURS for v in range(2, 11)]
    wagers = [c for c in cards if kind[c] == "wager"]
    assert [colour[c] for c in wagers] == [col for col in COLOURS for _ in range(3)]
    assert {value[c] for c in wagers} == {0}


def test_a_name_pattern_names_each_generated_piece():
    lay = layout(EXPEDITIONS)
    named = {name for name, cid in lay.instances.items() if lay.type_of[cid] == "card"}
    assert named == {f"{col}{v}" for col in COLOURS for v in range(2, 11)} | {"joker"}
    assert lay.static["value"][lay.instances["red10"]] == 10
    assert lay.static["colour"][lay.instances["yellow2"]] == "yellow"
    # the wagers have no name: the three of a colour are identical pieces
    wagers = [c for c in pieces(lay, "card") if lay.static["kind"][c] == "wager"]
    assert [lay.static["name"][c] for c in wagers] == [None] * 15
    assert len({lay.ckey[c] for c in wagers}) == 5


def test_a_generated_piece_is_read_by_its_name_in_formulas():
    text = EXPEDITIONS.replace("  score = 0", "  score = red10.value + count(c in deck where "
                                              "c.colour == blue and c.kind == wager)")
    game = Game(compile_ir(text, "t.rules", "."))
    state = game.new_game(players=2, seed=1)
    assert game.outcome(state).scores == (13, 13)


def test_a_set_of_each_player_generates_its_rows_for_every_player():
    for players in (2, 3):
        lay = layout(EXPEDITIONS, players)
        markers = pieces(lay, "marker")
        assert len(markers) == 5 * players
        assert [lay.static["step"][m] for m in markers[:5]] == [-2, -1, 0, 1, 2]
        assert [lay.static["owner"][m] for m in markers] == \
            [p for p in range(players) for _ in range(5)]


WRITTEN_OUT = EXPEDITIONS.split("component card")[0] + "component card\n" + \
    "  | name | colour | value | kind | copies |\n" + \
    "".join(f"  | {col}{v} | {col} | {v} | expedition | 1 |\n"
            for col in COLOURS for v in range(2, 11)) + \
    "".join(f"  | - | {col} | 0 | wager | 3 |\n" for col in COLOURS) + \
    "  | joker | none | 0 | joker | 1 |\n\n" + \
    "component marker" + EXPEDITIONS.split("component marker")[1].replace(
        "  | each -2 to 2 |\n", "".join(f"  | {s} |\n" for s in range(-2, 3)))


def test_a_generated_table_makes_the_pieces_of_the_table_written_out():
    generated, written = layout(EXPEDITIONS, 3), layout(WRITTEN_OUT, 3)
    assert generated.type_of == written.type_of
    assert generated.display == written.display
    assert generated.instances == written.instances
    assert generated.ckey == written.ckey
    for attr in ("colour", "value", "kind", "step", "owner"):
        assert generated.static[attr] == written.static[attr], attr


def test_the_ir_of_a_generated_table_holds_plain_rows():
    """`rulebook show --ir` shows the rows a table stands for: no 'each' is
    left, each row at the line that made it."""
    ir = compile_ir(EXPEDITIONS, "t.rules", ".")
    card = next(c for c in ir["components"] if c["name"] == "card")
    assert len(card["rows"]) == 45 + 5 + 1
    assert {row["at"][0] for row in card["rows"][:45]} == {6}
    assert all(cell["node"] != "each" for row in card["rows"] for cell in row["cells"].values())
    assert card["rows"][0]["cells"]["name"] == {"node": "symbol", "value": "yellow2",
                                                "at": card["rows"][0]["cells"]["name"]["at"]}


def test_an_empty_each_makes_no_rows():
    text = EXPEDITIONS.replace("  | joker             | none", "  | -                 | each []")
    lay = layout(text)
    assert len(pieces(lay, "card")) == 60 and "joker" not in lay.instances
