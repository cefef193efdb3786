"""A zone shown `by` a column of components groups its cards under those
components' names, even where some rows leave the column empty ('-'): a
column of colours with a '-' is still a column of colours, never of the
engine's numbers."""

from __future__ import annotations

from interpreter import load_rulebook
from interpreter.terminal.render import TableView, render_to_text

GAME = """\
game "By"
players 2
component colour
  | name |
  | grey |
  | blue |
component card
  | name | tint |
  | a    | grey |
  | b    | blue |
  | c    | -    |
  | d    | blue |
zone collection of each player: card, public, by tint
setup
  move all card to collection(0)
phase play
  end game
scoring
  score = size([x in collection(p) where x.tint == blue])
"""


def test_groups_by_a_column_with_empty_cells_name_the_components(tmp_path):
    path = tmp_path / "by.rules"
    path.write_text(GAME, encoding="utf-8")
    game = load_rulebook(str(path))
    state = game.new_game(players=2, seed=1)
    view = game.view(state, 0)
    zone = next(z for z in view["zones"] if z["name"] == "collection" and z["owner"] == 0)
    assert zone["groups"] == [["grey", ["a"]], ["blue", ["b", "d"]], [None, ["c"]]]
    text = render_to_text(TableView(view), width=120)
    assert "grey: a" in text and "blue: b d" in text and "4: " not in text
    assert game.outcome(state).scores == (2, 0)
