"""The compact screen (issue: "a screen that fits"): every shipped game fits
120 columns by 40 lines of table at every step and at the end, so with the
last moves, a few announcements and the prompt the whole screen stays
within 45; zones are grouped by name, empty zones gathered on one line,
variables side by side, tables and drawings on screen only where there is
room (else named as on request), and the full rendering still available.

The budget test plays seeded random games of every rulebook at every player
count and renders every few steps, as the deciding player sees it.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from rich.text import Text

from interpreter import load_rulebook
from interpreter.terminal import render
from interpreter.presentation.options import Parameter, parameters
from interpreter.terminal.render import BUDGET, TableView, render_to_text

ROOT = Path(__file__).resolve().parent.parent
WIDTH = 120
RULEBOOKS = sorted(p.stem for p in (ROOT / "rulebooks").glob("*.rules"))
EVERY = 6             # steps between two screens measured


def forms(game) -> dict:
    return parameters(game.ir)


def lines(text: str) -> int:
    return len(text.splitlines())


@pytest.mark.parametrize("name", RULEBOOKS)
def test_every_screen_of_every_shipped_game_fits_the_budget(name):
    game = load_rulebook(name)
    shapes = forms(game)
    tallest = []
    # every player count with seed 1, and another deal of the most players
    games = [(n, 1, EVERY) for n in range(game.min_players, game.max_players + 1)]
    for players, seed, every in games + [(game.max_players, 2, 2 * EVERY)]:
        state, rng, step = game.new_game(players=players, seed=seed), random.Random(seed), 0
        while game.outcome(state) is None:
            player = game.to_move(state)[0]
            legal = game.legal_actions(state, player)
            if step % every == 0:
                text = render_to_text(TableView(game.view(state, player),
                                                [str(a) for a in legal], shapes), WIDTH)
                tallest.append((lines(text), players, seed, step))
                assert all(len(line) <= WIDTH for line in text.splitlines())
            state = game.apply(state, rng.choice(list(legal)))
            step += 1
        end = render_to_text(TableView(game.view(state, None)), WIDTH)
        assert "Game over." in end
        tallest.append((lines(end), players, seed, -1))
    assert max(tallest)[0] <= BUDGET, f"{name}: {max(tallest)} (lines, players, seed, step)"


# -- the layout, on a view of its own -------------------------------------------------------

VIEW = {
    "game": "Cards", "players": 3, "viewer": 0, "round": 2, "turn": 5, "active": 0,
    "pending": {"players": [0], "kind": "action", "label": "take an action"},
    "zones": [
        {"name": "deck", "owner": None, "count": 30, "cards": None},
        {"name": "hand", "owner": 0, "count": 3, "cards": ["A", "A", "B"]},
        {"name": "hand", "owner": 1, "count": 4, "cards": None},
        {"name": "hand", "owner": 2, "count": 0, "cards": None},
        {"name": "won", "owner": 0, "count": 0, "cards": []},
        {"name": "won", "owner": 1, "count": 0, "cards": None},
        {"name": "won", "owner": 2, "count": 0, "cards": None},
        {"name": "supply", "of": "red", "count": 2, "cards": ["red", "red"]},
        {"name": "supply", "of": "blue", "count": 0, "cards": []},
        {"name": "table", "owner": 0, "count": 3, "cards": ["X", "red", "red"],
         "groups": [["red", ["X", "red"]], ["blue", ["blue"]]]},
        {"name": "discard", "owner": None, "count": 0, "cards": []},
    ],
    "variables": {"lead": "P1", "broken": False},
    "player_variables": {"score": {"P0": 3, "P1": 5, "P2": 0}},
    "components": {"gem": [{"name": "G1", "worth": 2}, {"name": "G2", "worth": 3}]},
    "used": {"P0": {}, "P1": {"swap": 1}, "P2": {}},
    "outcome": None,
}

SCREEN = """\
Cards · round 2 · turn 5 · view of P0 · P0 to decide: take an action
deck    30 cards
hand    P0: A ×2 B · P1: 4 cards · P2: empty
supply  red ×2 · blue: empty
table   P0: red: X red / blue
Empty: won · discard    gem                    P0  P1  P2    lead=P1 · broken=no
                        name   worth    score  3   5   0
                        ────────────
                        G1     2
                        G2     3
Used: P1: swap
Legal actions:
  1. take A
  2. pass"""


def test_zones_are_grouped_by_name_with_the_empty_ones_on_one_line():
    text = render_to_text(TableView(VIEW, ["take A", "pass"]), WIDTH)
    assert [line.rstrip() for line in text.splitlines()] == SCREEN.splitlines()


def test_the_full_rendering_is_still_there():
    text = render_to_text(TableView(VIEW, ["take A", "pass"], compact=False), WIDTH)
    assert "Zones" in text and "Player variables" in text and "Variables" in text
    assert len([line for line in text.splitlines() if line.startswith("won ")]) == 3
    assert "P0 to decide: take an action" in text.splitlines()      # a line of its own


def test_tables_with_no_room_are_named_as_on_request():
    many = {"gem": [{"name": f"G{k}", "worth": k} for k in range(60)]}
    text = render_to_text(TableView({**VIEW, "components": many}, ["take A", "pass"]), WIDTH)
    assert lines(text) <= BUDGET
    assert "On request: show gem" in text and "G59" not in text
    # the same table fits a taller budget
    tall = render_to_text(TableView({**VIEW, "components": many}, ["take A", "pass"],
                                    budget=100), WIDTH)
    assert "G59" in tall and "On request" not in tall


def test_the_viewers_pieces_are_drawn_under_their_zone_where_there_is_room(monkeypatch):
    drawn = []

    def drawing(view, zone):
        drawn.append((zone["name"], zone.get("owner")))
        return Text("[picture]\n[picture]")
    monkeypatch.setattr(render, "piece_drawings", drawing)
    text = render_to_text(TableView(VIEW, ["take A", "pass"]), WIDTH)
    rows = text.splitlines()
    hand = next(i for i, line in enumerate(rows) if line.startswith("hand"))
    assert rows[hand + 1].split() == ["[picture]"]
    # every zone whose pieces the viewer sees, its own first; none it may not look into
    assert drawn[0] == ("hand", 0) and ("hand", 1) not in drawn
    squeezed = render_to_text(TableView(VIEW, ["take A", "pass"], budget=12), WIDTH)
    assert "[picture]" not in squeezed


def test_a_long_list_is_offered_step_by_step_on_the_screen():
    actions = [f"put {t}, ({x},0), {r}" for t in "ABCD" for x in range(4) for r in range(2)]
    view = TableView(VIEW, actions + ["pass"], {"put": (Parameter("tile"), Parameter("at"), Parameter("turns"))})
    text = render_to_text(view, WIDTH)
    assert view.stepwise is True
    assert "Legal actions (33), step by step" in text
    assert "1. put" in text and "tile (4 values) · at (4 cells) · turns (2 values)" in text
    assert "2. pass" in text


def test_a_list_that_leaves_no_room_is_offered_step_by_step():
    actions = [f"put {t}, ({x},0)" for t in "AB" for x in range(6)]
    roomy = TableView(VIEW, actions, {"put": (Parameter("tile"), Parameter("at"))})
    render_to_text(roomy, WIDTH)
    assert roomy.stepwise is False
    tight = TableView(VIEW, actions, {"put": (Parameter("tile"), Parameter("at"))}, budget=10)
    text = render_to_text(tight, WIDTH)
    assert tight.stepwise is True and "step by step" in text


def test_the_end_with_a_board_too_big_puts_the_outcome_first():
    game = load_rulebook("samurai")
    state, rng = game.new_game(players=4, seed=1), random.Random(1)
    while game.outcome(state) is None:
        player = game.to_move(state)[0]
        state = game.apply(state, rng.choice(list(game.legal_actions(state, player))))
    text = render_to_text(TableView(game.view(state, None)), WIDTH)
    assert "Game over." in text and "On request: board" in text
    assert lines(text) <= BUDGET


def test_a_long_row_breaks_between_two_players_parts_never_inside_one():
    hands = [{"name": "cards", "owner": p, "count": 6,
              "cards": [f"{c}{p}" for c in ("red", "blue", "white", "black", "orange", "green")]}
             for p in range(4)]
    view = {**VIEW, "zones": hands, "components": {}}
    text = render_to_text(TableView(view, ["pass"]), 100)
    lines_ = text.splitlines()
    start = next(i for i, line in enumerate(lines_) if line.startswith("cards"))
    row = [lines_[start].removeprefix("cards")]
    for line in lines_[start + 1:]:
        if not re.match(r"\s+P\d: ", line):
            break
        row.append(line)
    assert len(row) > 1                       # the row is wider than the screen
    for line in row:
        parts = line.strip().split(" · ")
        assert all(re.fullmatch(r"P\d: \w+( \w+)*", p) for p in parts), line
