"""Validate the IR against ``schemas/rulebook.schema.json``.

The schema is the contract of the IR's JSON form (what `rulebook show --ir`
prints and what other tools may read). A violation is reported at the
rulebook line of the nearest IR node above the offending value, found by
walking the error's JSON pointer back up the tree.
"""

from __future__ import annotations

import jsonschema

from .data import schema
from .errors import RulebookErrors, SchemaViolation, Span


def validate_ir(ir: dict) -> None:
    validator = jsonschema.Draft202012Validator(schema("rulebook.schema.json"))
    problems = []
    for err in validator.iter_errors(ir):
        path = list(err.absolute_path)
        at = _nearest_span(ir, path)
        pointer = "/" + "/".join(str(p) for p in path)
        problems.append(SchemaViolation(f"IR {pointer}: {err.message}",
                                        Span(ir.get("file", "<rulebook>"), *at)))
    if problems:
        raise RulebookErrors(problems)


def _nearest_span(ir, path) -> list:
    node, best = ir, [1, 1, 1, 1]
    for part in path:
        if isinstance(node, dict) and isinstance(node.get("at"), list) and node["at"][:1] != [0]:
            best = node["at"]
        try:
            node = node[part]
        except (KeyError, IndexError, TypeError):
            break
    if isinstance(node, dict) and isinstance(node.get("at"), list) and node["at"][:1] != [0]:
        best = node["at"]
    return list(best) + [0] * (4 - len(best))
