"""Variant rulebooks: a file that names its base and overrides what changes.

    variant of "base.rules"
    game "Base game (short)"
    option rounds = 3

A variant's declarations replace the base's declarations of the same kind
and name: the header lines, an option's default (its choices stay unless
given), rows of the `by players` table, components, zones, variables,
defines, the setup, phases, actions, and the parts of the scoring it
writes. Naming something the base does not have is an error at the
variant's line (``rulebook/variant``), so a typo cannot silently add a
rule. The merge happens on the AST, before the checks, so every check runs
on the combined rulebook; nodes that come from the base keep the base's
file name in their spans. A base may itself be a variant. A base, like a
data file, is read only from the variant's folder or the shipped library.
"""

from __future__ import annotations

import os
from pathlib import Path

from . import files
from ..errors import RulebookError, RulebookErrors, Span, did_you_mean
from .limits import MAX_RULEBOOK_BYTES

MAX_DEPTH = 8

# kind -> the key that names a declaration of that kind (None: only one)
_NAMED = {"option": "name", "component": "name", "zone": "name", "variable": "name",
          "define": "name", "phase": "name", "action": "name", "procedure": "name"}
_SINGLE = ("game", "players", "setup", "player_rules")


class VariantError(RulebookError):
    code = "rulebook/variant"


def tag_file(node, file: str) -> None:
    """Give every span below `node` the file it came from (fifth element)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if (key == "at" or key.endswith("_at")) and isinstance(value, list) \
                    and len(value) == 4 and all(isinstance(x, int) for x in value):
                value.append(file)
            elif key.endswith("_at") and isinstance(value, list):
                for v in value:
                    if isinstance(v, list) and len(v) == 4:
                        v.append(file)
            else:
                tag_file(value, file)
    elif isinstance(node, list):
        for v in node:
            tag_file(v, file)


def variant_header(ast: dict) -> dict | None:
    items = ast["items"]
    found = [i for i in items if i["node"] == "variant"]
    return found[0] if found else None


def merge(base: dict, variant: dict, file: str) -> dict:
    """The base AST with the variant's declarations in place; raises
    RulebookErrors at the variant's lines for what cannot be merged."""
    errors = []

    def error(message, at, hint=None):
        errors.append(VariantError(message, Span(file, at[0], at[1], at[2], at[3]), hint))

    items = [dict(i) for i in base["items"] if i["node"] != "variant"]
    for k, item in enumerate(variant["items"]):
        kind = item["node"]
        if kind == "variant":
            if k != 0:
                error("'variant of' must be the first line of a rulebook", item["at"])
            continue
        if kind in _SINGLE:
            at = [i for i, old in enumerate(items) if old["node"] == kind]
            if at:
                items[at[0]] = item
            elif kind in ("setup", "player_rules"):
                items.append(item)
            else:
                error(f"the base has no '{kind}' line to replace", item["at"])
        elif kind in _NAMED:
            key = _NAMED[kind]
            same = [i for i, old in enumerate(items)
                    if old["node"] == kind and old[key] == item[key]]
            if not same:
                names = [old[key] for old in items if old["node"] == kind]
                error(f"the base has no {kind} '{item[key]}' to replace",
                      item.get("name_at", item["at"]),
                      hint=did_you_mean(item[key], names) or
                      "a variant replaces what its base has; it cannot add new things")
                continue
            old = items[same[0]]
            if kind == "option" and bool(old.get("pick")) != bool(item.get("pick")):
                error(f"option '{item['name']}' is {'a choice of pieces' if old.get('pick') else 'a value'} "
                      f"in the base; a variant keeps its kind", item.get("name_at", item["at"]),
                      hint=("write option NAME: K of TYPE = [A, B, …]" if old.get("pick")
                            else "write option NAME = VALUE"))
                continue
            if kind == "option" and item.get("choices") is None and not item.get("pick"):
                item = dict(item, choices=old.get("choices"))
            items[same[0]] = item
        elif kind == "table":
            _merge_table(items, item, error)
        elif kind == "scoring":
            _merge_scoring(items, item)
        else:
            error(f"a variant cannot change '{kind}'", item["at"])
    if errors:
        raise RulebookErrors(errors)
    return dict(base, items=items)


def _label(row):
    cell = row["cells"][0]
    return cell.get("value")


def _merge_table(items, item, error):
    tables = [i for i, old in enumerate(items) if old["node"] == "table"]
    if not tables:
        error("the base has no 'by players' table", item["at"])
        return
    old = dict(items[tables[0]])
    rows = list(old["rows"])
    head = item["rows"][0]
    if [c.get("value") for c in head["cells"]] != [c.get("value") for c in rows[0]["cells"]]:
        error("a variant's table repeats the base's header row exactly", head["at"],
              hint="| players | " + " | ".join(str(c.get("value")) for c in rows[0]["cells"][1:])
              + " |")
        return
    labels = [_label(r) for r in rows]
    for row in item["rows"][1:]:
        name = _label(row)
        if name not in labels:
            error(f"the base's table has no row '{name}'", row["at"],
                  hint=did_you_mean(str(name), [str(x) for x in labels]))
            continue
        rows[labels.index(name)] = row
    old["rows"] = rows
    items[tables[0]] = old


def _merge_scoring(items, item):
    found = [i for i, old in enumerate(items) if old["node"] == "scoring"]
    if not found:
        items.append(item)
        return
    old = dict(items[found[0]])
    replaced = {p["node"] for p in item["parts"]}
    old["parts"] = [p for p in old["parts"] if p["node"] not in replaced] + list(item["parts"])
    items[found[0]] = old


def resolve(ast: dict, path: Path, shown: str, parse_file, depth: int = 0,
            allowed: tuple[str, ...] | None = None) -> dict:
    """Follow `variant of` (recursively) and merge; `parse_file(path)` returns
    (ast, shown name) of a file. Every base lies in the folder of the
    rulebook being loaded (or below it) or in the library (`files.locate`):
    `allowed`, fixed by the first call."""
    header = variant_header(ast)
    if header is None:
        return ast
    if depth >= MAX_DEPTH:
        raise RulebookErrors([VariantError("variants nest too deeply (a cycle?)",
                                           Span(shown, *header["at"][:4]))])
    allowed = allowed or files.roots(path.parent)
    where = Span(shown, *header["base_at"][:4])
    try:
        base_path = files.locate(header["base"], path.parent, allowed, MAX_RULEBOOK_BYTES,
                                 "base rulebook")
    except files.FileMissing:
        raise RulebookErrors([VariantError(
            f"the base rulebook '{files.brief(header['base'])}' does not exist", where,
            hint="the path is relative to this file's folder")]) from None
    except RulebookError as e:
        e.span = where
        raise RulebookErrors([e]) from None
    base_ast, base_shown = parse_file(base_path)
    base_ast = resolve(base_ast, base_path, base_shown, parse_file, depth + 1, allowed)
    _rebase_sources(base_ast, base_path.parent, path.parent)
    tag_file(base_ast, base_shown)
    return merge(base_ast, ast, shown)


def _rebase_sources(ast, base_dir: Path, variant_dir: Path) -> None:
    """Data files (and the player rules) of the base are named relative to
    the variant's folder."""
    for item in ast["items"]:
        if item["node"] == "component" and item.get("source"):
            full = (base_dir / item["source"]["file"]).resolve()
            item["source"] = dict(item["source"], file=os.path.relpath(full, variant_dir.resolve()))
        elif item["node"] == "player_rules":
            full = (base_dir / item["file"]).resolve()
            item["file"] = os.path.relpath(full, variant_dir.resolve())


def blame(errors, file: str, changes: list) -> None:
    """An error in the base's lines appears only with the variant's changes:
    say which lines of the variant changed the base."""
    lines = ", ".join(f"{c['node']} at line {c['at'][0]}" for c in changes)
    for e in errors:
        if e.span is not None and e.span.file != file and lines:
            note = f"the base is changed by {file}: {lines}"
            e.hint = f"{e.hint}; {note}" if e.hint else note
