"""Spreading the games of a simulation over processes or a Ray cluster.

The games `0 … N-1` of a `simulate.Plan` are cut into chunks of consecutive
indices; a chunk is played wherever a worker is free and sends back its
`GameRecord`s (and, with coverage on, how often each rule fired meanwhile).
Since every game is seeded from the root seed and its index alone, the
records do not depend on which worker played them. `run` adds each record
to its source's `Tally` (and, for two sources, to their `Pairing`) as it
arrives and lets it go, and the chunks are made as they are sent, a few
ahead of the workers, so a run of a billion games needs no more memory than
one of a thousand; asked to, it also keeps the records, sorted by game.
Three backends share that contract: this process (one worker, game by game
on every source in turn), a pool of worker processes, each given its chunks
through a pipe of its own, which load each rulebook once as they start, and
Ray (`ray.init(address=…)`), imported only when asked for, whose workers are
actors that load each rulebook once when they start — from its checked IR,
so the machines of a cluster need the package but no rulebook file. Ctrl-C
stops the run and keeps what the chunks already finished gave, marked
`interrupted`. A worker that dies (its process killed, by `kill -9` or the
system out of memory, or on Ray its machine gone) is replaced, and the
chunks it held are played again, at most `RETRIES` times each: on the same
seeds, so the report is the one of a run without the death. A chunk that
runs out of retries (or on Ray an exception in a worker) stops the run as
Ctrl-C does, and `WorkerFailed` (`RayWorkerFailed` on Ray) carries what the
chunks finished gave. A rule error in a game stops the run with that error,
as with one worker.
"""

from __future__ import annotations

import collections
import contextlib
import logging
import multiprocessing
import os
import pickle
import re
import signal
import socket
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from multiprocessing import connection
from typing import Callable, Optional

from ..errors import CommandError, RayWorkerFailed, RulebookError, WorkerFailed
from .simulate import Pairing, Plan, Tally, play_game

BACKENDS = ("local", "ray")
# Chunks small enough for a live progress bar and a short wait at Ctrl-C,
# large enough that sending them costs nothing next to playing them.
CHUNKS_PER_WORKER = 64
MAX_CHUNK = 32


@dataclass(frozen=True)
class Source:
    """How a worker gets a game: the rulebook's path (or name) and options,
    or better the checked IR (plain JSON), from which a worker builds the
    game in milliseconds instead of parsing and checking the file again,
    and without the file, as the machines of a cluster must. The IR holds
    the data files the rulebook reads as well."""

    target: str
    options: dict = field(default_factory=dict)
    ir: Optional[dict] = None

    @classmethod
    def of(cls, game, target: str, options: Optional[dict] = None) -> "Source":
        """The source of a game already loaded (and checked) here."""
        return cls(target, dict(options or {}), ir=game.ir)

    def load(self, coverage: bool = False):
        if self.ir is not None:
            from ..game.engine import Game
            game = Game(self.ir, self.options, self.target)
        else:
            from ..game.load import load_rulebook
            game = load_rulebook(self.target, options=self.options or None)
        if coverage:
            game.measure_coverage()
        return game


@dataclass
class Chunk:
    """What a worker sends back: the records of games `start … stop-1` of
    source `which`, the coverage counts added meanwhile, and the first rule
    error (as plain values, which survive pickling) if a game failed."""

    which: int
    records: list
    coverage: dict
    failure: Optional[tuple] = None


@dataclass
class Batch:
    """The tally of every source's games, the pairing of the two sources'
    (None for one source), the merged coverage counts per source, whether
    Ctrl-C or a failed worker cut the run short, how it ran, the records
    per source (sorted by game) when they were kept, else None, how many
    chunks were played again after their worker died, and the error of a
    worker that stopped the run."""

    tallies: list
    pairing: Optional[Pairing]
    coverage: list
    interrupted: bool
    workers: int
    backend: str
    records: Optional[list] = None
    replayed: int = 0
    failure: Optional[WorkerFailed] = None


def coverage_counts(game) -> dict:
    return {(r["kind"], r["context"], r["line"], r["column"]): r["count"]
            for r in game.coverage()}


def play_chunk(game, which: int, plan: Plan, start: int, stop: int, coverage: bool) -> Chunk:
    before = coverage_counts(game) if coverage else {}
    records = []
    failure = None
    for i in range(start, stop):
        try:
            records.append(play_game(game, plan, i))
        except RulebookError as err:
            failure = (i, err.code, err.message, err.span, err.hint)
            break
    delta = {}
    if coverage:
        delta = {k: v - before.get(k, 0) for k, v in coverage_counts(game).items()}
    return Chunk(which, records, delta, failure)


# -- workers --------------------------------------------------------------------------

_GAMES: list = []


def _init_worker(sources, coverage: bool) -> None:
    # Ctrl-C is the parent's to handle: it stops the pool and reports.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with_parent, args=(os.getppid(),), daemon=True).start()
    _GAMES[:] = [s.load(coverage) for s in sources]


def _end_with_parent(parent: int) -> None:
    """Ends this worker once the process that started it is gone: killed
    (SIGTERM, SIGKILL) it could not stop its pool, and a worker left behind
    would wait for chunks forever."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(1)


def _pool_chunk(which, plan, start, stop, coverage) -> Chunk:
    return play_chunk(_GAMES[which], which, plan, start, stop, coverage)


class RayWorker:
    """A worker of a Ray cluster (an actor holding one CPU): it builds each
    source's game once, as a pool worker does when it starts, and then
    plays the chunks sent to it one after the other."""

    def __init__(self, sources: list, coverage: bool):
        self.games = [s.load(coverage) for s in sources]
        self.coverage = coverage

    def play(self, which: int, plan: Plan, start: int, stop: int) -> Chunk:
        return play_chunk(self.games[which], which, plan, start, stop, self.coverage)

    def ready(self) -> bool:
        """Answers once the worker is up (its games built)."""
        return True


# -- running ----------------------------------------------------------------------------

def searches(plan: Plan) -> bool:
    return any(kind != "random" for kind in plan.seats)


def iter_chunks(games: int, workers: int, sources: int, searching: bool = False):
    """(which, start, stop) for every chunk, the sources interleaved so that
    a comparison cut short by Ctrl-C still has pairs of games, made as they
    are asked for: a run of a billion games never holds its chunks at once.
    A game with a searching AI takes a tenth of a second or more: it is a
    chunk alone."""
    size = 1 if searching else max(1, min(MAX_CHUNK, games // (workers * CHUNKS_PER_WORKER)))
    return ((w, a, min(a + size, games)) for a in range(0, games, size) for w in range(sources))


# chunks sent ahead to each worker: enough to keep it busy, few enough that
# memory does not grow with the number of games
AHEAD = 4


def run(sources: list, plan: Plan, games: int, *, loaded: Optional[list] = None,
        workers: Optional[int] = 1, backend: str = "local", address: Optional[str] = None,
        coverage: bool = False, progress: Optional[Callable[[int, int], None]] = None,
        keep_records: bool = False) -> Batch:
    """Plays games `0 … games-1` of the plan on every source (the same
    games on each: `rulebook compare` passes two). `loaded` are the sources'
    games already loaded here, used when one local worker plays all. On Ray,
    `workers` is the number of actors, at most the cluster's CPUs (None: one
    per CPU); a Ray that this call started is shut down before it returns,
    one already running (`ray.init` by the caller) is left running."""
    total = games * len(sources)
    tallies = [Tally(plan.players, games) for _ in sources]
    pairing = Pairing(plan.players) if len(sources) == 2 else None
    records: list = [[] for _ in sources]
    merged: list = [{} for _ in sources]
    done = 0

    def take(chunk: Chunk) -> None:
        nonlocal done
        for r in chunk.records:
            tallies[chunk.which].add(r)
            if pairing is not None:
                pairing.add(chunk.which, r)
        if keep_records:
            records[chunk.which].extend(chunk.records)
        for k, v in chunk.coverage.items():
            merged[chunk.which][k] = merged[chunk.which].get(k, 0) + v
        if chunk.failure is not None:
            index, code, message, span, hint = chunk.failure
            raise RulebookError(f"game {index} (seed {plan.game_seed(index)}) of "
                                f"{sources[chunk.which].target} failed: {message}",
                                span, hint, code)
        done += len(chunk.records)
        if progress is not None:
            progress(done, total)

    def started() -> None:
        # The workers exist now: a progress display may start its thread
        # (forking a process that has threads is unsafe).
        if progress is not None:
            progress(0, total)

    replayed, failure = 0, None
    if backend == "ray":
        workers, interrupted, replayed, failure = _run_ray(sources, plan, games, workers,
                                                           address, coverage, take, started)
    elif backend != "local":
        raise CommandError(f"unknown backend '{backend}' (known: {', '.join(BACKENDS)})")
    elif workers == 1:
        started()
        interrupted = _run_here(loaded or [s.load() for s in sources], plan, games,
                                coverage, take)
    else:
        interrupted, replayed, failure = _run_pool(sources, plan, games, workers, coverage,
                                                   take, started)
    for rs in records:
        rs.sort(key=lambda r: r.index)
    batch = Batch(tallies, pairing, merged, interrupted or failure is not None, workers,
                  backend, records if keep_records else None, replayed, failure)
    if failure is not None:
        failure.partial = batch
        raise failure
    return batch


def _run_here(games_here: list, plan, games, coverage, take) -> bool:
    if coverage:
        for game in games_here:
            game.measure_coverage()
    before = [coverage_counts(game) if coverage else {} for game in games_here]
    interrupted = False
    try:
        # Game by game, each on every source before the next, so that Ctrl-C
        # loses at most the game being played and a comparison cut short has
        # its pairs (chunks of consecutive games would leave up to a chunk of
        # one source's games waiting for the other's).
        for i in range(games):
            for which, game in enumerate(games_here):
                take(play_chunk(game, which, plan, i, i + 1, False))
    except KeyboardInterrupt:
        interrupted = True
    if coverage:
        for which, game in enumerate(games_here):
            counts = coverage_counts(game)
            take(Chunk(which, [], {k: v - before[which].get(k, 0) for k, v in counts.items()}))
    return interrupted


def _run_pool(sources, plan, games, workers, coverage, take, started) -> tuple:
    """Starts the worker processes and keeps `AHEAD` chunks sent to each: a
    worker that sends back a chunk is sent the next one. A worker that dies
    is replaced, and the chunks it held are sent again first, to the next
    worker with room: the one it was playing counts as played once more, at
    most `RETRIES` times; those queued behind it had not started. Returns
    (interrupted, the chunks played again, the error that stopped the run
    or None)."""
    crew = [_Process(sources, coverage) for _ in range(workers)]
    todo = iter_chunks(games, workers, len(sources), searches(plan))
    again: collections.deque = collections.deque()   # (chunk, times played) to send again
    failed: list = []                                 # (chunk, times played, cause) given up
    replayed, lost = 0, None                          # lost: why no worker is left

    def fill() -> None:
        for worker in crew:
            while len(worker.held) < AHEAD:
                chunk, tries = again.popleft() if again else (next(todo, None), 0)
                if chunk is None:
                    return
                worker.send(plan, chunk, tries)

    def bury(worker: _Process) -> None:
        """Takes a dead worker's chunks back, and starts one in its place."""
        nonlocal replayed, lost
        crew.remove(worker)
        cause = worker.end()
        (chunk, tries), *behind = worker.held
        if tries == RETRIES:
            failed.append((chunk, tries + 1, cause))
            return
        again.extend([(chunk, tries + 1), *behind])
        replayed += 1
        try:
            crew.append(_Process(sources, coverage))
        except OSError as err:                        # no memory or no process left for it
            if not crew:
                lost = f"a new one could not start: {err.strerror or err}"

    try:
        fill()
        started()
        while not failed and not lost:
            busy = {w.pipe: w for w in crew if w.held}
            if not busy:
                break
            for pipe in connection.wait(list(busy)):
                worker = busy[pipe]
                answer = worker.answer()
                if answer is None:
                    bury(worker)
                elif isinstance(answer, Chunk):
                    take(answer)
                else:                                 # not the rules': a bug, as with one worker
                    raise answer
            fill()
        if failed or lost:
            # The chunks already back count; no other is waited for.
            for worker in crew:
                while worker.held and worker.pipe.poll(0):
                    answer = worker.answer()
                    if not isinstance(answer, Chunk):
                        break
                    take(answer)
    except KeyboardInterrupt:
        return True, replayed, None
    finally:
        now = bool(failed or lost) or any(w.held for w in crew)
        for worker in crew:
            worker.stop(now)
    failure = _failure(failed, sources, lost, local=True) if failed or lost else None
    return False, replayed, failure


class _Process:
    """A worker process of the pool, the pipe to it, and the chunks sent to
    it and not yet back, oldest first: it plays them in that order."""

    def __init__(self, sources: list, coverage: bool):
        # Forked, a copy of this process ready at once, while it runs no
        # other thread; else (a progress display's thread, say) started
        # afresh: a lock another thread holds as this one forks would stay
        # held in the child for good.
        context = multiprocessing.get_context("spawn" if threading.active_count() > 1 else None)
        self.pipe, theirs = context.Pipe()
        self.process = context.Process(target=_serve, args=(theirs, sources, coverage),
                                       daemon=True)
        try:
            self.process.start()
        finally:
            theirs.close()                # else its end would stay open here after its death
        self.held: collections.deque = collections.deque()

    def send(self, plan: Plan, chunk: tuple, tries: int) -> None:
        which, start, stop = chunk
        kill = _KILL_AT is not None and _KILL_AT[0] == start and tries < _KILL_AT[1]
        self.held.append((chunk, tries))
        try:
            self.pipe.send((which, plan, start, stop, kill))
        except OSError:
            pass                          # dead: its pipe's end says so, and the chunk is held

    def answer(self):
        """The next chunk back (or the exception it raised), None if the
        process died first."""
        try:
            answer = self.pipe.recv()
        except (EOFError, OSError):
            return None
        self.held.popleft()
        return answer

    def end(self) -> str:
        """Waits for a dead worker to be gone, and says how it died."""
        self.pipe.close()
        self.process.join(timeout=END_SECONDS)
        if self.process.exitcode is None:             # its pipe is closed: no use to us
            self.process.kill()
            self.process.join()
        code = self.process.exitcode
        if code < 0:
            try:
                name = signal.Signals(-code).name
            except ValueError:
                name = f"signal {-code}"
            return f"pid {self.process.pid} was killed by {name}"
        return f"pid {self.process.pid} ended with exit status {code}"

    def stop(self, now: bool) -> None:
        """Ends the worker: `now` without waiting for the chunk it plays."""
        if not now:
            with contextlib.suppress(OSError):
                self.pipe.send(None)
            self.process.join(timeout=END_SECONDS)
        if self.process.is_alive():
            self.process.terminate()
            self.process.join(timeout=END_SECONDS)
        self.pipe.close()


END_SECONDS = 5

# For tests only: (game, times) has a worker process of the pool kill itself
# (SIGKILL, as `kill -9` or the system out of memory would) as it starts a
# chunk beginning at that game (of any source), the first `times` times it
# plays that chunk.
# Set in this process, which reads it as it sends each chunk; no command line,
# rulebook or file reaches it.
_KILL_AT: Optional[tuple] = None


def _serve(pipe, sources: list, coverage: bool) -> None:
    """A worker process: builds each source's game, then plays every chunk
    it is sent and sends back its `Chunk` — or an exception outside the
    rules, which the parent raises, as it would with one worker — until
    told to stop (None) or its parent is gone."""
    broken = None
    try:
        _init_worker(sources, coverage)
    except Exception as err:  # noqa: BLE001 - the answer to every chunk
        broken = _sendable(err)
    while True:
        try:
            task = pipe.recv()
        except EOFError:
            return
        if task is None:
            return
        which, plan, start, stop, kill = task
        if kill:
            os.kill(os.getpid(), signal.SIGKILL)
        try:
            answer = broken or _pool_chunk(which, plan, start, stop, coverage)
        except Exception as err:  # noqa: BLE001 - as above
            answer = _sendable(err)
        pipe.send(answer)


def _sendable(err: Exception) -> Exception:
    """The exception, or if it cannot be pickled, one that says what it was."""
    try:
        pickle.loads(pickle.dumps(err))
        return err
    except Exception:  # noqa: BLE001 - any failure to pickle
        return RuntimeError(f"{type(err).__name__}: {err}")


def _run_ray(sources, plan, games, workers, address, coverage, take, started) -> tuple:
    try:
        import ray
    except ImportError:
        raise CommandError("--backend ray needs Ray, which is not installed: "
                           "pip install 'rulebook[ray]'", code="simulate/ray-missing") from None
    ours = not ray.is_initialized()
    with _quiet_deaths(ray):
        try:
            workers = _connect(ray, address, workers, games)
            return (workers, *_run_actors(ray, sources, plan, games, workers, coverage, take,
                                          started))
        finally:
            if ours and ray.is_initialized():
                ray.shutdown()


@contextlib.contextmanager
def _quiet_deaths(ray):
    """Keeps Ray's driver from printing a worker's death ("(raylet) A worker
    died or was killed…") to stdout, where it would break a report written
    there (`--json -`): the run says it itself. Ray has no setting for it
    but the switch its debugger turns off."""
    module = getattr(getattr(ray, "_private", None), "worker", None)
    if not hasattr(module, "_worker_logs_enabled"):
        yield
        return
    saved = module._worker_logs_enabled
    module._worker_logs_enabled = False
    try:
        yield
    finally:
        module._worker_logs_enabled = saved


def _connect(ray, address: Optional[str], workers: Optional[int], games: int) -> int:
    """Joins the cluster at `address` (`auto`: the one `ray start` runs on
    this machine; none: the one RAY_ADDRESS names, else a Ray of this
    machine's cores started now), and says how many workers to run."""
    # Left to itself, ray.init() without an address joins the cluster that
    # `ray start` last recorded on this machine, and if that one is gone it
    # retries for a quarter of an hour.
    address = address or os.environ.get("RAY_ADDRESS") or "local"
    _check_reachable(address)
    held: list = []
    try:
        with _holding_stderr(address != "local", held):
            ray.init(address=address, ignore_reinit_error=True, log_to_driver=False,
                     logging_level=logging.ERROR, include_dashboard=False)
        cpus = int(ray.cluster_resources().get("CPU", 0))
    except Exception as err:  # noqa: BLE001 - Ray raises many kinds for one failure
        where = "locally" if address == "local" else f"at '{address}'"
        why = _core_reason("".join(held))
        raise CommandError(f"cannot start or reach a Ray cluster {where}: {first_line(err)}"
                           + (f" ({why})" if why else ""),
                           hint=_AUTH_HINT if "auth" in why.lower() else None,
                           code="simulate/ray-unreachable") from None
    sys.stderr.write("".join(held))
    if cpus < 1:
        raise CommandError("the Ray cluster has no CPU to play on",
                           code="simulate/ray-unreachable")
    # An actor holds its CPU while it lives: more actors than CPUs would
    # wait for one forever.
    return max(1, min(workers or cpus, cpus, games))


def _check_reachable(address: Optional[str]) -> None:
    """Asks whether anything answers at HOST:PORT before Ray tries: Ray
    tries a port where nothing listens twenty times, forty seconds each."""
    match = re.fullmatch(r"([^\s:/]+):(\d+)", address or "")
    if match is None:
        return
    try:
        socket.create_connection((match[1], int(match[2])), timeout=REACH_SECONDS).close()
    except OSError as err:
        raise CommandError(f"cannot reach a Ray cluster at '{address}': "
                           f"{err.strerror or 'no answer'}",
                           hint="`ray start --head` on that machine starts one",
                           code="simulate/ray-unreachable") from None


REACH_SECONDS = 5


@contextlib.contextmanager
def _holding_stderr(hold: bool, held: list):
    """Holds back what is written to stderr meanwhile and adds it to `held`.
    Trying to reach a cluster, Ray's C++ core writes a warning a second for
    twenty seconds — to file descriptor 2, which no logging setting of
    Python reaches — and then raises an error that no longer says why."""
    if not hold:
        yield
        return
    sys.stderr.flush()
    saved = os.dup(2)
    with tempfile.TemporaryFile() as file:
        os.dup2(file.fileno(), 2)
        try:
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            file.seek(0)
            held.append(file.read().decode("utf-8", "replace"))


def _core_reason(text: str) -> str:
    """The last line Ray's core wrote, without its `[time level pid tid]
    file.cc:line:` prefix."""
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return re.sub(r"^\[[^\]]*\]\s*\S+:\d+:\s*", "", lines[-1]) if lines else ""


# A head of `ray start` has token authentication on when RAY_AUTH_MODE=token
# or, that unset, when it found a token as it started; a driver given an
# address never switches it on by itself (README, "Many machines: Ray").
_AUTH_HINT = ("a cluster with token authentication needs RAY_AUTH_MODE=token here and the "
              "head's token (`ray get-auth-token` there) in RAY_AUTH_TOKEN or ~/.ray/auth_token")


def first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0] if text else type(err).__name__


def _run_actors(ray, sources, plan, games, workers, coverage, take, started) -> tuple:
    """Starts the workers and keeps `AHEAD` chunks queued at each: a worker
    that sends back a chunk is given the next one. A worker that dies is
    replaced by a new one, given chunks once it is up; the chunks the dead
    one held are played again first, by the next worker free, each at most
    `RETRIES` times. Returns (interrupted, the chunks played again, the
    error that stopped the run or None)."""
    shared = ray.put(list(sources))
    actor = ray.remote(num_cpus=1)(RayWorker)
    crew = {slot: actor.remote(shared, coverage) for slot in range(workers)}
    queued = dict.fromkeys(crew, 0)                   # slot → chunks sent to its worker
    todo = iter_chunks(games, workers, len(sources), searches(plan))
    again: collections.deque = collections.deque()   # (chunk, times played) to play again
    owner: dict = {}                   # chunk sent → (slot, worker, chunk, times played before)
    starting: dict = {}                # a new worker's `ready` → (slot, worker, failed starts)
    failed: list = []                  # (chunk, times played, cause) given up
    dead: set = set()                  # the workers whose death gave a chunk up
    replayed, cause, more = 0, "", True               # more: chunks left in todo

    def fill() -> None:
        nonlocal more
        for slot, worker in crew.items():
            while queued[slot] < AHEAD:
                if again:
                    chunk, tries = again.popleft()
                else:
                    chunk, tries = next(todo, None), 0
                    if chunk is None:
                        more = False
                        return
                owner[worker.play.remote(chunk[0], plan, chunk[1], chunk[2])] = (
                    slot, worker, chunk, tries)
                queued[slot] += 1

    def replace(slot: int, worker, starts: int = 0) -> None:
        ray.kill(worker)                              # dead, or unreachable: not to be trusted
        crew.pop(slot, None)
        if starts <= RETRIES:
            new = actor.remote(shared, coverage)
            starting[new.ready.remote()] = (slot, new, starts)

    def up(ref) -> None:
        nonlocal cause
        slot, worker, starts = starting.pop(ref)
        try:
            ray.get(ref)
        except ray.exceptions.RayError as err:
            cause = _cause(err, died=True)
            replace(slot, worker, starts + 1)
            return
        crew[slot] = worker
        queued[slot] = 0

    def settle(ref, last: bool = False) -> None:
        """Takes the chunk back, or keeps it to play again if its worker
        died; `last`: the run is stopping, and nothing is played again."""
        nonlocal replayed, cause
        slot, worker, chunk, tries = owner.pop(ref)
        current = crew.get(slot) is worker
        if current:
            queued[slot] -= 1
        try:
            result = ray.get(ref)
        except ray.exceptions.RayError as err:
            raised = isinstance(err, ray.exceptions.RayTaskError)
            cause = _cause(err, died=not raised)
            # An exception in the worker's code is not played again: on the
            # same seeds, the chunk would raise it again.
            if raised or tries == RETRIES:
                failed.append((chunk, tries + 1, cause))
                if not raised:
                    dead.add(worker)
            elif not last:
                if current:
                    replace(slot, worker)
                again.append((chunk, tries + 1))
                replayed += 1
            return
        take(result)

    lost = None                                       # why no worker is left to play on
    try:
        fill()
        started()
        while not failed and (owner or starting and (again or more)):
            refs = [*owner, *starting]
            if crew:
                ready, _ = ray.wait(refs, num_returns=1)
            else:                                     # a new worker may wait for a free CPU
                ready, _ = ray.wait(refs, num_returns=1, timeout=START_SECONDS)
                if not ready:
                    lost = f"no new worker started within {START_SECONDS} s ({NO_CPU})"
                    break
            for ref in ready:
                (up if ref in starting else settle)(ref)
            if not crew and not starting:
                lost = (f"the {RETRIES + 1} workers started in place of a lost one failed: "
                        f"{cause}")
                break
            if not failed:
                fill()
        if (failed or lost) and owner:
            # The chunks already back count; no other is waited for, but
            # those the dead worker held, which Ray gives up on at once:
            # each of them ran out as well, and the error names them all
            held = [ref for ref, (_, worker, _, _) in owner.items() if worker in dead]
            if held:
                ray.wait(held, num_returns=len(held), timeout=DEAD_SECONDS)
            ready, _ = ray.wait(list(owner), num_returns=len(owner), timeout=0)
            for ref in ready:
                settle(ref, last=True)
    except KeyboardInterrupt:
        return True, replayed, None
    finally:
        # Killing drops the chunks queued and ends a chunk being played now.
        for worker in [*crew.values(), *(w for _, w, _ in starting.values())]:
            ray.kill(worker)
    failure = _failure(failed, sources, lost) if failed or lost else None
    return False, replayed, failure


# A chunk whose worker died (its process killed, its machine gone) is played
# again at most this many times, and a new worker that fails to start is
# started again as often. A chunk's games are seeded by their indices alone,
# so the records are those of a run without the death.
RETRIES = 2
# With no worker left, how long to wait for a new one to start (for a CPU
# to be free on the cluster) before the run stops.
START_SECONDS = 60
# How long a stopping run waits for Ray to give up the other chunks of the
# worker whose death stopped it (it does so at once; this bounds a stall).
DEAD_SECONDS = 5


def _failure(failed: list, sources: list, lost: Optional[str],
             local: bool = False) -> WorkerFailed:
    """The error of the chunks given up (their games, and the first cause),
    or of a run that lost all its workers; `local`: of the process pool."""
    error, who = (WorkerFailed, "worker process") if local else (RayWorkerFailed, "Ray worker")
    if not failed:
        return error(f"no {who} is left to play on: {lost}",
                     hint=_PROCESS_HINT if local else _hint(lost))
    _, played, cause = failed[0]
    games = []
    for which, source in enumerate(sources):
        spans = sorted((a, b) for (w, a, b), _, _ in failed if w == which)
        if spans:
            named = [f"{a}–{b - 1}" if b - a > 1 else f"{a}" for a, b in spans]
            more = f" and {len(named) - SHOWN} more" if len(named) > SHOWN else ""
            plural = "s" if len(named) > 1 or spans[0][1] - spans[0][0] > 1 else ""
            side = ("the base ", "the variant ")[which] if len(sources) == 2 else ""
            games.append(f"game{plural} {', '.join(named[:SHOWN])}{more} of {side}{source.target}")
    times = f" (played {played} times)" if played > 1 else ""
    return error(f"a {who} failed on {'; '.join(games)}{times}: {cause}",
                 hint=_PROCESS_HINT if local else _hint(cause))


def _hint(cause: str) -> str:
    if NO_CPU in cause:
        return "`ray status` on the cluster shows its CPUs and what holds them"
    return _DEATH_HINT if "the worker died" in cause else _WORKER_HINT


SHOWN = 3
NO_CPU = "the cluster has no CPU free for it"
_DEATH_HINT = ("a worker dies when its process is killed (by the system when memory runs out, "
               "by `ray stop --force`) or its machine leaves the cluster; the logs of Ray's "
               "session on that machine say more")
_WORKER_HINT = ("on a cluster, every machine needs this version of rulebook installed "
                "(pip install 'rulebook[ray]')")
_PROCESS_HINT = ("a worker process dies when it is killed: by `kill`, or by the system when "
                 "memory runs out (its log says so: `dmesg`, `journalctl -k`); fewer --workers "
                 "need less memory")


def _cause(err, died: bool = False) -> str:
    """The error a worker raised, or why it `died`, in one line, without
    Ray's traceback: the exception itself when Ray kept it; for an actor
    whose start failed, the line after the traceback's last frame (Ray keeps
    only the text of an error that killed an actor); for one that died, its
    process and machine, and the reason Ray gives."""
    cause = getattr(err, "cause", None)
    if isinstance(cause, BaseException):
        return f"{type(cause).__name__}: {first_line(cause)}"
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(err))
    lines = text.splitlines()
    frames = [i for i, line in enumerate(lines) if line.lstrip().startswith('File "')]
    if frames:
        after = [line for line in lines[frames[-1] + 1:] if line.strip() and not line[0].isspace()]
        return (after or [first_line(err)])[0]
    if not died:
        return first_line(err)
    fields = dict(re.findall(r"^\s*(pid|ip): (\S+)\s*$", text, re.MULTILINE))
    where = " ".join(f"{'on' if key == 'ip' else key} {fields[key]}"
                     for key in ("pid", "ip") if key in fields)
    detail = re.search(r"Worker exit detail: (.+?\.)(?:\s+[A-Z]|\s*$)", text, re.DOTALL)
    reason = [line for line in lines[1:] if line.strip() and not line[0].isspace()]
    why = detail[1] if detail else (reason[0] if reason else first_line(err))
    return f"the worker died{f' ({where})' if where else ''}: {why}"
