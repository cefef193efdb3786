"""What `rulebook validate` says of a rulebook's text, as an editor's diagnostics.

`rulebook_errors` runs validate's static pipeline (parse, the checks, the
schema, the compiler for every player count) on a text that need not be
saved: the file it is saved as names it in messages, and the data files and
the base it names are read from disk beside it, as validate reads them.
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
from typing import Optional

from ..errors import RulebookError, RulebookErrors, Span
from ..game.engine import Game
from ..language import variants
from ..language.loader import compile_ir, shown_path
from ..language.syntax import parse
from .lsp_model import UTF16, Source

ERROR = 1                   # the protocol's DiagnosticSeverity.Error
SOURCE = "rulebook"
_TOKEN = re.compile(r'[A-Za-z0-9_]+|"[^"\n]*"?|\S')
_INCLUDE = re.compile(r'\bfrom\s+"([^"\n]*)"|^\s*variant\s+of\s+"([^"\n]*)"')


def rulebook_errors(text: str, path: Path) -> list[RulebookError]:
    """The static errors `rulebook validate` reports for `text` saved as
    `path`, sorted by place. An unexpected failure is one error of code
    `internal`, as validate prints it."""
    shown = shown_path(path)
    try:
        ir = compile_ir(text, shown, path.parent)
        game = Game(ir, None, str(path))
        try:
            game.compile_all()
        except RulebookErrors as e:
            _blame_variant(e.errors, text, shown)
            raise
    except RulebookErrors as e:
        return list(e.errors)
    except RulebookError as e:
        return [e]
    except Exception as exc:  # noqa: BLE001 - the editor must hear of it, not lose the server
        return [RulebookError(f"{type(exc).__name__}: {exc}", Span(shown, 1, 1), code="internal")]
    return []


def _blame_variant(errors: list, text: str, shown: str) -> None:
    """As `loader.blame_variant`, from the text being edited rather than the file."""
    ast = parse(text, shown)
    if variants.variant_header(ast) is not None:
        variants.blame(errors, shown, [i for i in ast["items"] if i["node"] != "variant"])


def diagnostics(text: str, path: Path, encoding: str = UTF16,
                texts: Optional[dict] = None) -> dict[str, list[dict]]:
    """file -> its diagnostics: the rulebook's under str(path), and those of
    each other file an error is in under that file's absolute path.
    `texts` holds the texts of open files (path -> text), read from disk
    otherwise, to convert columns."""
    path = Path(path)
    shown = shown_path(path)
    document = Source(text)
    found: dict[str, list] = {str(path): []}
    elsewhere: dict[str, list] = {}
    for error in rulebook_errors(text, path):
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
