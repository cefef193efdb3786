"""`rulebook lsp`: a Language Server for rulebooks, over standard input and output.

An editor that speaks the Language Server Protocol (VS Code, Neovim, Helix,
…) starts `rulebook lsp` and gets, for each open `.rules` file: the errors
of `rulebook validate` as it types (the same codes, messages and hints;
those of a data file or a variant's base on that file and on the line that
reads it), hover, go to definition and completion. The answers come from
`index`, `answers` and `diagnostics`, which know nothing of
the protocol's library; this module only connects them to pygls, the one
module that imports it (an optional extra, `pip install 'rulebook[lsp]'`),
and inside its functions, so that the core never needs it.

One worker thread does every parse and check, in turn (the parser is
shared), so that the protocol's thread answers while a text is checked. An
edit is checked a moment after it comes (the notifications of one
keystroke come together); edits that come while a text is being checked
make that check stop at its next piece of work (the checks, a player
count: `diagnostics.error_steps`), and the latest text is checked next, so
a burst of typing costs one check of the text it ends with, not one per
keystroke. The errors of a rulebook for several player counts are
published twice: with its smallest count compiled, then with every count
validate checks. Hover, definition and completion wait for the index of
the text they are asked about, built between two pieces of a check when
one is under way; a check builds it after its diagnostics. What does not
change with the rulebook's text is kept from one check to the next: the
parser, the data files it reads while they are unchanged (their records'
check against the schema too), the standard library's tables.
"""

from __future__ import annotations

import asyncio
import gc
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Optional

from ..errors import CommandError
from ..language.syntax import parser
from . import answers, diagnostics
from .index import refresh
from .model import UTF16, Index, Place, Source

DEBOUNCE = 0.05             # seconds after an edit before its text is checked
GC_THRESHOLD = 20_000       # allocations between two collections of the youngest objects
SUFFIX = ".rules"
LANGUAGE = "rulebook"
INSTALL = "pip install 'rulebook[lsp]'"

# answers' kinds -> the protocol's CompletionItemKind (by name)
COMPLETION_KINDS = {
    "component": "Class", "piece": "EnumMember", "zone": "Module", "grid": "Struct",
    "variable": "Variable", "permission": "Variable", "define": "Function",
    "option": "Property", "table": "Constant", "value": "Value", "column": "Field",
    "action": "Event", "phase": "Event", "local": "Variable", "parameter": "Variable",
    "function": "Function", "aggregate": "Function", "constant": "Constant",
    "keyword": "Keyword",
}


def serve(stdin=None, stdout=None) -> int:
    """Run the server until the editor says exit (or closes the pipe)."""
    server = make_server()
    settle()
    try:
        server.start_io(stdin, stdout)
    finally:
        server.session.worker.shutdown(wait=False, cancel_futures=True)
    return 0


def settle() -> None:
    """Before the first text comes: the parser built, and what the server
    holds for good (the modules, the parser) kept out of the collector's
    walks (`gc.freeze`), with collections less often. A check makes many
    short-lived objects and few cycles, and walking everything the process
    held at each collection was a quarter of a check's time."""
    parser()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, *gc.get_threshold()[1:])


def _pygls():
    try:
        from lsprotocol import types
        from pygls import uris
        from pygls.protocol import default_converter
        from pygls.server import LanguageServer
    except ImportError:
        raise CommandError(f"'rulebook lsp' needs pygls, which is not installed: {INSTALL}",
                           hint="the language server is an optional extra: docs/editor.md",
                           code="lsp/pygls-missing") from None
    return types, uris, default_converter, LanguageServer


class Session:
    """What the server knows of the open rulebooks: each one's index (and
    the text it is of) and the diagnostics each published for other files."""

    def __init__(self):
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="rulebook-lsp")
        self.rulebooks: set = set()             # uris of the open rulebooks
        self.indexes: dict = {}                 # uri -> (text, Index)
        self.pending: dict = {}                 # uri -> the task that checks it
        self.wanted: set = set()                # uris whose latest text is to be checked
        self.published: dict = {}               # uri -> {other file's uri: [diagnostics]}

    def index(self, uri: str, text: str, path: str) -> Index:
        """The index of `text` (built in the worker thread)."""
        known = self.indexes.get(uri)
        if known is not None and known[0] == text:
            return known[1]
        index = refresh(known[1] if known else None, text, path)
        self.indexes[uri] = (text, index)
        return index

    def forget_texts(self) -> None:
        """A saved file (a data file, a base) may change what an index says
        of a rulebook whose text has not changed: the next question builds
        each index again, the last one kept should that fail."""
        self.indexes = {uri: (None, index) for uri, (_, index) in self.indexes.items()}

    def foreign(self, uri: str) -> list:
        """Everything the open rulebooks say of another file."""
        return [d for found in self.published.values() for d in found.get(uri, [])]


def make_server():
    """The pygls server with the rulebook features."""
    types, uris, default_converter, LanguageServer = _pygls()
    converter = default_converter()
    server = LanguageServer(LANGUAGE, _version(),
                            text_document_sync_kind=types.TextDocumentSyncKind.Incremental)
    session = server.session = Session()

    def encoding() -> str:
        chosen = server.workspace.position_encoding
        return str(getattr(chosen, "value", chosen) or UTF16)

    def path_of(uri: str) -> Path:
        found = uris.to_fs_path(uri)
        if not found or not uri.startswith("file:"):
            return Path.cwd() / ("untitled" + SUFFIX)
        return Path(os.path.abspath(found))

    def is_rulebook(uri: str) -> bool:
        return uri in session.rulebooks

    def open_texts() -> dict:
        return {str(path_of(uri)): doc.source
                for uri, doc in server.workspace.text_documents.items()}

    def to_range(place: Place, source: Source):
        start = source.to_lsp(place.line, place.column, encoding())
        end = source.to_lsp(place.end_line, place.end_column, encoding())
        return types.Range(types.Position(*start), types.Position(*end))

    def source_of(file: str) -> Source:
        return Source(open_texts().get(file) or diagnostics.file_text(file))

    # -- checking --------------------------------------------------------------
    def schedule(uri: str, delay: float) -> None:
        """Check the latest text of `uri`: at once if no check of it is under
        way, else when the one under way has stopped."""
        session.wanted.add(uri)
        task = session.pending.get(uri)
        if task is None or task.done():
            session.pending[uri] = asyncio.ensure_future(check(uri, delay))

    async def check(uri: str, delay: float) -> None:
        await asyncio.sleep(delay)
        loop = asyncio.get_running_loop()

        def stale() -> bool:        # read in the worker thread too
            return uri in session.wanted or uri not in session.rulebooks
        try:
            while uri in session.wanted and uri in session.rulebooks:
                session.wanted.discard(uri)
                doc = server.workspace.get_text_document(uri)
                text, version, path = doc.source, doc.version, path_of(uri)
                # published step by step: the smallest player count's errors, then every count's
                steps = diagnostics.diagnostic_steps(text, path, encoding(), open_texts(), stale)
                found = await loop.run_in_executor(session.worker, next, steps, None)
                while found is not None and not stale():
                    publish(uri, found, version)
                    found = await loop.run_in_executor(session.worker, next, steps, None)
                if not stale():     # the questions' index, unless one was asked for already
                    await loop.run_in_executor(session.worker, session.index, uri, text,
                                               str(path))
        except Exception as exc:  # noqa: BLE001 - a bug here must not stop the server
            server.show_message_log(f"rulebook lsp: checking {uri} failed: "
                                    f"{type(exc).__name__}: {exc}")
        finally:
            if session.pending.get(uri) is asyncio.current_task():
                session.pending.pop(uri, None)

    def publish(uri: str, found: dict, version: Optional[int]) -> None:
        mine = found.pop(str(path_of(uri)), [])
        before = set(session.published.get(uri, {}))
        session.published[uri] = {uris.from_fs_path(f): ds for f, ds in found.items()}
        server.publish_diagnostics(uri, [as_diagnostic(d) for d in mine], version)
        for other in before | set(session.published[uri]):
            server.publish_diagnostics(other, [as_diagnostic(d) for d in session.foreign(other)])

    def as_diagnostic(d: dict):
        return converter.structure(d, types.Diagnostic)

    # -- the documents ---------------------------------------------------------
    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls, params: types.DidOpenTextDocumentParams) -> None:
        doc = params.text_document
        if doc.language_id == LANGUAGE or doc.uri.endswith(SUFFIX):
            session.rulebooks.add(doc.uri)
            schedule(doc.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls, params: types.DidChangeTextDocumentParams) -> None:
        if is_rulebook(params.text_document.uri):
            schedule(params.text_document.uri, DEBOUNCE)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls, params: types.DidSaveTextDocumentParams) -> None:
        # a saved data file or base changes what the rulebooks that read it say
        session.forget_texts()
        for uri in list(session.rulebooks):
            schedule(uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri not in session.rulebooks:
            return
        session.rulebooks.discard(uri)
        session.wanted.discard(uri)
        session.indexes.pop(uri, None)
        task = session.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        publish(uri, {}, None)
        session.published.pop(uri, None)

    # -- questions ---------------------------------------------------------------
    async def ask(params):
        """(index, current source, line, column) for a request at a position."""
        uri = params.text_document.uri
        if not is_rulebook(uri):
            return None
        text = server.workspace.get_text_document(uri).source
        loop = asyncio.get_running_loop()
        index = await loop.run_in_executor(session.worker, session.index, uri, text,
                                           str(path_of(uri)))
        source = Source(text)
        line, column = source.from_lsp(params.position.line, params.position.character,
                                       encoding())
        return index, source, line, column

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    async def hover(ls, params: types.HoverParams):
        asked = await ask(params)
        found = asked and answers.hover(*asked)
        if not found:
            return None
        text, place = found
        return types.Hover(types.MarkupContent(types.MarkupKind.Markdown, text),
                           to_range(place, asked[1]))

    @server.feature(types.TEXT_DOCUMENT_DEFINITION)
    async def definition(ls, params: types.DefinitionParams):
        asked = await ask(params)
        place = asked and answers.definition(*asked)
        if not place:
            return None
        index, source = asked[0], asked[1]
        if place.file == index.path:
            return types.Location(params.text_document.uri, to_range(place, source))
        return types.Location(uris.from_fs_path(place.file), to_range(place, source_of(place.file)))

    @server.feature(types.TEXT_DOCUMENT_COMPLETION,
                    types.CompletionOptions(trigger_characters=[".", "{"]))
    async def completion(ls, params: types.CompletionParams):
        asked = await ask(params)
        items = answers.completions(*asked) if asked else []
        return types.CompletionList(is_incomplete=False, items=[
            types.CompletionItem(
                c.label, kind=getattr(types.CompletionItemKind, COMPLETION_KINDS.get(c.kind, "Text")),
                detail=c.detail, sort_text=f"{c.rank}{c.label}",
                documentation=types.MarkupContent(types.MarkupKind.Markdown,
                                                  f"```rulebook\n{c.documentation}\n```"
                                                  if c.kind not in ("function", "aggregate",
                                                                    "constant") else
                                                  c.documentation) if c.documentation else None)
            for c in items])

    return server


def _version() -> str:
    try:
        from importlib.metadata import version
        return version("rulebook")
    except Exception:  # noqa: BLE001 - not installed as a distribution: a checkout
        return "0"
