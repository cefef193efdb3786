"""`simulate` and `compare` on a real Ray: the same games as one local worker.

The core suite runs the Ray path of `interpreter.simulation.parallel` on a
stand-in (tests/test_simulate.py); these tests run it on Ray itself, a
local instance of two CPUs started once for the module, and check what the
stand-in cannot: that the sources (the checked IR) and the plan travel to
the actors and back, that two workers on Ray give the report of one local
worker — every part but `timing` — and the very records per game, that a
rule error, Ctrl-C and a worker that cannot start end the run as they do
locally, and that the command line starts and stops a Ray of its own
without a word on stderr.
"""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")

from interpreter import RulebookError, load_rulebook  # noqa: E402
from interpreter.simulation import parallel  # noqa: E402
from interpreter.simulation.parallel import Source  # noqa: E402
from interpreter.simulation.simulate import Plan  # noqa: E402
from interpreter.terminal import cli  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent.parent
LOOP = ROOT / "tests" / "engine" / "loop.rules"

@pytest.fixture(scope="module", autouse=True)
def local_ray():
    """One Ray for the module, which `--dist loadfile` (README's third
    command) keeps on one pytest-xdist worker."""
    # "local": a Ray of its own, never a cluster `ray start` left on the machine
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False,
             logging_level=logging.ERROR)
    yield
    ray.shutdown()


def run_cli_json(tmp_path, name, *argv) -> dict:
    out = tmp_path / f"{name}.json"
    assert cli.main([*argv, "--json", str(out), "--quiet"]) == 0
    return json.loads(out.read_text())


def without_timing(report: dict) -> dict:
    return {k: v for k, v in report.items() if k != "timing"}


def test_two_workers_on_ray_give_the_report_of_one_local_worker(tmp_path, capsys):
    argv = ["simulate", "hanamikoji", "--games", "300", "--seed", "11", "--coverage"]
    local = run_cli_json(tmp_path, "local", *argv, "--workers", "1")
    remote = run_cli_json(tmp_path, "ray", *argv, "--backend", "ray", "--workers", "2")
    capsys.readouterr()
    assert remote["timing"]["backend"] == "ray" and remote["timing"]["workers"] == 2
    assert local["played"] == remote["played"] == 300
    assert without_timing(local) == without_timing(remote)


def test_the_records_of_each_game_are_those_of_one_local_worker():
    """Per game, not only in sum: a searching AI (one game a chunk) and a
    rulebook with options (its IR travels, not the file)."""
    game = load_rulebook("hanamikoji", options={"first_player": "seat_1"})
    source = Source.of(game, "hanamikoji", {"first_player": "seat_1"})
    plan = Plan(players=2, seats=("greedy", "ismcts"), seed=40, iterations=8)
    local = parallel.run([source], plan, 12, loaded=[game], keep_records=True)
    remote = parallel.run([source], plan, 12, workers=2, backend="ray", keep_records=True)
    assert remote.workers == 2 and not remote.interrupted
    assert [r.index for r in remote.records[0]] == list(range(12))
    assert remote.records == local.records


def test_compare_on_ray_pairs_the_same_games(tmp_path, capsys):
    argv = ["compare", "hanamikoji", "hanamikoji", "--variant-option", "first_player=seat_1",
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
