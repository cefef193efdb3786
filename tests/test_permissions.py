"""`permission NAME [of each player]`, `grant NAME [to P]`, `spend NAME [of P]`:
a one-shot yes/no that one step gives and a later one uses up (PA-C3 and
PA-C6 are the first users). Read like a variable; changed only by grant and
spend; a grant of a held permission or a spend of a missing one is a rule
error; each is announced to everybody."""

from __future__ import annotations

from pathlib import Path

import pytest

from interpreter import Game
from interpreter.errors import RuleError, RulebookErrors
from interpreter.language.loader import compile_ir

GAME = """\
game "Permissions"
players 2
permission bonus of each player
permission storm
variable mover: player = 0
phase play
  repeat 4 times
    turn mover
      mover takes an action from earn, use, call_storm, calm
    set mover = opponent(mover)
action earn
  requires not bonus(me)
  grant bonus to me
action use
  requires bonus(me)
  spend bonus of me
action call_storm
  requires not storm
  grant storm
action calm
  requires storm
  spend storm
scoring
  score = (1 if bonus(p) else 0) + (1 if storm else 0)
"""


def load(text: str = GAME) -> Game:
    return Game(compile_ir(text, "t.rules", Path(".")))


def errors(text: str) -> list:
    with pytest.raises(RulebookErrors) as info:
        load(text)
    return [(e.code, e.span.line) for e in info.value.errors]


def play(game, state, text):
    return game.apply(state, game.parse_action(state, game.to_move(state)[0], text))


def test_a_permission_is_granted_read_and_spent():
    g = load()
    s = g.new_game(2, seed=1)
    assert sorted(map(str, g.legal_actions(s, 0))) == ["call_storm", "earn"]
    s = play(g, s, "earn")
    assert [e["text"] for e in g.view(s, 1)["events"]] == ["P0 gains permission bonus"]
    s = play(g, s, "call_storm")
    assert [e["text"] for e in g.view(s, 0)["events"]] == ["the game gains permission storm"]
    assert sorted(map(str, g.legal_actions(s, 0))) == ["calm", "use"]
    s = play(g, s, "use")
    assert g.view(s, 0)["events"][0] == {"event": "spend", "permission": "bonus", "player": 0,
                                         "text": "P0 uses permission bonus"}
    assert sorted(map(str, g.legal_actions(s, 1))) == ["calm", "earn"]


def test_granting_a_held_permission_is_a_rule_error():
    g = load(GAME.replace("  requires not bonus(me)\n", ""))
    s = play(g, g.new_game(2, seed=1), "earn")
    s = play(g, s, "earn")
    with pytest.raises(RuleError) as info:
        play(g, s, "earn")
    assert info.value.code == "rule/runtime" and "P0 already holds permission 'bonus'" in str(info.value)


def test_spending_a_missing_permission_is_a_rule_error():
    g = load(GAME.replace("  requires bonus(me)\n", ""))
    with pytest.raises(RuleError) as info:
        play(g, g.new_game(2, seed=1), "use")
    assert "P0 does not hold permission 'bonus'" in str(info.value)


@pytest.mark.parametrize("change,code,line", [
    (("  grant bonus to me\n", "  set bonus(me) = yes\n"), "rulebook/type", 13),
    (("  grant bonus to me\n", "  grant bonus\n"), "rulebook/arity", 13),
    (("  grant storm\n", "  grant storm to me\n"), "rulebook/arity", 19),
    (("  spend bonus of me\n", "  spend bonuss of me\n"), "rulebook/unknown-name", 16),
    (("  spend bonus of me\n", "  spend mover of me\n"), "rulebook/unknown-name", 16),
    (("permission storm\n", "permission storm of each player\n"), "rulebook/arity", 19),
])
def test_mistakes_are_refused_at_their_line(change, code, line):
    got = errors(GAME.replace(*change))
    assert (code, line) in got


def test_a_permission_never_granted_or_never_spent_is_refused():
    text = GAME.replace("  spend storm\n", "  requires storm\n")
    assert errors(text.replace("action calm\n  requires storm\n  requires storm\n",
                               "action calm\n  requires storm\n")) == [("rulebook/invalid", 4)]
    assert ("rulebook/invalid", 3) in errors(GAME.replace("  grant bonus to me\n", ""))


def test_a_permission_is_one_per_player_or_one_for_the_game():
    text = GAME.replace("permission storm\n", "permission storm\ncomponent coin\n  | name |\n"
                        "  | c1   |\npermission shine of each coin\n")
    assert ("rulebook/invalid", 8) in errors(text)


def test_drawings_are_given_only_where_the_viewer_may_see_the_pieces():
    """Hidden information stays hidden: a zone's `drawings` (docs/api.md)
    come with its cards, never for a hidden zone or another player's hand,
    and never to a spectator for a hand, all through a game of Lanterns."""
    import random

    from interpreter import load_rulebook
    g = load_rulebook("lanterns")
    s = g.new_game(players=3, seed=5)
    rng = random.Random(5)
    for _ in range(40):
        for viewer in (0, 1, 2, None):
            for z in g.view(s, viewer)["zones"]:
                if z["cards"] is None:
                    assert "drawings" not in z, (viewer, z["name"], z["owner"])
                elif z["holds"] == "lake_tile":
                    assert [d["piece"] for d in z["drawings"]] == z["cards"]
                    assert z["name"] != "tiles" or z["owner"] == viewer
        if g.outcome(s) is not None:
            break
        p = g.to_move(s)[0]
        actions = g.legal_actions(s, p)
        s = g.apply(s, actions[rng.randrange(len(actions))])
