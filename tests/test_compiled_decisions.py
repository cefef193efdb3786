"""Each block of the flow runs as a generated function that resumes a frame
where it stands (compiler/pyflow.py), and each 'takes an action' lists its
options through a generated function (compiler/pyoptions.py). Stepping
through the same blocks one statement at a time (`Machine.step`, what a
game measuring coverage does) and listing action by action must give the
same states and options, decision by decision: the same frames, board,
events, players to move and legal actions, in the same order."""

from __future__ import annotations

import random

import pytest

from interpreter import load_rulebook
from interpreter.runtime import statements as st
from interpreter.runtime.decisions import TakeAction

GAMES = [("hanamikoji", 2), ("festival-of-lights", 3), ("lanterns", 2), ("samurai", 3),
         ("paris", 2), ("othello", 2), ("kalah", 2), ("hearts", 4), ("kuhn-poker", 2),
         ("yacht", 2), ("dots-and-boxes", 2)]


def stepped(stem: str, players: int):
    """The game with every block stepped through one statement at a time,
    and every decision's options listed action by action."""
    game = load_rulebook(stem)
    m = game.program(players).machine
    m.flows = [st.step_frame] * len(m.blocks)
    for x in m.stmts:
        if type(x) is TakeAction:
            x.lister = None
    return game


@pytest.mark.parametrize("stem, players", GAMES)
def test_the_flow_resumes_as_the_statements_step(stem, players):
    game, other = load_rulebook(stem), stepped(stem, players)
    m = game.program(players).machine
    assert all(flow is not st.step_frame for b, flow in zip(m.blocks, m.flows) if b.stmts)
    assert all(x.lister is not None for x in m.stmts if type(x) is TakeAction)
    rng = random.Random(players)
    a, b = game.new_game(players, seed=players), other.new_game(players, seed=players)
    for _ in range(150):
        assert a.to_data() == b.to_data()
        assert a.events == b.events
        if game.outcome(a) is not None:
            break
        player = game.to_move(a)[0]
        listed = game.legal_actions(a, player)
        assert list(map(str, listed)) == list(map(str, other.legal_actions(b, player)))
        i = rng.randrange(len(listed))
        a = game.apply(a, listed[i])
        b = other.apply(b, other.legal_actions(b, player)[i])


def test_a_frame_inside_a_run_goes_on_as_the_statements_step():
    """A frame can stand inside a compiled run only when something other
    than the flow put it there: the block's function hands it to the
    machine's stepping, so both go on from there alike. Here Kalah's sow
    starts at its second statement, without the seeds in hand: both fail
    at the same statement with the same error."""
    outcomes = []
    for game in (load_rulebook("kalah"), stepped("kalah", 2)):
        prog = game.program(2)
        m = prog.machine
        sow = prog.actions["sow"]
        assert m.blocks[sow.body].fast[0][1] > 2          # one run holds the body
        state = game.new_game(2, seed=1)
        action = game.legal_actions(state, 0)[0]
        s = game.apply(state, action)                     # (a state of its own to change)
        env = dict(s.frames[-1][2], me=0, source=sow.params[0].value(s, {"me": 0}, action.args[0]))
        s.frames.append([sow.body, 1, env, None])
        with pytest.raises(Exception) as caught:
            m.run(s)
        outcomes.append((type(caught.value).__name__, str(caught.value)))
    assert outcomes[0] == outcomes[1]


@pytest.mark.parametrize("stem, players", [("hanamikoji", 2), ("kuhn-poker", 2), ("hearts", 4),
                                           ("yacht", 2), ("lanterns", 3)])
def test_a_game_of_chance_nodes_goes_on_in_the_blocks_that_cannot_draw(stem, players):
    """In chance mode (`new_game(chance=True)`) the blocks in which nothing
    can draw go on in their functions too (`Machine.chance_flows`); the
    others are stepped, stopping at each draw. The same game as stepping
    every block, chance node by chance node."""
    game, other = load_rulebook(stem), stepped(stem, players)
    m = game.program(players).machine
    assert any(flow is not None for flow in m.chance_flows())
    other.program(players).machine._chance_flows = [None] * len(m.blocks)
    rng = random.Random(players)
    a = game.new_game(players, seed=1, chance=True)
    b = other.new_game(players, seed=1, chance=True)
    for _ in range(150):
        assert a.to_data() == b.to_data()
        if game.outcome(a) is not None:
            break
        if game.is_chance(a):
            outcomes = game.chance_outcomes(a)
            assert outcomes == other.chance_outcomes(b)
            pick = outcomes[rng.randrange(len(outcomes))][0]
            a, b = game.apply(a, pick), other.apply(b, pick)
            continue
        player = game.to_move(a)[0]
        listed = game.legal_actions(a, player)
        i = rng.randrange(len(listed))
        a, b = game.apply(a, listed[i]), other.apply(b, other.legal_actions(b, player)[i])
