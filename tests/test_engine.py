"""Engine behaviour on small purpose-built rulebooks (tests/engine/*.rules):
bounded evaluation, stuck flows, limits, optional actions, choices, options,
player-count tables, tie-breaks, saves and action values."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.errors import (ActionError, GameOver, IllegalAction, NotYourTurn,
                                OptionError, RuleError, SaveError,
                                SaveMismatch, UnknownAction)

HERE = Path(__file__).parent / "engine"


def game(name, **options):
    return load_rulebook(HERE / f"{name}.rules", options=options or None)


def names(actions):
    return [str(a) for a in actions]


def test_a_flow_that_never_asks_stops_with_rule_loop():
    g = game("loop")
    with pytest.raises(RuleError) as err:
        g.new_game(players=2, seed=0)
    assert err.value.code == "rule/loop"
    assert err.value.span.line in (6, 7)      # a statement of the loop


def test_a_player_with_no_legal_action_is_rule_stuck():
    g = game("stuck")
    s = g.new_game(players=2, seed=0)
    with pytest.raises(RuleError) as err:
        g.legal_actions(s, 0)
    assert err.value.code == "rule/stuck"
    assert (err.value.span.line, err.value.span.column) == (6, 5)


def test_limits_optional_actions_and_where_filters():
    g = game("counter")
    s = g.new_game(players=2, seed=3)
    assert g.to_move(s) == (0,)
    assert names(g.legal_actions(s, 0)) == ["add_one", "add_bonus", "draw_chip 1", "draw_chip 2",
                                            "pass"]
    s = g.apply(s, g.parse_action(s, 0, "add_bonus"))
    # 'may take an action' is one action per turn: the turn passed to P1
    assert g.to_move(s) == (1,)
    s = g.apply(s, g.parse_action(s, 1, "pass"))
    assert "add_bonus" not in names(g.legal_actions(s, 0))   # once per game
    assert "add_one" in names(g.legal_actions(s, 0))         # once per turn: a new turn


def test_table_values_follow_the_player_count():
    for players, bonus in ((2, 1), (3, 2), (4, 3)):
        g = game("counter")
        s = g.new_game(players=players, seed=0)
        s = g.apply(s, g.parse_action(s, 0, "add_bonus"))
        assert g.view(s, None)["variables"]["total"] == bonus


def test_options_are_checked_and_used():
    with pytest.raises(OptionError) as err:
        game("counter", tagret=3)
    assert err.value.code == "option/invalid" and "target" in err.value.hint
    with pytest.raises(OptionError):
        game("counter", target="many")
    g = game("counter", target="1")
    s = g.new_game(players=2, seed=0)
    s = g.apply(s, g.parse_action(s, 0, "add_one"))
    assert g.outcome(s) is not None and g.outcome(s).winners == (0,)


def test_player_count_outside_the_range_is_refused():
    with pytest.raises(OptionError):
        game("counter").new_game(players=5, seed=0)


def test_outcome_scores_ranking_and_tie_break():
    g = game("counter", target=2)
    s = g.new_game(players=2, seed=0)
    s = g.apply(s, g.parse_action(s, 0, "add_one"))
    s = g.apply(s, g.parse_action(s, 1, "add_one"))
    out = g.outcome(s)
    assert out.scores == (1, 1)
    assert out.winners == (0, 1)            # equal score, equal chips: shared
    assert g.to_move(s) == () and g.legal_actions(s, 0) == []
    with pytest.raises(GameOver):
        g.apply(s, g.legal_actions(g.new_game(players=2, seed=0), 0)[0])


def test_tie_break_fewest_chips_decides():
    g = game("counter", target=2)
    s = g.new_game(players=2, seed=0)
    s = g.apply(s, g.parse_action(s, 0, "draw_chip 1"))
    s = g.apply(s, g.parse_action(s, 1, "add_one"))
    s = g.apply(s, g.parse_action(s, 0, "add_one"))
    out = g.outcome(s)
    assert out.scores == (1, 1)
    assert out.winners == (1,) and out.ranking == (1, 0)


def test_illegal_and_unknown_actions_leave_the_state_unchanged():
    g = game("counter")
    s = g.new_game(players=2, seed=0)
    before = json.dumps(g.state_to_json(s), sort_keys=True)
    with pytest.raises(UnknownAction) as err:
        g.parse_action(s, 0, "add_onne")
    assert err.value.code == "action/unknown" and "add_one" in err.value.hint
    with pytest.raises(UnknownAction):
        g.parse_action(s, 0, "99")
    p1_action = g.legal_actions(g.apply(s, g.parse_action(s, 0, "pass")), 1)[0]
    with pytest.raises(NotYourTurn):
        g.apply(s, p1_action)
    later = g.apply(s, g.parse_action(s, 0, "add_bonus"))
    stale = g.parse_action(s, 0, "add_bonus")
    with pytest.raises(IllegalAction):
        g.apply(g.apply(later, g.parse_action(later, 1, "pass")), stale)
    assert json.dumps(g.state_to_json(s), sort_keys=True) == before


def test_no_state_of_a_game_changes_after_it_was_made():
    """apply shares the board of its input with the result until a
    statement changes it: every earlier state of a game, and its branches,
    must stay as they were, also when the state they came from is a scratch
    copy that `advance` changes afterwards."""
    import random
    root = Path(__file__).resolve().parent.parent / "rulebooks"
    # (Festival of Lights rotates whole hands, Hearts moves a card a decision,
    # Hanamikoji several: each zone is copied only when it changes)
    for name, n in (("festival-of-lights", 4), ("hanamikoji", 2), ("hearts", 4)):
        g = load_rulebook(root / f"{name}.rules")
        rng = random.Random(n)
        s = g.new_game(players=n, seed=3)
        kept = []
        while not s.over:
            kept.append((s, json.dumps(s.to_data(), sort_keys=True)))
            p = g.to_move(s)[0]
            actions = g.legal_actions(s, p)
            branch = g.apply(s, actions[-1])         # a branch not taken,
            if not branch.over:                      # and one from it
                g.apply(branch, g.legal_actions(branch, g.to_move(branch)[0])[0])
            scratch = s.copy()                       # a search player's own copy,
            child = g.apply(scratch, actions[0])     # a state made from it,
            kept.append((child, json.dumps(child.to_data(), sort_keys=True)))
            g.advance(scratch, actions[-1])          # and the copy going on in place
            s = g.apply(s, actions[rng.randrange(len(actions))])
        for old, data in kept:
            assert json.dumps(old.to_data(), sort_keys=True) == data


def test_actions_are_values_with_a_text_form():
    g = game("counter")
    s = g.new_game(players=2, seed=0)
    a, b = g.legal_actions(s, 0)[2], g.legal_actions(s, 0)[2]
    assert a == b and hash(a) == hash(b)
    assert str(a) == "draw_chip 1" and a.player == 0 and a.name == "draw_chip"
    assert g.parse_action(s, 0, "  DRAW_CHIP   1 ") == a
    assert g.parse_action(s, 0, "3") == a


def test_hidden_zones_show_only_their_size():
    g = game("counter")
    s = g.new_game(players=2, seed=0)
    s = g.apply(s, g.parse_action(s, 0, "draw_chip 2"))
    mine = {(z["name"], z["owner"]): z for z in g.view(s, 0)["zones"]}
    theirs = {(z["name"], z["owner"]): z for z in g.view(s, 1)["zones"]}
    assert mine[("stash", 0)]["count"] == 2 and len(mine[("stash", 0)]["cards"]) == 2
    assert theirs[("stash", 0)]["cards"] is None and theirs[("stash", 0)]["count"] == 2
    assert mine[("bag", None)]["cards"] is None and mine[("bag", None)]["count"] == 3


def test_saves_round_trip_and_refuse_damage_or_another_rulebook():
    g = game("counter")
    s = g.new_game(players=3, seed=5)
    s = g.apply(s, g.parse_action(s, 0, "draw_chip 1"))
    data = json.loads(json.dumps(g.state_to_json(s)))
    t = g.state_from_json(data)
    assert t == s
    assert names(g.legal_actions(t, 1)) == names(g.legal_actions(s, 1))
    with pytest.raises(SaveMismatch):
        game("counter", target=3).state_from_json(data)
    broken = json.loads(json.dumps(data))
    broken["state"]["zones"][0].append(0)
    with pytest.raises(SaveError) as err:
        g.state_from_json(broken)
    assert err.value.code == "save/corrupt"
    with pytest.raises(SaveError):
        g.state_from_json({"format": "something else"})
    truncated = json.loads(json.dumps(data))
    del truncated["state"]["frames"]
    with pytest.raises(SaveError):
        g.state_from_json(truncated)


TYPED_NOISE = ["²", "①", "١", "٣٤", "𝟙", "Ⅻ", "½", "9" * 19, "9" * 20, "9" * 4301, "9" * 5000,
               "0", "-1", "+1", "1.0", "a\x00b", "\x1b[2J", "\x00", "\ud800", "\u200b",
               "draw_chip \x00", "draw_chip " + "9" * 5000, "draw_chip (1,", "(" * 3000,
               "x" * 100_000, "漢字", "ǅ", "İ" * 50, "", "   ", "add_one, , ,", "pass pass"]


@pytest.mark.parametrize("text", TYPED_NOISE, ids=range(len(TYPED_NOISE)))
def test_any_text_is_refused_with_an_action_code_and_nothing_else(text):
    g = game("counter")
    s = g.new_game(players=2, seed=0)
    before = g.state_to_json(s)
    for player in (0, 1, 7):
        with pytest.raises(ActionError) as err:
            g.parse_action(s, player, text)
        assert err.value.code.startswith("action/")
        assert len(err.value.message) < 400 and err.value.message.isprintable()
    assert g.state_to_json(s) == before


def test_only_ascii_digits_number_an_action():
    g = game("counter")
    s = g.new_game(players=2, seed=0)
    assert g.parse_action(s, 0, "03") == g.parse_action(s, 0, "3")
    with pytest.raises(UnknownAction) as err:
        g.parse_action(s, 0, "9" * 5000)
    assert "no action number 9999" in err.value.message
    with pytest.raises(UnknownAction):
        g.parse_action(s, 0, 3)


def test_same_seed_same_game_different_seed_different_deal():
    g = game("counter")
    a, b = g.new_game(players=2, seed=11), g.new_game(players=2, seed=11)
    assert a == b
    deals = {tuple(g.new_game(players=2, seed=k).zones[1]) for k in range(10)}
    assert len(deals) > 1


TYPED = """
game "Typed"
players 2
component card
  | name | value |
  | A    | 1     |
  | B    | 2     |
zone deck: card, ordered
variable start: player = 0
variable total: number = 0
variable top: card = none
setup
  move all card to deck
phase play
  STATEMENT
  turn 0
    current takes an action
action go
  end game
scoring
  score = total
"""


@pytest.mark.parametrize("statement", [
    "if start\n    set total = 1",            # a player is not yes/no
    "if total\n    set total = 1",            # nor a number
    "add first(deck) to total",               # a card is not a number
    "set top = 3",                            # a card variable takes cards
    "set total = A",
    "turn first(deck)\n    set total = 1",    # a turn belongs to a player
    "deal A from deck to deck",
    "repeat A times\n    set total = 1",
])
def test_statements_check_the_kind_of_their_values(statement, tmp_path):
    from interpreter.errors import RulebookErrors
    path = tmp_path / "typed.rules"
    path.write_text(TYPED.replace("STATEMENT", statement), encoding="utf-8")
    with pytest.raises(RulebookErrors) as info:
        load_rulebook(path)
    assert [e.code for e in info.value.errors] == ["rulebook/type"]
    assert info.value.errors[0].span.line == 15


def test_an_unused_define_is_checked_too(tmp_path):
    from interpreter.errors import RulebookErrors
    path = tmp_path / "typed.rules"
    path.write_text(TYPED.replace("STATEMENT", "set top = last(deck)")
                    + "define unused = last(deck) + 1\n", encoding="utf-8")
    with pytest.raises(RulebookErrors) as info:
        load_rulebook(path)
    assert [(e.code, e.span.line) for e in info.value.errors] == [("rulebook/type", 22)]


# -- component sets of each player ------------------------------------------------

@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_set_of_each_player_is_made_once_per_player(players):
    g = game("sets")
    lay = g.program(players).lay
    assert lay.types["pawn"] == (0, 3 * players)
    assert lay.static["owner"] == [p for p in range(players) for _ in range(3)]
    assert lay.display == ["blue", "red", "red"] * players      # the record's, not the owner's
    # classes: a player's two reds are one, two players' reds are two
    assert len(set(lay.ckey)) == 2 * players
    for p in range(players):
        blue, red1, red2 = lay.ckey[3 * p:3 * p + 3]
        assert red1 == red2 != blue
    s = g.new_game(players=players, seed=0)
    assert names(g.legal_actions(s, 0)) == ["give red"]         # two reds in hand: one option
    for p in range(players):
        s = g.apply(s, g.legal_actions(s, p)[0])
    keep = g.legal_actions(s, 0)                                # one red of every player
    assert names(keep) == ["keep red"] * players
    assert len(set(keep)) == players
    pool = {z["name"]: z for z in g.view(s, 0)["zones"]}["pool"]
    assert [group[0] for group in pool["groups"]] == [f"P{p}" for p in range(players)]
    s = g.apply(s, keep[players - 1])                           # the last player's red
    assert g.outcome(s).scores[0] == 1


def test_sampled_states_keep_each_players_pieces_apart():
    import random
    from interpreter.runtime.information import information_state, sample_state
    g = game("sets")
    s = g.new_game(players=3, seed=0)
    lay = g.program(3).lay
    info = information_state(g, s, 0)
    rng = random.Random(1)
    for _ in range(20):
        t = sample_state(g, info, rng)
        for i, (slot, k) in enumerate(lay.zone_list):
            if slot.name in ("pile", "hand"):
                assert {lay.static["owner"][c] for c in t.zones[i]} == {k}


# -- takes an action if able --------------------------------------------------------

@pytest.mark.parametrize("players, skips", [(2, (1, 2)), (3, (1, 2, 3))])
def test_if_able_skips_exactly_the_players_with_nothing_legal(players, skips):
    g = game("if-able")
    s = g.new_game(players=players, seed=0)
    movers = []
    while g.outcome(s) is None:
        (p,) = g.to_move(s)
        assert len(g.legal_actions(s, p)) > 0
        movers.append(p)
        s = g.apply(s, g.legal_actions(s, p)[0])
    # P0 holds 2 chips, P1 1: rounds 1 and 2 for P0, round 1 for P1, no other decision
    assert movers == [0, 1, 0]
    assert s.decisions == 3
    assert g.outcome(s).scores == skips


def test_if_able_lists_the_options_once(monkeypatch):
    from interpreter.runtime.decisions import TakeAction
    g = game("if-able")
    g.new_game(players=2, seed=0)              # compiled, the opening kept
    calls = []
    offer = TakeAction._offer

    def counted(self, s, f, p):
        calls.append([a.name for a in self.actions])
        return offer(self, s, f, p)
    monkeypatch.setattr(TakeAction, "_offer", counted)
    s = g.new_game(players=2, seed=0)
    assert calls == [["play", "overflow"]]      # while the flow ran, to see whether P0 is able
    assert names(g.legal_actions(s, 0)) == ["play 1"]
    assert calls == [["play", "overflow"]]      # not again: the engine found them in the cache
    assert s.cache is not None and 0 in s.cache


def test_without_if_able_a_player_with_nothing_legal_is_rule_stuck(tmp_path):
    text = (HERE / "if-able.rules").read_text(encoding="utf-8")
    path = tmp_path / "stuck.rules"
    path.write_text(text.replace("takes an action if able", "takes an action"), encoding="utf-8")
    g = load_rulebook(path)
    s = g.new_game(players=2, seed=0)
    for p in (0, 1, 0):
        s = g.apply(s, g.legal_actions(s, p)[0])
    assert g.to_move(s) == (1,)
    with pytest.raises(RuleError) as err:
        g.legal_actions(s, 1)
    assert err.value.code == "rule/stuck"
    assert (err.value.span.line, err.value.span.column) == (28, 9)


def test_if_able_saves_round_trip_mid_game():
    g = game("if-able")
    s = g.new_game(players=3, seed=4)
    s = g.apply(s, g.legal_actions(s, 0)[0])
    data = json.loads(json.dumps(g.state_to_json(s)))
    assert "cache" not in json.dumps(data)
    t = g.state_from_json(data)
    assert t == s and t.cache is None
    assert names(g.legal_actions(t, 1)) == names(g.legal_actions(s, 1))
    s, t = g.apply(s, g.legal_actions(s, 1)[0]), g.apply(t, g.legal_actions(t, 1)[0])
    assert s == t
    # the next decision is P0's round 2: P2 (no chips) was skipped in between
    assert g.to_move(t) == (0,)
    u = g.state_from_json(json.loads(json.dumps(g.state_to_json(t))))
    s, u = g.apply(s, g.legal_actions(s, 0)[0]), g.apply(u, g.legal_actions(u, 0)[0])
    assert s == u and g.outcome(s) == g.outcome(u) and g.outcome(s) is not None


def test_a_finished_game_works_its_outcome_out_once():
    """A state that is over changes no more: its outcome is worked out the
    first time it is asked for and kept with it; a copy, or the same state
    read back, gives an equal one."""
    game = load_rulebook("kuhn-poker")
    state = game.new_game(2, seed=5)
    rng = random.Random(5)
    while game.outcome(state) is None:
        actions = game.legal_actions(state, game.to_move(state)[0])
        state = game.apply(state, actions[rng.randrange(len(actions))])
    first = game.outcome(state)
    assert game.outcome(state) is first
    assert game.outcome(state.copy()) == first
    assert game.outcome(game.state_from_json(game.state_to_json(state))) == first
