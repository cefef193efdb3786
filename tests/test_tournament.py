"""`rulebook tournament`: the pairings and seatings, the Elo fit and its
intervals (on results with a known answer), determinism, the entrants'
syntax and its error codes, and a real tournament on Nim
(tests/games/nim.rules) through the command line."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.ai.players import make_player, player_spec
from interpreter.errors import CommandError
from interpreter.simulation import tournament
from interpreter.simulation.parallel import Source
from interpreter.simulation.simulate import GameRecord
from interpreter.terminal import cli

ROOT = Path(__file__).resolve().parent.parent
NIM = ROOT / "tests" / "games" / "nim.rules"


# -- the Elo fit --------------------------------------------------------------------

def test_a_75_percent_score_is_191_elo():
    a, b = tournament.fit(["a", "b"], [("a", "b", 75, 100)], prior=0)
    assert a == 0 and b == pytest.approx(-400 * math.log10(3))      # -190.85
    assert tournament.expected(400 * math.log10(3)) == pytest.approx(0.75)


def test_three_entrants_on_a_consistent_table_recover_their_ratings():
    truth = {"x": 0.0, "y": 150.0, "z": 400.0}
    results = [(i, j, 1000 * tournament.expected(truth[i] - truth[j]), 1000)
               for i, j in (("x", "y"), ("x", "z"), ("y", "z"))]
    got = tournament.fit(["x", "y", "z"], results, prior=0)
    assert got == pytest.approx([0.0, 150.0, 400.0], abs=1e-6)


def test_a_sweep_stays_finite_with_the_prior_draw():
    # 10 wins and one virtual draw: 10.5 of 11, so 400·log10(10.5/0.5)
    _, b = tournament.fit(["a", "b"], [("a", "b", 10, 10)])
    assert b == pytest.approx(-400 * math.log10(21))


def test_the_standard_error_is_the_curvature_of_the_likelihood():
    # one pair, 75 of 100: the error of the log-odds is 1/sqrt(n·p·(1-p))
    _, (ea, eb) = tournament.fit_with_errors(["a", "b"], [("a", "b", 75, 100)], prior=0)
    assert ea == 0
    assert eb == pytest.approx(400 / math.log(10) / math.sqrt(100 * 0.75 * 0.25))   # 40.1


def test_a_sweep_has_a_wide_finite_interval():
    pair = tournament.Pair("a", "b", [(2.0, 2)] * 4)          # 8 games, all won by a
    row = {r["entrant"]: r for r in tournament.report(["a", "b"], [pair], 2, 8, 0)["ratings"]}
    low, high = row["b"]["interval"]
    assert row["a"]["interval"] == [0, 0]
    assert low < row["b"]["elo"] < high and 500 < high - low < math.inf


# -- pairings, seatings and a game's score ------------------------------------------

def test_seatings_alternate_the_two_entrants():
    assert tournament.arrangements("a", "b", 2) == [("a", "b"), ("b", "a")]
    assert tournament.arrangements("a", "b", 3) == [("a", "b", "a"), ("b", "a", "b")]
    assert tournament.arrangements("a", "b", 4) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]


def record(winners):
    return GameRecord(0, winners, (0, 0, 0), 1, 1)


def test_a_games_score_is_the_win_share_of_the_entrants_seats():
    seats = ("a", "b", "a")
    assert tournament.score_of(record((0,)), seats, "a") == 1
    assert tournament.score_of(record((1,)), seats, "a") == 0
    assert tournament.score_of(record((0, 1)), seats, "a") == 0.5
    assert tournament.score_of(record((0, 1, 2)), seats, "a") == pytest.approx(2 / 3)
    assert tournament.score_of(record(()), seats, "a") == 0.5       # nobody won
    assert tournament.score_of(record(None), seats, "a") == 0.5     # cut off


# -- the entrants -------------------------------------------------------------------

def test_a_search_budget_is_written_after_the_kind():
    assert player_spec("mcts:200") == ("mcts", {"iterations": 200})
    assert player_spec("greedy") == ("greedy", {})
    assert make_player("ismcts:7", seed=1).iterations == 7


@pytest.mark.parametrize("text, code", [
    ("random,genius", "command/unknown-ai"),
    ("random,mcts:0", "command/ai-budget"),
    ("random,mcts:lots", "command/ai-budget"),
    ("random:5,greedy", "command/ai-budget"),
    ("greedy", "command/tournament-entrants"),
    ("greedy,,random", "command/tournament-entrants"),
    ("greedy,greedy", "command/tournament-entrants"),
])
def test_bad_entrants_are_refused_with_a_code(text, code):
    with pytest.raises(CommandError) as caught:
        tournament.entrants_of(text)
    assert caught.value.code == code


# -- real games ---------------------------------------------------------------------

@pytest.fixture(scope="module")
def nim():
    return load_rulebook(str(NIM))


def test_every_pair_plays_each_deal_from_both_sides(nim):
    pairs = tournament.play(nim, Source.of(nim, str(NIM)), ["random", "greedy", "mcts:30"],
                            2, 5, seed=1)
    assert [(p.a, p.b) for p in pairs] == [("random", "greedy"), ("random", "mcts:30"),
                                          ("greedy", "mcts:30")]
    for p in pairs:
        assert p.games == 5 and [n for _, n in p.deals] == [2, 2, 1]
        assert p.wins + p.draws + p.losses == 5


def test_the_same_seed_gives_the_same_tournament(nim):
    def once():
        played = tournament.play(nim, Source.of(nim, str(NIM)), ["random", "greedy"], 2, 8,
                                 seed=4)
        return tournament.report(["random", "greedy"], played, 2, 8, 4)
    assert once() == once()


def test_the_command_ranks_random_below_greedy_and_mcts(capsys, tmp_path):
    out_file = tmp_path / "cup.json"
    code = cli.main(["tournament", str(NIM), "--ai", "random,greedy,mcts:50", "--games", "30",
                     "--seed", "2", "--json", str(out_file), "--quiet"])
    out, err = capsys.readouterr()
    assert code == 0 and "Traceback" not in out + err
    report = json.loads(out_file.read_text(encoding="utf-8"))
    elo = {row["entrant"]: row["elo"] for row in report["ratings"]}
    assert elo["random"] == 0 and elo["greedy"] > 100 and elo["mcts:50"] > elo["greedy"]
    assert report["ratings"][-1]["entrant"] == "random"
    assert report["matrix"]["greedy"]["random"] > 0.5
    assert all(row["games"] == 60 for row in report["ratings"])
    assert "mcts:50" in out and "95% interval" in out


@pytest.mark.parametrize("ai, code", [("random,genius", "command/unknown-ai"),
                                      ("random", "command/tournament-entrants"),
                                      ("random,mcts:0", "command/ai-budget")])
def test_a_bad_entrant_list_is_a_usage_error(capsys, ai, code):
    assert cli.main(["tournament", str(NIM), "--ai", ai]) == cli.USAGE_EXIT
    assert f"error[{code}]" in capsys.readouterr().err
