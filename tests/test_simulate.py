"""Simulation: seeding per game, reports, workers, Ctrl-C, compare, statistics.

The central promise is that a report depends on the plan alone: the same
games come out whether one process plays them, two do, or a Ray cluster;
only the `timing` part differs (and the command line that asked for them). Statistics are checked against values
computed by hand (table-driven).
"""

from __future__ import annotations

import contextlib
import io
import json
import math
import os
import random
import re
import socket
import sys
import threading
import tracemalloc
from pathlib import Path

import pytest
from rich.console import Console

from interpreter.terminal import cli
from interpreter import load_rulebook
from interpreter.simulation import parallel, stats
from interpreter.simulation.parallel import Source
from interpreter.terminal.reports import print_comparison, sparkline, win_sentence
from interpreter.simulation.simulate import (GameRecord, Plan, compare, play_game, simulate,
                                             summarize)

ROOT = Path(__file__).resolve().parent.parent
HANAMIKOJI = ROOT / "rulebooks" / "hanamikoji.rules"
COUNTER = ROOT / "tests" / "engine" / "counter.rules"


@pytest.fixture(scope="module")
def hanamikoji():
    return load_rulebook(str(HANAMIKOJI))


def without_timing(report: dict) -> dict:
    return {k: v for k, v in report.items() if k not in ("timing", "command")}


# -- seeds and records ------------------------------------------------------------------

def test_each_game_and_seat_has_its_own_seed():
    plan = Plan(players=3, seats=("random",) * 3, seed=10)
    assert plan.game_seed(0) == 10 and plan.game_seed(5) == 15
    seeds = {plan.ai_seed(i, s) for i in range(50) for s in range(3)}
    assert len(seeds) == 150
    assert Plan(3, ("random",) * 3, seed=10).ai_seed(7, 2) == plan.ai_seed(7, 2)
    assert Plan(3, ("random",) * 3, seed=11).ai_seed(7, 2) != plan.ai_seed(7, 2)


def test_a_game_alone_is_the_game_in_a_batch(hanamikoji):
    plan = Plan(players=2, seats=("greedy", "random"), seed=4)
    alone = play_game(hanamikoji, plan, 3)
    assert alone == play_game(hanamikoji, plan, 3)
    assert sum(alone.actions.values()) == alone.decisions
    assert alone.winners and alone.rounds >= 1 and len(alone.scores) == 2


def test_a_game_cut_off_has_no_winners_and_counts_apart(hanamikoji):
    plan = Plan(players=2, seats=("random", "random"), max_decisions=5)
    report = simulate(hanamikoji, plan, 3)
    assert report["capped"] == 3 and report["completed"] == 0
    assert [s["win_rate"] for s in report["seats"]] == [0.0, 0.0]
    assert report["total_decisions"] == 15


def record(index, winners, scores=(0, 0), decisions=10, rounds=1, actions=None):
    return GameRecord(index, winners, scores, decisions, rounds, actions or {"a": decisions})


def test_summary_counts_a_shared_win_as_a_fraction():
    plan = Plan(players=2, seats=("random", "greedy"))
    records = [record(0, (0,), (5, 3)), record(1, (0, 1), (4, 4)),
               record(2, (1,), (1, 9), actions={"a": 4, "b": 6}), record(3, None)]
    report = summarize(records, plan, 4)
    assert [s["wins"] for s in report["seats"]] == [1.5, 1.5]
    assert [s["win_rate"] for s in report["seats"]] == [0.5, 0.5]
    assert report["completed"] == 3 and report["capped"] == 1
    assert report["seats"][1]["ai"] == "greedy"
    assert report["seats"][1]["score"]["mean"] == pytest.approx(16 / 3)
    assert report["actions"] == {"a": {"count": 34, "share": 34 / 40},
                                 "b": {"count": 6, "share": 6 / 40}}


def test_a_draw_that_nobody_won_is_left_out_of_the_tests_against_an_even_share():
    # every seat gets 0 of a game nobody won: counted, it would put every
    # seat of an even game below 1/N, and a long run would call it unfair
    plan = Plan(players=2, seats=("random", "random"))
    records = [GameRecord(0, (0,), (1, 0), 2, 1, {"a": 2}, first=0),
               GameRecord(1, (1,), (0, 1), 2, 1, {"a": 2}, first=0),
               GameRecord(2, (), (0, 0), 2, 1, {"a": 2}, draw=True, first=0)]
    report = summarize(records, plan, 3)
    assert report["seats"][0]["win_rate"] == 1 / 3 and report["draws"]["no_winner"] == 1
    for key in ("seat_p0", "first_mover"):
        assert report[key]["n"] == 2 and report[key]["win_rate"] == 0.5
        assert report[key]["p"] == 1.0


def test_summary_does_not_depend_on_the_order_records_arrive():
    plan = Plan(players=2, seats=("random", "random"))
    records = [record(i, (i % 2,), (i, 10 - i), decisions=10 + i) for i in range(9)]
    assert summarize(records, plan, 9) == summarize(records[::-1], plan, 9)


def test_actions_by_seat_and_phase_margins_and_ends_are_counted_in_any_order():
    plan = Plan(players=2, seats=("random", "random"))
    records = [GameRecord(0, (0,), (5, 3), 3, 1, {"a": 2, "b": 1},
                          by_seat={(0, "a"): 2, (1, "b"): 1},
                          by_phase={("setup", "a"): 1, ("play", "a"): 1, ("play", "b"): 1},
                          margin=2, ended=(40, 3), decided_by="score"),
               GameRecord(1, (1,), (1, 1), 2, 1, {"a": 1, "b": 1},
                          by_seat={(0, "b"): 1, (1, "a"): 1},
                          by_phase={("play", "a"): 1, ("play", "b"): 1},
                          margin=0, ended=None, decided_by="most gold"),
               GameRecord(2, None, (0, 0), 4, 1, {"a": 4}, by_seat={(0, "a"): 4},
                          by_phase={("play", "a"): 4})]
    report = summarize(records, plan, 3)
    assert report == summarize(records[::-1], plan, 3)
    seat0 = report["actions_by_seat"][0]
    assert seat0["decisions"] == 7
    assert seat0["actions"] == {"a": {"count": 6, "share": 6 / 7}, "b": {"count": 1,
                                                                      "share": 1 / 7}}
    assert [(p["phase"], p["decisions"]) for p in report["actions_by_phase"]] == [
        ("play", 8), ("setup", 1)]              # without the game: by name
    assert report["margin"]["n"] == 2 and report["margin"]["mean"] == 1
    ends = report["endings"]
    assert ends["completed"] == 2 and ends["capped"] == 1
    assert [(e["end"], e["line"], e["games"]) for e in ends["ends"]] == [
        ("end game", 40, 1), ("last phase over", None, 1)]
    assert {d["by"]: d["games"] for d in ends["decided_by"]} == {"score": 1, "most gold": 1}


def test_win_rates_as_games_accumulate_are_in_game_order():
    plan = Plan(players=2, seats=("random", "random"))
    records = [GameRecord(i, w, (0, 0), 5, 1, {"a": 5}, first=f)
               for i, (w, f) in enumerate([((0,), 0), ((1,), 0), ((0, 1), 1), (None, 1)])]
    tally = simulate_tally(plan, 4, records[::-1])
    c = tally.report(plan, 4)["convergence"]
    assert c["games"] == [1, 2, 3, 4]
    assert c["completed"] == [1, 2, 3, 3]           # game 3 was cut off
    assert c["seats"][0]["win_rate"] == [1.0, 0.5, 0.5, 0.5]
    assert c["seats"][1]["win_rate"] == [0.0, 0.5, 0.5, 0.5]
    assert c["first_mover"]["win_rate"] == [1.0, 0.5, 0.5, 0.5]
    assert c["seats"][0]["ci95"][0] == list(stats.wilson(1.0, 1))
    # a game missing (a run cut short) ends the points before it
    c = simulate_tally(plan, 4, [r for r in records if r.index != 1]).report(plan, 4)
    assert c["convergence"]["games"] == [1]


def test_many_games_are_followed_at_fifty_points():
    from interpreter.simulation.simulate import CHECKPOINTS, checkpoints
    assert checkpoints(7) == list(range(1, 8))
    points = checkpoints(1000)
    assert len(points) == CHECKPOINTS and points[0] == 20 and points[-1] == 1000
    assert checkpoints(101)[-1] == 101 and len(checkpoints(101)) == CHECKPOINTS


def simulate_tally(plan, games, records):
    from interpreter.simulation.simulate import Tally
    tally = Tally(plan.players, games)
    for r in records:
        tally.add(r)
    return tally


@pytest.mark.parametrize("scores, ranking, lowest, margin", [
    ((5, 3), (0, 1), False, 2),
    ((3, 5), (0, 1), True, 2),          # the lowest wins: 3 beats 5 by 2
    ((4, 4), (1, 0), False, 0),         # a tie-break decided
    ((2, 6), (0, 1), False, -4),        # the rulebook's winners rule named the lower score
    ((7,), (0,), False, None),          # one player: no runner-up
])
def test_the_score_margin_is_the_first_of_the_ranking_over_the_second(scores, ranking,
                                                                       lowest, margin):
    from interpreter.game.engine import Outcome
    from interpreter.simulation.simulate import score_margin
    outcome = Outcome(scores, ranking, (ranking[0],), lowest_wins=lowest)
    assert score_margin(outcome) == margin


def test_a_report_names_the_end_that_ended_each_game(hanamikoji):
    plan = Plan(players=2, seats=("random", "random"))
    report = simulate(hanamikoji, plan, 6)
    (end,) = report["endings"]["ends"]
    assert end["games"] == 6 and end["line"] == 121
    assert end["text"] == ("end game (line 121) under if any(p in players where "
                           "has_won(p)) (line 108)")
    assert [p["phase"] for p in report["actions_by_phase"]] == ["round"]
    kalah = load_rulebook(str(ROOT / "rulebooks" / "kalah.rules"))
    (end,) = simulate(kalah, plan, 2)["endings"]["ends"]
    assert end["line"] is None and end["text"] == "the end of the last phase (play)"


# -- workers ----------------------------------------------------------------------------

def run_cli_json(tmp_path, name, *argv):
    out = tmp_path / f"{name}.json"
    assert cli.main([*argv, "--json", str(out), "--quiet"]) == 0
    return json.loads(out.read_text())


def test_one_or_two_workers_give_the_same_report(tmp_path, capsys):
    argv = ["simulate", "hanamikoji", "--games", "10", "--seed", "6", "--ai", "0=greedy",
            "--ai", "1=ismcts", "--iterations", "4", "--coverage"]
    one = run_cli_json(tmp_path, "one", *argv, "--workers", "1")
    two = run_cli_json(tmp_path, "two", *argv, "--workers", "2")
    capsys.readouterr()
    assert one["timing"]["workers"] == 1 and two["timing"]["workers"] == 2
    assert without_timing(one) == without_timing(two)
    assert one["completed"] == 10
    assert one["coverage"]["total"] > one["coverage"]["fired"] > 0
    assert one["convergence"]["games"] == list(range(1, 11))
    assert "--workers 1 --json" in one["command"] and "--workers 2 --json" in two["command"]


def test_chunks_cover_every_game_once_per_source():
    for games, workers, sources in ((1, 4, 1), (10, 2, 2), (1000, 3, 1), (7, 1, 2)):
        got = list(parallel.iter_chunks(games, workers, sources))
        for which in range(sources):
            indices = [i for w, a, b in got if w == which for i in range(a, b)]
            assert indices == list(range(games))


def test_a_rule_error_in_a_worker_names_the_game_and_keeps_its_code(tmp_path):
    loop = Source(str(ROOT / "tests" / "engine" / "loop.rules"))
    with pytest.raises(Exception) as caught:
        parallel.run([loop], Plan(2, ("random", "random")), 2, workers=2)
    assert caught.value.code == "rule/loop"
    assert "game 0" in caught.value.message or "game 1" in caught.value.message


def interrupt_after(count: int):
    def progress(done, _total):
        if done >= count:
            raise KeyboardInterrupt
    return progress


@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_keeps_the_games_already_finished(hanamikoji, workers):
    plan = Plan(players=2, seats=("random", "random"), seed=1)
    batch = parallel.run([Source(str(HANAMIKOJI))], plan, 400, loaded=[hanamikoji],
                         workers=workers, progress=interrupt_after(3), keep_records=True)
    assert batch.interrupted
    finished = batch.records[0]
    assert batch.tallies[0].played == len(finished)
    assert 3 <= len(finished) < 400
    assert all(r == play_game(hanamikoji, plan, r.index) for r in finished[:3])


def interrupt_at(monkeypatch, k: int) -> None:
    """Ctrl-C as game `k` of a one-worker run is about to start."""
    real = parallel.play_game

    def stop(game, plan, index):
        if index == k:
            raise KeyboardInterrupt
        return real(game, plan, index)
    monkeypatch.setattr(parallel, "play_game", stop)


def test_ctrl_c_prints_the_partial_report(monkeypatch, capsys):
    interrupt_at(monkeypatch, 5)
    code = cli.main(["simulate", "hanamikoji", "--games", "50", "--workers", "1", "--quiet"])
    out, err = capsys.readouterr()
    assert code == 130
    assert "interrupted" in out and "5 games finished" in out
    assert "Traceback" not in out + err


# -- workers that die ------------------------------------------------------------------

KUHN = ["simulate", "kuhn-poker", "--games", "1000", "--seed", "9"]


def chunk_of(game: int, games: int = 1000, sources: int = 1) -> tuple:
    """(start, stop) of the chunk that holds `game` in a run of two workers."""
    return next((a, b) for _, a, b in parallel.iter_chunks(games, 2, sources) if a <= game < b)


@pytest.fixture
def kill_at(monkeypatch):
    """kill_at(start, times): a worker process kills itself (SIGKILL, as
    `kill -9 PID` would) as it starts the chunk beginning at game `start`,
    the first `times` times that chunk is played."""
    def kill(start: int, times: int) -> None:
        monkeypatch.setattr(parallel, "_KILL_AT", (start, times))
    return kill


@contextlib.contextmanager
def another_thread():
    """A thread running meanwhile, as a progress display's does."""
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        thread.join()


@pytest.mark.parametrize("threads", [1, 2], ids=["forked", "spawned"])
def test_a_worker_killed_mid_run_is_replaced_and_the_report_is_that_of_no_death(
        tmp_path, capsys, kill_at, threads):
    """Its chunk is played again on the same seeds: the report, but for
    `timing` (which counts the chunk played again), and the records are
    those of one worker. The new worker is forked, or started afresh while
    this process runs another thread (a thread some other test left running
    makes both cases the second)."""
    one = run_cli_json(tmp_path, "one", *KUHN, "--coverage", "--workers", "1",
                       "--records", str(tmp_path / "one.jsonl"))
    kill_at(chunk_of(400)[0], 1)
    with another_thread() if threads == 2 else contextlib.nullcontext():
        assert threading.active_count() >= threads
        two = run_cli_json(tmp_path, "two", *KUHN, "--coverage", "--workers", "2",
                           "--records", str(tmp_path / "two.jsonl"))
    capsys.readouterr()
    assert two["timing"]["replayed_chunks"] == 1 and one["timing"].get("replayed_chunks") is None
    assert not two["interrupted"] and two["played"] == 1000
    assert without_timing(two) == without_timing(one)
    assert (tmp_path / "two.jsonl").read_bytes() == (tmp_path / "one.jsonl").read_bytes()


def test_a_chunk_whose_worker_dies_every_time_ends_the_run_with_the_games_finished(
        tmp_path, capsys, kill_at):
    """Played three times (two retries), the chunk is given up: the report
    of the games finished is written and printed, marked interrupted, as at
    Ctrl-C, and the error names the games and the signal that killed the
    worker."""
    full = tmp_path / "full.jsonl"
    assert cli.main([*KUHN, "--workers", "1", "--records", str(full), "--quiet"]) == 0
    start, stop = chunk_of(400)
    kill_at(start, parallel.RETRIES + 1)
    paths = {flag: tmp_path / f"two{flag[1:]}" for flag in ("--json", "--records")}
    capsys.readouterr()
    code = cli.main([*KUHN, "--workers", "2",
                     *(str(x) for flag, path in paths.items() for x in (flag, path))])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err and "internal" not in err
    first, hint = err.strip().splitlines()
    assert re.fullmatch(rf"error\[simulate/worker\]: a worker process failed on games "
                        rf"{start}–{stop - 1} of kuhn-poker \(played 3 times\): pid \d+ was "
                        rf"killed by SIGKILL", first), first
    assert "killed" in hint and "memory" in hint
    report = json.loads(paths["--json"].read_text())
    played = report["played"]
    assert report["interrupted"] and 0 < played <= 1000 - (stop - start)
    assert report["timing"]["replayed_chunks"] == parallel.RETRIES
    assert f"interrupted: the figures of the {played} games finished" in out
    finished = paths["--records"].read_text().splitlines()
    assert len(finished) == played and set(finished) <= set(full.read_text().splitlines())


def test_a_comparison_with_a_worker_killed_is_that_of_no_death(tmp_path, capsys, kill_at):
    """Both sides' chunks of those games die once, and are played again."""
    argv = ["compare", str(COUNTER), str(COUNTER), "--variant-option", "target=3",
            "--games", "400", "--seed", "4"]
    one = run_cli_json(tmp_path, "one", *argv, "--workers", "1")
    kill_at(chunk_of(150, games=400, sources=2)[0], 1)
    two = run_cli_json(tmp_path, "two", *argv, "--workers", "2")
    capsys.readouterr()
    assert two["base"]["timing"]["replayed_chunks"] == 2
    assert two["comparison"] == one["comparison"] and not two["comparison"]["interrupted"]
    for side in ("base", "variant"):
        assert without_timing(two[side]) == without_timing(one[side])


def test_an_exception_outside_the_rules_in_a_worker_is_raised_as_with_one_worker(monkeypatch):
    """Not a death, and not played again (on the same seeds it would raise
    again): the run stops with it, as with one worker."""
    real = parallel.play_game

    def broken(game, plan, index):
        if index == 50:
            raise ValueError(f"no game {index} here")
        return real(game, plan, index)
    monkeypatch.setattr(parallel, "play_game", broken)   # forked workers have it too
    game = load_rulebook("kuhn-poker")
    for workers in (1, 2):
        with pytest.raises(ValueError, match="^no game 50 here$"):
            parallel.run([Source.of(game, "kuhn-poker")], Plan(2, ("random", "random")), 200,
                         loaded=[game], workers=workers)


# -- compare ----------------------------------------------------------------------------

def test_compare_plays_the_same_games_on_both(tmp_path, capsys):
    same = run_cli_json(tmp_path, "same", "compare", "hanamikoji", "hanamikoji",
                        "--games", "6", "--workers", "1")
    assert without_timing(same["base"]) == without_timing(same["variant"])
    for row in same["comparison"]["seats"]:
        assert row["win_rate"]["difference"] == 0 and row["win_rate"]["p"] == 1.0
    assert "same rules" in capsys.readouterr().out


def test_compare_a_variant_option(tmp_path, capsys):
    result = run_cli_json(tmp_path, "variant", "compare", str(COUNTER), str(COUNTER),
                          "--variant-option", "target=3", "--games", "30", "--workers", "1")
    capsys.readouterr()
    assert result["variant"]["options"]["target"] == 3
    assert result["base"]["options"]["target"] == 10
    assert result["variant"]["decisions"]["mean"] < result["base"]["decisions"]["mean"]
    comparison = result["comparison"]
    assert comparison["pairs"] == 30 and "paired" in comparison["test"]
    assert len(comparison["seats"]) == 2


def test_compare_report_reads_as_sentences():
    row = {"seat": 1, "ai": "random",
           "base": {"win_rate": 0.503, "half_width": 0.012, "score": 9.8},
           "variant": {"win_rate": 0.541, "half_width": 0.012, "score": 10.1},
           "win_rate": {"difference": 0.038, "half_width": 0.011, "p": 0.003, "z": 3.0, "n": 9},
           "score": {"difference": 0.3, "half_width": 0.5, "p": 0.24, "z": 1.1, "n": 9}}
    assert win_sentence(row, 0.05) == (
        "P1 (random) wins 54.1% ± 1.2 with the variant vs 50.3% ± 1.2 with the base "
        "(+3.8 points ± 1.1): significant (p = 0.003)")
    console = Console(file=io.StringIO(), width=100)
    print_comparison({"seats": [row], "alpha": 0.05, "pairs": 9, "test": "paired"}, console,
                     "base", "variant")
    text = console.file.getvalue()
    assert "P1 scores 10.10 vs 9.80 on average (+0.30 ± 0.50): not significant (p = 0.240)" in text


def test_compare_pairs_only_games_both_finished():
    plan = Plan(players=2, seats=("random", "random"))
    base = [record(0, (0,)), record(1, (1,)), record(2, None)]
    variant = [record(0, (1,)), record(2, (0,))]
    result = compare(base, variant, plan)
    assert result["pairs"] == 1
    assert result["seats"][0]["win_rate"]["difference"] == -1.0


# -- statistics -------------------------------------------------------------------------

@pytest.mark.parametrize("successes, n, low, high", [
    (50, 100, 0.4038, 0.5962),
    (0, 10, 0.0, 0.2775),
    (10, 10, 0.7225, 1.0),
    (2.5, 5, 0.1704, 0.8296),
])
def test_wilson_interval(successes, n, low, high):
    got = stats.wilson(successes, n)
    assert got == pytest.approx((low, high), abs=1e-4)


@pytest.mark.parametrize("xs, q, expected", [
    ([1, 2, 3, 4], 0.5, 2.5), ([1, 2, 3, 4], 0.0, 1), ([1, 2, 3, 4], 1.0, 4),
    ([5], 0.9, 5), ([1, 2, 3, 4, 5], 0.25, 2),
])
def test_quantile(xs, q, expected):
    assert stats.quantile(xs, q) == expected


def test_describe_and_histogram():
    d = stats.describe([3, 1, 2, 2])
    assert (d["mean"], d["min"], d["max"], d["n"]) == (2, 1, 3, 4)
    assert d["sd"] == pytest.approx(math.sqrt(2 / 3))
    assert d["histogram"]["counts"] == [1, 2, 1]
    wide = stats.histogram(list(range(100)))             # 100 numbers: bins of 5
    assert wide["counts"] == [5] * 20
    assert wide["edges"] == [-0.5 + 5 * k for k in range(21)]
    assert stats.describe([])["n"] == 0
    assert sparkline({"counts": [1, 0, 8]}) == "▁ █"


def test_integer_scores_get_one_bin_a_number():
    h = stats.histogram(list(range(2, 19)) + [5, 5])
    assert len(h["counts"]) == 17 and h["counts"][3] == 3 and sum(h["counts"]) == 19
    assert h["edges"] == [1.5 + k for k in range(18)]
    assert stats.histogram([3.0, 4.0, 4.0])["edges"] == [2.5, 3.5, 4.5]
    forty = stats.histogram([0, 39])
    assert len(forty["counts"]) == 40
    for xs, width in (([0, 40], 2), ([1, 99], 5), ([-7, 150], 5), ([0, 399], 10)):
        h = stats.histogram(xs)
        widths = {b - a for a, b in zip(h["edges"], h["edges"][1:])}
        assert widths == {width} and len(h["counts"]) <= stats.MAX_INTEGER_BINS
        assert h["edges"][0] % 1 == 0.5 and h["edges"][0] < min(xs) < max(xs) < h["edges"][-1]
        assert sum(h["counts"]) == 2
    # other values: equal bins between the smallest and the largest
    assert len(stats.histogram([0.5, 1.7, 2.25])["counts"]) == 10


def test_histograms_share_edges_with_the_values_they_are_drawn_with():
    base, variant = stats.Counter({2: 3, 9: 1}), stats.Counter({5: 2, 14: 1})
    h = stats.histogram_of(base, span=variant)
    assert h == {"edges": [1.5 + k for k in range(14)],
                 "counts": [3, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0]}
    assert stats.histogram_of(variant, span=base)["edges"] == h["edges"]
    assert stats.histogram_of(base, span=base) == stats.histogram_of(base)


def test_compare_draws_both_rulebooks_on_the_same_bins(tmp_path, capsys):
    result = run_cli_json(tmp_path, "bins", "compare", str(COUNTER), str(COUNTER),
                          "--variant-option", "target=3", "--games", "30", "--workers", "1")
    capsys.readouterr()
    base, variant = result["base"], result["variant"]
    assert variant["decisions"]["max"] < base["decisions"]["max"]
    for b, v in [(base["decisions"], variant["decisions"]), (base["rounds"], variant["rounds"])] \
            + [(bs["score"], vs["score"]) for bs, vs in zip(base["seats"], variant["seats"])]:
        assert b["histogram"]["edges"] == v["histogram"]["edges"]
        assert sum(b["histogram"]["counts"]) == b["n"] and sum(v["histogram"]["counts"]) == v["n"]
    # a simulation alone bins its own values
    alone = run_cli_json(tmp_path, "alone", "simulate", str(COUNTER), "--option", "target=3",
                         "--games", "30", "--workers", "1")
    capsys.readouterr()
    assert alone["decisions"]["histogram"]["edges"][0] == alone["decisions"]["min"] - 0.5
    assert alone["decisions"]["histogram"]["edges"][-1] == alone["decisions"]["max"] + 0.5


@pytest.mark.parametrize("base, variant, difference, p", [
    ([0, 1, 0, 1], [0, 1, 0, 1], 0.0, 1.0),       # the same games: no difference
    ([0, 0, 0, 0], [1, 1, 1, 1], 1.0, 0.0),       # a constant difference
    ([0, 1, 0, 1, 1, 0], [1, 1, 0, 1, 1, 1], 1 / 3, 0.1138),
])
def test_paired_test(base, variant, difference, p):
    got = stats.paired_test(base, variant)
    assert got["difference"] == pytest.approx(difference)
    assert got["p"] == pytest.approx(p, abs=1e-4)


# -- the Ray path, on a stand-in (tests/adapters/test_ray.py runs it on Ray) ------------

class FakeRay:
    """Just enough of Ray's API, run in this process, to test the Ray path
    without Ray: results must equal the local ones, failures be one line
    (tests/adapters/test_ray.py runs the same path on a real Ray)."""

    class Ref:
        def __init__(self, value):
            self.value = value

    class exceptions:  # noqa: N801 - the name of Ray's module
        class RayError(Exception):
            pass

    def __init__(self, unreachable: bool = False):
        self.unreachable = unreachable
        self.address = "unset"
        self.initialized = False
        self.killed = 0

    def init(self, address=None, **_):
        self.address = address
        if self.unreachable:
            for attempt in range(3):       # as Ray's C++ core writes, past Python's logging
                os.write(2, f"[2026-12-01 14:58:1{attempt},855 W 1 1] gcs_client.cc:210: "
                            "Failed to get cluster ID from GCS server: InvalidAuthToken\n"
                         .encode())
            raise ConnectionError(f"Could not connect to {address}\nafter 10 retries")
        self.initialized = True

    def is_initialized(self):
        return self.initialized

    def shutdown(self):
        self.initialized = False

    def cluster_resources(self):
        return {"CPU": 3.0}

    def put(self, value):
        return self.Ref(value)

    def remote(self, **_options):
        """`ray.remote(num_cpus=…)(cls)`: an actor class whose methods run at once."""
        ray = self

        def value(a):
            return a.value if isinstance(a, ray.Ref) else a

        class Method:
            def __init__(self, bound):
                self.bound = bound

            def remote(self, *args):
                return ray.Ref(self.bound(*map(value, args)))

        class Actor:
            def __init__(self, instance):
                self.instance = instance

            def __getattr__(self, name):
                return Method(getattr(self.instance, name))

        class ActorClass:
            def __init__(self, cls):
                self.cls = cls

            def remote(self, *args):
                return Actor(self.cls(*map(value, args)))
        return ActorClass

    def wait(self, refs, num_returns=1):
        return refs[:num_returns], refs[num_returns:]

    def get(self, ref):
        return ref.value

    def kill(self, actor):
        self.killed += 1


def test_the_ray_path_gives_the_local_report(tmp_path, capsys, monkeypatch):
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    argv = ["simulate", "hanamikoji", "--games", "5", "--seed", "2", "--coverage",
            "--ai", "1=greedy"]
    local = run_cli_json(tmp_path, "local", *argv, "--workers", "1")
    remote = run_cli_json(tmp_path, "ray", *argv, "--backend", "ray", "--address", "auto")
    capsys.readouterr()
    assert fake.address == "auto"
    assert remote["timing"]["backend"] == "ray" and remote["timing"]["workers"] == 3
    assert without_timing(local) == without_timing(remote)
    assert fake.killed == 3 and not fake.initialized     # the Ray it started is shut down


def test_ray_workers_are_at_most_the_cluster_cpus(tmp_path, capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", FakeRay())
    argv = ["simulate", "hanamikoji", "--games", "4", "--backend", "ray"]
    assert run_cli_json(tmp_path, "one", *argv, "--workers", "1")["timing"]["workers"] == 1
    assert run_cli_json(tmp_path, "many", *argv, "--workers", "8")["timing"]["workers"] == 3
    capsys.readouterr()


def test_without_an_address_ray_starts_here_or_joins_ray_address(tmp_path, capsys, monkeypatch):
    """Never the cluster `ray start` last recorded on the machine, which
    Ray would join (and retry for minutes when it is gone)."""
    fake = FakeRay()
    monkeypatch.setitem(sys.modules, "ray", fake)
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    argv = ["simulate", "hanamikoji", "--games", "2", "--backend", "ray"]
    run_cli_json(tmp_path, "here", *argv)
    assert fake.address == "local"
    monkeypatch.setenv("RAY_ADDRESS", "auto")
    run_cli_json(tmp_path, "there", *argv)
    assert fake.address == "auto"
    capsys.readouterr()


def ray_error(capsys, address: str) -> tuple:
    code = cli.main(["simulate", "hanamikoji", "--games", "2", "--backend", "ray",
                     "--address", address, "--quiet"])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err
    return tuple(err.strip().splitlines())


def test_an_unreachable_ray_cluster_is_a_one_line_error(capsys, monkeypatch):
    """Nothing listens at the address: said at once, before Ray retries for
    minutes."""
    monkeypatch.setitem(sys.modules, "ray", FakeRay())
    with socket.socket() as closed:
        closed.bind(("127.0.0.1", 0))
        address = "127.0.0.1:%d" % closed.getsockname()[1]
    line, hint = ray_error(capsys, address)
    assert line.startswith("error[simulate/ray-unreachable]") and address in line
    assert "ray start --head" in hint and sys.modules["ray"].address == "unset"


def test_a_cluster_that_refuses_is_an_error_with_ray_s_reason(capsys, monkeypatch):
    """Something listens, but Ray cannot join it: the reason its C++ core
    wrote to stderr (and the last of its retries only) is in the message."""
    monkeypatch.setitem(sys.modules, "ray", FakeRay(unreachable=True))
    with socket.create_server(("127.0.0.1", 0)) as server:
        address = "127.0.0.1:%d" % server.getsockname()[1]
        line, hint = ray_error(capsys, address)
    assert line.startswith("error[simulate/ray-unreachable]") and address in line
    assert line.endswith("(Failed to get cluster ID from GCS server: InvalidAuthToken)")
    assert "RAY_AUTH_MODE=token" in hint


def test_a_run_keeps_counts_not_records(hanamikoji):
    plan = Plan(players=2, seats=("random", "random"), seed=2)
    batch = parallel.run([Source(str(HANAMIKOJI))], plan, 30, loaded=[hanamikoji])
    assert batch.records is None and batch.tallies[0].played == 30
    kept = parallel.run([Source(str(HANAMIKOJI))], plan, 30, loaded=[hanamikoji],
                        keep_records=True)
    assert batch.tallies[0].report(plan, 30) == summarize(kept.records[0], plan, 30)


def test_a_comparison_is_paired_as_the_records_arrive(hanamikoji):
    plan = Plan(players=2, seats=("random", "greedy"), seed=3)
    sources = [Source(str(HANAMIKOJI)), Source(str(HANAMIKOJI), {"first_player": "P0"})]
    batch = parallel.run(sources, plan, 20, workers=2, keep_records=True)
    assert batch.pairing.report(plan) == compare(batch.records[0], batch.records[1], plan)
    assert batch.pairing.pairs == 20 and not any(batch.pairing.waiting)


def test_chunks_are_made_as_they_are_sent():
    todo = parallel.iter_chunks(10 ** 12, 2, 1)          # a list of these would not fit
    assert next(todo) == (0, 0, parallel.MAX_CHUNK)


BILLION = 10 ** 9
# What starting a run may allocate, whatever the number of games: a list of
# a billion seeds, records or chunks would take gigabytes, a range made a
# list too; the engine's caches and the report take a few megabytes.
START_BYTES = 8 * 2 ** 20


def peak_bytes(run) -> tuple:
    """What `run()` gave, and the peak of the memory Python allocated meanwhile."""
    tracemalloc.start()
    try:
        value = run()
        return value, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("workers", [1, 2])
def test_a_billion_games_start_in_constant_memory(hanamikoji, workers):
    plan = Plan(players=2, seats=("random", "random"), seed=5)
    source = Source.of(hanamikoji, str(HANAMIKOJI))
    batch, peak = peak_bytes(lambda: parallel.run(
        [source], plan, BILLION, loaded=[hanamikoji], workers=workers,
        progress=interrupt_after(3)))
    assert batch.interrupted and 3 <= batch.tallies[0].played < 1000
    assert peak < START_BYTES, f"{peak / 2 ** 20:.1f} MB to start {BILLION} games"


def test_a_billion_games_compared_start_in_constant_memory(hanamikoji):
    plan = Plan(players=2, seats=("random", "random"), seed=5)
    sources = [Source.of(hanamikoji, str(HANAMIKOJI)),
               Source(str(HANAMIKOJI), {"first_player": "P0"})]
    batch, peak = peak_bytes(lambda: parallel.run(
        sources, plan, BILLION, loaded=[hanamikoji, sources[1].load()],
        progress=interrupt_after(4)))
    assert batch.interrupted and batch.pairing.pairs >= 1
    assert peak < START_BYTES, f"{peak / 2 ** 20:.1f} MB to start comparing {BILLION} games"


class Enough(Exception):
    pass


def test_simulate_in_this_process_plans_a_billion_games_lazily(hanamikoji):
    def stop(done, _total):
        if done == 3:
            raise Enough
    def three_games() -> None:
        with pytest.raises(Enough):
            simulate(hanamikoji, plan, BILLION, progress=stop)

    plan = Plan(players=2, seats=("random", "random"), seed=5)
    _, peak = peak_bytes(three_games)
    assert peak < START_BYTES, f"{peak / 2 ** 20:.1f} MB to start {BILLION} games"


def test_the_command_starts_a_billion_games_in_constant_memory(monkeypatch, capsys):
    interrupt_at(monkeypatch, 3)
    code, peak = peak_bytes(lambda: cli.main(["simulate", "hanamikoji", "--games", str(BILLION),
                                              "--workers", "1", "--quiet", "--json", "-"]))
    report = json.loads(capsys.readouterr().out)
    assert code == 130 and report["interrupted"] and report["played"] == 3
    assert report["games"] == BILLION
    assert peak < START_BYTES, f"{peak / 2 ** 20:.1f} MB for simulate --games {BILLION}"


def _describe_by_list(xs):
    """The summary worked out from the list itself, as a reader would: the
    oracle for the counts-based statistics of the reports."""
    s = sorted(xs)
    n = len(s)
    m = math.fsum(s) / n if n else 0.0
    sd = math.sqrt(math.fsum((x - m) ** 2 for x in s) / (n - 1)) if n > 1 else 0.0

    def q(p):
        if not s:
            return 0.0
        pos = p * (n - 1)
        lo = math.floor(pos)
        hi = min(lo + 1, n - 1)
        return s[lo] + (s[hi] - s[lo]) * (pos - lo)
    return n, m, sd, [q(p) for p in (0.1, 0.25, 0.5, 0.75, 0.9)]


def test_statistics_from_counts_equal_those_of_the_lists():
    rng = random.Random(5)
    for trial in range(400):
        size = rng.randrange(0, 40)
        xs = ([rng.randrange(-3, 30) for _ in range(size)] if trial % 3 == 0 else
              [rng.choice([0.0, 1.0, 0.5, 1 / 3]) for _ in range(size)] if trial % 3 == 1 else
              [rng.random() * 50 for _ in range(size)])
        got = stats.describe(xs)
        n, m, sd, qs = _describe_by_list(xs)
        assert (got["n"], got["mean"], got["sd"]) == (n, m, sd)
        assert list(got["quantiles"].values()) == qs
        assert sum(got["histogram"]["counts"]) == n


WORKERS_OF_A_KILLED_RUN = r"""
import multiprocessing, sys
from interpreter.simulation import parallel
from interpreter.simulation.simulate import Plan

def progress(done, _total):
    if done:
        print(" ".join(str(p.pid) for p in multiprocessing.active_children()), flush=True)
        sys.stdout.close()

parallel.run([parallel.Source(sys.argv[1])], Plan(2, ("random", "random")), 10 ** 9,
             workers=2, progress=progress)
"""


def running(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as file:
            return file.read().rsplit(")", 1)[1].split()[0] not in ("Z", "X")
    except FileNotFoundError:
        return False


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
def test_the_workers_of_a_killed_run_end_too():
    import signal
    import subprocess
    import time
    child = subprocess.Popen([sys.executable, "-c", WORKERS_OF_A_KILLED_RUN, str(HANAMIKOJI)],
                             stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        workers = [int(pid) for pid in child.stdout.readline().split()]
    finally:
        child.send_signal(signal.SIGKILL)
        child.wait()
    assert len(workers) == 2
    give_up = time.monotonic() + 10
    while any(running(pid) for pid in workers) and time.monotonic() < give_up:
        time.sleep(0.1)
    left = [pid for pid in workers if running(pid)]
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    assert not left, "workers outlived the run that started them"
