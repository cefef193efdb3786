"""The presentation model that the terminal and the browser both draw from:
which zones a board draws, the legal actions as steps to point at, how a
turned piece will lie, and what the last move changed — each checked
against what the engine does."""

from __future__ import annotations

import random

import pytest

from interpreter.presentation import board, changes, colours, options
from tests.scenario import loaded


def deciding(game, players, name, seed=3, limit=400):
    """A state of a seeded random game where the player to move may take
    action `name`, and that player."""
    state, rng = game.new_game(players=players, seed=seed), random.Random(seed)
    for _ in range(limit):
        player = game.to_move(state)[0]
        legal = game.legal_actions(state, player)
        if any(a.name == name for a in legal):
            return state, player
        state = game.apply(state, legal[rng.randrange(len(legal))])
    pytest.fail(f"no {name} in {limit} decisions")


def test_a_turned_shape_is_where_the_building_lies_once_built():
    paris = loaded("paris")
    state, player = deciding(paris, 2, "build")
    view = paris.view(state, player)
    texts = [str(a) for a in paris.legal_actions(state, player)]
    shown = options.previews(view, texts)
    builds = [t for t in texts if t.startswith("build ")]
    assert builds and set(builds) <= set(shown)
    for text in builds[:12]:
        preview = shown[text]
        _, (piece, turns, at) = options.split_action(text)
        assert (preview["piece"], preview["turns"], preview["step"]) == (piece, int(turns), 1)
        after = paris.apply(state, paris.parse_action(state, player, text))
        covered = {cell for key, cell in changes.changed(view, paris.view(after, player))
                   if key == "grid:city"}
        x, y = (int(n) for n in at.strip("()").split(","))
        assert {f"({x + dx},{y + dy})" for dx, dy in preview["drawing"]["shape"]} <= covered, text


def test_a_turned_tile_shows_the_sides_it_lies_with():
    lanterns = loaded("lanterns")
    state, player = deciding(lanterns, 2, "place")
    view = lanterns.view(state, player)
    texts = [str(a) for a in lanterns.legal_actions(state, player) if a.name == "place"]
    shown = options.previews(view, texts)
    for text in texts[:8]:
        after = lanterns.apply(state, lanterns.parse_action(state, player, text))
        tile = options.split_action(text)[1][0]
        lake = next(z for z in lanterns.view(after, player)["zones"] if z["name"] == "lake")
        lying = next(c for c in lake["grid"] if c["piece"] == tile)
        assert shown[text]["drawing"]["edges"] == lying["sides"], text


def test_pointing_reads_each_step_where_its_values_lie():
    hanamikoji = loaded("hanamikoji")
    forms = options.parameters(hanamikoji.ir)
    gift, groups, secret, bare = options.pointing(
        ["gift G1 G3 G7", "competition G2 G2 | G5 G7", "secret G4", "pass"], forms)
    assert gift["steps"] == [{"title": "cards to offer", "many": True, "tokens": ["G1", "G3", "G7"],
                              "zones": ["hand"], "buttons": False}]
    assert groups["steps"][0]["tokens"] == ["G2", "G2", "G5", "G7"] and groups["steps"][0]["many"]
    assert secret["steps"][0]["zones"] == ["hand"] and not secret["steps"][0]["many"]
    assert bare["steps"] == []
    lanterns = loaded("lanterns")
    [place] = options.pointing(["place 25, (-1,0), 3"], options.parameters(lanterns.ir))
    tile, cell, turns = place["steps"]
    assert tile["zones"] == ["tiles"] and tile["tokens"] == ["25"]
    assert cell["tokens"] == ["(-1,0)"] and not cell["zones"] and not cell["buttons"]
    assert turns["buttons"] and turns["tokens"] == ["3"]       # written in the rule: a button
    # a choice, no action's: asked as the pending decision asks it
    [pick] = options.pointing(["settlement Kyoto"], {}, "choose a settlement for a caste marker")
    assert pick["steps"][0]["title"] == "a settlement for a caste marker"
    # a `chooses` of the flow is pointed at where its values lie, told apart by its question
    choices = options.choice_parameters(hanamikoji.ir)
    [card] = options.pointing(["take G3"], forms, "choose a card of the gift", choices)
    assert card["steps"][0]["zones"] == ["offered"]
    [pair] = options.pointing(["take G3 G7"], forms, "choose a pair", choices)
    assert pair["steps"][0]["tokens"] == ["G3", "G7"] and pair["steps"][0]["many"]


def test_the_sections_of_a_table_are_its_boards_then_its_zones_the_viewers_last():
    samurai = loaded("samurai")
    view = samurai.view(samurai.new_game(players=2, seed=1), 0)
    sections = board.sections(view)
    kinds = [s.kind for s in sections]
    assert kinds[0] == "hexes" and set(kinds[1:]) == {"zones"}
    mapped = board.on_maps(view)[0]
    listed = {s.title for s in sections if s.kind == "zones"}
    assert not listed & mapped
    own = [s for s in sections if s.owner == 0]
    assert own and sections[-len(own):] == own
    othello = loaded("othello")
    [grid] = [s for s in board.sections(othello.view(othello.new_game(players=2, seed=1), 0))
              if s.kind == "grid"]
    assert grid.key == "grid:board" and grid.grid["width"] == 8


def test_what_changed_is_read_from_two_views_of_one_viewer():
    hanamikoji = loaded("hanamikoji")
    state = hanamikoji.new_game(players=2, seed=3)
    mover = hanamikoji.to_move(state)[0]
    secret = next(a for a in hanamikoji.legal_actions(state, mover) if a.name == "secret")
    after = hanamikoji.apply(state, secret)
    card = options.split_action(str(secret))[1][0]
    mine = changes.changed(hanamikoji.view(state, mover), hanamikoji.view(after, mover))
    theirs = changes.changed(hanamikoji.view(state, 1 - mover), hanamikoji.view(after, 1 - mover))
    assert (f"secret(P{mover})", card) in mine
    assert not any(key == f"secret(P{mover})" for key, _ in theirs)     # a card it cannot see
    assert changes.changed(None, hanamikoji.view(after, mover)) == set()


def test_colours_of_shades_and_seats():
    assert colours.word_colour("navy") and colours.word_colour("dark_navy") != colours.word_colour("navy")
    assert colours.word_colour("land") is None and colours.word_colour(3) is None
    shades = colours.Shades()
    assert shades.of("land") == shades.of("land") != shades.of("sea")
    assert colours.seat_colour(0) != colours.seat_colour(1) and colours.seat_colour(None) is None
    assert colours.ink(colours.WORDS["white"]) != colours.ink(colours.WORDS["black"])
