"""Validate the IR against ``schemas/rulebook.schema.json``.

The schema is the contract of the IR's JSON form (what `rulebook show --ir`
prints and what other tools may read). A violation is reported at the
rulebook line of the nearest IR node above the offending value, found by
walking the error's JSON pointer back up the tree.

Every load validates its IR, so the check must be cheap. The schema is
compiled once into plain Python predicates (`compile_schema`, which knows
the handful of keywords the schema uses) and only when that says "invalid"
does `jsonschema` run, to say what is wrong and where. tests/test_schema.py
runs both over many broken IRs to show that they agree; should they ever
disagree on a valid IR, `jsonschema` has the last word.

The schema tells node kinds apart with the standard pattern ``allOf: [{if:
{node: const K}, then: SCHEMA_K}, …]``. Our `jsonschema` validator reads
such an ``allOf`` as the table it is and applies the one matching branch:
the same verdict and errors as branch-by-branch evaluation, in half the time.
"""

from __future__ import annotations

import functools
import os
import re
from typing import Callable

import jsonschema
from jsonschema import _keywords

from .data import schema
from ..errors import RulebookErrors, SchemaViolation, Span

MAX_SHOWN = 160    # characters of an offending value quoted in a message


def validate_ir(ir: dict) -> None:
    """Raise RulebookErrors (code rulebook/schema) listing every violation."""
    if ir_predicate()(ir):
        return
    problems = []
    for err in (e for top in ir_validator().iter_errors(ir) for e in _precise(top)):
        path = list(err.absolute_path)
        file, at = _nearest_span(ir, path)
        pointer = "/" + "/".join(str(p) for p in path)
        problems.append(SchemaViolation(f"IR {pointer}: {_short(err.message)}", Span(file, *at)))
    if problems:
        raise RulebookErrors(problems)


def _precise(err):
    """The errors that say what is wrong. An ``anyOf`` error (``null`` or a
    node, say) only names the value; when all branches but one fail on the
    value's type alone, that branch's errors are the real ones."""
    if err.validator == "anyOf" and err.context:
        branches: dict = {}
        for sub in err.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        live = [subs for subs in branches.values()
                if not any(e.validator == "type" and not e.relative_path for e in subs)]
        if len(live) == 1:
            for sub in live[0]:
                yield from _precise(sub)
            return
    yield err


def _kind_table(all_of) -> dict | None:
    """{kind: (index, then-schema)} when every branch is 'if node == K then …'."""
    table = {}
    for i, branch in enumerate(all_of):
        cond = branch.get("if") if isinstance(branch, dict) else None
        node = cond.get("properties", {}).get("node", {}) if isinstance(cond, dict) else {}
        if set(branch) != {"if", "then"} or set(cond) != {"required", "properties"} \
                or cond["required"] != ["node"] or set(cond["properties"]) != {"node"} \
                or set(node) != {"const"} or not isinstance(node["const"], str):
            return None
        table[node["const"]] = (i, branch["then"])
    return table


_KIND_TABLES: dict[int, dict | None] = {}


def _all_of(validator, all_of, instance, schema_):
    if id(all_of) not in _KIND_TABLES:
        _KIND_TABLES[id(all_of)] = _kind_table(all_of)
    table = _KIND_TABLES[id(all_of)]
    if table is None or not isinstance(instance, dict):
        yield from _keywords.allOf(validator, all_of, instance, schema_)
        return
    kind = instance.get("node")
    if isinstance(kind, str) and kind in table:
        index, then = table[kind]
        yield from validator.descend(instance, then, schema_path=index)


_Validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"allOf": _all_of})


@functools.lru_cache(maxsize=1)
def ir_validator():
    """The general validator, for saying what is wrong (see the module's doc)."""
    return _Validator(schema("rulebook.schema.json"))


@functools.lru_cache(maxsize=1)
def ir_predicate() -> Callable[[object], bool]:
    try:
        return compile_schema(schema("rulebook.schema.json"))
    except NotImplementedError:          # a keyword the fast path does not know
        return lambda instance: False


# -- the fast path ---------------------------------------------------------------

_IGNORED = {"$schema", "$id", "title", "description", "$comment", "$defs", "examples"}

_OBJECT_KEYWORDS = {"type", "required", "properties", "additionalProperties", "propertyNames",
                    "minProperties", "allOf"}

_TYPES = {
    "object": lambda x: isinstance(x, dict),
    "array": lambda x: isinstance(x, list),
    "string": lambda x: isinstance(x, str),
    "boolean": lambda x: isinstance(x, bool),
    "null": lambda x: x is None,
    "integer": lambda x: (isinstance(x, int) and not isinstance(x, bool))
    or (isinstance(x, float) and x.is_integer()),
    "number": lambda x: isinstance(x, (int, float)) and not isinstance(x, bool),
}


def _json_equal(a, b) -> bool:
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_json_equal(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_json_equal(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b or (
        isinstance(a, (int, float)) and isinstance(b, (int, float)) and a == b)


def compile_schema(root: dict) -> Callable[[object], bool]:
    """A predicate equivalent to the schema, for the keywords this project
    uses (local ``$ref`` only); NotImplementedError for anything else."""
    compiled: dict[str, Callable] = {}

    def ref(pointer: str) -> Callable:
        if not pointer.startswith("#/$defs/"):
            raise NotImplementedError(pointer)
        name = pointer[len("#/$defs/"):]
        if name not in root.get("$defs", {}):
            raise NotImplementedError(pointer)
        if name not in compiled:
            compiled[name] = None            # placeholder: recursion goes through the table
            compiled[name] = build(root["$defs"][name])
        return lambda x: compiled[name](x)

    def build(s) -> Callable:
        if s is True:
            return lambda x: True
        if s is False:
            return lambda x: False
        if s.get("type") == "object" and not set(s) - _IGNORED - _OBJECT_KEYWORDS:
            return object_node(s)
        checks: list[Callable] = []
        for key, value in s.items():
            if key in _IGNORED or key == "then":
                continue
            checks.append(keyword(key, value, s))
        if len(checks) == 1:
            return checks[0]
        return lambda x: all(c(x) for c in checks)

    def object_node(s) -> Callable:
        """The common case, in one function: an object with known fields."""
        required = tuple(s.get("required", ()))
        props = {k: build(v) for k, v in s.get("properties", {}).items()}
        extra = build(s.get("additionalProperties", True))
        more = [keyword(k, s[k], s) for k in ("propertyNames", "minProperties", "allOf") if k in s]

        def check(x):
            if not isinstance(x, dict):
                return False
            for k in required:
                if k not in x:
                    return False
            for k, v in x.items():
                p = props.get(k)
                if not (p(v) if p is not None else extra(v)):
                    return False
            for m in more:
                if not m(x):
                    return False
            return True
        return check

    def keyword(key, value, s) -> Callable:
        if key == "$ref":
            return ref(value)
        if key == "type":
            tests = [_TYPES[t] for t in ([value] if isinstance(value, str) else value)]
            return lambda x: any(t(x) for t in tests)
        if key == "const":
            return lambda x: _json_equal(x, value)
        if key == "enum":
            return lambda x: any(_json_equal(x, v) for v in value)
        if key == "required":
            return lambda x: not isinstance(x, dict) or all(k in x for k in value)
        if key == "properties":
            props = {k: build(v) for k, v in value.items()}
            return lambda x: not isinstance(x, dict) or all(
                props[k](v) for k, v in x.items() if k in props)
        if key == "additionalProperties":
            known = set(s.get("properties", {}))
            patterns = s.get("patternProperties")
            if patterns:
                raise NotImplementedError("patternProperties")
            extra = build(value)
            return lambda x: not isinstance(x, dict) or all(
                extra(v) for k, v in x.items() if k not in known)
        if key == "propertyNames":
            names = build(value)
            return lambda x: not isinstance(x, dict) or all(names(k) for k in x)
        if key == "items":
            item = build(value)
            return lambda x: not isinstance(x, list) or all(item(v) for v in x)
        if key == "prefixItems":
            items = [build(v) for v in value]
            return lambda x: not isinstance(x, list) or all(f(v) for f, v in zip(items, x))
        if key == "minItems":
            return lambda x: not isinstance(x, list) or len(x) >= value
        if key == "maxItems":
            return lambda x: not isinstance(x, list) or len(x) <= value
        if key == "minProperties":
            return lambda x: not isinstance(x, dict) or len(x) >= value
        if key == "minLength":
            return lambda x: not isinstance(x, str) or len(x) >= value
        if key == "pattern":
            regex = re.compile(value)
            return lambda x: not isinstance(x, str) or regex.search(x) is not None
        if key == "minimum":
            return lambda x: not _TYPES["number"](x) or x >= value
        if key == "anyOf":
            options = [build(v) for v in value]
            return lambda x: any(o(x) for o in options)
        if key == "allOf":
            return all_of(value)
        if key == "if":
            cond, then = build(value), build(s.get("then", True))
            other = build(s.get("else", True))
            return lambda x: then(x) if cond(x) else other(x)
        raise NotImplementedError(key)

    def all_of(branches) -> Callable:
        """``allOf: [{if: {node == K}, then: …}, …]`` is a table by node kind."""
        table = {}
        for b in branches:
            cond = b.get("if", {}) if isinstance(b, dict) else {}
            node = cond.get("properties", {}).get("node", {})
            if set(b) != {"if", "then"} or set(cond) != {"required", "properties"} \
                    or cond["required"] != ["node"] or set(cond["properties"]) != {"node"} \
                    or set(node) != {"const"} or not isinstance(node["const"], str):
                table = None
                break
            table[node["const"]] = build(b["then"])
        if table is None:
            parts = [build(b) for b in branches]
            return lambda x: all(p(x) for p in parts)

        def dispatch(x):
            if not isinstance(x, dict):
                return True
            kind = x.get("node")
            check = table.get(kind) if isinstance(kind, str) else None
            return check is None or check(x)
        return dispatch

    return build(root)


# -- where a violation is ----------------------------------------------------------

def _short(message: str) -> str:
    return message if len(message) <= MAX_SHOWN else message[:MAX_SHOWN - 1] + "…"


def _span_of(node):
    at = node.get("at") if isinstance(node, dict) else None
    if isinstance(at, list) and len(at) in (4, 5) and all(type(x) is int for x in at[:4]) \
            and at[0] > 0:
        return list(at)
    return None


def _nearest_span(ir, path) -> tuple[str, list]:
    """The file and span of the deepest node on the path that has a span
    ([1, 1, 1, 1] if none). Rows read from a data file name that file,
    relative to the rulebook's folder."""
    file = ir.get("file") if isinstance(ir, dict) and isinstance(ir.get("file"), str) else "<rulebook>"
    node, best = ir, (file, [1, 1, 1, 1])
    for part in path:
        if isinstance(node, dict) and "cells" in node and isinstance(node.get("file"), str):
            file = os.path.join(os.path.dirname(file), node["file"])
        at = _span_of(node)
        if at:
            best = (at[4] if len(at) > 4 else file, at[:4])
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            return best
    at = _span_of(node)
    return (at[4] if len(at) > 4 else file, at[:4]) if at else best
