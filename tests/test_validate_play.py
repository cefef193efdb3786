"""Mistakes only a game finds: `rulebook validate --play` and why `rule/stuck`.

Small rulebooks are written to tmp_path (the language's data files cannot run
games). The CLI is run in-process; tests assert codes, file:line:column,
player counts and seeds, never wording. The replay a finding names is
checked against the REPL itself: the same seeds, the same games.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from interpreter import load_rulebook
from interpreter.errors import RuleStuck
from interpreter.simulation import playcheck
from interpreter.terminal import cli
from interpreter.terminal.repl import Repl

ROOT = Path(__file__).resolve().parent.parent

# 3 players are dealt no cards: the first player to move has nothing to play
TABLE = """\
game "Table"
players 2 to 3
by players
  | players   | 2 | 3 |
  | hand_size | 2 | 0 |
component card
  | value | copies |
  | 1     | 9      |
zone deck: card
zone hand of each player: card
zone played: card
variable mover: player = 0
setup
  move all card to deck
  for each p in players
    deal hand_size from deck to hand(p)
phase play
  repeat 2 times
    turn mover
      mover takes an action                 # STUCK
    set mover = next_player(mover)
action play(c: one of hand(me))             # PLAY
  move c to played
scoring
  score = size(hand(p))
"""

# the score reads past the end of a list when both players went up
RUNTIME = """\
game "Past the end"
players 2
variable total: number = 0
variable mover: player = 0
phase play
  repeat 2 times
    turn mover
      mover takes an action
    set mover = next_player(mover)
action up
  add 1 to total
action stay
scoring
  score = [1, 2][total]                     # SCORE
"""

# up and down forever: the heap never gets past 100
ENDLESS = """\
game "Endless"
players 2
variable mover: player = 0
variable total: number = 0
phase play
  repeat until total > 100
    turn mover
      mover takes an action                 # DECIDE
    set mover = next_player(mover)
action up
  add 1 to total
action down
  add -1 to total
scoring
  score = 0
"""

# a seat past the last one
START_PLAYER = """\
game "Start"
players 2
variable start_player: player = 0
variable total: number = 0
setup
  set start_player = total + 3              # SET: a seat only the game works out
phase play
  turn start_player
    start_player takes an action
action up
  add 1 to total
scoring
  score = total
"""

# every way an action can be refused, once once_only is taken
WHY = """\
game "Why"
players 2
component card
  | value | copies |
  | 1     | 3      |
zone deck: card
zone hand of each player: card
variable mover: player = 0
setup
  move all card to deck
  deal 1 from deck to hand(0)
phase play
  repeat 2 times
    turn mover
      mover takes an action                 # STUCK
action once_only once per game              # ONCE
action pair(cards: 2 of hand(me))           # PAIR
  move cards to deck
action swap(give: one of hand(me), take: one of deck where take.value != give.value)   # SWAP
  move give to deck
action trade(a: one of [1, 2], b: one of [1, 2])
  requires a + b > 10                       # TRADE
action wait
  requires 1 > 2                            # WAIT
scoring
  score = 0
"""

# an option that deals no cards
OPTION = """\
game "Option"
players 2
option hand_size = 2
component card
  | value | copies |
  | 1     | 9      |
zone deck: card
zone hand of each player: card
zone played: card
setup
  move all card to deck
  for each p in players
    deal hand_size from deck to hand(p)
phase play
  turn 0
    current takes an action
action play(c: one of hand(me))
  move c to played
scoring
  score = size(played)
"""


def write(tmp_path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def line_of(text: str, marker: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if f"# {marker}" in line)


def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, out, err


def found(out: str, path: Path, code: str) -> list:
    """(line, column, players, seed) of each finding of `code` in the output."""
    pattern = re.escape(str(path)) + r":(\d+):(\d+): error\[" + re.escape(code) \
        + r"\]: .*\((\d+) players, seed (-?\d+)\)"
    return [tuple(int(g) for g in m.groups()) for m in re.finditer(pattern, out)]


# -- validate --play ---------------------------------------------------------------

def test_a_table_that_leaves_a_player_stuck_is_found_with_its_player_count(capsys, tmp_path):
    path = write(tmp_path, "table.rules", TABLE)
    code, out, _ = run(capsys, "validate", path)
    assert code == 0 and f"{path}: ok" in out           # the static checks cannot see it

    code, out, _ = run(capsys, "validate", path, "--play", "4")
    assert code == 1
    line = line_of(TABLE, "STUCK")
    column = TABLE.splitlines()[line - 1].index("mover takes") + 1
    assert found(out, path, "rule/stuck") == [(line, column, 3, 0)]    # only 3 players
    assert f"{line:>4} |       mover takes an action" in out            # the line and its caret
    assert "\n" + " " * (len(f"{line:>4} | ") + column - 1) + "^" in out
    assert f"- play (line {line_of(TABLE, 'PLAY')}):" in out              # why, per action
    assert "= hint:" in out
    assert (f"rulebook play {path} --players 3 --seed 0 --ai 0=random --ai 1=random "
            f"--ai 2=random") in out
    assert "found in 4 of 8 random games" in out
    assert f"{path}: 1 error (8 random games)" in out
    assert "1 file checked: 0 valid, 1 invalid (1 error)" in out


def test_a_runtime_error_of_some_games_names_the_first_seed_that_found_it(capsys, tmp_path):
    path = write(tmp_path, "runtime.rules", RUNTIME)
    code, out, _ = run(capsys, "validate", path, "--play", "10")
    assert code == 1
    (line, column, players, seed), = found(out, path, "rule/runtime")
    assert (line, players) == (line_of(RUNTIME, "SCORE"), 2)
    failing = [s for s in range(10) if playcheck.play_one(load_rulebook(path), 2, s)]
    assert 0 < len(failing) < 10 and seed == failing[0]
    assert f"found in {len(failing)} of 10 random games" in out


def test_the_seed_option_moves_the_games(capsys, tmp_path):
    path = write(tmp_path, "runtime.rules", RUNTIME)
    game = load_rulebook(path)
    failing = [s for s in range(100, 110) if playcheck.play_one(game, 2, s)]
    code, out, _ = run(capsys, "validate", path, "--play", "10", "--seed", "100")
    assert code == 1
    assert [f[3] for f in found(out, path, "rule/runtime")] == [failing[0]]


def test_the_replay_plays_the_same_game_at_the_table(tmp_path):
    """`rulebook play FILE --players N --seed S --ai 0=random …` is the game
    the play check played: it fails exactly where the check's games fail."""
    path = write(tmp_path, "runtime.rules", RUNTIME)
    game = load_rulebook(path)
    for seed in range(8):
        error = playcheck.play_one(game, 2, seed)
        out = io.StringIO()
        repl = Repl(game, players=2, seed=seed, rulebook=str(path), ai={0: "random", 1: "random"},
                    console=Console(file=out, width=120, color_system=None),
                    input_fn=_no_input, save_dir=str(tmp_path))
        repl.run()
        at_table = f"{path}:{line_of(RUNTIME, 'SCORE')}:11: error[rule/runtime]" in out.getvalue()
        assert at_table == (error is not None), seed


def _no_input(prompt):
    raise EOFError


def test_an_endless_game_is_cut_off_and_named(capsys, tmp_path):
    path = write(tmp_path, "endless.rules", ENDLESS)
    code, out, _ = run(capsys, "validate", path, "--play", "5", "--max-decisions", "200")
    assert code == 1
    line = line_of(ENDLESS, "DECIDE")
    assert [f[0::2] for f in found(out, path, "rule/endless")] == [(line, 2)]
    assert "= hint:" in out and "--max-decisions" in out
    assert "4 skipped" in out                      # one endless game is enough
    assert f"{path}: 1 error" in out


def test_a_player_past_the_last_seat_is_found_at_its_set(capsys, tmp_path):
    path = write(tmp_path, "start.rules", START_PLAYER)
    code, out, _ = run(capsys, "validate", path, "--play", "3")
    assert code == 1
    line = line_of(START_PLAYER, "SET")
    assert [f[0::2] for f in found(out, path, "rule/runtime")] == [(line, 2)]
    assert "found in 3 of 3 random games" in out


def test_a_failed_setup_fails_every_game_alike(tmp_path):
    """A new game whose setup fails is not kept half-run for the next one."""
    game = load_rulebook(write(tmp_path, "start.rules", START_PLAYER))
    for seed in (0, 0, 1):
        assert playcheck.play_one(game, 2, seed).code == "rule/runtime"


@pytest.mark.parametrize("name", ["hanamikoji", "kuhn-poker", "festival-of-lights"])
def test_a_shipped_rulebook_passes(capsys, name):
    path = ROOT / "rulebooks" / f"{name}.rules"
    code, out, _ = run(capsys, "validate", path, "--play", "5")
    assert code == 0, out
    game = load_rulebook(path)
    games = 5 * (game.max_players - game.min_players + 1)
    assert f"{path}: ok ({games} random games played to the end)" in out
    assert "1 file checked: 1 valid, 0 invalid (0 errors)" in out


def test_play_without_a_number_plays_twenty_per_player_count(capsys, tmp_path):
    path = write(tmp_path, "table.rules", TABLE)
    code, out, _ = run(capsys, "validate", path, "--play")
    assert code == 1
    assert f"found in 20 of {2 * playcheck.GAMES} random games" in out


def test_options_are_checked_and_replayed(capsys, tmp_path):
    path = write(tmp_path, "option.rules", OPTION)
    code, out, _ = run(capsys, "validate", path, "--play", "2")
    assert code == 0 and f"{path}: ok (2 random games" in out
    code, out, _ = run(capsys, "validate", path, "--play", "2", "--option", "hand_size=0")
    assert code == 1
    assert found(out, path, "rule/stuck") and "--option hand_size=0" in out
    code, out, _ = run(capsys, "validate", path, "--option", "nosuch=1")
    assert code == 1 and "error[option/invalid]" in out


def test_static_errors_and_play_errors_are_counted_together(capsys, tmp_path):
    bad = write(tmp_path, "bad.rules", 'game "Broken"\nplayers two\n')
    table = write(tmp_path, "table.rules", TABLE)
    good = ROOT / "rulebooks" / "kuhn-poker.rules"
    code, out, _ = run(capsys, "validate", bad, table, good, "--play", "1")
    assert code == 1
    assert "error[rulebook/syntax]" in out and "error[rule/stuck]" in out
    assert f"{good}: ok" in out
    assert "3 files checked: 1 valid, 2 invalid (2 errors)" in out


@pytest.mark.parametrize("argv", [
    ["--play", "0"],
    ["--play", "-3"],
    ["--max-decisions", "0", "--play"],
    ["--seed", "4"],                      # --seed and --max-decisions are for --play
    ["--max-decisions", "50"],
])
def test_bad_play_arguments_are_usage_errors(capsys, argv):
    code, _, err = run(capsys, "validate", ROOT / "rulebooks" / "kuhn-poker.rules", *argv)
    assert code == cli.USAGE_EXIT and "error[command/usage]" in err


def test_a_file_after_a_bare_play_is_told_apart(capsys):
    code, _, err = run(capsys, "validate", "--play", ROOT / "rulebooks" / "kuhn-poker.rules")
    assert code == cli.USAGE_EXIT
    assert "error[command/usage]" in err and "--play" in err


# -- why rule/stuck ------------------------------------------------------------------

def test_stuck_says_why_each_action_is_refused(tmp_path):
    game = load_rulebook(write(tmp_path, "why.rules", WHY))
    state = game.new_game(2, 0)
    state = game.apply(state, game.parse_action(state, 0, "once_only"))
    with pytest.raises(RuleStuck) as info:
        game.legal_actions(state, 0)
    err = info.value
    assert err.code == "rule/stuck" and err.span.line == line_of(WHY, "STUCK")
    lines = WHY.splitlines()

    def at(marker, text):
        line = line_of(WHY, marker)
        return line, lines[line - 1].index(text) + 1

    reasons = {name: (span.line, span.column) for name, _, span in err.reasons}
    assert reasons == {
        "once_only": at("ONCE", "action"),           # its limit, used up
        "pair": at("PAIR", "2 of"),                   # the parameter without options
        "swap": at("SWAP", "one of deck"),            # the one no branch got past
        "trade": at("TRADE", "requires"),             # every combination fails it
        "wait": at("WAIT", "requires"),
    }
    assert "once per game" in dict((n, r) for n, r, _ in err.reasons)["once_only"]
    for name, _, span in err.reasons:                 # and the message lists them
        assert f"\n- {name} (line {span.line}): " in err.message


def test_stuck_at_a_step_that_offers_some_actions_only(tmp_path):
    """`takes an action from …` explains the actions of that step, no others."""
    text = WHY.replace("mover takes an action  ", "mover takes an action from pair, wait")
    game = load_rulebook(write(tmp_path, "from.rules", text))
    with pytest.raises(RuleStuck) as info:
        game.legal_actions(game.new_game(2, 0), 0)
    assert [name for name, _, _ in info.value.reasons] == ["pair", "wait"]


# -- the views of the table ----------------------------------------------------------

def test_a_view_that_fails_outside_the_rules_is_a_rule_error_at_the_decision(tmp_path):
    """A plain Python failure while a view is built is rule/runtime at the
    decision the game stands at, naming whose view it was."""
    game = load_rulebook(write(tmp_path, "endless.rules", ENDLESS))

    def broken(state, viewer):
        raise ZeroDivisionError("division by zero")
    game.view = broken
    error = playcheck.play_one(game, 2, 0)
    assert error.code == "rule/runtime" and error.span.line == line_of(ENDLESS, "DECIDE")
    assert "could not be shown to P0" in error.message


def test_every_viewer_is_looked_at_in_a_player_counts_games(tmp_path):
    game = load_rulebook(write(tmp_path, "endless.rules", ENDLESS))
    seen, view = set(), game.view

    def counted(state, viewer):
        seen.add(viewer)
        return view(state, viewer)
    game.view = counted
    playcheck.check(game, 3, max_decisions=200)
    assert seen == {0, 1, None}
