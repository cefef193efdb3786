"""Placement prompts (issue 26, item 4): a step of a choice that asks for a
cell or a hex redraws the board with only the candidates still possible
after the picks so far marked, and a step that asks for the turns of a
piece drawn as edges shows the piece as it will lie for each value — the
very sides the lake shows once that action is played. Every such screen
fits 45 lines at 120 columns.

The sessions play Lanterns (a lake of tiles on a grid, `place TILE, AT,
TURNS`) and Samurai (a hex map, `place TILE, HEX` on land, `sail TILE,
HEX` at sea), driving the REPL a step at a time; each asks the engine for
the facts it checks (the legal actions, the lake after a placement).
"""

from __future__ import annotations

import io
import random
import re
import tempfile

import pytest
from rich.console import Console

from interpreter import load_rulebook
from interpreter.terminal import repl as repl_module
from interpreter.presentation.options import parameters, split_action
from interpreter.terminal.choosing import Choice
from interpreter.terminal.render import render_to_text
from interpreter.terminal.render_pieces import turned_edges
from interpreter.terminal.render_steps import step_drawings, turned_piece
from interpreter.terminal.repl import Repl

WIDTH, HEIGHT = 120, 45
SAVES = tempfile.TemporaryDirectory()
PROMPT = re.compile(r"^P\d[^>\n]*> ", re.M)
LAKE_CELL = re.compile(r"· \((-?\d+),(-?\d+)\)")
HEX_MARK = re.compile(r"\*(\d+)")


class Session:
    """A REPL at 120 columns fed from a list of lines, from a given state."""

    def __init__(self, game, state, lines, ai):
        self.out = io.StringIO()
        self.lines = list(lines)
        console = Console(file=self.out, width=WIDTH, height=HEIGHT, color_system=None,
                          force_terminal=False, legacy_windows=False)
        self.repl = Repl(game, players=2, seed=1, ai=ai, console=console,
                         input_fn=self.read, save_dir=SAVES.name)
        self.repl.states = [state]

    def read(self, prompt):
        line = self.lines.pop(0) if self.lines else "quit"
        if prompt.startswith("save to"):
            line = "no"
        self.out.write(f"{prompt}{line}\n")
        return line

    def run(self) -> list:
        """The screens printed after each prompt's line (the first: the table)."""
        self.repl.run()
        first, *rest = PROMPT.split(self.out.getvalue())
        return [first] + [part.partition("\n")[2] for part in rest]    # the line typed left out


def deciding(game, name: str, seed: int = 1):
    """A state of a random game where P0 decides among many legal actions,
    some of them `name`, with P1's and every earlier move random."""
    state, rng = game.new_game(players=2, seed=seed), random.Random(seed)
    while True:
        player = game.to_move(state)[0]
        actions = game.legal_actions(state, player)
        if player == 0 and len(actions) > 20 and any(split_action(str(a))[0] == name
                                                      for a in actions):
            return state
        state = game.apply(state, rng.choice(list(actions)))


@pytest.fixture(scope="module")
def lanterns():
    return load_rulebook("lanterns")


@pytest.fixture(scope="module")
def samurai():
    return load_rulebook("samurai")


def texts(game, state) -> list:
    return [str(a) for a in game.legal_actions(state, 0)]


def fits(screen: str) -> bool:
    lines = screen.splitlines()
    return len(lines) + 1 <= HEIGHT and all(len(line) <= WIDTH for line in lines)


# -- Lanterns: the lake's candidate cells, a tile's turns ------------------------------

def test_lanterns_asks_for_a_cell_on_the_lake_with_only_the_tiles_cells_marked(lanterns):
    state = deciding(lanterns, "place")
    legal = texts(lanterns, state)
    tile = split_action(legal[0])[1][0]
    screens = Session(lanterns, state, ["place", tile], ai={1: "random"}).run()
    step = screens[2]           # after the tile: the lake, then the cells
    assert step.startswith("lake · north at the top · '· (x,y)': this step offers that cell")
    cells = {(int(x), int(y)) for x, y in LAKE_CELL.findall(step.split("choose")[0])}
    want = {tuple(int(n) for n in split_action(t)[1][1].strip("()").split(","))
            for t in legal if split_action(t)[1][0] == tile}
    assert cells == want
    assert "choose a place in the lake" in step and fits(step)
    # the step that asks for the tile draws no board: it names no cell
    assert "this step offers" not in screens[1]


def test_each_turn_previewed_is_the_tile_as_the_lake_shows_it_once_played(lanterns):
    state = deciding(lanterns, "place")
    legal = texts(lanterns, state)
    view = lanterns.view(state, 0)
    # a tile whose turns one way and the other differ: the direction shows
    tile, at, _ = next(split_action(t)[1] for t in legal
                       if turned_edges(view, split_action(t)[1][0], 1)
                       != turned_edges(view, split_action(t)[1][0], 3))
    choice = Choice.start(legal, parameters(lanterns.ir)).narrow("place").narrow(tile).narrow(at)
    assert turned_piece(view, choice) == tile
    turns = choice.values()
    assert turns == ("0", "1", "2", "3")
    for k in turns:
        after = lanterns.apply(state, lanterns.parse_action(state, 0, f"place {tile}, {at}, {k}"))
        lake = next(z for z in lanterns.view(after, 0)["zones"] if z["name"] == "lake")
        lying = next(c for c in lake["grid"] if c["piece"] == tile)
        assert turned_edges(view, tile, int(k)) == lying["sides"], k
    # the drawing shows those sides: north on the box's top line, the value under it
    drawn = render_to_text(step_drawings(view, choice)[0], WIDTH).splitlines()
    assert drawn[0].startswith(f"{tile} as it will lie, by quarter turns")
    norths = re.findall(r"│\s*(\S+)\s*│", drawn[2])
    assert len(norths) == len(turns)
    assert all(turned_edges(view, tile, int(k))[0].startswith(north)
               for north, k in zip(norths, turns))
    assert drawn[-1].split() == list(turns)


def test_the_repl_previews_the_turns_and_plays_the_one_confirmed(lanterns):
    state = deciding(lanterns, "place")
    legal = texts(lanterns, state)
    tile, at, _ = split_action(legal[0])[1]
    session = Session(lanterns, state, ["place", tile, at, "1", "yes"], ai={1: "random"})
    screens = session.run()
    assert screens[3].startswith(f"{tile} as it will lie, by quarter turns · north at the top")
    assert "choose quarter turns" in screens[3] and fits(screens[3])
    assert "this step offers" not in screens[3]         # the turns name no cell
    assert screens[4].startswith(f"place {tile}, {at}, 1 — the action chosen.")
    played = session.repl.states[1]
    lake = next(z for z in lanterns.view(played, 0)["zones"] if z["name"] == "lake")
    lying = next(c for c in lake["grid"] if c["piece"] == tile)
    assert lying["sides"] == turned_edges(lanterns.view(state, 0), tile, 1)


def test_back_from_the_turns_redraws_the_cells(lanterns):
    state = deciding(lanterns, "place")
    tile, at, _ = split_action(texts(lanterns, state)[0])[1]
    screens = Session(lanterns, state, ["place", tile, at, "back"], ai={1: "random"}).run()
    assert "as it will lie" in screens[3]
    assert screens[4].startswith("lake · north at the top · '· (x,y)': this step offers that cell")


def test_a_step_too_tall_with_its_board_leaves_the_board_to_be_asked_for(lanterns, monkeypatch):
    state = deciding(lanterns, "place")
    tile = split_action(texts(lanterns, state)[0])[1][0]
    monkeypatch.setattr(repl_module, "SCREEN", 8)
    screens = Session(lanterns, state, ["place", tile], ai={1: "random"}).run()
    assert screens[2].startswith("Too tall to draw with this step: 'board' shows the boards.")
    assert "lake ·" not in screens[2] and "choose a place in the lake" in screens[2]


# -- Samurai: land hexes for a tile placed, sea hexes for a ship ------------------------

def hexes_of(legal: list, name: str, tile: str) -> set:
    return {split_action(t)[1][1] for t in legal if split_action(t)[:1] == (name,)
            and split_action(t)[1][0] == tile}


@pytest.mark.parametrize("name", ["place", "sail"])
def test_samurai_marks_only_the_hexes_the_picked_tile_may_go_to(samurai, name):
    state = deciding(samurai, "sail")
    legal = texts(samurai, state)
    tile = next(split_action(t)[1][0] for t in legal if split_action(t)[0] == name)
    screens = Session(samurai, state, [name, tile], ai={1: "random"}).run()
    step = screens[2]           # after the tile: the map, then the hexes
    board = step.split(f"{name} {tile}, …")[0]
    assert board.startswith("map · '*': this step offers that hex")
    want = hexes_of(legal, name, tile)
    assert set(HEX_MARK.findall(board)) == want
    assert fits(step)
    other = "sail" if name == "place" else "place"
    # the hexes of the other action (land or sea) are not offered here
    assert not want & {h for t in legal if split_action(t)[0] == other
                       for h in [split_action(t)[1][1]]}


def test_a_step_of_a_choice_draws_only_from_the_view_and_the_legal_texts(samurai):
    """What a step marks comes from the values it offers: a hex no legal
    action still possible names is never marked, whatever the state holds."""
    state = deciding(samurai, "sail")
    legal = texts(samurai, state)
    tile = next(split_action(t)[1][0] for t in legal if split_action(t)[0] == "place")
    keep = sorted(hexes_of(legal, "place", tile))[:2]
    few = [t for t in legal if split_action(t)[0] == "place" and split_action(t)[1][0] == tile
           and split_action(t)[1][1] in keep]
    choice = Choice.start(few, parameters(samurai.ir)).narrow(f"place {tile}")
    drawn = render_to_text(step_drawings(samurai.view(state, 0), choice)[0], WIDTH)
    assert set(HEX_MARK.findall(drawn)) == set(keep)


def test_paris_shows_each_orientation_of_the_building_as_it_will_lie():
    """The presentation model's turned drawing, which the browser previews
    too: a building drawn as a shape is shown in every orientation the step
    offers, each as the rules lay it (the cells it covers once built)."""
    from interpreter.presentation import options
    from tests.test_presentation import deciding
    paris = load_rulebook("paris")
    state, player = deciding(paris, 2, "build")
    legal = [str(a) for a in paris.legal_actions(state, player)]
    view = paris.view(state, player)
    piece = next(split_action(t)[1][0] for t in legal if t.startswith("build "))
    choice = Choice.start(legal, parameters(paris.ir)).narrow("build").narrow(piece)
    assert turned_piece(view, choice) == piece
    drawn = render_to_text(step_drawings(view, choice)[0], WIDTH).splitlines()
    assert drawn[0].startswith(f"{piece} as it will lie, by an orientation")
    assert drawn[-1].split() == list(choice.values())
    shown = options.previews(view, legal)
    shapes = {shown[t]["turns"]: shown[t]["drawing"]["shape"] for t in legal
              if t.startswith(f"build {piece},")}
    assert len({tuple(map(tuple, s)) for s in shapes.values()}) == len(shapes) > 1
