"""Why a typed action is not legal, told with the rule that forbids it.

When the text a player types matches no legal action, `explain` reads it
the way the action is written in the rulebook — its name, then one value
per parameter, separated by commas — and checks the values one by one
against the options each parameter offers now. The first value that is not
among them is reported at that parameter's choice in the rulebook (so the
message shows the rulebook's line, with its rule ID), and so is a
`requires` that does not hold or a limit already reached. The same
reasons, for every action of a step at once, are what `rule/stuck` says
when a player must take an action and none is allowed (`refusals`).
Nothing here changes the state.
"""

from __future__ import annotations

import re

from ..stdlib import grid
from .decisions import Choose, EachChooses, TakeAction
from ..errors import FORMULA_ERRORS, ActionError, IllegalAction, RulebookError, UnknownAction

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
        used = _limit_used(m, state, player, action)
        if used is not None:
            return IllegalAction(f"'{action.name}' was {used}", m.span(action.at))
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


def refusals(m, state, player: int, env: dict, actions) -> list:
    """For each of `actions` that offers `player` nothing now, why:
    (action name, reason, span of the rule that refuses it). What `rule/stuck`
    lists at a `takes an action` with no legal action."""
    out = []
    for action in actions:
        why = refusal(m, state, player, env, action)
        if why is not None:
            out.append((action.name,) + why)
    return out


def refusal(m, state, player: int, env: dict, action):
    """Why `action` (an `ActionDef`) offers `player` nothing now, as
    (reason, span): its limit is used up, its `requires` does not hold, or a
    parameter has no options — the first of these, in the order the options
    are listed. None when it offers something, or when the rules fail while
    looking (the error of listing them is the one to report)."""
    used = _limit_used(m, state, player, action)
    if used is not None:
        return used, m.span(action.at)
    env = dict(env)
    env["me"] = player
    requires_at = m.span(action.requires_at or action.at)
    try:
        if action.requires is not None and (action.requires_first or not action.params):
            if not action.requires(state, env):
                return "its requirement does not hold", requires_at
        if action.independent:          # no parameter reads another: each one alone
            for spec in action.params:
                if not spec.keys(state, env):
                    return _no_options(spec, state, env), m.span(spec.at or action.at)
            return None
        return _first_without_options(m, state, env, action, requires_at)
    except (RulebookError,) + FORMULA_ERRORS:
        return None


def _first_without_options(m, state, env, action, requires_at):
    """`refusal` for parameters that read each other or a `requires` that
    reads them: every combination is tried, as the options are listed; the
    reason is the parameter no branch got past, or the requirement when every
    combination fails it."""
    params = action.params
    requires = None if action.requires_first else action.requires
    furthest = [-1, None]               # the deepest parameter found empty, and its env

    def search(i, env) -> bool:
        if i == len(params):
            return requires is None or bool(requires(state, env))
        spec = params[i]
        pairs = spec.pairs(state, env)
        if not pairs and i > furthest[0]:
            furthest[:] = [i, env]
        for _, value in pairs:
            inner = dict(env)
            inner[spec.name] = value
            if search(i + 1, inner):
                return True
        return False

    if search(0, env):
        return None
    i, at_env = furthest
    if i < 0:
        names = ", ".join(f"'{spec.name}'" for spec in params)
        return f"its requirement does not hold for any {names}", requires_at
    spec = params[i]
    reason = _no_options(spec, state, at_env)
    if i > 0:
        reason += " whatever the " + ", ".join(f"'{p.name}'" for p in params[:i])
    return reason, m.span(spec.at or action.at)


def _no_options(spec, state, env) -> str:
    """Why a parameter has no options, as far as its choice tells."""
    try:
        count = len(spec.source(state, env))
        needed = spec.count(state, env) if spec.kind == "many" else None
    except (RulebookError,) + FORMULA_ERRORS:
        count = needed = None
    if count == 0:
        return f"'{spec.name}' has nothing to choose from"
    if spec.kind == "one" and spec.where is not None:
        return f"no '{spec.name}' passes its 'where'" + (f" ({count} tried)" if count else "")
    if needed is not None and count is not None and needed > count:
        return f"'{spec.name}' needs {needed}, there are {count}"
    return f"'{spec.name}' has no options"


def _limit_used(m, state, player: int, action):
    """'already taken once this round (once per round)' when `player` has
    used up the action's limit, else None."""
    if action.limit is None:
        return None
    base, times = action.limit
    if state.vars[base + player] < times:
        return None
    scope = m.lay.limits[action.name][2]
    often = "once" if times == 1 else f"{times} times"
    return f"already taken {often} this {scope} ({often} per {scope})"


def reasons_text(reasons, here) -> str:
    """The lines of a `rule/stuck` message for `refusals`: one per action,
    each naming the line of its rule (the file too when it is not `here`'s)."""
    lines = []
    for name, reason, span in reasons:
        where = f"line {span.line}" if span.file == here.file else str(span)
        lines.append(f"\n- {name} ({where}): {reason}")
    return "".join(lines)


def _outside(spec, state, env, typed: str):
    """Why a typed cell is not among a choice's options, when the builtin that
    lists them can say (`one of anchors(…)`: the first cell the piece would
    cover outside the allowed ones), or None."""
    if spec.why is None:
        return None
    value = grid.parse(typed)
    return None if value is None else spec.why(state, env, value)


__all__ = ["explain", "reasons_text", "refusal", "refusals", "split_arguments", "text_key",
           "value_key"]
