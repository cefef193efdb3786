"""How soon the language server re-checks an edit, per shipped rulebook, printed
(not a timed test).

Usage: python tools/bench_lsp.py [--runs N] [--rulebook NAME …]

One `rulebook lsp` is started, as an editor starts it, and spoken to with
pygls' own client. Each rulebook of rulebooks/ is opened (its text sent,
nothing written to disk), then edited N times (default 7) by one
character: a letter typed into its title (`game "…"`), then taken away,
and so on.
For each edit the time is taken from the `didChange` notification to the
last diagnostics the server publishes for that text (a rulebook for
several player counts is published twice: its smallest count, then every
count validate checks), the server's pause for quiet typing included.
The median is printed, with the processor time the server spent on the
edit (steadier than the wall clock on a busy machine), beside two
references: `rulebook validate`'s own
check of the same file in this process (load and compile every player
count validate checks, warm: the second of two), and the server's first
check of the file when it is opened. The diagnostics after each edit must
be those of the opened text; a difference stops the run.

Needs `pip install 'rulebook[lsp]'`. Other programs running on the
machine slow it down; the load average is printed with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WAIT = 60           # seconds at most for an answer


def load() -> str:
    try:
        return "load average %.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "load average unknown"


def validate_seconds(path: Path) -> float:
    """`rulebook validate`'s static check of a file, warm (the second run)."""
    from interpreter.game.load import load_rulebook
    from interpreter.errors import RulebookError

    took = []
    for _ in range(2):
        start = time.perf_counter()
        try:
            load_rulebook(str(path)).compile_all()
        except RulebookError:
            pass
        took.append(time.perf_counter() - start)
    return took[-1]


def cpu_seconds(pid: int) -> float:
    """The processor time a process has used so far (Linux; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def publications(text: str, path: Path) -> int:
    """How many times the server publishes a text's diagnostics."""
    from interpreter.editor import diagnostics
    return len(list(diagnostics.diagnostic_steps(text, path)))


async def bench(paths: list, runs: int) -> list:
    from lsprotocol import types
    from pygls.lsp.client import BaseLanguageClient

    class Client(BaseLanguageClient):
        def __init__(self):
            super().__init__("rulebook-bench", "1")
            self.published: dict = {}           # uri -> [(time, version, diagnostics)]
            self.arrived = asyncio.Event()

            @self.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
            def diagnostics(params):
                self.published.setdefault(params.uri, []).append(
                    (time.perf_counter(), params.version, params.diagnostics))
                self.arrived.set()

        async def published_at(self, uri: str, count: int) -> tuple:
            while len(self.published.get(uri, [])) < count:
                self.arrived.clear()
                await asyncio.wait_for(self.arrived.wait(), WAIT)
            return self.published[uri][count - 1]

    def codes(found: list) -> list:
        return sorted((d.range.start.line, d.range.start.character, d.code, d.message)
                      for d in found)

    client = Client()
    await client.start_io(sys.executable, "-m", "interpreter", "lsp", cwd=str(ROOT))
    rows = []
    try:
        await asyncio.wait_for(client.initialize_async(types.InitializeParams(
            capabilities=types.ClientCapabilities(), root_uri=ROOT.as_uri())), WAIT)
        client.initialized(types.InitializedParams())
        for path in paths:
            text = path.read_text(encoding="utf-8")
            uri = path.as_uri()
            steps = publications(text, path)
            start = time.perf_counter()
            client.text_document_did_open(types.DidOpenTextDocumentParams(
                types.TextDocumentItem(uri=uri, language_id="rulebook", version=1, text=text)))
            arrived, _, opened = await client.published_at(uri, steps)
            first = arrived - start
            lines = text.split("\n")
            title = next(i for i, line in enumerate(lines) if line.startswith('game "'))
            at = types.Position(title, len('game "'))
            took, cpu = [], []
            pid = client._server.pid
            for run in range(runs):
                await asyncio.sleep(0.3)            # the last edit's work settles
                if run % 2 == 0:
                    change = types.TextDocumentContentChangeEvent_Type1(types.Range(at, at), "x")
                else:
                    after = types.Position(at.line, at.character + 1)
                    change = types.TextDocumentContentChangeEvent_Type1(types.Range(at, after), "")
                seen = len(client.published[uri])
                used = cpu_seconds(pid)
                start = time.perf_counter()
                client.text_document_did_change(types.DidChangeTextDocumentParams(
                    types.VersionedTextDocumentIdentifier(version=run + 2, uri=uri), [change]))
                arrived, version, found = await client.published_at(uri, seen + steps)
                if version != run + 2 or codes(found) != codes(opened):
                    raise SystemExit(f"{path.name}: the diagnostics after edit {run + 1} "
                                     f"differ from the opened text's")
                took.append(arrived - start)
                cpu.append(cpu_seconds(pid) - used)
            client.text_document_did_close(types.DidCloseTextDocumentParams(
                types.TextDocumentIdentifier(uri)))
            rows.append((path, len(text), statistics.median(took), statistics.median(cpu), first,
                         len(opened)))
        await asyncio.wait_for(client.shutdown_async(None), WAIT)
        client.exit(None)
    finally:
        await client.stop()
    return rows


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--rulebook", nargs="+", default=[],
                        help="rulebooks of rulebooks/ by name (default: every one)")
    args = parser.parse_args(argv)
    every = sorted((ROOT / "rulebooks").glob("*.rules"), key=lambda p: p.stat().st_size)
    paths = [p for p in every if not args.rulebook or p.stem in args.rulebook]
    rows = asyncio.run(bench(paths, args.runs))
    print(f"rulebook lsp: one-character edit -> its last diagnostics, median of {args.runs} "
          f"({load()})")
    print(f"  {'rulebook':<24} {'bytes':>6} {'edit':>8} {'its cpu':>8} {'validate':>9} "
          f"{'opened':>8} errors")
    for path, size, edit, cpu, first, errors in rows:
        print(f"  {path.name:<24} {size:>6} {edit:>7.3f}s {cpu:>7.2f}s "
              f"{validate_seconds(path):>8.3f}s {first:>7.3f}s {errors:>6}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
