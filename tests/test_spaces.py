"""Fixed action ids and observations (docs/api.md, "Action ids and
observations"): for every shipped rulebook and player count, over seeded
random games, every legal action has an id that gives it back, the mask is
exactly the legal ids, and the observation has the length of its spec,
does not change when the cards a player cannot see are dealt otherwise, and
changes when a card the player sees does. The ids are the same in every
process."""

from __future__ import annotations

import inspect
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.errors import IllegalAction, OutsideSpace, SpaceTooLarge
from interpreter.runtime.decisions import Action
from interpreter.runtime.information import information_state, sample_state, visible_zone
from tests.scenario import loaded

ROOT = Path(__file__).resolve().parent.parent
GAMES = ["hanamikoji", "lanterns", "festival-of-lights", "samurai", "paris", "hearts", "kalah",
         "kuhn-poker", "othello"]
# a random game each (two where one game is short); the largest games only every few steps
SEEDS = {"kuhn-poker": 6, "hanamikoji": 2, "kalah": 1}
EVERY = {"samurai": 6, "lanterns": 3, "hearts": 3, "othello": 3}

game_of = loaded


def cases():
    for name in GAMES:
        game = game_of(name)
        for n in range(game.min_players, game.max_players + 1):
            yield pytest.param(name, n, id=f"{name}-{n}")


def swap(state, a, i, b, j):
    """A copy of the state with card i of zone instance a and card j of b exchanged."""
    s = state.copy()
    x, y = s.zones[a][i], s.zones[b][j]
    s.zones[a][i], s.zones[b][j] = y, x
    s.loc[x], s.loc[y] = b, a
    return s


def hidden_swaps(game, s, viewer):
    """Two unrevealed cards with the same back in zones the viewer cannot see."""
    lay = game.program(s.n).lay
    seen = {}
    for z, (slot, k) in enumerate(lay.zone_list):
        if visible_zone(slot, k, viewer):
            continue
        for i, c in enumerate(s.zones[z]):
            if not s.revealed[c]:
                other = seen.get(lay.back[c])
                if other is not None and lay.ckey[s.zones[other[0]][other[1]]] != lay.ckey[c]:
                    return other + (z, i)
                seen.setdefault(lay.back[c], (z, i))
    return None


def visible_swap(game, s, viewer):
    """A card the viewer sees and an unrevealed card of another class and the
    same type that the viewer does not see."""
    lay = game.program(s.n).lay
    shown, hidden = {}, {}
    for z, (slot, k) in enumerate(lay.zone_list):
        into = shown if visible_zone(slot, k, viewer) else hidden
        for i, c in enumerate(s.zones[z]):
            if into is shown or not s.revealed[c]:
                into.setdefault((lay.type_of[c], lay.ckey[c]), (z, i))
    for (t, k), place in shown.items():
        for (t2, k2), other in hidden.items():
            if t2 == t and k2 != k:
                return place + other
    return None


@pytest.mark.parametrize("name, n", list(cases()))
def test_ids_masks_and_observations_over_random_games(name, n):
    game = game_of(name)
    space = game.action_space(n)
    assert game.action_space(n) is space
    spec = game.observation_spec(n)
    assert len(spec.names) == spec.size == len(spec)
    every = EVERY.get(name, 1)
    checked = {"hidden": 0, "shown": 0}
    for seed in range(SEEDS.get(name, 1)):
        rng = random.Random(seed)
        s = game.new_game(n, seed)
        step = 0
        while game.outcome(s) is None:
            if step % every == 0:
                for p in game.to_move(s):
                    actions = game.legal_actions(s, p)
                    ids = [space.id_of(a) for a in actions]
                    assert len(set(ids)) == len(ids)
                    for a, i in zip(actions, ids):
                        back = space.action_of(i, p)
                        assert back == a and str(back) == str(a) == space.text(i)
                    mask = space.mask(s, p)
                    assert len(mask) == space.size
                    assert {i for i, bit in enumerate(mask) if bit} == set(ids)
                    assert space.legal_ids(s, p) == sorted(ids)
                    # by id, the engine's own actions (listed once for the
                    # state), which apply takes as it takes action_of's
                    legal = space.legal(s, p)
                    assert legal == {i: a for a, i in zip(actions, ids)}
                    with pytest.raises(TypeError):   # read-only: the state's own
                        legal[-1] = None
                    i = ids[step % len(ids)]
                    assert space.legal_action(s, p, i) is legal[i]
                    assert game.apply(s, legal[i]) == game.apply(s, space.action_of(i, p))
                for viewer in [*range(n), None]:
                    seen = game.observation(s, viewer)
                    assert len(seen) == spec.size
                    assert all(type(v) in (int, float) for v in seen)
                    sampled = sample_state(game, information_state(game, s, viewer), rng)
                    assert game.observation(sampled, viewer) == seen
                    pair = hidden_swaps(game, s, viewer)
                    if pair:
                        assert game.observation(swap(s, *pair), viewer) == seen
                        checked["hidden"] += 1
                    pair = visible_swap(game, s, viewer)
                    if pair:
                        assert game.observation(swap(s, *pair), viewer) != seen
                        checked["shown"] += 1
            actions = game.legal_actions(s, game.to_move(s)[0])
            s = game.apply(s, actions[rng.randrange(len(actions))])
            step += 1
    assert len(game.observation(s, 0)) == spec.size
    assert game.observation(s, 0)[spec.index("over")] == 1
    if name not in ("kalah", "othello", "paris"):      # no hidden cards, or none left
        assert checked["hidden"] and checked["shown"]


def test_the_flow_entries_say_who_decides_what():
    game = game_of("hanamikoji")
    spec = game.observation_spec(2)
    s = game.new_game(2, 3)
    seen = game.observation(s, 1)
    player = game.to_move(s)[0]
    assert seen[spec.index(f"to_move=P{player}")] == 1
    assert seen[spec.index("viewer=P1")] == 1 and seen[spec.index("viewer=P0")] == 0
    pending = [name for name, v in zip(spec.names, seen) if name.startswith("pending:") and v]
    assert pending == [pending[0]] and pending[0].startswith("pending:take an action@L")
    hand = [name for name, v in zip(spec.names, seen) if name.startswith("hand(P1)[") and v]
    assert hand and not [name for name, v in zip(spec.names, seen)
                         if name.startswith("hand(P0)[") and v]
    assert seen[spec.index("size:hand(P0)")] > 0 and seen[spec.index("size:hand(P1)")] > 0


def test_an_action_outside_the_space_has_a_coded_error():
    game = game_of("lanterns")
    space = game.action_space(2)
    s = game.new_game(2, 1)
    p = game.to_move(s)[0]
    place = next(a for a in game.legal_actions(s, p) if a.name == "place")
    from interpreter.stdlib import grid
    far = Action(p, place.name, (place.args[0], grid.cell(40, 0), place.args[2]))
    assert not space.holds(far)
    with pytest.raises(OutsideSpace) as refused:
        space.id_of(far)
    assert refused.value.code == "action/outside-space"
    with pytest.raises(OutsideSpace):
        space.id_of("place 1, (0,1), 0")
    with pytest.raises(OutsideSpace):
        space.action_of(space.size, 0)
    assert space.radius == 12


def test_an_id_not_legal_now_is_an_action_that_apply_refuses():
    game = game_of("hanamikoji")
    space = game.action_space(2)
    s = game.new_game(2, 0)
    p = game.to_move(s)[0]
    mask = space.mask(s, p)
    i = mask.index(0)
    with pytest.raises(IllegalAction):
        game.apply(s, space.action_of(i, p))
    with pytest.raises(IllegalAction):          # not listed: action_of's, refused the same way
        game.apply(s, space.legal_action(s, p, i))
    with pytest.raises(OutsideSpace):
        space.legal_action(s, p, space.size)
    assert len(space.names) == space.size and space.names[i] == space.text(i)


def digest(name, players) -> str:
    """The ids and the observation names of a rulebook, loaded afresh (this
    function's source is also run in a process of its own)."""
    import hashlib
    import json

    from interpreter import load_rulebook
    game = load_rulebook(name)
    space = game.action_space(players)
    out = [space.size, space.names, list(game.observation_spec(players).names)]
    return hashlib.sha256(json.dumps(out).encode()).hexdigest()


def test_the_ids_are_the_same_for_every_load_and_process():
    here = digest("lanterns", 3)
    assert digest("lanterns", 3) == here
    env = dict(os.environ, PYTHONHASHSEED="12345")
    code = inspect.getsource(digest) + "\nprint(digest('lanterns', 3))\n"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == here


def test_each_kind_of_option_has_its_documented_bound():
    game = load_rulebook(str(ROOT / "tests" / "engine" / "spaces.rules"))
    space = game.action_space(2)
    assert [(name, size) for name, _, size in space.blocks] == [
        ("grab", 3 + 5 + 6),        # 1, 2 or 3 chips of blue ×3, red ×2, green ×1
        ("count", 7 * 2),           # 0 to the 6 pieces, by two words
        ("back", 4 * 3 * 2),        # any sub-multiset of the 6 chips
        ("pair", 3),                # two different colours
        ("hop", 2 * 16 * 16 + 2 * 16 + 1),   # no grid: within 16 of (0,0)
        ("say", 5)]                 # the words of the rulebook
    assert space.radius == 16
    assert space.text(0) == "grab 1, blue" and space.names[-1] == "say red"
    for seed in range(5):
        rng = random.Random(seed)
        s = game.new_game(2, seed)
        while game.outcome(s) is None:
            for p in game.to_move(s):
                actions = game.legal_actions(s, p)
                assert sorted(space.id_of(a) for a in actions) == space.legal_ids(s, p)
            actions = game.legal_actions(s, game.to_move(s)[0])
            s = game.apply(s, actions[rng.randrange(len(actions))])


TOO_MANY = """\
game "Too many"
players 2
component card
  | rank         |
  | each 1 to 52 |
zone hand of each player: card, owner
phase play
  turn 0
    0 takes an action
action meld(cards: 7 of hand(me))
  end game
scoring
  score = 0
"""


def test_a_choice_of_too_many_options_is_refused_at_its_line(tmp_path):
    path = tmp_path / "too-many.rules"
    path.write_text(TOO_MANY, encoding="utf-8")
    game = load_rulebook(str(path))
    with pytest.raises(SpaceTooLarge) as refused:
        game.action_space(2)
    assert refused.value.code == "space/too-large"
    assert refused.value.span.line == 10
