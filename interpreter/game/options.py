"""A game's options: the values a game is started with, read against the
rulebook's `option` declarations, every wrong value refused with
`option/invalid` naming the option, its kind and what was given.

One rule for every way a value comes in. An option's kind is its default's
— a number (whole, of at most MAX_DIGITS digits), yes/no, a word, a string or
none — or, with `one of`, the kinds of the values listed, and the value must
be one of them; `NAME: K of TYPE` takes K different pieces of TYPE by name.
A value is either of that kind as Python holds it (`int`, never `bool` or
`float`; `bool`; `str`; `None`; a list of names for a pick), or text, read
as `--option NAME=VALUE` writes it (`3`, `-1`, `yes`, `no`, `true`,
`false`, `none`, a word, `A,B,C` for a pick): the command line, the
adapters' `name=value,…` and a save's options all come through here.
Anything else (`NaN`, `1.5`, `1e308`, a table, `null` for a number) is
refused before the rulebook is compiled with it.
"""

from __future__ import annotations

import re

from ..errors import OptionError, did_you_mean
from ..language.limits import MAX_DIGITS, MAX_NAME, MAX_STRING
from ..runtime.saved import shown

_NUMBER = re.compile(r"-?[0-9]+")
_WORD = re.compile(r"[a-zA-Z_][a-zA-Z0-9_]*")
_YES_NO = {"yes": True, "true": True, "no": False, "false": False}
LIMIT = 10 ** MAX_DIGITS            # a number option is below this in size
SHOWN = 12                          # listed values a hint names before "…"

# the kinds of option values, in the order a text is tried against them
KINDS = ("none", "bool", "number", "symbol", "string")
_KIND_WORDS = {"none": "none", "bool": "yes or no", "number": "a whole number",
               "symbol": "a word", "string": "a string"}


def checked_options(ir: dict, given) -> dict:
    """Every option's value for a game: its default unless `given` names it."""
    if not isinstance(given, dict):
        raise OptionError(f"options are a table of names and values, not {shown_value(given)}",
                          hint="options={'NAME': VALUE}")
    decls = {o["name"]: o for o in ir["options"]}
    values = {name: _default(o) for name, o in decls.items()}
    for name, value in given.items():
        if name not in decls:
            raise OptionError(f"unknown option '{shown(name, 60)}'",
                              hint=type(name) is str and did_you_mean(name, decls)
                              or f"options: {', '.join(decls) or 'none'}")
        decl = decls[name]
        values[name] = (_pick(value, decl, _names_of(ir, decl["pick"]["of"]))
                        if decl.get("pick") else option_value(value, decl))
    return values


def changed_options(ir: dict, values: dict) -> dict:
    """The options whose value is not the rulebook's default, in the order
    the rulebook declares them: what a game says it is played with."""
    return {o["name"]: values[o["name"]] for o in ir["options"]
            if o["name"] in values and values[o["name"]] != _default(o)}


def option_text(value) -> str:
    """An option's value as `--option NAME=VALUE` writes it, which
    `option_value` reads back to the same value."""
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (list, tuple)):
        return ",".join(map(option_text, value))
    return str(value)


def option_value(value, decl: dict):
    """The value of a plain option (not a pick) that `value` gives: of one
    of the option's kinds (`option_kinds`), as Python holds it or as text,
    and one of its listed values when it lists them."""
    kinds = option_kinds(decl)
    found = _read(value, kinds)
    listed = _listed(decl)
    if listed is not None:
        if found is _WRONG or not any(_same(found, c.get("value")) for c in decl["choices"]):
            default = option_text(decl["default"].get("value"))
            raise OptionError(f"option '{decl['name']}' is one of {listed}, "
                              f"not {shown_value(value)}",
                              hint=f"choose one of them: --option {decl['name']}={default}")
    elif found is _WRONG:
        kind = kinds[0]
        raise OptionError(f"option '{decl['name']}' is {_KIND_WORDS[kind]}, "
                          f"not {shown_value(value)}",
                          hint=_hint(decl["name"], kind, decl["default"].get("value")))
    return found


def option_kinds(decl: dict) -> tuple:
    """The kinds of value a plain option takes: its default's, and with
    `one of` those of the values it lists."""
    nodes = {decl["default"]["node"]} | {c["node"] for c in decl["choices"] or ()}
    return tuple(k for k in KINDS if k in nodes)


_WRONG = object()


def _read(value, kinds: tuple):
    """`value` as the first of `kinds` that it is, or _WRONG."""
    for kind in kinds:
        found = _TEXT[kind](value) if type(value) is str else _PYTHON[kind](value)
        if found is not _WRONG:
            return found
    return _WRONG


def _number_text(text: str):
    if not _NUMBER.fullmatch(text) or len(text.lstrip("-")) > MAX_DIGITS:
        return _WRONG
    return int(text)


def _string_text(text: str):
    # a text a rulebook could write between quotes
    ok = len(text) <= MAX_STRING and not any(ch in text for ch in '"\n\r')
    return text if ok else _WRONG


_TEXT = {
    "none": lambda t: None if t.lower() == "none" else _WRONG,
    "bool": lambda t: _YES_NO.get(t.lower(), _WRONG),
    "number": _number_text,
    "symbol": lambda t: t if len(t) <= MAX_NAME and _WORD.fullmatch(t) else _WRONG,
    "string": _string_text,
}
_PYTHON = {
    "none": lambda v: None if v is None else _WRONG,
    "bool": lambda v: v if type(v) is bool else _WRONG,
    "number": lambda v: v if type(v) is int and -LIMIT < v < LIMIT else _WRONG,
    "symbol": lambda v: _WRONG,         # a str is read as text
    "string": lambda v: _WRONG,
}


def _same(a, b) -> bool:
    # True == 1 in Python; a listed 1 is not the value yes
    return a == b and type(a) is type(b)


def _hint(name: str, kind: str, default) -> str:
    example = option_text(default)
    return {"none": "none is the only value the rulebook gives it",
            "bool": f"yes, no, true or false: --option {name}={'no' if default else 'yes'}",
            "number": f"a whole number of at most {MAX_DIGITS} digits: --option {name}={example}",
            "symbol": f"a word of letters, digits and _, not starting with a digit: "
                      f"--option {name}={example}",
            "string": f"a string of at most {MAX_STRING:,} characters, without \" or a line "
                      f"break: --option {name}={example}"}[kind]


def _listed(decl: dict):
    """The listed values of an option as a hint writes them: a run of whole
    numbers as `LOW to HIGH`, others by name (the first SHOWN)."""
    if decl["choices"] is None:
        return None
    values = [c.get("value") for c in decl["choices"]]
    if len(values) > 2 and all(type(v) is int for v in values) and \
            values == list(range(values[0], values[0] + len(values))):
        return f"{values[0]} to {values[-1]}"
    return _names(option_text(v) for v in values)


def _names(items) -> str:
    items = list(items)
    return ", ".join(shown(i, 60) for i in items[:SHOWN]) + (", …" if len(items) > SHOWN else "")


def shown_value(value) -> str:
    """What was given, as a message quotes it: text in quotes, escaped and
    cut; a Python value by its kind (a table's or a list's content is not
    shown: it may nest without end)."""
    if type(value) is str:
        return f"'{shown(value, 60)}'"
    if value is None or type(value) in (bool, float):
        return repr(value)
    if type(value) is int:
        return str(value) if -LIMIT < value < LIMIT else f"a number of over {MAX_DIGITS} digits"
    return {dict: "a table", list: "a list", tuple: "a list"}.get(type(value),
                                                                   f"a {type(value).__name__}")


def _names_of(ir: dict, type_name: str) -> list:
    """The names of the pieces of a component type (for options that pick some)."""
    for comp in ir["components"]:
        if comp["name"] == type_name and "name" in comp.get("columns", ()):
            return [row["cells"]["name"]["value"] for row in comp["rows"]
                    if row["cells"]["name"].get("value") is not None]
    return []


def _default(decl):
    default = decl["default"]
    if decl.get("pick"):
        return [item["value"] for item in default["items"]]
    return default.get("value")


def _pick(value, decl, known: list) -> list:
    """An option `NAME: K of TYPE`: K distinct piece names, given as a list
    or as one text with commas ("A, B, C")."""
    pick, name = decl["pick"], decl["name"]
    kind = f"{pick['count']} different {pick['of']}s"
    hint = f"{pick['of']}s: {_names(known)} (--option {name}=A,B,…)"
    if type(value) is str:
        value = [v.strip() for v in value.strip().strip("[]").split(",") if v.strip()]
    if type(value) not in (list, tuple) or not all(type(v) is str for v in value):
        raise OptionError(f"option '{name}' is {kind} by name, not {shown_value(value)}",
                          hint=hint)
    for v in value:
        if v not in known:
            raise OptionError(f"option '{name}': '{shown(v, 60)}' is not a {pick['of']}",
                              hint=did_you_mean(v, known) or hint)
    if len(set(value)) != len(value) or len(value) != pick["count"]:
        raise OptionError(f"option '{name}' chooses {kind}, not {len(value)}"
                          + (" with repeats" if len(set(value)) != len(value) else ""), hint=hint)
    return list(value)
