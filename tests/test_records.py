"""`--records FILE`: one JSON line per game, for a designer's own analysis.

Each line holds the game's number and seed, the seats' AI, the scores,
winners, win shares and draw, its length, the rulebook and options, and the
full action log, which replays the game move for move. Lines come in game
order whatever the number of workers, so the same seeds give the same file;
`compare` writes each game's base (A) and variant (B) lines one after the
other. The log is kept only when asked for.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.simulation import parallel
from interpreter.simulation.parallel import Source
from interpreter.simulation.simulate import Plan, play_game
from interpreter.terminal import cli

ROOT = Path(__file__).resolve().parent.parent
COUNTER = ROOT / "tests" / "engine" / "counter.rules"
FIELDS = ["game", "seed", "rulebook", "options", "players", "seats", "finished", "winners",
          "win_shares", "draw", "scores", "decisions", "rounds", "first", "margin",
          "end_line", "decided_by", "log", "log_seats"]


def simulate(tmp_path, name, *argv) -> tuple:
    records, report = tmp_path / f"{name}.jsonl", tmp_path / f"{name}.json"
    assert cli.main([*argv, "--records", str(records), "--json", str(report), "--quiet"]) == 0
    text = records.read_text(encoding="utf-8")
    return text, [json.loads(line) for line in text.splitlines()], json.loads(report.read_text())


def test_one_line_per_game_with_its_figures(tmp_path, capsys):
    _, lines, report = simulate(tmp_path, "hk", "simulate", "hanamikoji", "--games", "8",
                                "--seed", "5", "--ai", "1=greedy", "--workers", "1")
    capsys.readouterr()
    assert len(lines) == 8
    assert list(lines[0]) == FIELDS
    assert [r["game"] for r in lines] == list(range(8))
    assert [r["seed"] for r in lines] == list(range(5, 13))
    # Hanamikoji ends at its one 'end game', the winners named by its own rule
    assert {(r["end_line"], r["decided_by"]) for r in lines} == {(121, "winners")}
    assert all(r["margin"] == r["scores"][r["winners"][0]] - r["scores"][1 - r["winners"][0]]
               for r in lines)
    for r in lines:
        assert r["rulebook"] == "hanamikoji" and r["seats"] == ["random", "greedy"]
        assert r["options"] == report["options"] and r["players"] == 2
        assert r["finished"] and r["winners"] and len(r["scores"]) == 2
        assert len(r["log"]) == len(r["log_seats"]) == r["decisions"]
        assert sum(r["win_shares"]) == 1
    # the lines add up to the report's figures
    for seat in range(2):
        assert sum(r["win_shares"][seat] for r in lines) == report["seats"][seat]["wins"]
        assert sum(r["scores"][seat] for r in lines) / 8 == report["seats"][seat]["score"]["mean"]
    assert sum(r["decisions"] for r in lines) == report["total_decisions"]
    taken = {}
    for r in lines:
        for text in r["log"]:
            taken[text.split()[0]] = taken.get(text.split()[0], 0) + 1
    assert taken == {name: a["count"] for name, a in report["actions"].items()}


def test_the_first_mover_is_the_player_who_moved_first_not_seat_p0(tmp_path, capsys):
    """Hanamikoji draws its start player: each line names the seat that took
    the first decision, and the report's first mover is counted from them."""
    _, lines, report = simulate(tmp_path, "first", "simulate", "hanamikoji", "--games", "16",
                                "--seed", "3", "--ai", "1=greedy", "--workers", "1")
    text = capsys.readouterr().out
    assert all(r["first"] == r["log_seats"][0] for r in lines)
    assert {r["first"] for r in lines} == {0, 1}          # P1 moved first in some games
    finished = [r for r in lines if r["finished"]]
    by_hand = sum(r["win_shares"][r["first"]] for r in finished) / len(finished)
    first = report["first_mover"]
    assert first["win_rate"] == by_hand and first["n"] == len(finished)
    assert first["moved_first"] == [sum(r["first"] == seat for r in finished)
                                    for seat in (0, 1)]
    p0 = sum(r["win_shares"][0] for r in finished) / len(finished)
    assert report["seat_p0"]["win_rate"] == p0 == report["seats"][0]["win_rate"]
    assert by_hand != p0                                   # the two measures differ here
    assert f"the player who moved first (P0 in {first['moved_first'][0]}, P1 in " \
           f"{first['moved_first'][1]}) wins {by_hand:.1%}" in text
    assert f"seat P0: seat P0 wins {p0:.1%}" in text


def test_the_log_replays_the_game(tmp_path, capsys):
    _, lines, _ = simulate(tmp_path, "replay", "simulate", "hanamikoji", "--games", "3",
                           "--seed", "2", "--workers", "1")
    capsys.readouterr()
    game = load_rulebook("hanamikoji")
    for r in lines:
        state = game.new_game(players=2, seed=r["seed"])
        for seat, text in zip(r["log_seats"], r["log"]):
            assert seat in game.to_move(state)
            state = game.apply(state, game.parse_action(state, seat, text))
        outcome = game.outcome(state)
        assert list(outcome.scores) == r["scores"] and list(outcome.winners) == r["winners"]


def test_two_workers_write_the_same_file_as_one(tmp_path, capsys):
    argv = ["simulate", str(COUNTER), "--games", "300", "--players", "3", "--seed", "9"]
    one, _, _ = simulate(tmp_path, "one", *argv, "--workers", "1")
    two, lines, _ = simulate(tmp_path, "two", *argv, "--workers", "2")
    capsys.readouterr()
    assert one == two
    assert [r["game"] for r in lines] == list(range(300))


def test_a_game_cut_off_is_a_line_without_winners(tmp_path, capsys):
    _, lines, report = simulate(tmp_path, "cut", "simulate", "hanamikoji", "--games", "2",
                                "--max-decisions", "5", "--workers", "1")
    capsys.readouterr()
    assert report["capped"] == 2
    assert [(r["finished"], r["winners"], r["decisions"]) for r in lines] == [(False, None, 5)] * 2
    assert all(len(r["log"]) == 5 for r in lines)


def test_compare_writes_both_sides_of_each_game_in_turn(tmp_path, capsys):
    _, lines, result = simulate(tmp_path, "cmp", "compare", str(COUNTER), str(COUNTER),
                                "--variant-option", "target=3", "--games", "20", "--workers", "2")
    _, alone, _ = simulate(tmp_path, "base", "simulate", str(COUNTER), "--games", "20",
                           "--workers", "1")
    capsys.readouterr()
    assert len(lines) == 40
    assert [(r["game"], r["side"], r["pair"]) for r in lines] == \
        [(i, side, i) for i in range(20) for side in ("A", "B")]
    a = [r for r in lines if r["side"] == "A"]
    b = [r for r in lines if r["side"] == "B"]
    assert {r["options"]["target"] for r in a} == {10}
    assert {r["options"]["target"] for r in b} == {3}
    assert [{k: v for k, v in r.items() if k not in ("side", "pair")} for r in a] == alone
    assert sum(r["decisions"] for r in b) == result["variant"]["total_decisions"]


def test_ctrl_c_writes_the_games_finished(tmp_path, monkeypatch, capsys):
    real = parallel.play_game

    def stop(game, plan, index):
        if index == 4:
            raise KeyboardInterrupt
        return real(game, plan, index)
    monkeypatch.setattr(parallel, "play_game", stop)
    out = tmp_path / "cut.jsonl"
    code = cli.main(["simulate", "hanamikoji", "--games", "50", "--workers", "1", "--quiet",
                     "--records", str(out)])
    capsys.readouterr()
    assert code == 130
    assert [json.loads(line)["game"] for line in out.read_text().splitlines()] == [0, 1, 2, 3]


def test_the_log_is_kept_only_when_asked_for():
    game = load_rulebook(str(COUNTER))
    plain = Plan(players=2, seats=("random", "random"), seed=1)
    logged = Plan(players=2, seats=("random", "random"), seed=1, log_actions=True)
    assert play_game(game, plain, 0).log is None
    record = play_game(game, logged, 0)
    assert len(record.log) == record.decisions
    assert plain.to_json() == logged.to_json()       # the report does not tell them apart
    batch = parallel.run([Source(str(COUNTER))], plain, 6, loaded=[game], keep_records=True)
    assert all(r.log is None for r in batch.records[0])


@pytest.mark.parametrize("argv", [
    ["--records", "-"],
    ["--records", "/no/such/folder/games.jsonl"],
    ["--records", "same.json", "--json", "same.json"],
    ["--records", "."],
])
def test_a_bad_records_file_is_a_usage_error_before_any_game(capsys, argv, monkeypatch):
    monkeypatch.setattr(parallel, "play_game", None)      # no game may start
    code = cli.main(["simulate", "hanamikoji", "--games", "2", "--quiet", *argv])
    _, err = capsys.readouterr()
    assert code == 2
    assert err.startswith("error[command/usage]")
    assert "Traceback" not in err
