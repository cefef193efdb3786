"""Component data included from YAML files, validated by a JSON Schema.

A rulebook may keep bulky data (tile lists, maps) in a YAML file beside it:
``component lake_tile from "lanterns-tiles.yaml"``. The file holds a list of
records (one per component, a ``copies`` field for repeats) or a mapping with
a ``components`` list. It is checked against
``schemas/components.schema.json`` and every problem points at the file's
line and column.
"""

from __future__ import annotations

import functools
import json
from pathlib import Path

import jsonschema
import yaml

from .errors import DataFileError, FileNotReadable, Span

SCHEMA_DIR = Path(__file__).resolve().parent.parent / "schemas"


@functools.lru_cache(maxsize=None)
def schema(name: str) -> dict:
    return json.loads((SCHEMA_DIR / name).read_text(encoding="utf-8"))


class _LineLoader(yaml.SafeLoader):
    """A safe loader that remembers where each mapping and list item starts."""


def _construct_mapping(loader, node):
    mapping = yaml.SafeLoader.construct_mapping(loader, node, deep=True)
    return _Located(mapping, node.start_mark.line + 1, node.start_mark.column + 1)


class _Located(dict):
    def __init__(self, mapping, line, column):
        super().__init__(mapping)
        self.line, self.column = line, column


_LineLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _construct_mapping)


def load_component_rows(path: Path, shown: str):
    """(columns, rows) from a component data file, rows as table-like cells."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as e:
        raise FileNotReadable(f"cannot read data file '{shown}': {e.strerror}", None,
                              hint="the path is relative to the rulebook's folder") from None
    try:
        doc = yaml.load(text, Loader=_LineLoader)
    except yaml.YAMLError as e:
        mark = getattr(e, "problem_mark", None)
        span = Span(shown, mark.line + 1, mark.column + 1) if mark else Span(shown, 1, 1)
        raise DataFileError(f"malformed YAML: {getattr(e, 'problem', e)}", span) from None
    records = doc.get("components") if isinstance(doc, dict) else doc
    validator = jsonschema.Draft202012Validator(schema("components.schema.json"))
    problems = sorted(validator.iter_errors(doc if isinstance(doc, dict) else {"components": doc}),
                      key=lambda err: list(err.absolute_path))
    if problems:
        err = problems[0]
        node = doc
        for part in err.absolute_path:
            if part == "components" and not isinstance(doc, dict):
                continue
            try:
                node = node[part]
            except (KeyError, IndexError, TypeError):
                break
        line = getattr(node, "line", 1)
        column = getattr(node, "column", 1)
        where = "/".join(str(p) for p in err.absolute_path) or "(top)"
        raise DataFileError(f"{where}: {err.message}", Span(shown, line, column))
    columns: list[str] = []
    for rec in records:
        for key in rec:
            if key not in columns:
                columns.append(key)
    rows = []
    for rec in records:
        at = [getattr(rec, "line", 1), getattr(rec, "column", 1), 0, 0]
        cells = {}
        for col in columns:
            cells[col] = _cell(rec.get(col), at)
        rows.append({"at": at, "cells": cells})
    return columns, rows


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
