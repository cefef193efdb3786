"""Component data included from YAML files, validated by a JSON Schema.

A rulebook may keep bulky data (tile lists, maps) in a YAML file beside it:
``component tile from "tiles.yaml"``. The file holds a list of
records (one per component, a ``copies`` field for repeats) or a mapping with
a ``components`` list; ``from "game.yaml" at tiles`` reads the records
(or the one record) under a key of a richer file instead. The records are
checked against ``schemas/components.schema.json``, and a file that names
its own schema (``schema: NAME`` at its top) is first checked whole against
``schemas/NAME.schema.json``; every problem is reported, each at the file's
line and column of the offending value.

A file is read within the limits (`limits`): at most MAX_DATA_BYTES of it,
and its composed YAML measured before anything is built from it, so that a
file of a few lines whose aliases expand to billions of values, or that
nests past MAX_DATA_DEPTH, is refused at once (`rulebook/limit`). Which
files may be read at all is `files.locate`'s rule, applied by the checks.
"""

from __future__ import annotations

import copy
import functools
import json
from pathlib import Path

import jsonschema
import yaml

from . import files
from ..errors import (DataFileError, LimitExceeded, RulebookErrors, Span, UnknownName,
                      did_you_mean)
from .limits import MAX_DATA_BYTES, MAX_DATA_DEPTH, MAX_DATA_VALUES, MAX_DIGITS, count

SCHEMA_DIR = Path(__file__).resolve().parents[2] / "schemas"


@functools.lru_cache(maxsize=None)
def schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


class _Located(dict):
    """A YAML mapping that remembers where it starts and where each value is."""

    def __init__(self, mapping, line, column, marks):
        super().__init__(mapping)
        self.line, self.column, self.marks = line, column, marks


class _LocatedList(list):
    """A YAML sequence that remembers where it starts and where each item is."""

    def __init__(self, items, line, column, marks):
        super().__init__(items)
        self.line, self.column, self.marks = line, column, marks


class _DuplicateKey(yaml.MarkedYAMLError):
    pass


# libyaml's parser where PyYAML was built with it: the same documents and
# marks, read about ten times faster (a large map is most of a rulebook's load time)
_SafeLoader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


class _LineLoader(_SafeLoader):
    """A safe loader that records positions and refuses repeated keys."""


def _mark(node) -> tuple[int, int]:
    return node.start_mark.line + 1, node.start_mark.column + 1


def _span(node) -> tuple[int, int, int, int]:
    return _mark(node) + (node.end_mark.line + 1, node.end_mark.column + 1)


def _construct_mapping(loader, node):
    seen = {}
    marks = {}
    for key_node, value_node in node.value:
        key = loader.construct_object(key_node, deep=True)
        try:
            repeated = key in seen
        except TypeError:        # an unhashable key: let PyYAML report it
            repeated = False
        if repeated:
            raise _DuplicateKey("while reading a mapping", node.start_mark,
                                f"the key '{key}' appears twice", key_node.start_mark)
        seen[key] = True
        try:
            marks[key] = _span(value_node)
        except TypeError:
            pass
    mapping = yaml.constructor.SafeConstructor.construct_mapping(loader, node, deep=True)
    return _Located(mapping, *_mark(node), marks)


def _construct_sequence(loader, node):
    items = loader.construct_sequence(node, deep=True)
    return _LocatedList(items, *_mark(node), [_span(n) for n in node.value])


class _PyLineLoader(yaml.SafeLoader):
    """The same loader over PyYAML's own parser, for its fuller messages."""


for _loader in {_LineLoader, _PyLineLoader}:
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
    _loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def _picked(records: list, columns: list) -> list:
    """The records with only the keys a rulebook reads (`with KEY [as NAME], …`),
    renamed. (A key that no record of any path has is the caller's to report.)"""
    out = []
    for rec in records:
        if not isinstance(rec, dict):
            out.append(rec)
            continue
        marks = getattr(rec, "marks", {})
        kept = {c["name"]: rec[c["key"]] for c in columns if c["key"] in rec}
        out.append(_Located(kept, getattr(rec, "line", 1), getattr(rec, "column", 1),
                            {c["name"]: marks[c["key"]] for c in columns
                             if c["key"] in rec and c["key"] in marks}))
    return out


_DOCUMENTS: dict = {}     # (path, shown, mtime, size) -> the checked document, or its errors
# (path, shown, mtime, size, key path, keys read) -> the records' problems
_VERDICTS: dict = {}


def _file_key(path: Path, shown: str):
    """What a data file is known by while it is unchanged (None: unreadable)."""
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return (str(path), shown, st.st_mtime_ns, st.st_size)


def _document(path: Path, shown: str, key=None):
    """A data file read and checked against its own schema, once while it
    is unchanged (`key`, from `_file_key`): a rulebook may read several
    keys of one file, and an editor checks it again at every edit of the
    rulebook. (Nothing here changes the document it returns.)"""
    found = _DOCUMENTS.get(key) if key else None
    if found is None:
        try:
            doc = _json_keys(_read_yaml(path, shown))
            _check_own_schema(doc, shown)
            found = (doc, None)
        except RulebookErrors as e:
            found = (None, e.errors)
        _keep(_DOCUMENTS, key, found)
    doc, errors = found
    if errors is not None:
        raise RulebookErrors(_fresh(errors))
    return doc


def _keep(cache: dict, key, value) -> None:
    """`value` kept in `cache` under `key` (from `_file_key`; None: not
    kept), the cache emptied first when it holds 64, so that a process that
    reads many files (or one file as it changes) does not grow with them."""
    if key:
        if len(cache) > 64:
            cache.clear()
        cache[key] = value


def _fresh(errors: list) -> list:
    """Copies of kept errors, to be raised: whoever reports one may add to
    it (a variant's checks add the lines that changed the base to its
    hint), and that must not stay on the kept one for the next reading."""
    return [copy.copy(e) for e in errors]


def load_component_rows(path: Path, shown: str, key_path: list[str] | None = None,
                        columns: list | None = None):
    """(columns, rows) from a component data file, rows as table-like cells.

    ``columns`` (from ``with KEY [as NAME], …``) keeps only those keys of
    each record, renamed.
    ``key_path`` (from ``at a.b``) names the value to read in a richer file:
    a list of records, or one mapping that is one record. Raises
    FileNotReadable or UnknownName (no span: the caller knows the rulebook's
    'from' and 'at') or RulebookErrors of DataFileError, each at the data
    file's line and column.
    """
    key = _file_key(path, shown)
    doc = _document(path, shown, key)
    if key_path is None:
        # a list of records, or a mapping with a 'components' list
        if isinstance(doc, dict) and "components" not in doc:
            raise RulebookErrors([DataFileError(
                f"'{shown}' has no 'components' list", Span(shown, doc.line, doc.column),
                hint=f"read one of its keys with 'at': {', '.join(doc)}")])
        document = doc if isinstance(doc, dict) else {"components": doc}
        prefix, skip = [], 0 if isinstance(doc, dict) else 1
    else:
        value = _select(doc, key_path, shown)
        if not isinstance(value, (dict, list)):
            raise RulebookErrors([_violation(
                doc, list(key_path), f"{value!r} is neither a list of records nor one record", shown)])
        single = isinstance(value, dict)
        document = {"components": [value] if single else value}
        prefix, skip = list(key_path), 2 if single else 1
    if columns:
        document = {"components": _picked(document["components"], columns)}
    problems = _records_problems(document, doc, prefix, skip, shown, key and key + (
        json.dumps(key_path), json.dumps([(c["key"], c["name"]) for c in columns or ()])))
    if problems:
        raise RulebookErrors(_fresh(problems))
    records = document["components"]
    columns: list[str] = []
    for rec in records:
        for key in rec:
            if key not in columns:
                columns.append(key)
    rows = []
    for rec in records:
        at = [getattr(rec, "line", 1), getattr(rec, "column", 1), 0, 0]
        marks = getattr(rec, "marks", {})
        cells = {}
        for col in columns:
            where = list(marks[col]) if col in marks else at
            if col == "copies" and col not in rec:
                cells[col] = {"node": "number", "value": 1, "at": at}
            else:
                cells[col] = cell_of(rec.get(col), where)
        rows.append({"at": at, "cells": cells, "file": shown})
    return columns, rows


def _records_problems(document: dict, doc, prefix: list, skip: int, shown: str,
                      key) -> list:
    """The problems of the records read, against the components' schema:
    worked out once while the file is unchanged (`key`: the file's, with
    the keys read), the longest part of reading a large file."""
    problems = _VERDICTS.get(key) if key else None
    if problems is None:
        validator = jsonschema.Draft202012Validator(schema("components.schema.json"))
        problems = []
        for err in validator.iter_errors(document):
            # the path in the file: the wrapping {"components": [...]} it lacks left out
            in_doc = prefix + list(err.absolute_path)[skip:]
            problems.append(_violation(doc, in_doc, err.message, shown))
        _keep(_VERDICTS, key, problems)
    return problems


def _read_yaml(path: Path, shown: str):
    """The document of a data file: at most MAX_DATA_BYTES read, and the
    composed document measured (`_measure`) before any of it is built."""
    text = files.read_text(path, shown, MAX_DATA_BYTES, "data file")
    try:
        try:
            return _load(text, _LineLoader, shown)
        except yaml.YAMLError as e:
            if _LineLoader is _PyLineLoader or _too_deep_for_libyaml(e) or len(text) > _RETOLD:
                raise
            # libyaml's messages leave details out: PyYAML's say more
            return _load(text, _PyLineLoader, shown)
    except RecursionError:
        raise RulebookErrors([LimitExceeded(f"'{shown}' nests its lists and maps too deep",
                                            Span(shown, 1, 1), hint=_DEPTH_HINT)]) from None
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        span = Span(shown, mark.line + 1, mark.column + 1) if mark else Span(shown, 1, 1)
        if _too_deep_for_libyaml(e):
            raise RulebookErrors([LimitExceeded(
                f"'{shown}' nests its lists and maps more than {MAX_DATA_DEPTH} levels deep",
                span, hint=_DEPTH_HINT)]) from None
        problem = getattr(e, "problem", None) or str(e)
        hint = None if isinstance(e, _DuplicateKey) else "check the indentation and the ':' after each key"
        raise RulebookErrors([DataFileError(f"malformed YAML in '{shown}': {problem}", span, hint=hint)]
                             ) from None


# PyYAML's own parser retells libyaml's errors in more words, but it is about
# ten times slower: only for files that it reads in a fraction of a second
_RETOLD = 1 << 20
_DEPTH_HINT = f"a data file nests at most {MAX_DATA_DEPTH} levels deep"


def _too_deep_for_libyaml(e) -> bool:
    """libyaml refuses nesting past 1,000 levels itself ('exceeded maximum
    nesting depth'): a limit, not a typo, and past ours anyway."""
    return "nesting depth" in str(getattr(e, "problem", "") or "")


def _load(text: str, loader_class, shown: str):
    """The document built by `loader_class`, once `_measure` has found its
    composed nodes within the limits."""
    loader = loader_class(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        _measure(node, shown)
        return loader.construct_document(node)
    finally:
        loader.dispose()


_INT_TAG = "tag:yaml.org,2002:int"


def _measure(root, shown: str) -> None:
    """Refuse a composed document that nests deeper than MAX_DATA_DEPTH,
    holds more than MAX_DATA_VALUES values once every alias is written out,
    contains itself, or writes a whole number of more than MAX_DIGITS digits.

    An alias is the very node of its anchor, so each node is measured once
    (its depth and size remembered) and a "billion laughs" of a few dozen
    nodes is measured in a few dozen steps, then refused; the walk keeps a
    stack of its own, so no nesting can exhaust Python's."""
    measured: dict = {}         # id(node) -> (levels below and including it, values)
    open_nodes: set = set()     # the nodes on the path being walked
    stack = [(root, False)]
    while stack:
        node, closing = stack.pop()
        key = id(node)
        if closing:
            children = _children(node)
            open_nodes.discard(key)
            depth = 1 + max((measured[id(c)][0] for c in children), default=0)
            size = 1 + sum(measured[id(c)][1] for c in children)
            if depth > MAX_DATA_DEPTH:
                raise _refused(node, shown, f"'{shown}' nests its lists and maps more than "
                                            f"{MAX_DATA_DEPTH} levels deep", _DEPTH_HINT)
            if size > MAX_DATA_VALUES:
                raise _refused(node, shown, f"'{shown}' holds more than {count(MAX_DATA_VALUES)} "
                                            f"values with its aliases written out",
                               f"a data file holds at most {count(MAX_DATA_VALUES)} values, each "
                               f"use of an alias ('*name') counted in full")
            measured[key] = (depth, size)
            continue
        if key in measured:
            continue
        if key in open_nodes:
            raise RulebookErrors([DataFileError(
                f"'{shown}' has a value that contains itself (an alias inside its own anchor)",
                Span(shown, *_mark(node)), hint="an alias ('*name') repeats a value written "
                                                "before it, outside it")])
        if isinstance(node, yaml.ScalarNode):
            digits = sum(ch.isdigit() for ch in node.value) if node.tag == _INT_TAG else 0
            if digits > MAX_DIGITS:
                raise _refused(node, shown, f"a number of {digits:,} digits: at most {MAX_DIGITS}",
                               f"a number has at most {MAX_DIGITS} digits")
            measured[key] = (1, 1)
            continue
        open_nodes.add(key)
        stack.append((node, True))
        stack.extend((c, False) for c in _children(node) if id(c) not in measured)


def _children(node) -> list:
    if isinstance(node, yaml.MappingNode):
        return [n for pair in node.value for n in pair]
    if isinstance(node, yaml.SequenceNode):
        return node.value
    return []


def _refused(node, shown: str, message: str, hint: str) -> RulebookErrors:
    return RulebookErrors([LimitExceeded(message, Span(shown, *_mark(node)), hint=hint)])


def _json_keys(node):
    """The document as JSON sees it: every mapping key a string (YAML's
    ``2:`` is the key "2"), positions kept, so that JSON Schema and a path
    like ``at by_players.2`` read it alike."""
    if isinstance(node, _Located):
        return _Located({str(k): _json_keys(v) for k, v in node.items()}, node.line, node.column,
                        {str(k): m for k, m in node.marks.items()})
    if isinstance(node, _LocatedList):
        return _LocatedList([_json_keys(v) for v in node], node.line, node.column, node.marks)
    return node


def _check_own_schema(doc, shown: str) -> None:
    """``schema: NAME`` at the top of a file: the whole document must also
    match ``schemas/NAME.schema.json``, before any record is read."""
    if not isinstance(doc, dict) or "schema" not in doc:
        return
    name = doc["schema"]
    where = Span(shown, *doc.marks["schema"])
    known = sorted(p.name[:-len(".schema.json")] for p in SCHEMA_DIR.glob("*.schema.json"))
    if not isinstance(name, str) or name not in known:
        raise RulebookErrors([DataFileError(
            f"unknown schema '{name}': there is no schemas/{name}.schema.json", where,
            hint=did_you_mean(str(name), known) or f"schemas: {', '.join(known)}")])
    validator = jsonschema.Draft202012Validator(schema(f"{name}.schema.json"))
    problems = [_violation(doc, list(err.absolute_path), err.message, shown, f" (schema '{name}')")
                for err in validator.iter_errors(doc)]
    if problems:
        raise RulebookErrors(problems)


def _select(doc, key_path: list[str], shown: str):
    """The value at a dotted path of mapping keys; UnknownName without a span
    (the caller places it at the rulebook's 'at') when a key is missing."""
    node, walked = doc, []
    for key in key_path:
        if not isinstance(node, dict):
            what = "a list" if isinstance(node, list) else "a single value"
            holder = f"'{'.'.join(walked)}' in '{shown}'" if walked else f"'{shown}'"
            raise UnknownName(f"{holder} is {what}, not a mapping with a key '{key}'", None,
                              hint="'at' names mapping keys only")
        if key not in node:
            keys = [str(k) for k in node]
            close = did_you_mean(key, keys)
            listed = f"the keys{' of ' + repr('.'.join(walked)) if walked else ''}: {', '.join(keys)}"
            raise UnknownName(f"'{key}' is not a key of '{shown}'" +
                              (f" under '{'.'.join(walked)}'" if walked else ""), None,
                              hint=f"{close} ({listed})" if close else listed)
        node = node[key]
        walked.append(key)
    return node


def _violation(doc, path: list, message: str, shown: str, source: str = "") -> DataFileError:
    where = "/".join(str(p) for p in path) or "(top)"
    return DataFileError(f"{where}: {_short(message)}{source}", Span(shown, *_position(doc, path)))


def _position(doc, path) -> tuple[int, int, int, int]:
    """The span of the value at a JSON path, or where the nearest container starts."""
    node = doc
    span = (getattr(doc, "line", 1), getattr(doc, "column", 1), 0, 0)
    for part in path:
        marks = getattr(node, "marks", None)
        try:
            child = node[part]
        except (KeyError, IndexError, TypeError):
            break
        if isinstance(marks, dict) and part in marks:
            span = marks[part]
        elif isinstance(marks, list) and isinstance(part, int) and part < len(marks):
            span = marks[part]
        node = child
    return span


def _short(message: str, limit: int = 160) -> str:
    return message if len(message) <= limit else message[:limit - 1] + "…"


def cell_of(value, at) -> dict:
    """A value as a table cell holds it (a data file's, or one a computed
    column worked out: language/cells.py)."""
    if value is None:
        return {"node": "none", "at": at}
    if isinstance(value, bool):
        return {"node": "bool", "value": value, "at": at}
    if isinstance(value, int):
        return {"node": "number", "value": value, "at": at}
    if isinstance(value, list):
        # each item where it is written (a link to nothing is reported there)
        marks = getattr(value, "marks", [])
        return {"node": "list", "at": at, "items": [
            cell_of(v, list(marks[k]) if k < len(marks) else at) for k, v in enumerate(value)]}
    text = str(value)
    if text.isidentifier():
        return {"node": "symbol", "value": text, "at": at}
    return {"node": "string", "value": text, "at": at}
