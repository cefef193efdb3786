"""A game's options: the values a game is started with, read against the
rulebook's `option` declarations (their kinds, listed values and picks), and
every wrong value refused with `option/invalid` naming the option."""

from __future__ import annotations

from ..errors import OptionError, did_you_mean


def checked_options(ir: dict, given: dict) -> dict:
    """Every option's value for a game: its default unless `given` names it."""
    decls = {o["name"]: o for o in ir["options"]}
    values = {name: _default(o) for name, o in decls.items()}
    for name, value in given.items():
        if name not in decls:
            raise OptionError(f"unknown option '{name}'", hint=did_you_mean(name, decls)
                              or f"options: {', '.join(decls) or 'none'}")
        decl = decls[name]
        values[name] = (_pick(value, decl, lambda t: _names_of(ir, t)) if decl.get("pick")
                        else _coerce(value, decl))
    return values


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


def _pick(value, decl, names_of) -> list:
    """An option `NAME: K of TYPE`: K distinct piece names, given as a list
    or as one text with commas ("A, B, C")."""
    pick, name = decl["pick"], decl["name"]
    if isinstance(value, str):
        value = [v.strip() for v in value.strip("[]").split(",") if v.strip()]
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise OptionError(f"option '{name}' is a list of {pick['count']} {pick['of']} names")
    known = names_of(pick["of"])
    for v in value:
        if v not in known:
            raise OptionError(f"option '{name}': '{v}' is not a {pick['of']}",
                              hint=did_you_mean(v, known) or f"{pick['of']}s: {', '.join(known)}")
    if len(set(value)) != len(value) or len(value) != pick["count"]:
        raise OptionError(f"option '{name}' chooses {pick['count']} different {pick['of']}s, "
                          f"not {len(value)}" + (" with repeats" if len(set(value)) != len(value) else ""))
    return list(value)


def _coerce(value, decl):
    default = decl["default"]
    if isinstance(value, str):
        kind = default["node"]
        low = value.lower()
        if kind == "bool":
            if low in ("yes", "true", "on", "1"):
                value = True
            elif low in ("no", "false", "off", "0"):
                value = False
            else:
                raise OptionError(f"option '{decl['name']}' is yes or no, not '{value}'")
        elif kind == "number":
            try:
                value = int(value)
            except ValueError:
                raise OptionError(f"option '{decl['name']}' is a number, not '{value}'") from None
    if decl["choices"] is not None:
        allowed = [c.get("value") for c in decl["choices"]]
        if value not in allowed:
            raise OptionError(f"option '{decl['name']}' cannot be '{value}'",
                              hint="choose one of " + ", ".join(map(str, allowed)))
    return value
