"""An action binds what it names in the state it is applied to: one listed
by this state's offer takes the value its listing found; one listed
elsewhere (another copy of the state, a state read back from a save) is
bound again from its keys. Both lead to the same next state."""

from __future__ import annotations

import random

import pytest

from interpreter import load_rulebook


@pytest.mark.parametrize("stem, players", [("hanamikoji", 2), ("kalah", 2), ("hearts", 4),
                                           ("dots-and-boxes", 2)])
def test_an_action_from_another_listing_binds_the_same(stem, players):
    game = load_rulebook(stem)
    rng = random.Random(7)
    state = game.new_game(players, seed=7)
    for _ in range(12):
        if game.outcome(state) is not None:
            break
        player = game.to_move(state)[0]
        actions = game.legal_actions(state, player)
        action = actions[rng.randrange(len(actions))]
        again = game.state_from_json(game.state_to_json(state))       # no listing of its own
        listed = game.legal_actions(again, player)
        assert action in listed
        here = game.apply(state, action)
        assert game.apply(again, action) == here
        other = listed[[str(a) for a in listed].index(str(action))]   # its own listing's
        assert game.apply(again, other) == here
        state = here


def test_an_action_of_an_earlier_state_is_refused_where_it_is_not_legal():
    game = load_rulebook("kalah")
    state = game.new_game(2, seed=1)
    sow = next(a for a in game.legal_actions(state, 0) if str(a) == "sow a3")
    later = game.apply(state, sow)          # the last seed in the store: P0 again
    assert game.to_move(later) == (0,)
    assert sow not in game.legal_actions(later, 0)      # a3 is empty now
    with pytest.raises(Exception) as caught:
        game.apply(later, sow)
    assert caught.value.code == "action/illegal"
    assert game.to_move(later) == (0,)


def _cards(game, state, player) -> list:
    """The lantern cards in a player's hand, by name, as the player sees them."""
    return sorted(c for z in game.view(state, player)["zones"]
                  if z["name"] == "cards" and z["owner"] == player for c in z["cards"])


def test_an_action_whose_last_parameter_reads_an_earlier_one_binds_when_taken():
    """Lanterns' `dedicate(type: one of dedication, paid: type.kinds kinds
    of type.each from cards(me))`: the cards paid are listed as keys for each
    dedication and worked out only for the option taken, from this listing
    or another: the cards its text names leave the hand."""
    game = load_rulebook("lanterns")
    rng = random.Random(3)
    seen = 0
    for seed in range(40):
        state = game.new_game(4, seed=seed)
        while seen < 3 and game.outcome(state) is None:
            player = game.to_move(state)[0]
            actions = game.legal_actions(state, player)
            dedications = [a for a in actions if a.name == "dedicate"]
            if not dedications:
                state = game.apply(state, actions[rng.randrange(len(actions))])
                continue
            action = dedications[rng.randrange(len(dedications))]
            again = game.state_from_json(game.state_to_json(state))     # no listing of its own
            here = game.apply(state, action)
            assert game.apply(again, action) == here
            left = _cards(game, state, player)
            for card in str(action).split(", ")[1].split():    # 'dedicate kind, red red red red'
                left.remove(card)
            assert _cards(game, here, player) == left
            seen += 1
            state = here
        if seen >= 3:
            break
    assert seen >= 3
