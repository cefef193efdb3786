"""`announce "TEXT" [to P]`: the rules say what happened at the table. Each
{name} of TEXT is a value, printed as a player reads it; the announcement is
an event of the transition, in every view, or in P's alone; a placeholder
that names nothing, or a stray brace, is refused at its column."""

from __future__ import annotations

import pytest

from interpreter import load_rulebook
from interpreter.errors import RulebookErrors

GAME = """\
game "Tell"
players 2
component chip
  | name | value |
  | red  | 2     |
  | blue | 3     |
grid board: 3 by 3
zone pool: chip, public
zone stash of each player: chip, owner
variable total: number = 0
variable done: bool = no
define biggest = best(c in pool by c.value)
setup
  move all chip to pool
phase play
  turn 0
    0 takes an action
  announce "{done}: {total} points in all; {{braces}} stay"
  announce "for P1 alone" to 1
  end game
action take(c: one of pool)
  move c to stash(me)
  add c.value to total
  set done = yes
  let spot = cell(1, 2)
  let held = [x in stash(me) where x.value > 0]
  announce "{me} takes {c} worth {total} at {spot}; the biggest left is {biggest}; holds {held}"
scoring
  score = total
"""


def load(tmp_path, text):
    path = tmp_path / "tell.rules"
    path.write_text(text, encoding="utf-8")
    return load_rulebook(str(path))


def test_an_announcement_prints_its_values_as_a_player_reads_them(tmp_path):
    game = load(tmp_path, GAME)
    state = game.new_game(players=2, seed=1)
    after = game.apply(state, game.legal_actions(state, 0)[0])
    texts = [e["text"] for e in after.events if e["event"] == "announce"]
    assert texts == ["P0 takes red worth 2 at (1,2); the biggest left is blue; holds red",
                     "yes: 2 points in all; {braces} stay", "for P1 alone"]


def test_an_announcement_to_one_player_is_in_that_players_view_only(tmp_path):
    game = load(tmp_path, GAME)
    state = game.new_game(players=2, seed=1)
    after = game.apply(state, game.legal_actions(state, 0)[0])
    told = {viewer: [e["text"] for e in game.view(after, viewer)["events"]]
            for viewer in (0, 1, None)}
    assert "for P1 alone" in told[1]
    assert "for P1 alone" not in told[0] and "for P1 alone" not in told[None]
    assert told[0] == told[None] and len(told[1]) == len(told[0]) + 1


def test_announcements_belong_to_their_transition(tmp_path):
    game = load(tmp_path, GAME.replace("  end game\n", "  turn 0\n    0 takes an action\n"
                                       "  end game\n"))
    state = game.new_game(players=2, seed=1)
    first = game.apply(state, game.legal_actions(state, 0)[0])
    second = game.apply(first, game.legal_actions(first, 0)[0])
    told_first = {e["text"] for e in first.events}
    assert second.events and not told_first & {e["text"] for e in second.events}
    assert second.events[0]["text"].startswith("P0 takes blue")


@pytest.mark.parametrize("line,code,column", [
    ('  announce "{totl} and {total}"', "rulebook/unknown-name", 14),
    ('  announce "a { b"', "rulebook/invalid", 15),
    ('  announce "x } y"', "rulebook/invalid", 15),
    ('  announce "{total + 1}"', "rulebook/invalid", 13),
])
def test_a_placeholder_that_is_no_name_is_refused_at_its_column(tmp_path, line, code, column):
    text = GAME.replace('  announce "for P1 alone" to 1\n', line + "\n")
    with pytest.raises(RulebookErrors) as info:
        load(tmp_path, text)
    error = info.value.errors[0]
    assert (error.code, error.span.line, error.span.column) == (code, 19, column)


def test_told_to_something_that_is_no_player_is_a_type_error(tmp_path):
    with pytest.raises(RulebookErrors) as info:
        load(tmp_path, GAME.replace('"for P1 alone" to 1', '"for P1 alone" to done'))
    assert info.value.errors[0].code == "rulebook/type"
