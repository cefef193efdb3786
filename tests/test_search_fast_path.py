"""The search players' fast path: `Game.playout` plays a random game inside
the engine on one copy of the state, changed in place, and `Game.advance`
applies an action to a scratch state without copying it. Both give the
states the public `legal_actions` / `apply` loop gives with the same random
draws (a playout makes no announcements: nobody hears them), and leave what
they were not given alone."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.errors import IllegalAction
from tests import scenario

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "rulebooks").glob("*.rules"))
_loaded: dict = {}


def game_of(path):
    if path not in _loaded:
        _loaded[path] = load_rulebook(str(path))
    return _loaded[path]


def api_playout(game, state, seed):
    # rng.choice draws as rng.randrange(len(actions)) does: the playout's draws
    return scenario.play(game, state, scenario.random_policy(seed))


def saved(game, state):
    return json.dumps(game.state_to_json(state), sort_keys=True)


@pytest.mark.parametrize("path", GAMES, ids=lambda p: p.stem)
def test_a_playout_is_the_game_the_api_plays_with_the_same_draws(path):
    game = game_of(path)
    n = game.max_players
    for seed in (1, 2):
        start = game.new_game(players=n, seed=seed)
        before = saved(game, start)
        fast = game.playout(start, random.Random(seed))
        assert saved(game, start) == before, "the playout changed its input"
        slow = api_playout(game, start, seed)
        assert fast.over and game.outcome(fast) == game.outcome(slow)
        fast_data, slow_data = (game.state_to_json(x)["state"] for x in (fast, slow))
        told = [e for e in slow_data.pop("events") if e["event"] == "announce"]
        assert fast_data.pop("events") == [e for e in slow.events if e not in told]
        assert fast_data == slow_data            # the same game; only nobody was told


def test_a_playout_stops_at_its_limit():
    game = game_of(ROOT / "rulebooks" / "hanamikoji.rules")
    state = game.playout(game.new_game(players=2, seed=3), random.Random(3), limit=5)
    assert state.decisions == 5 and not state.over


def test_advance_changes_the_scratch_state_as_apply_would():
    game = game_of(ROOT / "rulebooks" / "hanamikoji.rules")
    state = game.new_game(players=2, seed=4)
    action = game.legal_actions(state, game.to_move(state)[0])[2]
    expected = saved(game, game.apply(state, action))
    scratch = state.copy()
    game.advance(scratch, action)
    assert saved(game, scratch) == expected


def test_advance_refuses_an_illegal_action_and_changes_nothing():
    game = game_of(ROOT / "rulebooks" / "hanamikoji.rules")
    state = game.new_game(players=2, seed=4)
    other = game.new_game(players=2, seed=5)
    before = saved(game, other)
    foreign = next(a for a in game.legal_actions(state, game.to_move(state)[0])
                   if a not in game.legal_actions(other, game.to_move(other)[0]))
    with pytest.raises(IllegalAction):
        game.advance(other, foreign)
    assert saved(game, other) == before


def test_advance_refuses_what_apply_refuses():
    from interpreter import Action
    from interpreter.errors import GameOver, NotYourTurn
    game = game_of(ROOT / "rulebooks" / "kuhn-poker.rules")
    state = game.new_game(players=2, seed=1)
    before = saved(game, state)
    waiting = 1 - game.to_move(state)[0]
    with pytest.raises(NotYourTurn):
        game.advance(state, Action(waiting, "bet", ()))
    with pytest.raises(IllegalAction):
        game.advance(state, "bet")
    assert saved(game, state) == before
    over = game.playout(state, random.Random(1))
    with pytest.raises(GameOver):
        game.advance(over, Action(0, "bet", ()))
