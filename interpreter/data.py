"""Component data included from YAML files, validated by a JSON Schema.

A rulebook may keep bulky data (tile lists, maps) in a YAML file beside it:
``component tile from "tiles.yaml"``. The file holds a list of
records (one per component, a ``copies`` field for repeats) or a mapping with
a ``components`` list. It is checked against
``schemas/components.schema.json``; every problem is reported, each at the
file's line and column of the offending value.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import jsonschema
import yaml

from .errors import DataFileError, FileNotReadable, RulebookErrors, Span

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"


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


class _LineLoader(yaml.SafeLoader):
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
    mapping = yaml.SafeLoader.construct_mapping(loader, node, deep=True)
    return _Located(mapping, *_mark(node), marks)


def _construct_sequence(loader, node):
    items = loader.construct_sequence(node, deep=True)
    return _LocatedList(items, *_mark(node), [_span(n) for n in node.value])


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)
_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _construct_sequence)


def load_component_rows(path: Path, shown: str):
    """(columns, rows) from a component data file, rows as table-like cells.

    Raises FileNotReadable (no span: the caller knows the 'from' line) or
    RulebookErrors of DataFileError, each at the data file's line and column.
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        reason = getattr(e, "strerror", None) or str(e)
        raise FileNotReadable(f"cannot read data file '{shown}': {reason}", None,
                              hint="the path is relative to the rulebook's folder") from None
    try:
        doc = yaml.load(text, Loader=_LineLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
        span = Span(shown, mark.line + 1, mark.column + 1) if mark else Span(shown, 1, 1)
        problem = getattr(e, "problem", None) or str(e)
        hint = None if isinstance(e, _DuplicateKey) else "check the indentation and the ':' after each key"
        raise RulebookErrors([DataFileError(f"malformed YAML in '{shown}': {problem}", span, hint=hint)]
                             ) from None
    wrapped = isinstance(doc, dict)
    document = doc if wrapped else {"components": doc}
    validator = jsonschema.Draft202012Validator(schema("components.schema.json"))
    problems = []
    for err in validator.iter_errors(document):
        path_in_doc = list(err.absolute_path)
        if not wrapped and path_in_doc[:1] == ["components"]:
            path_in_doc = path_in_doc[1:]
        where = "/".join(str(p) for p in err.absolute_path) or "(top)"
        problems.append(DataFileError(f"{where}: {_short(err.message)}",
                                      Span(shown, *_position(doc, path_in_doc))))
    if problems:
        raise RulebookErrors(problems)
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
                cells[col] = _cell(rec.get(col), where)
        rows.append({"at": at, "cells": cells, "file": shown})
    return columns, rows


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


def _cell(value, at):
    if value is None:
        return {"node": "none", "at": at}
    if isinstance(value, bool):
        return {"node": "bool", "value": value, "at": at}
    if isinstance(value, int):
        return {"node": "number", "value": value, "at": at}
    if isinstance(value, list):
        return {"node": "list", "items": [_cell(v, at) for v in value], "at": at}
    text = str(value)
    if text.isidentifier():
        return {"node": "symbol", "value": text, "at": at}
    return {"node": "string", "value": text, "at": at}
