"""Generic invariants of the engine, over every rulebook and player count.

Each rulebook in rulebooks/*.rules is played with every player count it
supports (``min_players … max_players``), a few seeded random games each, and
at every step the API contract of docs/api.md is checked: legal actions exist
exactly until the end; `to_move` is empty exactly when there is an outcome;
`apply` never changes its input and is a function of (state, action); every
component is in at most one zone and ``loc`` agrees; save → load gives an
equal state that plays on identically; a view is blind to the cards its
viewer may not see (shuffling them leaves the view unchanged); refused moves
raise `ActionError` with an ``action/…`` code and leave the state alone; the
game ends within a cap. Nothing here knows a game. The soak variant (opt-in:
``pytest -m soak``) runs thousands of games.
"""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest

from interpreter import Action, load_rulebook
from interpreter.errors import ActionError, OptionError
from tests.scenario import check_consistent, loaded, permute_hidden

ROOT = Path(__file__).resolve().parent.parent
# every game and every variant file
RULEBOOKS = sorted((ROOT / "rulebooks").glob("**/*.rules"))
SEEDS = tuple(range(4))     # more, and longer, with -m soak
VARIANT_SEEDS = 1         # a variant file changes a rule or two, tested by its game: one game a count
FULL_STEPS = 25           # views checked at every step until then, then every 10th:
                          # at a game's smallest player count; variants and the other
                          # counts, like the soak's thousands of games, check every 10th
MAX_DECISIONS = 3000      # a safety cap for the tests, not a rule (see HK-D5)

game_for = loaded    # (other test modules import it by this name)


def cases():
    for path in RULEBOOKS:
        g = game_for(path)
        for n in range(g.min_players, g.max_players + 1):
            yield pytest.param(path, n, id=f"{path.stem}-{n}p")


def snapshot(g, s) -> str:
    return json.dumps(g.state_to_json(s), sort_keys=True)


def round_trip(g, s):
    return g.state_from_json(json.loads(json.dumps(g.state_to_json(s))))


# -- the checks of one step -----------------------------------------------------------

def check_flow(g, s, n):
    """Legal actions exist exactly until the end; only deciders have some."""
    movers = g.to_move(s)
    assert (len(movers) == 0) == (g.outcome(s) is not None)
    for p in range(n):
        actions = g.legal_actions(s, p)
        if p in movers:
            assert actions, f"P{p} must decide but has no legal action"
            assert len(set(actions)) == len(actions), "duplicate legal actions"
            assert all(a.player == p for a in actions)
            assert len({str(a) for a in actions}) == len(actions), "two actions print alike"
        else:
            assert actions == []


def check_save(g, s):
    """save → load → equal, and the loaded state saves to the same data."""
    data = json.loads(json.dumps(g.state_to_json(s)))
    loaded = g.state_from_json(data)
    assert loaded == s
    assert json.loads(json.dumps(g.state_to_json(loaded))) == data
    return loaded


def check_views(g, s, n, rng):
    """Each view is JSON data and does not depend on what its viewer cannot see."""
    for viewer in list(range(n)) + [None]:
        view = g.view(s, viewer)
        assert json.loads(json.dumps(view)) == view
        other = permute_hidden(g, s, viewer, rng)
        check_consistent(g, other)
        assert g.view(other, viewer) == view, f"the view of {viewer} leaks hidden cards"


def check_refusals(g, s, n, seen, before):
    """Moves of a player not to move, and legal moves of another moment, are
    refused with an action/… code; the state is unchanged."""
    movers = g.to_move(s)
    legal = {a for p in movers for a in g.legal_actions(s, p)}
    tries = []
    others = [p for p in range(n) if p not in movers]
    if movers and others:       # with a simultaneous choice everybody may be to move
        a = next(iter(legal))
        tries.append(Action(others[0], a.name, a.args))
    tries += [a for a in seen if a not in legal][:3]
    tries.append("not an action")
    for bad in tries:
        with pytest.raises(ActionError) as err:
            g.apply(s, bad)
        code = err.value.code
        assert code.startswith("action/")
        if not movers:
            assert code == "action/game-over"
        elif not isinstance(bad, Action) or bad.player in movers:
            assert code == "action/illegal"
        else:
            assert code == "action/not-your-turn"
    assert snapshot(g, s) == before


def playout(g, n, seed, full=True):
    """One random game with every check at every step; returns the final state."""
    rng = random.Random(seed * 7919 + n)
    s = g.new_game(players=n, seed=seed)
    seen: list = []
    while True:
        check_flow(g, s, n)
        check_consistent(g, s)
        loaded = check_save(g, s)
        if (full and s.decisions < FULL_STEPS) or s.decisions % 10 == 0:
            check_views(g, s, n, rng)
        before = snapshot(g, s)
        check_refusals(g, s, n, seen, before)
        movers = g.to_move(s)
        if not movers:
            return s
        assert s.decisions < MAX_DECISIONS, "the game does not end"
        actions = g.legal_actions(s, movers[0])
        if len(seen) < 50 or rng.random() < 0.2:
            seen.append(rng.choice(actions))
        a = rng.choice(actions)
        nxt = g.apply(s, a)
        assert snapshot(g, s) == before, "apply changed its input"
        assert nxt.decisions == s.decisions + 1
        assert g.apply(s, a) == nxt, "apply is not a function of (state, action)"
        assert g.apply(loaded, a) == nxt, "a loaded state plays on differently"
        s = nxt


# -- tests ---------------------------------------------------------------------------

def test_every_rulebook_is_covered():
    assert RULEBOOKS, "no rulebook found in rulebooks/"
    for path in RULEBOOKS:
        g = game_for(path)
        assert 1 <= g.min_players <= g.max_players


def playout_cases():
    """Every rulebook with SEEDS at its smallest player count and a quarter
    as many at the others (the soak, below, plays thousands); a variant file
    (which changes a rule or two of a base that plays them all) with
    VARIANT_SEEDS."""
    for case in cases():
        path, n = case.values
        if path.parent.name == "variants":
            seeds = SEEDS[:VARIANT_SEEDS]
        else:
            seeds = SEEDS if n == game_for(path).min_players else SEEDS[:len(SEEDS) // 4]
        for seed in seeds:
            yield pytest.param(path, n, seed, id=f"{seed}-{path.stem}-{n}p")


@pytest.mark.parametrize("path,n,seed", list(playout_cases()))
def test_random_playout_invariants(path, n, seed):
    g = game_for(path)
    end = playout(g, n, seed, full=n == g.min_players and path.parent.name != "variants")
    out = g.outcome(end)
    assert out is not None
    assert len(out.scores) == n and sorted(out.ranking) == list(range(n))
    assert set(out.winners) <= set(range(n))
    assert set(out.ranking[:len(out.winners)]) == set(out.winners), "winners rank first"
    view = g.view(end, None)
    assert view["over"] is True and view["outcome"] == out.to_json()


@pytest.mark.parametrize("path,n", list(cases()))
def test_game_over_refuses_everything(path, n):
    g = game_for(path)
    rng = random.Random(n)
    s = g.new_game(players=n, seed=99)
    first = g.legal_actions(s, g.to_move(s)[0])[0]
    while g.outcome(s) is None:
        s = g.apply(s, rng.choice(g.legal_actions(s, g.to_move(s)[0])))
    before = snapshot(g, s)
    with pytest.raises(ActionError) as err:
        g.apply(s, first)
    assert err.value.code == "action/game-over"
    assert snapshot(g, s) == before
    assert check_save(g, s) == s


@pytest.mark.parametrize("path,n", list(cases()))
def test_new_game_refuses_other_player_counts(path, n):
    g = game_for(path)
    for bad in (g.min_players - 1, g.max_players + 1):
        with pytest.raises(OptionError) as err:
            g.new_game(players=bad, seed=0)
        assert err.value.code == "option/invalid"


def _one_variant_each() -> list:
    """Every game, and one variant file of each game (a variant reads its
    base by a path of its own: that is what another folder could break)."""
    seen, out = set(), []
    for path in RULEBOOKS:
        family = path.stem.split("-")[0]
        if path.parent.name != "variants" or family not in seen:
            out.append(path)
        if path.parent.name == "variants":
            seen.add(family)
    return out


@pytest.mark.parametrize("path", _one_variant_each(), ids=lambda p: p.stem)
def test_save_loads_from_another_working_directory(path, tmp_path, monkeypatch):
    g = load_rulebook(str(path))
    s = g.new_game(players=g.min_players, seed=1)
    data = json.loads(json.dumps(g.state_to_json(s)))
    monkeypatch.chdir(tmp_path)
    assert load_rulebook(str(path)).state_from_json(data) == s


_OVERDEAL = """
game "Overdeal"
players 2
component chip
  | value | copies |
  | 1     | 3      |
zone bag: chip, hidden, ordered
zone hand of each player: chip, owner
setup
  move all chip to bag
phase play
  deal 5 from bag to hand(0)
  turn 0
    current takes an action
action done
  end game
scoring
  score = count(c in hand(p))
"""


def test_deal_more_than_the_source_holds(tmp_path):
    """Dealing 5 from a bag of 3 either deals all 3 or stops with a rule/… error;
    it never leaves cards behind."""
    from interpreter.errors import RuleError
    path = tmp_path / "overdeal.rules"
    path.write_text(_OVERDEAL, encoding="utf-8")
    g = load_rulebook(str(path))
    try:
        s = g.new_game(players=2, seed=0)
    except RuleError as e:
        assert e.code.startswith("rule/")
        return
    lay = g.program(2).lay
    assert len(s.zones[lay.zones["bag"].base]) == 0
    assert len(s.zones[lay.zones["hand"].base]) == 3


@pytest.mark.soak
@pytest.mark.parametrize("path,n", list(cases()))
def test_soak_random_playouts(path, n):
    """Thousands of games (SOAK_GAMES, default 2000) with every check; views
    are compared with shuffled hidden cards at every 10th decision."""
    g = game_for(path)
    games = int(os.environ.get("SOAK_GAMES", "2000"))
    for seed in range(1000, 1000 + games):
        assert g.outcome(playout(g, n, seed, full=False)) is not None
