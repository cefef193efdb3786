"""The engine against OpenSpiel's own C++ games (`python tools/bench.py --openspiel`).

Each pair is played at random on both sides in alternating blocks in one
process, every side of every block on fresh seeds: the rulebook through the
documented API (list the legal actions of the player to move, pick one with
random.Random(seed), apply it), and pyspiel's C++ game the same way
(`state.legal_actions()`, `state.apply_action`), its chance nodes sampled
from `state.chance_outcomes()` with the same random.Random. Printed for each:
games/s of both, the engine's over pyspiel's, and the decisions a game of
each (player decisions only: chance nodes are not counted on either side);
then the geometric mean of the ratios against the target.

The pairs and where their rules differ:
- othello / othello: the same game; both offer a pass only when no disc can go down.
- kuhn-poker / kuhn_poker: the same game; pyspiel deals the two cards at chance nodes.
- kalah / mancala: the same rules (4 seeds a pit, another move from one's own
  store, capture from one's empty pit, the end when one side is empty, each
  side's pits counted with its store); mancala also stops at 1000 moves as a
  draw, never reached at random.
- hearts / hearts: one hand on both sides, pyspiel's options set to the
  rulebook's (points may be played in the first trick, the queen of spades
  does not break hearts; hearts must be broken to lead them, the 2 of clubs
  leads). pyspiel draws the pass direction at its first chance node: it is
  set to the left, the rulebook's. pyspiel passes the three cards one at a
  time (12 decisions of 11 to 13 options) where the rulebook passes them as
  one choice of 3 of 13 (286 options, 4 decisions), and pyspiel's deal is 52
  chance nodes sampled in Python here, while the engine shuffles inside.
"""

from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from functools import partial

from interpreter import load_rulebook
from tools.bench_blocks import (WARM_UP_SEEDS, engine_playouts, fresh_seeds, geometric_mean,
                                timed, verdict)

RATIO_MEAN = 0.3              # the figure to reach: geometric mean of engine/pyspiel games/s


@dataclass(frozen=True)
class Pair:
    rulebook: str
    players: int
    game: str                                   # pyspiel's name
    parameters: dict = field(default_factory=dict)
    opening: tuple = ()                         # chance outcomes fixed to the rulebook's rules


HEARTS_PASS_LEFT = 1          # pyspiel's pass directions: no pass, left, across, right
PAIRS = (
    Pair("othello", 2, "othello"),
    Pair("kuhn-poker", 2, "kuhn_poker"),
    Pair("kalah", 2, "mancala"),
    Pair("hearts", 4, "hearts", {"no_pts_on_first_trick": False, "qs_breaks_hearts": False,
                                 "must_break_hearts": True, "can_lead_any_club": False,
                                 "pass_cards": True, "jd_bonus": False,
                                 "avoid_all_tricks_bonus": False,
                                 "can_lead_hearts_instead_of_qs": False},
         opening=(HEARTS_PASS_LEFT,)),
)


def spiel_playouts(game, opening: tuple, seeds: range) -> int:
    """Random games of a pyspiel game; the player decisions they took."""
    decisions = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        for action in opening:
            state.apply_action(action)
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                r = rng.random()
                for action, probability in outcomes:
                    r -= probability
                    if r < 0:
                        break
            else:
                actions = state.legal_actions()
                action = actions[rng.randrange(len(actions))]
                decisions += 1
            state.apply_action(action)
    return decisions


def against_openspiel(games: int, blocks: int) -> int:
    """The table of engine and pyspiel speeds; 1 when the figure is not met, 2 without pyspiel."""
    try:
        import pyspiel
    except ImportError:
        print("--openspiel needs OpenSpiel, whose pyspiel module is not installed: "
              "pip install -e '.[openspiel]'", file=sys.stderr)
        return 2
    print(f"random playouts, {blocks} alternating blocks of {games} games a side, "
          f"fresh seeds for every side and block (CPU time of one process)")
    print("decisions a game: player decisions only, chance nodes not counted")
    print(f"{'rulebook / pyspiel':<24} {'engine g/s':>11} {'pyspiel g/s':>12} {'ratio':>7} "
          f"{'decisions':>10} {'pyspiel':>8}")
    ratios = {}
    for pair in PAIRS:
        sides = (partial(engine_playouts, load_rulebook(pair.rulebook), pair.players),
                 partial(spiel_playouts, pyspiel.load_game(pair.game, pair.parameters),
                         pair.opening))
        for run in sides:
            run(WARM_UP_SEEDS)
        seconds, decisions = [0.0, 0.0], [0, 0]
        for block in range(blocks):
            for side, run in enumerate(sides):
                spent, made = timed(run, fresh_seeds(block, side, len(sides), games))
                seconds[side] += spent
                decisions[side] += made
        played = games * blocks
        ratios[pair.rulebook] = seconds[1] / seconds[0]
        print(f"{pair.rulebook + ' / ' + pair.game:<24} {played / seconds[0]:>11.1f} "
              f"{played / seconds[1]:>12.1f} {ratios[pair.rulebook]:>7.3f} "
              f"{decisions[0] / played:>10.1f} {decisions[1] / played:>8.1f}")
    mean = geometric_mean(ratios.values())
    print(f"{'geometric mean of the ratios':<49} {mean:>7.3f}")
    print(f"  target geometric mean >= {RATIO_MEAN}x: {verdict(mean >= RATIO_MEAN)}")
    return 0 if mean >= RATIO_MEAN else 1
