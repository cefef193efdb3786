"""Why a typed action is not legal, told with the rule that forbids it.

When the text a player types matches no legal action, `explain` reads it
the way the action is written in the rulebook — its name, then one value
per parameter, separated by commas — and checks the values one by one
against the options each parameter offers now. The first value that is not
among them is reported at that parameter's choice in the rulebook (so the
message shows the rulebook's line, with its rule ID), and so is a
`requires` that does not hold or a limit already reached. Nothing here
changes the state.
"""

from __future__ import annotations

import re

from ..stdlib import grid
from .decisions import Choose, EachChooses, TakeAction
from ..errors import ActionError, IllegalAction, RulebookError, UnknownAction

_CELL = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
_MISSING = object()


def split_arguments(text: str) -> list:
    """The comma-separated parts of an action's arguments; a comma inside
    parentheses (a cell such as ``(1,-2)``) does not split."""
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]" and depth:
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts]


def value_key(text: str) -> tuple:
    """One argument's text up to spacing, case and the order of the pieces
    of a group and of the groups of a split."""
    text = _CELL.sub(r"(\1,\2)", " ".join(text.split()).lower())
    return tuple(sorted(" ".join(sorted(g.split())) for g in text.split("|")))


def text_key(text: str) -> tuple:
    """A whole action's text in the same way: its name and each argument."""
    text = " ".join(str(text).split())
    name, _, rest = text.partition(" ")
    return name.lower(), tuple(value_key(p) for p in split_arguments(rest)) if rest else ()


def explain(game, state, player: int, text: str) -> ActionError | None:
    """The reason `text` is not a legal action of `player`, or None when no
    more precise reason than "not legal" can be given."""
    prog = game.program(state.n)
    m = prog.machine
    stmt, f = m.current_choice(state)
    text = " ".join(str(text).split())
    name, _, rest = text.partition(" ")
    args = split_arguments(rest) if rest else []
    env = dict(f[2])
    requires = requires_at = None
    if isinstance(stmt, TakeAction):
        action = stmt.actions_by_name.get(name) or next(
            (a for a in stmt.actions if a.name.lower() == name.lower()), None)
        if action is None:
            offered = prog.actions.get(name)
            if offered is not None:
                shown = ", ".join(a.name for a in stmt.actions)
                return IllegalAction(f"'{name}' cannot be taken at this step",
                                     m.span(stmt.at), hint=f"this step offers: {shown}"
                                     + (", pass" if stmt.optional else ""))
            return None
        env["me"] = player
        if action.limit is not None:
            base, times = action.limit
            if state.vars[base + player] >= times:
                return IllegalAction(f"'{action.name}' was already taken {times} "
                                     f"time{'s' if times != 1 else ''}, as often as allowed",
                                     m.span(action.at))
        specs, label, at = action.params, action.name, action.at
        requires, requires_at = action.requires, action.requires_at
        if action.requires_first and specs:     # it reads no value: say so before any value
            try:
                holds = requires(state, env)
            except (RulebookError, TypeError, KeyError, IndexError, ValueError):
                return None
            if not holds:
                return IllegalAction(f"'{text}' is not allowed now: the requirement does not hold",
                                     m.span(requires_at or at))
    elif isinstance(stmt, (Choose, EachChooses)):
        if isinstance(stmt, EachChooses):
            env[stmt.player_var] = player
        specs, label, at = [stmt.spec], stmt.spec.name, stmt.at
        if name.lower() != label.lower():
            return None
    else:
        return None
    if len(args) != len(specs):
        wanted = ", ".join(s.name for s in specs) or "no value"
        return UnknownAction(f"'{label}' takes {len(specs)} value{'s' if len(specs) != 1 else ''} "
                             f"({wanted}), not {len(args)}", m.span(at),
                             hint="separate the values with commas" if len(specs) > 1 else None)
    try:
        for spec, typed in zip(specs, args):
            keys = spec.keys(state, env)
            wanted = value_key(typed)
            match = next((k for k in keys if value_key(spec.show_value(k)) == wanted), _MISSING)
            if match is _MISSING:
                reason = _outside(spec, state, env, typed)
                if reason is not None:
                    return IllegalAction(f"'{typed}' is not a possible '{spec.name}' of '{label}' "
                                         f"now: {reason}", m.span(spec.at or at))
                shown = [spec.show_value(k) for k in keys]
                hint = ("nothing is possible now" if not shown else
                        "possible now: " + ", ".join(shown[:12]) + (" …" if len(shown) > 12 else ""))
                return IllegalAction(f"'{typed}' is not a possible '{spec.name}' of '{label}' now",
                                     m.span(spec.at or at), hint=hint)
            env[spec.name] = spec.value(state, env, match)
        if requires is not None and not requires(state, env):
            return IllegalAction(f"'{text}' is not allowed now: the requirement does not hold",
                                 m.span(requires_at or at))
    except (RulebookError, TypeError, KeyError, IndexError, ValueError):
        return None
    return None


def _outside(spec, state, env, typed: str):
    """Why a typed cell is not among a choice's options, when the builtin that
    lists them can say (`one of anchors(…)`: the first cell the piece would
    cover outside the allowed ones), or None."""
    if spec.why is None:
        return None
    value = grid.parse(typed)
    return None if value is None else spec.why(state, env, value)


__all__ = ["explain", "split_arguments", "text_key", "value_key"]
