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
on every source in turn), a `concurrent.futures.ProcessPoolExecutor` whose
workers load each rulebook once in their initializer, and Ray
(`ray.init(address=…)`), imported only when asked for. Ctrl-C stops the run
and keeps what the chunks already finished gave, marked `interrupted`.
"""

from __future__ import annotations

import itertools
import json
import logging
import os
import signal
import threading
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..errors import CommandError, RulebookError
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
    and without the file, as the machines of a cluster must. `fingerprint`
    tells versions of a rulebook apart in a Ray worker's cache."""

    target: str
    options: dict = field(default_factory=dict)
    ir: Optional[dict] = None
    fingerprint: str = ""

    @classmethod
    def of(cls, game, target: str, options: Optional[dict] = None) -> "Source":
        """The source of a game already loaded (and checked) here."""
        return cls(target, dict(options or {}), ir=game.ir, fingerprint=game.fingerprint)

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

    def key(self) -> str:
        return json.dumps([self.target, self.options, self.fingerprint], sort_keys=True)


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
    Ctrl-C cut the run short, how it ran, and the records per source (sorted
    by game) when they were kept, else None."""

    tallies: list
    pairing: Optional[Pairing]
    coverage: list
    interrupted: bool
    workers: int
    backend: str
    records: Optional[list] = None


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
_RAY_CACHE: dict = {}


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


def _ray_chunk(sources, which, plan, start, stop, coverage) -> Chunk:
    key = (sources[which].key(), coverage)
    game = _RAY_CACHE.get(key)
    if game is None:
        game = _RAY_CACHE[key] = sources[which].load(coverage)
    return play_chunk(game, which, plan, start, stop, coverage)


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
        workers: int = 1, backend: str = "local", address: Optional[str] = None,
        coverage: bool = False, progress: Optional[Callable[[int, int], None]] = None,
        keep_records: bool = False) -> Batch:
    """Plays games `0 … games-1` of the plan on every source (the same
    games on each: `rulebook compare` passes two). `loaded` are the sources'
    games already loaded here, used when one local worker plays all."""
    total = games * len(sources)
    tallies = [Tally(plan.players) for _ in sources]
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

    if backend == "ray":
        workers, interrupted = _run_ray(sources, plan, games, address, coverage, take, started)
    elif backend != "local":
        raise CommandError(f"unknown backend '{backend}' (known: {', '.join(BACKENDS)})")
    elif workers == 1:
        started()
        interrupted = _run_here(loaded or [s.load() for s in sources], plan, games,
                                coverage, take)
    else:
        interrupted = _run_pool(sources, plan, games, workers, coverage, take, started)
    for rs in records:
        rs.sort(key=lambda r: r.index)
    return Batch(tallies, pairing, merged, interrupted, workers, backend,
                 records if keep_records else None)


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


def _run_pool(sources, plan, games, workers, coverage, take, started) -> bool:
    pool = ProcessPoolExecutor(max_workers=workers, initializer=_init_worker,
                               initargs=(sources, coverage))
    try:
        todo = iter_chunks(games, workers, len(sources), searches(plan))
        pending: set = set()

        def send() -> None:
            for which, start, stop in itertools.islice(todo, workers * AHEAD - len(pending)):
                pending.add(pool.submit(_pool_chunk, which, plan, start, stop, coverage))

        send()
        started()
        while pending:
            finished, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in finished:
                take(future.result())
            send()
    except KeyboardInterrupt:
        _stop(pool)
        return True
    except BaseException:
        _stop(pool)
        raise
    pool.shutdown()
    return False


def _stop(pool: ProcessPoolExecutor) -> None:
    """Drops the chunks not started and ends the workers now, not after
    their current chunk."""
    terminate = getattr(pool, "terminate_workers", None)  # Python 3.14+
    # Before 3.14 concurrent.futures has no public way to stop a running
    # task; the processes must be taken before shutdown() forgets them.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    if terminate is not None:
        terminate()
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        if process.is_alive():
            process.terminate()


def _run_ray(sources, plan, games, address, coverage, take, started) -> tuple:
    try:
        import ray
    except ImportError:
        raise CommandError("--backend ray needs Ray, which is not installed: "
                           "pip install 'rulebook[ray]'", code="simulate/ray-missing") from None
    try:
        ray.init(address=address, ignore_reinit_error=True, log_to_driver=False,
                 logging_level=logging.ERROR)
        workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
    except Exception as err:  # noqa: BLE001 - Ray raises many kinds for one failure
        where = f"at '{address}'" if address else "locally"
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise CommandError(f"cannot start or reach a Ray cluster {where}: {first}",
                           code="simulate/ray-unreachable") from None
    remote = ray.remote(_ray_chunk)
    shared = ray.put(list(sources))
    todo = iter_chunks(games, workers, len(sources), searches(plan))
    pending: list = []

    def send() -> None:
        for which, start, stop in itertools.islice(todo, workers * AHEAD - len(pending)):
            pending.append(remote.remote(shared, which, plan, start, stop, coverage))

    send()
    started()
    try:
        while pending:
            ready, pending = ray.wait(pending, num_returns=1)
            for ref in ready:
                take(ray.get(ref))
            send()
    except KeyboardInterrupt:
        for ref in pending:
            ray.cancel(ref, force=True)
        return workers, True
    return workers, False
