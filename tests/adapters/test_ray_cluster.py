"""`simulate --backend ray --address` on a cluster of `ray start`, one of
whose workers is killed (`kill -9`) mid-run.

The cluster is the README's: a head started with `ray start --head` and
token authentication switched on (`RAY_AUTH_MODE=token`, the token in
`RAY_AUTH_TOKEN`), joined by address; the command runs in a process of its
own, as a user's would. The worker killed is replaced, its chunks are
played again, and the report — every part but `timing` and the `command` line — is that of one
local worker, written to stdout with nothing of Ray's in it. The head is
the only Ray this file starts: it is ended (with every process it started)
when the tests are done.
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

pytest.importorskip("ray")

from interpreter.terminal import cli  # noqa: E402

pytestmark = pytest.mark.skipif(not Path("/proc/self/cmdline").exists(),
                                reason="finds Ray's worker processes in /proc")

ROOT = Path(__file__).resolve().parent.parent.parent
START_SECONDS = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def descendants(root: int) -> dict:
    """pid → command line of every process started by `root`, and by them.
    (Ray gives each worker a process group of its own.)"""
    parents, commands = {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode().strip()
        except OSError:
            continue                                  # ended meanwhile
        pid = int(entry.name)
        parents[pid], commands[pid] = int(stat.rpartition(")")[2].split()[1]), command

    def started_by_root(pid: int) -> bool:
        seen = set()
        while pid in parents and pid not in seen:
            seen.add(pid)
            pid = parents[pid]
            if pid == root:
                return True
        return False

    return {pid: command for pid, command in commands.items() if started_by_root(pid)}


@pytest.fixture(scope="module")
def cluster():
    """(address, environment) of a head of two CPUs on this machine, with
    token authentication on. `ray start --block` stays in the foreground
    and ends the processes it started when it is stopped; what is left of
    them then is killed."""
    token = secrets.token_hex(32)
    env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": token}
    env.pop("RAY_ADDRESS", None)
    port = free_port()
    folder = tempfile.mkdtemp(prefix="rb-ray-")       # short: Ray's socket paths must be
    log = Path(folder) / "head.log"
    with open(log, "w") as out:
        head = subprocess.Popen(
            [sys.executable, "-m", "ray.scripts.scripts", "start", "--head", "--block",
             "--port", str(port), "--node-ip-address", "127.0.0.1", "--num-cpus", "2",
             "--include-dashboard", "false", "--disable-usage-stats", "--temp-dir", folder],
            stdout=out, stderr=subprocess.STDOUT, env=env, start_new_session=True)
    try:
        deadline = time.monotonic() + START_SECONDS
        while "Ray runtime started" not in log.read_text():
            assert head.poll() is None and time.monotonic() < deadline, log.read_text()
            time.sleep(0.2)
        yield f"127.0.0.1:{port}", env, head.pid
    finally:
        left = descendants(head.pid)
        head.terminate()
        try:
            head.wait(timeout=30)
        except subprocess.TimeoutExpired:
            head.kill()
        for _ in range(50):                           # ending, as their parents are gone
            left = {pid: c for pid, c in left.items() if Path(f"/proc/{pid}").exists()}
            if not left:
                break
            time.sleep(0.2)
        for pid in left:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        shutil.rmtree(folder, ignore_errors=True)


def without_timing(report: dict) -> dict:
    """The report of the games: all but how they were played (`timing`) and
    the command line that asked for them (`command`, which names the backend)."""
    return {k: v for k, v in report.items() if k not in ("timing", "command")}


def kill_a_worker_at_play(head: int, run: subprocess.Popen) -> int:
    """Kills (SIGKILL) the first worker of the cluster seen playing a chunk;
    its pid."""
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline and run.poll() is None:
        playing = [pid for pid, command in descendants(head).items()
                   if command.startswith("ray::RayWorker.play")]
        if playing:
            os.kill(playing[0], signal.SIGKILL)
            return playing[0]
        time.sleep(0.01)
    raise AssertionError("no worker of the cluster was seen playing")


def test_a_worker_killed_on_a_cluster_is_replaced_and_the_report_is_that_of_no_death(
        cluster, tmp_path, capsys):
    address, env, head = cluster
    argv = ["simulate", "kuhn-poker", "--games", "10000", "--seed", "21"]
    run = subprocess.Popen([sys.executable, "-m", "interpreter", *argv, "--backend", "ray",
                            "--address", address, "--json", "-"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           cwd=tmp_path, env=env)
    try:
        killed = kill_a_worker_at_play(head, run)
        out, err = run.communicate(timeout=120)
    finally:
        if run.poll() is None:
            run.kill()
    assert run.returncode == 0, err
    assert err == ""
    remote = json.loads(out)                          # stdout holds the report alone
    assert remote["timing"]["backend"] == "ray" and remote["timing"]["replayed_chunks"] >= 1
    assert killed not in descendants(head)
    local_json = tmp_path / "local.json"
    assert cli.main([*argv, "--workers", "1", "--json", str(local_json), "--quiet"]) == 0
    capsys.readouterr()
    assert without_timing(remote) == without_timing(json.loads(local_json.read_text()))
