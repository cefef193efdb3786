"""Hot-seat play of a simultaneous step in the REPL (Festival of Lights):
each player is asked in turn behind a hand-over prompt, and no screen after
a pick shows it to the next player; the log hides the others' picks."""

from __future__ import annotations

import io
import tempfile

import pytest
from rich.console import Console

from interpreter import load_rulebook
from interpreter.terminal.repl import Repl


# the saves a session makes when its input ends with moves unsaved
SAVES = tempfile.TemporaryDirectory()

@pytest.fixture(scope="module")
def game():
    return load_rulebook("festival-of-lights")


def session(game, lines, players=3, seed=4):
    out = io.StringIO()
    feed = list(lines)

    def read(prompt):
        if not feed:
            out.write(prompt)
            raise EOFError
        line = feed.pop(0)
        out.write(f"{prompt}{line}\n")
        return line

    console = Console(file=out, width=120, color_system=None, force_terminal=False)
    repl = Repl(game, players=players, seed=seed, console=console, input_fn=read,
                save_dir=SAVES.name)
    repl.run()
    return repl, out.getvalue()


def test_each_player_picks_behind_a_hand_over_and_never_sees_an_earlier_pick(game):
    # P0 picks, hands over, P1 picks, hands over, P2 asks for the log
    repl, out = session(game, ["", "1", "", "1", "", "log"])
    first, second = repl.actions[:2]
    assert (first.player, second.player) == (0, 1)
    assert out.count("Pass the device to") == 3
    after_p0 = out.split("Pass the device to P1, press Enter\n", 1)[1]
    after_p1 = out.split("Pass the device to P2, press Enter\n", 1)[1]
    assert "P1, P2 to decide" in after_p0 and "P2 to decide" in after_p1
    # what P1 and P2 are shown names no earlier pick: nothing is revealed yet
    import re
    for screen in (after_p0, after_p1):
        assert re.search(r"^Empty: .*\brevealed\b", screen, re.M)    # of every player
    log = after_p1.split("P2> log\n", 1)[1]
    assert "pick ?" in log and str(first) not in log and str(second) not in log
