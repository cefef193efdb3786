"""Same rulebook, player count, seed and moves → the same game, everywhere.

The whole game (deal, flow, random draws) must follow from the seed and the
moves alone: two engines built from the same rulebook, a replay by action
text, a replay by action number and a run in another Python process (with a
different string-hash seed) all reach identical states and outcomes, while
different seeds deal different games. Generic over every rulebook and
player count.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.runtime.state import splitmix64
from tests.test_playouts import RULEBOOKS, cases, game_for

ROOT = Path(__file__).resolve().parent.parent


def run(g, n, seed, choose_seed):
    """A random game: its states, its actions as text and as numbers."""
    rng = random.Random(choose_seed)
    s = g.new_game(players=n, seed=seed)
    states, texts, numbers = [s], [], []
    while g.outcome(s) is None:
        actions = g.legal_actions(s, g.to_move(s)[0])
        k = rng.randrange(len(actions))
        texts.append(str(actions[k]))
        numbers.append(k + 1)
        s = g.apply(s, actions[k])
        states.append(s)
    return states, texts, numbers


_second: dict = {}


def _second_engine(path):
    """A second engine of the rulebook, built apart from `game_for`'s (one a
    rulebook: its player counts are compiled apart anyway)."""
    if path not in _second:
        _second[path] = load_rulebook(str(path))
    return _second[path]


@pytest.mark.parametrize("path,n", list(cases()))
def test_same_inputs_same_game(path, n):
    """Two engines from the same rulebook, same seed and moves: equal states
    at every step and equal outcomes."""
    a = game_for(path)
    b = _second_engine(path)
    # two games at a game's smallest count, one elsewhere and for a variant file
    main = n == a.min_players and path.parent.name != "variants"
    for seed in (0, 5) if main else (0,):
        states_a, texts_a, _ = run(a, n, seed, choose_seed=seed)
        states_b, texts_b, _ = run(b, n, seed, choose_seed=seed)
        assert texts_a == texts_b
        assert states_a == states_b
        assert a.outcome(states_a[-1]) == b.outcome(states_b[-1])


@pytest.mark.parametrize("path,n", list(cases()))
def test_replay_by_text_and_by_number(path, n):
    """The recorded moves, replayed by their text or their number through
    parse_action, reach the same final state."""
    g = game_for(path)
    states, texts, numbers = run(g, n, seed=3, choose_seed=11)
    for moves in (texts, [str(k) for k in numbers]):
        s = g.new_game(players=n, seed=3)
        for i, move in enumerate(moves):
            s = g.apply(s, g.parse_action(s, g.to_move(s)[0], move))
            assert s == states[i + 1]
        assert g.outcome(s) == g.outcome(states[-1])


def first_deal(g, n, seed):
    """The zones at the first decision after the first draw, the players
    taking the first option until then; None when the game ends without
    drawing."""
    s = g.new_game(players=n, seed=seed)
    fresh = splitmix64(seed)[1]            # the generator of seed k before any draw
    while s.rng == fresh and g.to_move(s):
        s = g.apply(s, g.legal_actions(s, g.to_move(s)[0])[0])
    return None if s.rng == fresh else json.dumps(g.state_to_json(s)["state"]["zones"])


@pytest.mark.parametrize("path,n", list(cases()))
def test_different_seeds_deal_differently(path, n):
    """Twenty seeds give twenty different deals: the states at the first
    decision after the first draw (a game whose players choose before
    anything is shuffled — secret starting hands — deals after those
    choices; they are taken alike, the first option each time). A game of
    few deals (Kuhn poker's three cards: six) shows all of them over many
    seeds; a game without chance (Othello, Kalah) is the same game for
    every seed."""
    g = game_for(path)
    if first_deal(g, n, 0) is None:          # played to its end without a draw
        assert first_deal(g, n, 1) is None, "some seeds draw and some do not"
        games = {json.dumps(g.state_to_json(g.new_game(players=n, seed=k))["state"]["zones"])
                 for k in range(5)}
        assert len(games) == 1
        return
    starts = {first_deal(g, n, k) for k in range(20)}
    if len(starts) < 20:
        every = {first_deal(g, n, k) for k in range(200)}
        assert len(every) < 40, "deals repeat although there are many"
        assert len(starts) >= min(5, len(every))


@pytest.mark.parametrize("path,n", list(cases()))
def test_new_game_is_a_function_of_the_seed(path, n):
    g = game_for(path)
    assert g.new_game(players=n, seed=42) == g.new_game(players=n, seed=42)


_CHILD = """
import hashlib, json, random, sys
from interpreter import load_rulebook
out = {}
for path in sys.argv[1:]:
    g = load_rulebook(path)
    n, seed = g.min_players, 4
    rng = random.Random(seed)
    s = g.new_game(players=n, seed=seed)
    moves = []
    while g.outcome(s) is None:
        actions = g.legal_actions(s, g.to_move(s)[0])
        moves.append([str(a) for a in actions])
        s = g.apply(s, rng.choice(actions))
    data = {"state": g.state_to_json(s)["state"], "moves": moves,
            "outcome": g.outcome(s).to_json()}
    out[path] = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()
print(json.dumps(out))
"""


def test_same_games_in_other_processes():
    """Nothing depends on Python's per-process string hashing: two processes
    with different PYTHONHASHSEED play the same game of every game, legal-action
    order included. (Each game's base rulebook: a variant file runs the same
    code on the same kinds of data.)"""
    paths = [str(p) for p in RULEBOOKS if p.parent.name != "variants"]
    digests = []
    for hash_seed in ("1", "2"):
        env = dict(os.environ, PYTHONHASHSEED=hash_seed)
        out = subprocess.run([sys.executable, "-c", _CHILD, *paths], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=300)
        assert out.returncode == 0, out.stderr
        digests.append(json.loads(out.stdout))
    assert set(digests[0]) == set(paths)
    differ = [Path(p).stem for p in paths if digests[0][p] != digests[1][p]]
    assert not differ, f"another string-hash seed plays another game: {differ}"
