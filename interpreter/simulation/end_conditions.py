"""What a game cut off as endless (`rule/endless`) says of its ends.

A game still going after `validate --play`'s decisions has an end that is
never reached, or not by random play; the designer wants to see which
condition stayed false and what its parts were. `described` lists the
rulebook's ends as they stand at the cut-off: every `repeat until` that
encloses the decision the game stands at or that a phase runs, with the
value of its condition and of the parts it compares (`repeat until total >
100 (line 6): no; total is 37`), and every `end game`, never reached in a
game still going, with the condition of each `if` above it. A condition is
worked out on the final state with the local names of the frame it runs
in where that frame is open, else with none; one that fails to work out
says so. Nothing here changes the state.
"""

from __future__ import annotations

from ..errors import FORMULA_ERRORS, RulebookError, in_rule_words
from ..runtime.statements import EndGame, If, RepeatUntil, _blocks_of
from ..runtime.views import show_value

MAX_LINES = 8           # ends listed; more are counted
_LITERALS = {"number", "string", "symbol", "bool", "none"}


def described(game, state) -> str:
    """The lines of a `rule/endless` message about the ends of the game
    (see the module doc), each starting with a new line."""
    prog = game.program(state.n)
    m = prog.machine
    ir_at, owner, block_of = _nesting(game, m)
    envs = {f[0]: f[2] for f in state.frames}       # open blocks -> their locals
    lines_of = _Lines(game, m)
    ends, seen = [], set()

    def env_of(x) -> dict:
        return envs.get(block_of.get(id(x)), {})

    def add_repeat(x) -> None:
        if id(x) not in seen:
            seen.add(id(x))
            ends.append(f"repeat until {_condition(prog, x, ir_at, lines_of, env_of(x), state, block_of)}")

    for f in state.frames:                          # the loops the decision stands in
        x = owner.get(f[0])
        if type(x) is RepeatUntil:
            add_repeat(x)
    for bid in m.phase_blocks:                      # the loops of the flow
        for x in m.blocks[bid].stmts:
            if type(x) is RepeatUntil:
                add_repeat(x)
    for x in sorted((x for x in m.stmts if type(x) is EndGame), key=lambda x: m.span(x.at)):
        line = f"end game (line {x.at[0]}): never reached"
        guard = owner.get(block_of.get(id(x)))
        while type(guard) is If:
            branch = "" if block_of.get(id(x)) == guard.then else "the 'otherwise' of "
            line += f"; under {branch}if {_condition(prog, guard, ir_at, lines_of, env_of(guard), state, block_of)}"
            x, guard = guard, owner.get(block_of.get(id(guard)))
        ends.append(line)
    if not ends:
        return "\n- no 'repeat until' or 'end game': the game ends when its last phase does"
    shown = ends[:MAX_LINES]
    more = len(ends) - len(shown)
    return "".join(f"\n- {e}" for e in shown) + (f"\n- … and {more} more" if more else "")


def end_text(game, players: int, at) -> str:
    """What the end at `at` ((line, column) of an `end game`; None: the
    flow ran out) says in the rulebook, for a report of how games ended:
    `end game (line 121) under if COND (line 110)`, each `if` above it
    quoted from the source (not worked out), or `the end of the last phase
    (NAME)`."""
    if at is None:
        phases = game.ir.get("phases") or []
        name = phases[-1]["name"] if phases else "setup"
        return f"the end of the last phase ({name})"
    prog = game.program(players)
    m = prog.machine
    ir_at, owner, block_of = _nesting(game, m)
    found = [x for x in m.stmts if type(x) is EndGame and tuple(x.at[:2]) == tuple(at)]
    if not found:
        return f"end game (line {at[0]})"
    x = found[0]
    lines = _Lines(game, m)
    text = f"end game (line {at[0]})"
    guard = owner.get(block_of.get(id(x)))
    while type(guard) is If:
        node = ir_at.get((guard.at[0], guard.at[1]))
        cond = lines.text(node["cond"]["at"]) if node else None
        branch = "" if block_of.get(id(x)) == guard.then else "the 'otherwise' of "
        text += f" under {branch}if {cond or 'its condition'} (line {guard.at[0]})"
        x, guard = guard, owner.get(block_of.get(id(guard)))
    return text


def _ir_statements(ir: dict) -> dict:
    """(line, column) -> the IR of every `repeat until` and `if`."""
    out: dict = {}

    def walk(node) -> None:
        if isinstance(node, list):
            for item in node:
                walk(item)
        elif isinstance(node, dict):
            if node.get("node") in ("repeat_until", "if") and "at" in node:
                out[(node["at"][0], node["at"][1])] = node
            for key, value in node.items():
                if key != "at" and isinstance(value, (dict, list)):
                    walk(value)
    walk([ir.get("setup"), ir.get("phases"), ir.get("actions")])
    return out


def _nesting(game, m) -> tuple:
    """How the machine's statements nest: the IR statement at each
    (line, column), the statement that owns each block (an `if`, a loop), and
    the block each statement is in (by the statement's id)."""
    owner, block_of = {}, {}
    for x in m.stmts:
        for bid in _blocks_of(x):
            owner[bid] = x
    for b in m.blocks:
        for x in b.stmts:
            block_of[id(x)] = b.id
    return _ir_statements(game.ir), owner, block_of


def _condition(prog, x, ir_at: dict, lines: list, env: dict, state, block_of) -> str:
    """`COND (line N): VALUE; PART is VALUE …` of a `repeat until` or an `if`."""
    node = ir_at.get((x.at[0], x.at[1]))
    cond = node["cond"] if node else None
    text = _text(lines, cond["at"]) if cond else None
    head = f"{text or 'its condition'} (line {x.at[0]})"
    prog.budget.reset()
    try:
        value = x.cond(state, env)
    except (RulebookError,) + FORMULA_ERRORS as error:
        return f"{head}: cannot be worked out at the cut-off ({_words(error)})"
    told = f"{head}: {'yes' if value else 'no'}"
    if cond is None:
        return told
    scope = prog.machine.blocks[block_of[id(x)]].scope if id(x) in block_of else {}
    parts = [p for p in (_part(prog, side, lines, scope, env, state) for side in _sides(cond))
             if p is not None]
    return told + "".join(f"; {p}" for p in parts)


def _sides(cond: dict) -> list:
    """The parts a condition compares, through its `and`, `or` and `not`:
    the sides of each comparison that are not written-out values."""
    out: list = []

    def walk(e) -> None:
        if not isinstance(e, dict):
            return
        if e.get("node") == "compare":
            out.extend(s for s in (e.get("left"), e.get("right"))
                       if isinstance(s, dict) and s.get("node") not in _LITERALS)
        elif e.get("node") in ("and", "or", "not"):
            for key, value in e.items():
                if key != "at" and isinstance(value, dict):
                    walk(value)
    walk(cond)
    return out[:4]


def _part(prog, e: dict, lines: list, scope: dict, env: dict, state):
    """`TEXT is VALUE` of one part of a condition, or None when it cannot
    be compiled on its own."""
    text = _text(lines, e["at"])
    if text is None or text.lstrip("-").isdigit():
        return None
    exprs = prog.exprs
    errors = len(exprs.errors)
    try:
        compiled = exprs.compile(e, dict(scope))
        if compiled.const is not None:      # a value written out: nothing to tell
            return None
        fn, kind = prog.formulas.checked(e, dict(scope)), compiled.type
    except (RulebookError,) + FORMULA_ERRORS:
        return None
    finally:
        del exprs.errors[errors:]
    if fn is None:
        return None
    prog.budget.reset()
    try:
        value = show_value(fn(state, env), kind, prog.lay)
    except (RulebookError,) + FORMULA_ERRORS as error:
        return f"{text} cannot be worked out ({_words(error)})"
    return f"{text} is {_shown(value)}"


def _shown(value) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, list):
        items = [_shown(v) for v in value[:8]]
        return "[" + ", ".join(items) + (", …" if len(value) > 8 else "") + "]"
    return str(value)


class _Lines:
    """The lines of the files the rulebook's statements come from, read once each."""

    def __init__(self, game, machine):
        self.game, self.machine, self.files = game, machine, {}

    def text(self, at) -> str | None:
        """The rulebook's text at a span of one line, else None."""
        span = self.machine.span(at)
        if span.file not in self.files:
            source = self.game.source_of(span)
            self.files[span.file] = source.split("\n") if source else []
        lines = self.files[span.file]
        if span.line != span.end_line or not 0 < span.line <= len(lines):
            return None
        return lines[span.line - 1][span.column - 1:span.end_column - 1].strip() or None


def _text(lines: "_Lines", at) -> str | None:
    return lines.text(at)


def _words(error) -> str:
    if isinstance(error, KeyError):         # a local name of the block it runs in
        return f"it reads {error}, known only where it runs"
    return error.message if isinstance(error, RulebookError) else in_rule_words(error)


__all__ = ["described", "end_text"]
