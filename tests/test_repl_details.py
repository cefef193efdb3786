"""The details the compact screen leaves out, on request (issue: "a screen
that fits"): `board` draws every board in full, `hand` the viewer's own
zones, `show NAME` one zone with each owner's part, one table of
components or one board; a name that is none of these is refused with
command/unknown-name and a hint. None of them redraws the table, and
`table` brings it back (`table full`: everything at once). What a command
shows is what the player at the device may see."""

from __future__ import annotations

import re

import pytest

from interpreter import load_rulebook
from interpreter.terminal.render import zone_contents

from tests.test_repl import Session, start

HEADER = "Hanamikoji · round"


@pytest.fixture(scope="module")
def game():
    return load_rulebook("hanamikoji")


@pytest.fixture(scope="module")
def lanterns():
    return load_rulebook("lanterns")


def after(out: str, line: str) -> str:
    """What was printed after the prompt that read `line`, up to the next prompt."""
    printed = out.split(f"> {line}\n", 1)[1].split("> ", 1)[0]
    return printed.rsplit("\n", 1)[0] + "\n"            # (the next prompt's start left out)


def test_show_a_zone_lists_each_owners_part_as_the_viewer_may_see_it(game):
    state, player, legal = start(game)
    hands = {z["owner"]: z for z in game.view(state, player)["zones"] if z["name"] == "hand"}
    other = next(p for p in hands if p != player)
    shown = after(Session(game, ["", "show hand"]).run(), "show hand")
    assert shown.split()[:4] == ["hand", "zone", "owner", "cards"]
    assert re.search(rf"^hand\s+P{player}\s+{re.escape(zone_contents(hands[player]))}\s*$",
                     shown, re.M)
    assert re.search(rf"^hand\s+P{other}\s+{hands[other]['count']} cards\s*$", shown, re.M)
    assert HEADER not in shown


def test_show_a_table_of_components_and_names_are_read_in_any_case(game):
    out = Session(game, ["", "show GEISHA"]).run()
    shown = after(out, "show GEISHA")
    assert shown.split()[:4] == ["geisha", "name", "charm", "favour"]
    assert all(f"G{k}" in shown for k in range(1, 8))


def test_an_unknown_name_is_refused_with_a_code_and_a_hint(game):
    state, _, _ = start(game)
    out = Session(game, ["", "show geishas", "show nothing_like_it", "show"]).run()
    assert "error[command/unknown-name]: there is no zone, piece, table or board 'geishas'" in out
    assert "hint: did you mean 'geisha'?" in out
    hint = after(out, "show nothing_like_it")
    assert "one of: " in hint and "deck" in hint and "geisha" in hint and "hand" in hint
    assert "error[command/usage]: show needs the name of a zone, a table or a board" in out


def test_hand_lists_the_viewers_own_zones_in_full(game):
    state, player, legal = start(game)
    own = {z["name"] for z in game.view(state, player)["zones"] if z.get("owner") == player}
    shown = after(Session(game, ["", "hand"]).run(), "hand")
    assert shown.startswith(f"Zones of P{player}")
    listed = {line.split()[0] for line in shown.splitlines()[3:] if line.strip()}
    assert listed == own


def test_board_draws_every_board_in_full_and_a_game_without_one_says_so(game, lanterns):
    out = Session(game, ["", "board"]).run()
    assert "error[command/usage]: this game has no board" in out
    state = lanterns.new_game(players=2, seed=7)
    player = lanterns.to_move(state)[0]
    out = Session(lanterns, ["", "board", "show lake"], ai={1 - player: "random"}).run()
    drawn = after(out, "board")
    assert drawn.startswith("lake · north at the top")
    assert after(out, "show lake") == drawn
    # the screen's lake takes a line per row, the full one three
    screen = out.split("> board")[0].split("lake · north at the top", 1)[1]
    assert len(drawn.split("\nsides")[0].splitlines()) > 2 * len(
        screen.split("\nsides")[0].splitlines())


def test_details_leave_the_table_as_it_was_and_table_redraws_it(game):
    out = Session(game, ["", "show hand", "hand", "show geisha", "table"]).run()
    assert out.count(HEADER) == 2                    # the first screen, then 'table'
    assert "Legal actions" in out.split("> table\n", 1)[1]


def test_table_full_shows_every_zone_table_and_variable(game):
    out = Session(game, ["", "table full", "table wide"]).run()
    full = after(out, "table full")
    assert "Zones" in full and "Variables" in full and "geisha" in full
    assert "zone        owner   cards" in full
    assert "error[command/usage]: 'table wide' is not a command" in out


def test_after_the_end_the_details_are_still_there():
    kuhn = load_rulebook("kuhn-poker")
    lines = ["1"] * 6 + ["show hand", "board", "table", "quit"]
    out = Session(kuhn, lines, ai={1: "random"}).run()
    assert "Game over." in out
    assert "zone   owner   cards" in after(out, "show hand")
    assert "error[command/usage]: this game has no board" in out
    assert "Game over." in after(out, "table")
