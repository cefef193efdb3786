"""What `rulebook validate` says of a rulebook's text, as an editor's diagnostics.

`rulebook_errors` runs validate's static pipeline (parse, the checks, the
schema, the compiler for each player count validate checks) on a text that
need not be saved: the file it is saved as names it in messages, and the
data files and the base it names are read from disk beside it, as validate
reads them. `error_steps` gives the same in two steps, so that an editor
hears of the smallest player count first and of the others after (the
checks bound what they build together: docs/language.md §12.1), and stops
between two pieces of the work when the text has changed since.
`diagnostics` turns the errors into the Language Server Protocol's shape
(plain dicts): the code, the message with its hint, the range converted to
0-based lines and UTF-16 columns. An error in another file — a data file
the rulebook reads, the base of a variant — is listed under that file, and
once more on the rulebook's line that reads it (`component … from "…"`,
`variant of "…"`), so it is seen from the rulebook too.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Callable, Iterator, Optional

from ..errors import RulebookError, RulebookErrors, Span
from ..game.engine import Game
from ..language import player_counts, variants
from ..language.loader import compile_ir, shown_path
from ..language.syntax import parse
from .model import UTF16, Source

ERROR = 1                   # the protocol's DiagnosticSeverity.Error
SOURCE = "rulebook"
_TOKEN = re.compile(r'[A-Za-z0-9_]+|"[^"\n]*"?|\S')
_INCLUDE = re.compile(r'\bfrom\s+"([^"\n]*)"|^\s*variant\s+of\s+"([^"\n]*)"')


def rulebook_errors(text: str, path: Path) -> list[RulebookError]:
    """The static errors `rulebook validate` reports for `text` saved as
    `path`, sorted by place. An unexpected failure is one error of code
    `internal`, as validate prints it."""
    *_, errors = error_steps(text, path)
    return errors


def error_steps(text: str, path: Path, stale: Callable[[], bool] = lambda: False
                ) -> Iterator[list[RulebookError]]:
    """`rulebook_errors` in steps, each the errors found so far: those of
    the checks and of the smallest player count's compiling first, then,
    when validate checks more counts, those of all of them. When `stale()`
    says yes between two pieces of the work (the checks, a player count),
    the steps stop there: a newer text is to be checked instead."""
    shown = shown_path(path)
    try:
        ir = compile_ir(text, shown, path.parent)
    except Exception as exc:  # noqa: BLE001 - the editor must hear of it, not lose the server
        yield _errors(exc, shown)
        return
    if stale():
        return
    game = Game(ir, None, str(path), blame=_blamer(text, shown))
    last = len(player_counts.checked(ir)) - 1
    found: list = []
    try:
        for i, found in enumerate(game.compiling()):
            if i == 0 and last > 0:     # the smallest on its own first: it is heard of sooner
                yield found
            if i < last and stale():
                return
    except Exception as exc:  # noqa: BLE001
        yield _errors(exc, shown)
        return
    yield found


def _errors(exc: Exception, shown: str) -> list[RulebookError]:
    if isinstance(exc, RulebookErrors):
        return list(exc.errors)
    if isinstance(exc, RulebookError):
        return [exc]
    return [RulebookError(f"{type(exc).__name__}: {exc}", Span(shown, 1, 1), code="internal")]


def _blamer(text: str, shown: str):
    """errors -> pointed at a variant's changes, as `loader.blame_variant`
    does, from the text being edited rather than the file, parsed once."""
    changes: list = []

    def blame(errors: list) -> None:
        if not changes:
            ast = parse(text, shown)
            changes.append([i for i in ast["items"] if i["node"] != "variant"]
                           if variants.variant_header(ast) is not None else None)
        if changes[0] is not None:
            variants.blame(errors, shown, changes[0])
    return blame


def diagnostics(text: str, path: Path, encoding: str = UTF16,
                texts: Optional[dict] = None) -> dict[str, list[dict]]:
    """file -> its diagnostics: the rulebook's under str(path), and those of
    each other file an error is in under that file's absolute path.
    `texts` holds the texts of open files (path -> text), read from disk
    otherwise, to convert columns."""
    *_, found = diagnostic_steps(text, path, encoding, texts)
    return found


def diagnostic_steps(text: str, path: Path, encoding: str = UTF16,
                     texts: Optional[dict] = None, stale: Callable[[], bool] = lambda: False
                     ) -> Iterator[dict[str, list[dict]]]:
    """`diagnostics` in the steps of `error_steps`: each step's are all
    that were found so far, to be published in place of the step's before."""
    path = Path(path)
    for errors in error_steps(text, path, stale):
        yield _diagnostics(errors, text, path, encoding, texts)


def _diagnostics(errors: list, text: str, path: Path, encoding: str,
                 texts: Optional[dict]) -> dict[str, list[dict]]:
    shown = shown_path(path)
    document = Source(text)
    found: dict[str, list] = {str(path): []}
    elsewhere: dict[str, list] = {}
    for error in errors:
        file = str(path) if error.span is None or error.span.file == shown \
            else os.path.abspath(error.span.file)
        if file == str(path):
            found[file].append(diagnostic(error, document, encoding))
        else:
            elsewhere.setdefault(file, []).append(error)
    for file, errors in elsewhere.items():
        source = Source(file_text(file, texts))
        found[file] = [diagnostic(e, source, encoding) for e in errors]
        found[str(path)].append(_summary(file, errors, found[file], path, document, encoding))
    return found


def file_text(file: str, texts: Optional[dict] = None) -> str:
    """An open file's text from `texts`, else the file's on disk ("" if unreadable)."""
    if texts and file in texts:
        return texts[file]
    try:
        with open(file, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return ""


def diagnostic(error: RulebookError, source: Source, encoding: str = UTF16) -> dict:
    """One error as the protocol's Diagnostic: code, message and hint, range."""
    message = error.message + (f"\nhint: {error.hint}" if error.hint else "")
    return {"range": span_range(error.span, source, encoding), "severity": ERROR,
            "code": error.code, "source": SOURCE, "message": message}


def span_range(span: Optional[Span], source: Source, encoding: str = UTF16) -> dict:
    """A span as the protocol's Range. A span without an end (a data file's
    record, a missing line) covers the word it starts at."""
    if span is None or span.line < 1:
        return _range((0, 0), (0, len(source.line(1)) and 1))
    start = (span.line, span.column)
    end = (span.end_line, span.end_column)
    if end <= start:
        m = _TOKEN.match(source.line(span.line), max(span.column - 1, 0))
        end = (span.line, span.column + (len(m.group()) if m else 1))
    return _range(source.to_lsp(*start, encoding), source.to_lsp(*end, encoding))


def _range(start: tuple, end: tuple) -> dict:
    return {"start": {"line": start[0], "character": start[1]},
            "end": {"line": end[0], "character": end[1]}}


def _summary(file: str, errors: list, listed: list, path: Path, document: Source,
             encoding: str) -> dict:
    """The diagnostic on the rulebook's line that reads `file`, naming its errors."""
    where = _include(file, path, document, encoding)
    name = os.path.relpath(file, path.parent)
    first = errors[0]
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    related = [{"location": {"uri": Path(file).as_uri(), "range": d["range"]},
                "message": f"{e.code}: {e.message}"} for e, d in zip(errors, listed)]
    return {"range": where, "severity": ERROR, "code": first.code, "source": SOURCE,
            "message": f"{len(errors)} error{'s' if len(errors) != 1 else ''} in {name}: "
                       f"{first.message}{more}", "relatedInformation": related}


def _include(file: str, path: Path, document: Source, encoding: str) -> dict:
    """The range of the quoted file name that brings `file` in: its own
    `from "…"`, else the `variant of "…"` line (a base's data files come
    through the base), else the first line."""
    target = os.path.realpath(file)
    fallback = None
    for number, line in enumerate(document.lines, 1):
        for m in _INCLUDE.finditer(line):
            group = 1 if m.group(1) is not None else 2
            start, end = m.start(group), m.end(group)
            where = _range(document.to_lsp(number, start, encoding),
                           document.to_lsp(number, end + 2, encoding))
            if os.path.realpath(path.parent / m.group(group)) == target:
                return where
            if group == 2 and fallback is None:
                fallback = where
    return fallback or span_range(None, document, encoding)
