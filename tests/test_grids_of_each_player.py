"""Grids of each player (docs/language.md §7.12): `grid NAME of each player:
W by H` is one bounded grid per player, named `NAME(p)`; a variable `of each
NAME` is one value per player and cell, read and set as `v(p, c)`.

Seeded random games are played to the end; after every move each define of
the rulebook below — one per grid builtin, each of one player's grid — is
checked against the same thing worked out in plain Python from the state's
values, for every player, and a move is checked to change its player's grid
only. Then the views (one board per player, with its `player`), the REPL's
boards (one titled per player), a cell off the grid (refused per grid, with
a hint that names the player's grid) and the IR (a plain grid's is as it
was).
"""

from __future__ import annotations

import io
import random
from pathlib import Path

import pytest
from rich.console import Console

from interpreter.errors import RuleError
from interpreter.game.engine import Game
from interpreter.language.loader import compile_ir
from interpreter.stdlib import grid
from interpreter.terminal.render import board_sections

W, H = 4, 3
BAR = [(0, 0), (1, 0)]

REALMS = f"""\
game "Realms"
players 2 to 4

grid realm of each player: {W} by {H}, shade by ground, mark by stone
variable stone of each realm: number = 0
variable latest of each player: cell = none

define ground(p, c) = "high" if (x_of(c) + p) % 2 == 0 else "low"
define owned(p) = [c in realm(p) where stone(p, c) > 0]
define free(p) = [c in realm(p) where stone(p, c) == 0]
define cells_of(p) = size(realm(p))
define total(p) = sum(stone(p, c) for c in realm(p))
define groups(p) = size(connected(owned(p)))
define largest(p) = max(size(g) for g in connected(owned(p))) otherwise 0
define reach(p) = size(flood(latest(p), owned(p))) if latest(p) != none else 0
define frontier(p) = size([c in next_to(owned(p)) where contains(realm(p), c)])
define around(p) = count(n in neighbours(latest(p)) where contains(realm(p), n)) if latest(p) != none else 0
define east(p) = size(ray(cell(0, 0), 1, 0, owned(p)))
define bar_fits(p) = fits([[0, 0], [1, 0]], free(p))
define bar_anchors(p) = size(anchors([[0, 0], [1, 0]], 0, free(p)))
define bar_cells(p) = size(footprint([[0, 0], [1, 0]], 0, first(anchors([[0, 0], [1, 0]], 0, free(p))))) if bar_anchors(p) > 0 else 0
define off(p) = stone(p, cell({W}, 0))

phase play
  repeat {W * H // 2} times
    for each p in players
      turn p
        p takes an action

action claim(c: one of free(me))
  set stone(me, c) = 1 + count(n in neighbours(c) where contains(realm(me), n) and stone(me, n) > 0)
  set latest(me) = c

scoring
  score = total(p) + largest(p)
"""

CHECKED = ["cells_of", "total", "groups", "largest", "reach", "frontier", "around", "east",
           "bar_fits", "bar_anchors", "bar_cells"]


@pytest.fixture(scope="module")
def game() -> Game:
    return Game(compile_ir(REALMS, "realms.rules", Path(".")))


# -- plain Python --------------------------------------------------------------------

def stones(game: Game, s) -> list:
    """Each player's grid as {(x, y): stone}, read from the state's values:
    one player's W×H values lie together, by x, then y."""
    v = game.program(s.n).lay.variables["stone"]
    return [{(x, y): s.vars[v.base + p * W * H + x * H + y] for x in range(W) for y in range(H)}
            for p in range(s.n)]


def last_of(game: Game, s, p):
    c = s.vars[game.program(s.n).lay.variables["latest"].base + p]
    return None if c is None else (grid.x_of(c), grid.y_of(c))


def steps(c):
    x, y = c
    return [(x, y + 1), (x + 1, y), (x, y - 1), (x - 1, y)]


def groups_of(cells: set) -> list:
    out, seen = [], set()
    for c in sorted(cells):
        if c in seen:
            continue
        group, todo = set(), [c]
        while todo:
            d = todo.pop()
            if d in group:
                continue
            group.add(d)
            todo += [n for n in steps(d) if n in cells]
        seen |= group
        out.append(group)
    return out


def expected(game: Game, s, p) -> dict:
    mine = stones(game, s)[p]
    owned = {c for c, v in mine.items() if v > 0}
    free = set(mine) - owned
    last = last_of(game, s, p)
    groups = groups_of(owned)
    anchors = sorted(c for c in free if (c[0] + 1, c[1]) in free)
    ray, x = 0, 1
    while (x, 0) in owned:
        ray, x = ray + 1, x + 1
    return {
        "cells_of": W * H,
        "total": sum(mine.values()),
        "groups": len(groups),
        "largest": max((len(g) for g in groups), default=0),
        "reach": next((len(g) for g in groups if last in g), 0) if last is not None else 0,
        "frontier": len({n for c in owned for n in steps(c) if n in mine} - owned),
        "around": sum(n in mine for n in steps(last)) if last is not None else 0,
        "east": ray,
        "bar_fits": bool(anchors) or any((c[0], c[1] + 1) in free for c in free),
        "bar_anchors": len(anchors),
        "bar_cells": 2 if anchors else 0,
    }


def computed(game: Game, s, p) -> dict:
    formulas = game.program(s.n).formulas
    return {name: formulas.define_callable(name)(s, p) for name in CHECKED}


# -- seeded random games ---------------------------------------------------------------

def played(game: Game, n: int, seed: int):
    """Every state of a random game of n players, with the player who moved into it."""
    rng = random.Random(seed)
    s = game.new_game(n, seed=seed)
    out = [(s, None)]
    while not s.over:
        (p,) = game.to_move(s)
        s = game.apply(s, rng.choice(list(game.legal_actions(s, p))))
        out.append((s, p))
    return out


@pytest.mark.parametrize("n,seed", [(2, 0), (2, 1), (3, 2), (4, 3)])
def test_every_grid_builtin_reads_one_players_grid(game, n, seed):
    for s, _ in played(game, n, seed):
        for p in range(n):
            assert computed(game, s, p) == expected(game, s, p), (p, seed)


@pytest.mark.parametrize("n,seed", [(2, 4), (3, 5)])
def test_a_move_changes_its_players_grid_only(game, n, seed):
    states = played(game, n, seed)
    for (before, _), (after, mover) in zip(states, states[1:]):
        old, new = stones(game, before), stones(game, after)
        changed = [p for p in range(n) if old[p] != new[p]]
        assert changed == [mover]
        c = last_of(game, after, mover)
        assert old[mover][c] == 0 and new[mover][c] == 1 + sum(
            old[mover].get(d, 0) > 0 for d in steps(c))


@pytest.mark.parametrize("n,seed", [(2, 6), (4, 7)])
def test_the_options_are_the_free_cells_of_the_players_own_grid(game, n, seed):
    for s, _ in played(game, n, seed)[:-1]:
        (p,) = game.to_move(s)
        free = sorted(c for c, v in stones(game, s)[p].items() if v == 0)
        offered = sorted(tuple(int(v) for v in str(a).split(" ", 1)[1].strip("()").split(","))
                         for a in game.legal_actions(s, p))
        assert offered == free


def test_the_scores_are_worked_out_per_player(game):
    s = played(game, 3, 8)[-1][0]
    want = tuple(expected(game, s, p)["total"] + expected(game, s, p)["largest"] for p in range(3))
    assert tuple(game.scores(s)) == want


# -- views and boards ----------------------------------------------------------------

def test_the_view_holds_one_board_per_player(game):
    s = played(game, 3, 9)[5][0]
    boards = game.view(s, 0)["grids"]
    assert [(b["name"], b["player"], b["width"], b["height"]) for b in boards] == \
        [("realm", p, W, H) for p in range(3)]
    every = stones(game, s)
    for b in boards:
        p = b["player"]
        for (x, y), v in every[p].items():
            entry = b["cells"][f"({x},{y})"]
            assert entry["shade"] == ("high" if (x + p) % 2 == 0 else "low")
            assert entry["mark"] == str(v)
            assert entry["variables"] == {"stone": v}
    # a variable of each cell is shown on the boards, not as a column by player
    assert not any(k.startswith("stone") for k in game.view(s, 0)["player_variables"])


def test_the_repl_draws_one_board_per_player_titled_with_the_player(game):
    s = played(game, 2, 10)[3][0]
    out = io.StringIO()
    console = Console(file=out, width=80, color_system=None)
    for section in board_sections(game.view(s, 1), []):
        console.print(section)
    text = out.getvalue()
    assert "realm of P0" in text and "realm of P1" in text
    assert text.index("realm of P0") < text.index("realm of P1")


def test_the_cells_legal_actions_name_are_marked_on_the_movers_board_only(game):
    s = played(game, 2, 12)[3][0]
    (mover,) = game.to_move(s)
    view = game.view(s, mover)
    titles = []
    for section in board_sections(view, view["actions"]):
        out = io.StringIO()
        Console(file=out, width=80, color_system=None).print(section)
        titles.append(out.getvalue().splitlines()[0])
    assert ["a legal action names" in t for t in titles] == [p == mover for p in range(2)]


# -- bounds and the IR -----------------------------------------------------------------

def test_a_cell_off_the_grid_is_refused_with_a_hint_naming_the_players_grid(game):
    s = game.new_game(2, seed=0)
    with pytest.raises(RuleError) as info:
        game.program(2).formulas.define_callable("off")(s, 1)
    assert info.value.code == "rule/runtime"
    assert f"({W},0) is not a cell of grid 'realm'" in info.value.message
    assert "contains(realm(p), c)" in info.value.hint


def test_a_cell_is_a_coordinate_the_same_on_every_players_grid(game):
    s = played(game, 2, 11)[-1][0]
    cells = game.program(2).formulas.define_callable("owned")
    everywhere = {grid.cell(x, y) for x in range(W) for y in range(H)}
    assert set(cells(s, 0)) | set(cells(s, 1)) <= everywhere


def test_the_ir_of_a_plain_grid_has_no_new_key_and_a_grid_of_each_player_says_so():
    plain = compile_ir('game "Plain"\nplayers 2\ngrid board: 3 by 3\n'
                       'variable stone of each board: number = 0\n'
                       'phase play\n  end game\nscoring\n  score = 0\n', "plain.rules", Path("."))
    assert "index" not in plain["grids"][0]
    assert [v.get("index2") for v in plain["variables"] if v["name"] == "stone"] == [None]
    ir = compile_ir(REALMS, "realms.rules", Path("."))
    assert ir["grids"][0]["index"] == "player"
    stone = next(v for v in ir["variables"] if v["name"] == "stone")
    assert (stone["index"], stone["index2"]) == ("player", "realm")


def test_a_game_saved_mid_way_loads_back_and_plays_on_alike(game):
    states = played(game, 2, 13)
    s = states[4][0]
    back = game.state_from_json(game.state_to_json(s))
    assert stones(game, back) == stones(game, s)
    (p,) = game.to_move(s)
    assert [str(a) for a in game.legal_actions(back, p)] == [str(a) for a in game.legal_actions(s, p)]
    typed = game.parse_action(back, p, str(game.legal_actions(s, p)[0]))
    assert stones(game, game.apply(back, typed)) == stones(game, game.apply(s, typed))
