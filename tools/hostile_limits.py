"""Time and memory of the hostile rulebooks of the tests, each in a process of its own.

Usage: python tools/hostile_limits.py [--cpu SECONDS] [--memory MB] [--workers N]
       [--timeout SECONDS] [--guard MB] [NAME …]

Every hostile input of the tests is run: the files of tests/hostile/ (with
their data files beside them), the games of tests/hostile/play/ and the
large inputs tests/hostile/generated.py makes on the spot (NAME keeps only
the cases whose name holds it). Each runs in a child process of its own, as
tools/fuzz.py runs its cases, under a time limit and a memory limit that
only stop a runaway (--timeout, --guard): loaded and compiled for each
player count `rulebook validate` checks (a game of play/ is then played,
each player taking its first action, until it stops), then checked as the
language server checks a text (its first step, then all of them).

The table gives, for each case, the coded error it stopped with (or ok),
the CPU seconds of the load as validate does it and of the language
server's check (the process's start, its imports and the parser's tables,
read from Lark's cache, left out), the peak memory of the process, and
whether it is within the limits: --cpu (1 s; a case of generated.py may
have a bound of its own) for each of the two, and --memory (512 MB). The
exit status is 1 when a case is not, or when it crashed, hung, ran out of
memory or stopped with `error[internal]`.

The default suite asserts only the codes and places of these errors
(tests/test_hostile_rulebooks.py): a bound of time asserted there fails by
chance under the suite's own load. `pytest -m soak` runs this tool. The
figures are for an idle machine; with --workers 2 on two cores they stay
close, since CPU time, not wall time, is measured.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import traceback
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = ROOT / "tests" / "hostile"
PLAY = HOSTILE / "play"
CPU = 1.0                       # seconds of CPU a load may take
MEMORY = 512                    # MB a process may reach
MAX_DECISIONS = 1_000           # a game of play/ that goes on longer is cut off


@dataclass(frozen=True)
class Case:
    name: str
    kind: str                   # "file", "play" or "generated"
    target: str                 # a path, or a name of generated.CASES
    cpu: float = CPU


@dataclass
class Row:
    case: Case
    error: str                  # the coded error, "ok", or what went wrong
    cpu: Optional[float] = None
    server: Optional[float] = None     # the language server's check, all its steps
    first: Optional[float] = None      # … its first step
    peak_mb: Optional[float] = None
    failed: bool = False        # crashed, hung, out of memory, error[internal]

    def within(self, memory: int) -> bool:
        return (not self.failed and self.cpu is not None and self.peak_mb is not None
                and max(self.cpu, self.server or 0) <= self.case.cpu
                and self.peak_mb <= memory)


def cases(cpu: float = CPU) -> list[Case]:
    found = [Case(p.name, "file", str(p), cpu) for p in sorted(HOSTILE.glob("*.rules"))]
    found += [Case(f"play/{p.name}", "play", str(p), cpu) for p in sorted(PLAY.glob("*.rules"))]
    sys.path.insert(0, str(ROOT))
    from tests.hostile import generated         # only limits.py of the package: numbers
    found += [Case(f"generated: {name}", "generated", name, max(bound, cpu))
              for name, (_, bound) in generated.CASES.items()]
    return found


# -- the child ---------------------------------------------------------------------------

def child(kind: str, target: str) -> dict:
    """What one case gives, measured in this process."""
    sys.path.insert(0, str(ROOT))
    from interpreter import load_rulebook
    from interpreter.errors import RulebookError, RulebookErrors
    from interpreter.language import syntax
    from interpreter.editor import diagnostics as lsp_diagnostics
    from tests.hostile import generated
    syntax.parser()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(target) if kind != "generated" else generated.CASES[target][0](Path(folder))
        start = time.process_time()
        try:
            game = load_rulebook(str(path))
            game.compile_all()
            errors = _played(game) if kind == "play" else []
        except RulebookErrors as e:
            errors = list(e.errors)
        except RulebookError as e:
            errors = [e]
        cpu = time.process_time() - start
        game = None
        found = {"errors": [_place(e) for e in errors], "cpu": cpu}
        with open(path, encoding="utf-8", errors="replace") as file:
            text = file.read()
        start = time.process_time()
        steps = lsp_diagnostics.error_steps(text, path)
        next(steps)
        found["first"] = time.process_time() - start
        for _ in steps:
            pass
        found["server"] = time.process_time() - start
    found["peak_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    return found


def _played(game) -> list:
    """The rule error of a game of the smallest count, each player taking
    its first action ([] if it ends or goes on past MAX_DECISIONS)."""
    from interpreter.errors import RuleError
    state = game.new_game(game.min_players, seed=1)
    try:
        for _ in range(MAX_DECISIONS):
            if game.outcome(state) is not None:
                break
            player = game.to_move(state)[0]
            state = game.apply(state, game.legal_actions(state, player)[0])
    except RuleError as e:
        return [e]
    return []


def _place(e) -> list:
    span = e.span
    return [e.code, Path(span.file).name if span else None,
            span.line if span else None, span.column if span else None]


def run_child(kind: str, target: str) -> int:
    try:
        found = child(kind, target)
    except MemoryError:
        found = {"memory": True}
    except Exception:  # noqa: BLE001 - reported as the case's crash
        found = {"internal": traceback.format_exc(limit=-3)}
    print(json.dumps(found))
    return 0


# -- the parent ----------------------------------------------------------------------------

def _limits(guard_mb: int, seconds: float):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (guard_mb << 20, guard_mb << 20))
        resource.setrlimit(resource.RLIMIT_CPU, (int(seconds) + 1, int(seconds) + 2))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def child_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    env.update(PYTHONHASHSEED="0", NO_COLOR="1", PYTHONIOENCODING="utf-8:backslashreplace")
    return env


def measure(case: Case, timeout: float, guard_mb: int) -> Row:
    """One case in a child process of its own."""
    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--child", case.kind,
                             case.target], cwd=ROOT, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=child_env(),
                            start_new_session=True, preexec_fn=_limits(guard_mb, timeout))
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return Row(case, f"hang: past {timeout:g} s", failed=True)
    lines = out.strip().splitlines()
    if proc.returncode != 0 or not lines:
        why = f"signal {-proc.returncode}" if proc.returncode < 0 else f"exit {proc.returncode}"
        last = (err.strip().splitlines() or [""])[-1]
        return Row(case, f"crash: {why} {last}".strip(), failed=True)
    found = json.loads(lines[-1])
    if found.get("memory"):
        return Row(case, f"memory: past {guard_mb} MB", failed=True)
    if "internal" in found:
        return Row(case, "internal: " + found["internal"].strip().splitlines()[-1], failed=True)
    return Row(case, _shown(found["errors"]), found["cpu"], found["server"], found["first"],
               found["peak_mb"])


def _shown(errors: list) -> str:
    if not errors:
        return "ok"
    code, file, line, column = errors[0]
    where = ""
    if line is not None:        # a data file is named, the rulebook is the case's own
        where = f" {file}:{line}:{column}" if file and not file.endswith(".rules") \
            else f" {line}:{column}"
    more = f" (+{len(errors) - 1:,} more)" if len(errors) > 1 else ""
    return f"{code}{where}{more}"


def table(rows: list, memory: int, cpu: float) -> str:
    head = ("case", "error", "CPU s", "server s", "first s", "peak MB", "within")
    body = [(r.case.name, r.error, _figure(r.cpu), _figure(r.server), _figure(r.first),
             "-" if r.peak_mb is None else f"{r.peak_mb:.0f}",
             ("yes" if r.within(memory) else "NO") + ("" if r.case.cpu == cpu else
                                                      f" (its bound: {r.case.cpu:g} s)"))
            for r in rows]
    widths = [max(len(str(row[k])) for row in [head, *body]) for k in range(len(head))]
    numeric = {2, 3, 4, 5}

    def line(row) -> str:
        return "  ".join(str(v).rjust(w) if k in numeric else str(v).ljust(w)
                         for k, (v, w) in enumerate(zip(row, widths))).rstrip()
    return "\n".join([line(head), line(["-" * w for w in widths]), *map(line, body)])


def _figure(seconds: Optional[float]) -> str:
    return "-" if seconds is None else f"{seconds:.2f}"


def main(argv: Optional[list] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n", 1)[0])
    parser.add_argument("names", nargs="*", metavar="NAME",
                        help="only the cases whose name holds one of these")
    parser.add_argument("--cpu", type=float, default=CPU, help="CPU seconds a load may take")
    parser.add_argument("--memory", type=int, default=MEMORY, help="MB a process may reach")
    parser.add_argument("--workers", type=int, default=1, help="cases run at once")
    parser.add_argument("--timeout", type=float, default=60.0,
                        help="seconds after which a case is stopped as a hang")
    parser.add_argument("--guard", type=int, default=2048,
                        help="MB of address space after which a case is stopped")
    parser.add_argument("--child", nargs=2, metavar=("KIND", "TARGET"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return run_child(*args.child)
    chosen = [c for c in cases(args.cpu) if not args.names or any(n in c.name for n in args.names)]
    started = time.monotonic()
    with ThreadPoolExecutor(max(args.workers, 1)) as pool:
        rows = list(pool.map(lambda c: measure(c, args.timeout, args.guard), chosen))
    print(table(rows, args.memory, args.cpu))
    over = [r for r in rows if not r.within(args.memory)]
    print(f"\n{len(rows)} cases in {time.monotonic() - started:.0f} s: "
          f"{len(rows) - len(over)} within {args.cpu:g} s of CPU and {args.memory} MB, "
          f"{len(over)} not" + (": " + ", ".join(r.case.name for r in over) if over else ""))
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
