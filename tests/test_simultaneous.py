"""Simultaneous hidden choices, matching across players and passing hands
(the primitives `each p in C chooses …`, `unmatched`/`matched`, `rotate`),
on a purpose-built draft game (tests/engine/draft.rules)."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.errors import NotYourTurn
from interpreter.runtime.information import sample_state

DRAFT = Path(__file__).parent / "engine" / "draft.rules"


@pytest.fixture(scope="module")
def game():
    return load_rulebook(DRAFT)


def zone(game, state, name, owner=None):
    lay = game.program(state.n).lay
    slot = lay.zones[name]
    return [lay.display[c] for c in state.zones[slot.base + (owner or 0)]]


def test_everybody_decides_at_once(game):
    s = game.new_game(players=4, seed=1)
    assert game.to_move(s) == (0, 1, 2, 3)
    for p in range(4):
        actions = game.legal_actions(s, p)
        assert actions and all(a.player == p for a in actions)
        assert {str(a) for a in actions} == {f"pick {c}" for c in zone(game, s, "hand", p)}


def test_a_pick_stays_hidden_until_all_have_chosen(game):
    s = game.new_game(players=3, seed=2)
    before = {p: game.view(s, p) for p in (1, 2, None)}
    pick = game.legal_actions(s, 0)[0]
    s1 = game.apply(s, pick)
    assert game.to_move(s1) == (1, 2)
    assert pick.text_for(1) == "pick ?" and pick.text_for(None) == "pick ?"
    assert str(pick).startswith("pick ")
    for viewer in (1, 2, None):
        after = game.view(s1, viewer)
        # nothing the others see changed, except who is still to choose
        for key in ("zones", "variables", "components", "events"):
            assert after[key] == before[viewer][key]
        assert after["info"]["frames"] == before[viewer]["info"]["frames"] or \
            "#picks" in json.dumps(after["info"]["frames"])
        assert str(pick.args[0]) not in json.dumps(
            [f[2].get("#picks", {}).get("0") for f in after["info"]["frames"]])
    # the picker sees its own pick in its information state
    own = [f[2]["#picks"]["0"] for f in game.view(s1, 0)["info"]["frames"] if "#picks" in f[2]]
    assert own and own[0] is not None


def test_choosing_twice_is_refused_and_changes_nothing(game):
    s = game.new_game(players=3, seed=3)
    first, second = game.legal_actions(s, 0)[:2]
    s1 = game.apply(s, first)
    saved = json.dumps(game.state_to_json(s1), sort_keys=True)
    with pytest.raises(NotYourTurn) as err:
        game.apply(s1, second)
    assert err.value.code == "action/not-your-turn"
    assert json.dumps(game.state_to_json(s1), sort_keys=True) == saved


def test_unique_picks_score_matched_ones_go_to_the_centre_and_hands_pass_left(game):
    # a deal where P0 and P1 can pick the same colour and P2 another one
    for seed in range(100):
        s = game.new_game(players=3, seed=seed)
        hands = {p: zone(game, s, "hand", p) for p in range(3)}
        common = next((c for c in hands[0] if c in hands[1]), None)
        other = next((c for c in hands[2] if c != common), None)
        if common and other:
            break
    for p, colour in ((0, common), (1, common), (2, other)):
        s = game.apply(s, game.parse_action(s, p, f"pick {colour}"))
    assert zone(game, s, "centre") == [common, common]
    assert zone(game, s, "table", 2) == [other]
    assert zone(game, s, "table", 0) == [] and zone(game, s, "table", 1) == []
    # hands moved one seat to the left: P0's rest is now P1's hand
    rest0 = list(hands[0])
    rest0.remove(common)
    assert sorted(zone(game, s, "hand", 1)) == sorted(rest0)
    assert game.to_move(s) == (0, 1, 2)


def test_random_games_end_and_save_mid_step(game):
    for players in (3, 4):
        for seed in range(5):
            rng = random.Random(seed)
            s = game.new_game(players=players, seed=seed)
            while game.outcome(s) is None:
                p = game.to_move(s)[rng.randrange(len(game.to_move(s)))]
                s = game.apply(s, rng.choice(game.legal_actions(s, p)))
                assert game.state_from_json(json.loads(json.dumps(game.state_to_json(s)))) == s
            assert sum(game.outcome(s).scores) + len(zone(game, s, "centre")) == 3 * players


def test_a_sample_of_a_simultaneous_step_lets_the_others_choose_again(game):
    s = game.new_game(players=3, seed=5)
    s = game.apply(s, game.legal_actions(s, 0)[0])
    s = game.apply(s, game.legal_actions(s, 1)[0])
    sample = sample_state(game, game.view(s, 2)["info"], random.Random(0))
    assert game.to_move(sample) == (2,)
    t = game.apply(sample, game.legal_actions(sample, 2)[0])
    assert set(game.to_move(t)) == {0, 1}     # their picks were unknown to P2
