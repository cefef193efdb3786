"""`rulebook analyse`: each metric on hand-made traces with known answers,
the measures added up in any order and on any number of workers, and the
command on a tiny rulebook (docs/results.md, "rulebook analyse")."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.simulation import analysis
from interpreter.simulation.simulate import GameRecord, Plan, simulate, summarize
from interpreter.terminal import cli

ROOT = Path(__file__).resolve().parent.parent
COUNTER = ROOT / "tests" / "engine" / "counter.rules"


@pytest.mark.parametrize("scores, lowest, leader", [
    ((3, 1), False, 0),
    ((3, 5, 5), False, None),         # two share the best score: nobody leads alone
    ((3, 1), True, 1),                # the lowest wins
    ((0, 0), False, None),
    ((), False, None),
])
def test_the_sole_leader_is_the_one_best_score(scores, lowest, leader):
    assert analysis.sole_leader(scores, lowest) == leader


# Leaders after each decision (None: a tie for the lead), the winner, and
# the known answers: lead changes, decisiveness.
TRACES = [
    ("led from the first decision", [0, 0, 0, 0], 0, 0, 1.0),
    ("the lead changes twice", [0, 1, 1, 0], 0, 2, 1 / 4),
    ("a tie is no change", [0, None, 0, 0], 0, 0, 2 / 4),
    ("back and forth through ties", [0, None, 1, None, 0], 0, 2, 1 / 5),
    ("taken for good at half-time", [None, 1, 1, 0, 0, 0, 0, 0], 0, 1, 5 / 8),
    ("the winner never leads alone", [1, 1, None], 0, 0, 0.0),
    ("led all along but level at the end", [0, 0, None], 0, 0, 0.0),
    ("taken with the last decision", [1, 1, 1, 0], 0, 1, 1 / 4),
    ("no decision", [], 0, 0, 0.0),
]


@pytest.mark.parametrize("name, leaders, winner, changes, decisive", TRACES,
                         ids=[t[0] for t in TRACES])
def test_lead_changes_and_decisiveness_of_a_trace(name, leaders, winner, changes, decisive):
    assert analysis.lead_changes(leaders) == changes
    assert analysis.decisiveness(leaders, winner) == pytest.approx(decisive)


def test_a_watch_counts_branching_by_phase_and_leaders_after_each_decision():
    watch = analysis.Watch()
    for phase, legal, scores in (("setup", 2, (0, 0)), ("play", 5, (1, 0)),
                                 ("play", 5, (1, 2)), ("play", 3, (3, 2))):
        watch.decision(phase, legal)
        watch.after(scores)
    result = watch.result((0,))
    assert result == {"branching": {("setup", 2): 1, ("play", 5): 2, ("play", 3): 1},
                      "lead_changes": 2, "decisiveness": 1 / 4}
    assert watch.result((0, 1))["decisiveness"] is None      # a shared win: not one winner
    assert watch.result(None)["decisiveness"] is None        # cut off


def measured(index, winners, branching, changes, decisive, decisions=4):
    return GameRecord(index, winners, (0, 0), decisions, 1, {"a": decisions},
                      measured={"branching": branching, "lead_changes": changes,
                                "decisiveness": decisive})


def test_the_measures_of_many_games_are_added_in_any_order():
    plan = Plan(players=2, seats=("random", "random"), measure=True)
    records = [measured(0, (0,), {("play", 4): 3, ("setup", 1): 1}, 2, 0.25),
               measured(1, (0, 1), {("play", 2): 4}, 0, None),
               measured(2, None, {("play", 6): 4}, 5, None)]       # cut off
    report = summarize(records, plan, 3)
    assert report == summarize(records[::-1], plan, 3)
    a = report["analysis"]
    b = a["branching"]
    assert (b["decisions"], b["max"], b["min"]) == (12, 6, 1)
    assert b["mean"] == pytest.approx((12 + 1 + 8 + 24) / 12)
    assert [(p["phase"], p["decisions"], p["max"]) for p in b["by_phase"]] == [
        ("play", 11, 6), ("setup", 1, 1)]
    # lead changes of the games that ended; decisiveness of those one player won
    assert a["lead_changes"]["n"] == 2 and a["lead_changes"]["mean"] == 1.0
    assert a["lead_changes"]["games_with_a_change"] == 1
    assert a["decisiveness"]["n"] == 1 and a["decisiveness"]["mean"] == 0.25
    assert a["decisiveness"]["histogram"]["counts"] == [0, 0, 1, 0, 0, 0, 0, 0, 0, 0]
    assert "analysis" not in summarize(records, Plan(2, ("random", "random")), 3)


def test_decisiveness_is_binned_in_tenths_one_in_the_last():
    h = analysis.tenths(Counter({0.0: 2, 0.25: 1, 0.999: 1, 1.0: 3}))
    assert h["edges"][0] == 0 and h["edges"][-1] == 1 and len(h["counts"]) == 10
    assert h["counts"] == [2, 0, 1, 0, 0, 0, 0, 0, 0, 4]


def test_a_measured_game_is_the_game_unmeasured_with_its_measures(tmp_path):
    game = load_rulebook(str(COUNTER))
    plain = Plan(players=2, seats=("random", "random"), seed=3)
    plan = Plan(players=2, seats=("random", "random"), seed=3, measure=True)
    a, b = simulate(game, plain, 20), simulate(game, plan, 20)
    for key in ("seats", "decisions", "endings", "actions", "convergence"):
        assert a[key] == b[key]
    assert b["plan"]["measure"] is True and "measure" not in a["plan"]
    assert b["analysis"]["branching"]["decisions"] == b["total_decisions"]
    m = analysis.metrics(b)
    assert set(m) == {"duration", "branching", "decisiveness", "lead_changes", "drawishness",
                      "balance", "endings"}
    assert m["balance"]["largest_gap"] == max(abs(s["win_rate"] - 0.5) for s in b["seats"])


def run_analyse(tmp_path, name, *argv):
    out = tmp_path / f"{name}.json"
    code = cli.main(["analyse", str(COUNTER), "--games", "30", "--quiet", "--json", str(out),
                     *argv])
    return code, json.loads(out.read_text()) if out.exists() else None


def test_analyse_on_one_worker_or_two_gives_the_same_metrics(tmp_path, capsys):
    code, one = run_analyse(tmp_path, "one", "--workers", "1", "--seed", "5")
    assert code == 0
    code, two = run_analyse(tmp_path, "two", "--workers", "2", "--seed", "5")
    assert code == 0
    out = capsys.readouterr().out
    assert one["metrics"] == two["metrics"]
    assert {k: v for k, v in one.items() if k not in ("timing", "command")} == \
        {k: v for k, v in two.items() if k not in ("timing", "command")}
    assert set(one["metrics"]) == {"duration", "branching", "decisiveness", "lead_changes",
                                   "drawishness", "balance", "endings", "never_used"}
    assert one["fingerprint"] == load_rulebook(str(COUNTER)).fingerprint
    assert one["command"].startswith("rulebook analyse ")
    for line in ("duration: ", "branching factor: ", "decisiveness: ", "lead changes: ",
                 "drawishness: ", "balance by seat: ", "first mover's advantage: ",
                 "how games end: ended by end game (line 36) under if total >= target (line 35)",
                 "rules never used:"):
        assert line in out


def test_analyse_plays_two_hundred_games_unless_told(capsys):
    parser = cli.build_parser()
    assert parser.parse_args(["analyse", "counter"]).games == cli.ANALYSE_GAMES == 200
    assert parser.parse_args(["simulate", "counter"]).games == 100


@pytest.mark.parametrize("argv, words", [
    (["--games", "0"], "--games must be at least 1"),
    (["--players", "9"], "for 2 to 4 players"),
    (["--report", "page.txt"], "does not end in .html"),
])
def test_analyse_refuses_bad_arguments_with_a_code(tmp_path, capsys, argv, words):
    assert cli.main(["analyse", str(COUNTER), "--quiet", *argv]) == 2
    err = capsys.readouterr().err
    assert words in err and "error[" in err
