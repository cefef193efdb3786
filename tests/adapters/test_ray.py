"""`simulate` and `compare` on a real Ray: the same games as one local worker.

The core suite runs the Ray path of `interpreter.simulation.parallel` on a
stand-in (tests/test_simulate.py); these tests run it on Ray itself, a
local instance of two CPUs started once for the module, and check what the
stand-in cannot: that the sources (the checked IR) and the plan travel to
the actors and back, that two workers on Ray give the report of one local
worker — every part but `timing` and the `command` line — and the very records per game, that a
rule error, Ctrl-C and a worker that cannot start end the run as they do
locally, and that the command line starts and stops a Ray of its own
without a word on stderr.
"""

from __future__ import annotations

import json
import re
import logging
import os
import secrets
import signal
import subprocess
import sys
from pathlib import Path
from typing import Optional

import pytest

ray = pytest.importorskip("ray")

from interpreter import RulebookError, load_rulebook  # noqa: E402
from interpreter.errors import RayWorkerFailed  # noqa: E402
from interpreter.simulation import parallel  # noqa: E402
from interpreter.simulation.parallel import Source  # noqa: E402
from interpreter.simulation.simulate import Plan  # noqa: E402
from interpreter.terminal import cli  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
LOOP = ROOT / "tests" / "engine" / "loop.rules"

@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """One Ray for the module, which `--dist loadfile` (README's third
    command) keeps on one pytest-xdist worker. Its token authentication has
    a token of its own in RAY_AUTH_TOKEN, which the command's Ray (started by
    a test) inherits: else Ray would write one to ~/.ray/auth_token, which
    would switch authentication on for a later `ray start` there."""
    saved = {name: os.environ.get(name) for name in ("RAY_AUTH_TOKEN", "RAY_AUTH_MODE")}
    os.environ["RAY_AUTH_TOKEN"] = secrets.token_hex(32)
    # "local": a Ray of its own, never a cluster `ray start` left on the machine
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR)
    yield
    ray.shutdown()
    for name, value in saved.items():                 # Ray sets RAY_AUTH_MODE itself
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def run_cli_json(tmp_path, name, *argv) -> dict:
    out = tmp_path / f"{name}.json"
    assert cli.main([*argv, "--json", str(out), "--quiet"]) == 0
    return json.loads(out.read_text())


def without_timing(report: dict) -> dict:
    """The report of the games: all but how they were played (`timing`) and
    the command line that asked for them (`command`, which names the backend)."""
    return {k: v for k, v in report.items() if k not in ("timing", "command")}


def test_two_workers_on_ray_give_the_report_of_one_local_worker(tmp_path, capsys):
    argv = ["simulate", "hanamikoji", "--games", "300", "--seed", "11", "--coverage"]
    local = run_cli_json(tmp_path, "local", *argv, "--workers", "1")
    remote = run_cli_json(tmp_path, "ray", *argv, "--backend", "ray", "--workers", "2")
    capsys.readouterr()
    assert remote["timing"]["backend"] == "ray" and remote["timing"]["workers"] == 2
    assert "--backend ray" in remote["command"] and "--backend" not in local["command"]
    assert local["played"] == remote["played"] == 300
    assert without_timing(local) == without_timing(remote)


def test_the_records_of_each_game_are_those_of_one_local_worker():
    """Per game, not only in sum: a searching AI (one game a chunk) and a
    rulebook with options (its IR travels, not the file)."""
    game = load_rulebook("hanamikoji", options={"first_player": "P0"})
    source = Source.of(game, "hanamikoji", {"first_player": "P0"})
    plan = Plan(players=2, seats=("greedy", "ismcts"), seed=40, iterations=8)
    local = parallel.run([source], plan, 12, loaded=[game], keep_records=True)
    remote = parallel.run([source], plan, 12, workers=2, backend="ray", keep_records=True)
    assert remote.workers == 2 and not remote.interrupted
    assert [r.index for r in remote.records[0]] == list(range(12))
    assert remote.records == local.records


def test_compare_on_ray_pairs_the_same_games(tmp_path, capsys):
    argv = ["compare", "hanamikoji", "hanamikoji", "--variant-option", "first_player=P0",
            "--games", "120", "--seed", "3"]
    local = run_cli_json(tmp_path, "local", *argv, "--workers", "1")
    remote = run_cli_json(tmp_path, "ray", *argv, "--backend", "ray")
    capsys.readouterr()
    assert remote["comparison"] == local["comparison"]
    for side in ("base", "variant"):
        assert without_timing(remote[side]) == without_timing(local[side])
        assert remote[side]["timing"]["workers"] == 2          # every CPU of the cluster


def test_a_rule_error_on_ray_names_the_game_and_keeps_its_code():
    with pytest.raises(RulebookError) as caught:
        parallel.run([Source.of(load_rulebook(str(LOOP)), str(LOOP))],
                     Plan(2, ("random", "random")), 2, workers=2, backend="ray")
    assert caught.value.code == "rule/loop"
    assert "game 0" in caught.value.message or "game 1" in caught.value.message


def test_ctrl_c_on_ray_keeps_the_games_already_finished():
    game = load_rulebook("hanamikoji")
    plan = Plan(players=2, seats=("random", "random"), seed=1)

    def progress(done, _total):
        if done >= 50:
            raise KeyboardInterrupt

    batch = parallel.run([Source.of(game, "hanamikoji")], plan, 100_000, workers=2,
                         backend="ray", progress=progress, keep_records=True)
    assert batch.interrupted and 50 <= batch.tallies[0].played < 100_000
    finished = batch.records[0]
    alone = parallel.run([Source.of(game, "hanamikoji")], plan, finished[-1].index + 1,
                         loaded=[game], keep_records=True).records[0]
    assert all(r == alone[r.index] for r in finished)


def test_a_worker_that_cannot_start_is_a_one_line_error():
    """A source without its IR is read from its file on the worker: a file
    no worker has fails the worker as a cluster machine without the package
    would."""
    with pytest.raises(RulebookError) as caught:
        parallel.run([Source("no/such/file.rules")], Plan(2, ("random", "random")), 4,
                     backend="ray")
    assert caught.value.code == "simulate/ray-worker"
    assert "no rulebook file or game named 'no/such/file.rules'" in caught.value.message
    assert "\n" not in str(caught.value) and "Traceback" not in str(caught.value)


def test_the_command_starts_and_stops_a_ray_of_its_own_quietly(tmp_path):
    """No Ray in this process: `rulebook simulate --backend ray` starts one
    of this machine's cores, shuts it down, and writes nothing to stderr."""
    done = subprocess.run([sys.executable, "-m", "interpreter", "simulate", "kuhn-poker",
                           "--games", "200", "--seed", "5", "--backend", "ray", "--json", "-"],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    remote = json.loads(done.stdout)
    assert remote["timing"]["backend"] == "ray" and remote["played"] == 200
    local = json.loads(subprocess.run(
        [sys.executable, "-m", "interpreter", "simulate", "kuhn-poker", "--games", "200",
         "--seed", "5", "--workers", "1", "--json", "-"],
        capture_output=True, text=True, cwd=tmp_path, timeout=60, check=True).stdout)
    assert without_timing(remote) == without_timing(local)


# -- workers that die ------------------------------------------------------------------
# Made in a function, so that Ray sends the class itself to its workers, not its name.

def dying_worker(at: int, once: Optional[Path] = None):
    """A worker whose process is killed (SIGKILL, as by `kill -9 PID`) as it
    starts the chunk of game `at`: every time, or when `once` is given, only
    the first time (the first to make that file)."""

    class DyingWorker(parallel.RayWorker):
        def play(self, which, plan, start, stop):
            if start <= at < stop:
                try:
                    if once is not None:
                        os.close(os.open(once, os.O_CREAT | os.O_EXCL))
                    os.kill(os.getpid(), signal.SIGKILL)
                except FileExistsError:
                    pass
            return super().play(which, plan, start, stop)

    return DyingWorker


def raising_worker(at: int):
    """A worker whose code raises (outside the rules) on the chunk of game `at`."""

    class RaisingWorker(parallel.RayWorker):
        def play(self, which, plan, start, stop):
            if start <= at < stop:
                raise ValueError(f"no game {at} here")
            return super().play(which, plan, start, stop)

    return RaisingWorker


GAMES = 3000
KILLED_AT = 1000
SIMULATE = ["simulate", "kuhn-poker", "--games", str(GAMES), "--seed", "9"]


def chunk_of(game: int, games: int = GAMES, workers: int = 2) -> tuple:
    return next((a, b) for _, a, b in parallel.iter_chunks(games, workers, 1) if a <= game < b)


def test_a_worker_killed_mid_run_is_replaced_and_the_report_is_that_of_no_death(
        tmp_path, capsys, monkeypatch):
    """Its chunks are played again on the same seeds: the report, but for
    `timing` (which counts the chunks played again), and the records are
    those of one local worker."""
    killed = tmp_path / "killed"
    monkeypatch.setattr(parallel, "RayWorker", dying_worker(KILLED_AT, once=killed))
    local = run_cli_json(tmp_path, "local", *SIMULATE, "--coverage", "--workers", "1",
                         "--records", str(tmp_path / "local.jsonl"))
    remote = run_cli_json(tmp_path, "ray", *SIMULATE, "--coverage", "--backend", "ray",
                          "--workers", "2", "--records", str(tmp_path / "ray.jsonl"))
    out, err = capsys.readouterr()
    assert killed.exists() and remote["timing"]["replayed_chunks"] >= 1
    assert not remote["interrupted"] and remote["played"] == GAMES
    assert without_timing(remote) == without_timing(local)
    assert (tmp_path / "ray.jsonl").read_bytes() == (tmp_path / "local.jsonl").read_bytes()
    assert "died" not in out + err                   # Ray's own line about it is kept back


def test_a_chunk_whose_worker_dies_every_time_ends_the_run_with_the_games_finished(
        tmp_path, capsys, monkeypatch):
    """Played three times (two retries), the chunk is given up: the report
    of the games finished is written and printed, marked interrupted, as at
    Ctrl-C, and the error names the games and why the worker died."""
    local_records = tmp_path / "local.jsonl"
    assert cli.main([*SIMULATE, "--workers", "1", "--records", str(local_records),
                     "--quiet"]) == 0
    monkeypatch.setattr(parallel, "RayWorker", dying_worker(KILLED_AT))
    paths = {flag: tmp_path / f"ray{flag[1:]}" for flag in ("--json", "--records")}
    capsys.readouterr()
    code = cli.main([*SIMULATE, "--backend", "ray", "--workers", "2",
                     *(str(x) for flag, path in paths.items() for x in (flag, path))])
    out, err = capsys.readouterr()
    assert code == 1 and "Traceback" not in err and "internal" not in err
    first, hint = err.strip().splitlines()
    start, stop = chunk_of(KILLED_AT)
    # The chunks queued at the worker it kills, before it or behind it, may have
    # run out too: the error names each, in order
    listed = re.match(r"error\[simulate/ray-worker\]: a Ray worker failed on games (.+?) of ",
                      first)
    assert listed, first
    ranges = listed.group(1).split(", ")
    assert f"{start}–{stop - 1}" in ranges
    assert ranges == sorted(ranges, key=lambda r: int(r.split("–")[0]))
    assert " of kuhn-poker (played 3 times): the worker died (pid " in first
    assert "killed" in hint
    report = json.loads(paths["--json"].read_text())
    played = report["played"]
    assert report["interrupted"] and 0 < played <= GAMES - (stop - start)
    assert f"interrupted: the figures of the {played} games finished" in out
    finished = paths["--records"].read_text().splitlines()
    assert len(finished) == played and set(finished) <= set(local_records.read_text().splitlines())


def test_an_exception_in_a_worker_is_not_played_again(monkeypatch):
    """On the same seeds it would raise again: the run stops at once, with
    the exception's message and the batch of the games finished."""
    monkeypatch.setattr(parallel, "RayWorker", raising_worker(KILLED_AT))
    game = load_rulebook("kuhn-poker")
    with pytest.raises(RayWorkerFailed) as caught:
        parallel.run([Source.of(game, "kuhn-poker")], Plan(2, ("random", "random"), seed=9),
                     GAMES, workers=2, backend="ray")
    start, stop = chunk_of(KILLED_AT)
    assert caught.value.code == "simulate/ray-worker"
    assert caught.value.message == (f"a Ray worker failed on games {start}–{stop - 1} of "
                                    f"kuhn-poker: ValueError: no game {KILLED_AT} here")
    batch = caught.value.partial
    assert batch.interrupted and batch.replayed == 0 and batch.failure is caught.value
    assert 0 < batch.tallies[0].played < GAMES
