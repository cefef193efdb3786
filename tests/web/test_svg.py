"""The table as the browser draws it (interpreter/web/svg.py): every shipped
game's recorded boards (tests/web/boards/, made by `python tools/boards.py`)
are drawn again the same; a piece the viewer may not see leaves nothing of
itself in the SVG; every piece, cell and hex carries the token the page's
script points at; what the view says is escaped, however hostile; what the
last move changed is marked."""

from __future__ import annotations

import importlib.util
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from interpreter.presentation import board, changes
from interpreter.web.svg import draw_piece, draw_table
from tests.scenario import loaded

ROOT = Path(__file__).resolve().parent.parent.parent
_spec = importlib.util.spec_from_file_location("boards_tool", ROOT / "tools" / "boards.py")
boards = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(boards)

NS = "{http://www.w3.org/2000/svg}"


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def groups(root: ET.Element, kind: str) -> list:
    return [g for g in root.iter(NS + "g") if kind in (g.get("class") or "").split()]


def played(name: str, players: int, decisions: int, seed: int = 1):
    """(game, state, the view of seat 0 before the last move, after it)."""
    game = loaded(name)
    state = game.new_game(players, seed=seed)
    rng = random.Random(seed)
    before = None
    for _ in range(decisions):
        if state.over:
            break
        before = game.view(state, 0)
        mover = game.to_move(state)[0]
        actions = game.legal_actions(state, mover)
        state = game.apply(state, actions[rng.randrange(len(actions))])
    return game, state, before, game.view(state, 0)


# -- the recorded boards ---------------------------------------------------------
@pytest.mark.parametrize("table", boards.tables(loaded), ids=lambda t: f"{t[0].stem}-{t[1]}p")
def test_the_boards_are_the_recorded_ones(table):
    path, players = table
    for name, text in boards.pages(path, players, loaded).items():
        target = boards.BOARDS / name
        assert target.exists(), f"no board {name}: run python tools/boards.py {path.stem}"
        assert target.read_text(encoding="utf-8") == text, \
            f"{name} differs: python tools/boards.py --check {path.stem}"


@pytest.mark.parametrize("table", boards.tables(loaded), ids=lambda t: f"{t[0].stem}-{t[1]}p")
def test_every_section_is_well_formed_svg(table):
    path, players = table
    for _, view, before in boards.stages(loaded(str(path)), players):
        for section in draw_table(view, changed=changes.changed(before, view)):
            root = parsed(section["svg"])
            assert root.tag == NS + "svg" and section["kind"] in root.get("class").split()
            assert not list(root.iter(NS + "script")) and "href" not in section["svg"]
            assert not [a for e in root.iter() for a in e.attrib if a.lower().startswith("on")]


# -- what the viewer may not see --------------------------------------------------
def test_hidden_cards_leave_no_name():
    game, state, _, view = played("hanamikoji", 2, 1)
    theirs = next(z for z in view["zones"] if z["name"] == "hand" and z["owner"] == 1)
    assert theirs["cards"] is None and theirs["count"] > 0
    secret = set(next(z for z in game.view(state, 1)["zones"]
                      if z["name"] == "hand" and z["owner"] == 1)["cards"])
    seen = {c for z in view["zones"] for c in z.get("cards") or () if c is not None}
    unseen = secret - seen
    assert unseen, "P1 holds no card P0 does not also see"
    svg = "".join(s["svg"] for s in draw_table(view))
    for name in unseen:
        assert f'"{name}"' not in svg and f">{name}<" not in svg and name not in svg
    assert 'data-zone="hand(P1)"' not in svg
    for section in draw_table(view):
        for back in groups(parsed(section["svg"]), "back"):
            assert back.attrib == {"class": "piece back"}
            assert not list(back.iter(NS + "title"))
            assert all(t.text.startswith("×") for t in back.iter(NS + "text"))


def test_partly_revealed_cards_draw_backs_for_the_others():
    view = {"viewer": 0, "zones": [{"name": "hand", "owner": 1, "count": 3, "visibility": "owner",
                                    "cards": ["rice", None, None], "revealed": ["rice"]}]}
    root = parsed(draw_table(view)[0]["svg"])
    assert [g.get("data-token") for g in groups(root, "piece") if "back" not in g.get("class")] \
        == ["rice"]
    backs = groups(root, "back")
    assert len(backs) == 1 and "×2" in "".join(t.text for t in backs[0].iter(NS + "text"))


# -- the DOM contract -------------------------------------------------------------
def lanterns_placing():
    """A Lanterns view of seat 0 at 4 players where its legal actions put a
    piece on the lake's cells."""
    game = loaded("lanterns")
    state = game.new_game(4, seed=1)
    rng = random.Random(1)
    for decision in range(400):
        view = game.view(state, 0)
        if decision > 12 and any("(" in a for a in view.get("actions") or ()):
            return view
        mover = game.to_move(state)[0]
        actions = game.legal_actions(state, mover)
        state = game.apply(state, actions[rng.randrange(len(actions))])
    raise AssertionError("seat 0 never places")


def test_every_token_is_a_piece_or_cell_of_the_view():
    view = lanterns_placing()
    targets = boards.targets(view)
    assert targets
    drawn = draw_table(view)          # the cells the view's own legal actions name
    assert [s["key"] for s in drawn] == [s.key for s in board.sections(view)]
    cards = {board.zone_key(z): z["cards"] for z in view["zones"]}
    lake = next(z for z in view["zones"] if z.get("grid") is not None)
    lying = {e["cell"]: e["piece"] for e in lake["grid"]}
    pieces_seen, cells_seen = {}, {}
    for section in drawn:
        root = parsed(section["svg"])
        for g in groups(root, "piece"):
            if "back" in g.get("class"):
                continue
            zone, token = g.get("data-zone"), g.get("data-token")
            assert token in cards[zone], (zone, token)
            pieces_seen[zone] = pieces_seen.get(zone, 0) + int(g.get("data-count") or 1)
            assert g.find(NS + "title") is not None
        for g in groups(root, "cell"):
            cells_seen[g.get("data-token")] = g.get("data-piece")
    for key, names in cards.items():
        if names is not None and key != lake["name"]:
            assert pieces_seen.get(key, 0) == len(names), key
    assert {c: p for c, p in cells_seen.items() if p is not None} == lying
    assert set(targets) - set(lying) <= {c for c, p in cells_seen.items() if p is None}
    assert set(targets) - set(lying), "no free cell is a target"


def test_declared_grids_draw_every_cell_and_hexes_every_hex():
    _, _, _, view = played("othello", 2, 3)
    root = parsed(draw_table(view)[0]["svg"])
    assert sorted(g.get("data-token") for g in groups(root, "cell")) == \
        sorted(f"({x},{y})" for x in range(8) for y in range(8))
    _, _, _, view = played("samurai", 4, 2)
    hexes = next(z for z in view["zones"] if z.get("hexes"))["hexes"]
    section = next(s for s in draw_table(view) if s["kind"] == "hexes")
    assert sorted(g.get("data-token") for g in groups(parsed(section["svg"]), "hex")) == \
        sorted(h["piece"] for h in hexes)


def test_the_layout_draws_its_pieces_with_their_tokens():
    _, _, _, view = played("kalah", 2, 0)
    laid = {c["piece"] for row in view["layout"] for c in row if c and "piece" in c}
    root = parsed(draw_table(view)[0]["svg"])
    assert {g.get("data-token") for g in groups(root, "piece")} == laid


# -- hostile names ----------------------------------------------------------------
HOSTILE = ['<script>alert(1)</script>', 'a"b\'c', "x&y", "bell\x07\x1b[31m", "\u202eevil", "]]>"]


def hostile_view() -> dict:
    names = HOSTILE
    return {
        "viewer": 0, "players": 2,
        "zones": [
            {"name": "<hand>", "owner": 0, "count": len(names), "cards": list(names),
             "attributes": [{"cost\"": n} for n in names],
             "drawings": [{"piece": n, "shade": n} for n in names]},
            {"name": "lake&", "count": 1, "cards": [names[0]],
             "grid": [{"cell": "(0,0)", "x": 0, "y": 0, "piece": names[0], "sides": names[:4],
                       "label": names[1]}], "label_by": names[2]},
            {"name": "map'", "count": 1, "cards": [names[1]],
             "hexes": [{"piece": names[1], "x": 0, "y": 0, "shade": names[2], "label": names[3],
                        "holds": [{"zone": names[4], "count": 1, "pieces": [names[5]],
                                   "owners": [1]}]}]},
        ],
        "components": {"t": [{"name": n, names[0]: n} for n in names]},
        "grids": [{"name": names[0], "width": 2, "height": 1, "shade_by": "a", "mark_by": "b",
                   "cells": {"(0,0)": {"shade": names[1], "mark": names[0],
                                       "variables": {names[2]: names[3]}}}}],
        "layout": [[{"text": names[0]}, {"piece": names[1], "shows": {names[2]: names[3]}},
                    {"zone": "<hand>"}]],
        "actions": [f"put {names[1]}", "put (0,1)"],
    }


def test_hostile_names_are_escaped_and_the_svg_parses():
    view = hostile_view()
    drawn = draw_table(view, changed={("<hand>(P0)", HOSTILE[0])})
    assert {s["kind"] for s in drawn} == {"layout", "grid", "cells", "hexes"}
    for section in drawn:
        svg = section["svg"]
        assert "<script" not in svg and "\x07" not in svg and "\x1b" not in svg
        assert "]]>" not in svg and "<hand>" not in svg
        root = parsed(svg)
        for element in root.iter():       # what is shown reads as it is written
            assert (element.text or "").isprintable(), element.text
        assert {g.get("data-token") for g in root.iter(NS + "g") if g.get("data-token")}
    hand = next(s for s in drawn if s["kind"] == "layout")
    tokens = {g.get("data-token") for g in parsed(hand["svg"]).iter(NS + "g")}
    assert {HOSTILE[0], HOSTILE[1], HOSTILE[2], HOSTILE[4]} <= tokens   # the names come back whole
    assert "bell\\x07\\x1b[31m" in tokens      # what XML cannot hold, as its escape
    assert draw_piece({"piece": HOSTILE[0], "edges": HOSTILE[:4]}).count("<script") == 0


# -- what changed -----------------------------------------------------------------
def test_what_the_last_move_changed_is_marked():
    _, _, before, view = played("othello", 2, 5)
    marks = changes.changed(before, view)
    assert marks
    root = parsed(draw_table(view, changed=marks)[0]["svg"])
    marked = {g.get("data-token") for g in groups(root, "changed")}
    assert marked == {token for _, token in marks}
    assert all(g.find(f"{NS}rect[@class='highlight']") is not None for g in groups(root, "changed"))
    _, _, before, view = played("festival-of-lights", 3, 13)
    marks = {m for m in changes.changed(before, view) if not m[0].startswith(("grid:", "cells:"))}
    svg = "".join(s["svg"] for s in draw_table(view, changed=marks))
    found = {(g.get("data-zone"), g.get("data-token"))
             for g in groups(ET.fromstring(f"<r xmlns='http://www.w3.org/2000/svg'>{svg}</r>"),
                             "changed")}
    assert found == marks


def test_a_piece_drawn_alone():
    for drawing in ({"piece": "25", "edges": ["a", "b", "c", "d"]},
                    {"piece": "L", "shape": [[0, 0], [1, 0], [1, 1]]},
                    {"piece": "T", "rows": [["a", "b"], ["c", "d"]]},
                    {"piece": "c", "shade": "x", "shade_seat": 1}):
        root = parsed(draw_piece(drawing, 64))
        assert root.tag == NS + "svg" and root.get("height") == "64"
