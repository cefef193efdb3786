"""The statements and actions that the options in force switch off, found
from the IR without playing, so that coverage tells them apart from those
that never ran.

A branch of an `if` is off when its condition is a constant for these
options (`if reveal_trade_off_at_round_end` with the option no, `if
first_player == random` with `P0`: the other branch), and the same
condition is no constant once one of the options it reads is not known: it
is that option's doing, not a `by players` table's nor a literal's. The
compiler's own folding decides what is constant (`FormulaChecker`: options,
tables, `and`/`or`/`not`, `==`, defines worked out once), so this check
sees exactly what the compiled program leaves out. An action is off when
its first statement `requires` a condition the options make false, or when
every `takes an action` that offers it lies in code that is off; the
statements of its body are then off too. Each is keyed as `Game.coverage`
keys its rows: ``("action", NAME)`` or ``(line, column)`` of a statement.
"""

from __future__ import annotations

from ..language.compiled import Compiled
from ..language.formulas import FormulaChecker
from ..compiler.pysource import PyFormulas


class _Unknowing(FormulaChecker):
    """An expression compiler that does not know the values of some options:
    they keep their kind but fold nothing."""

    def __init__(self, ir: dict, lay, options: dict, table: dict, unknown: frozenset):
        super().__init__(ir, lay, options, table)
        self.unknown = unknown

    def e_name(self, e, scope):
        compiled = super().e_name(e, scope)
        if e["ref"] == "option" and e["name"] in self.unknown:
            return Compiled(compiled.fn, compiled.type, compiled.at)
        return compiled


class _Folding:
    """Whether a condition is constant, with all, some or none of the options
    known, for one player count (its layout and `by players` values)."""

    def __init__(self, game, players: int):
        exprs = game.program(players).exprs
        self.args = (game.ir, exprs.lay, game.options, exprs.table)
        self.defines = {d["name"]: d["body"] for d in game.ir["defines"]}
        self.compilers: dict = {}

    def constant(self, cond: dict, unknown: frozenset = frozenset()):
        """(value,) when the condition folds with the options in `unknown` not
        known, else None. A condition compiled out of its place (its local
        names are of unknown kind here) that the compiler refuses is not
        judged: the rulebook compiled, so nothing is lost but the verdict."""
        compiler = self.compilers.get(unknown)
        if compiler is None:
            compiler = self.compilers[unknown] = _Unknowing(*self.args, unknown)
            PyFormulas(compiler)        # (a define of fixed things worked out as the program does)
        try:
            return compiler.condition(cond, {}).const
        except Exception:  # noqa: BLE001 - out of its scope any formula may fail to compile
            return None

    def options_read(self, node) -> list:
        """The options a formula reads, itself or through the defines it calls,
        in the order they first appear."""
        found: list = []
        self._collect(node, found, set())
        return found

    def _collect(self, node, found: list, seen: set) -> None:
        if isinstance(node, list):
            for item in node:
                self._collect(item, found, seen)
            return
        if not isinstance(node, dict):
            return
        if node.get("node") == "name" and node.get("ref") == "option":
            if node["name"] not in found:
                found.append(node["name"])
        if node.get("ref") == "define" and node.get("node") in ("name", "call"):
            name = node["name"] if node["node"] == "name" else node["fn"]
            if name not in seen and name in self.defines:
                seen.add(name)
                self._collect(self.defines[name], found, seen)
        for key, value in node.items():
            if key != "at" and isinstance(value, (dict, list)):
                self._collect(value, found, seen)

    def switching(self, cond: dict):
        """(value, options) when the options in force make the condition the
        constant `value` and the options named are the ones that do; else None."""
        names = self.options_read(cond)
        if not names:
            return None
        known = self.constant(cond)
        if known is None or self.constant(cond, frozenset(names)) is not None:
            return None
        alone = [n for n in names if self.constant(cond, frozenset([n])) is None]
        return bool(known[0]), tuple(alone or names)


def switched_off(game, players: int) -> dict:
    """{coverage key: (option names)} for every statement and action that
    the options in force switch off for `players` players (see the module
    doc)."""
    folding = _Folding(game, players)
    off: dict = {}
    offered: dict = {}          # action -> None when live code offers it, else the options
    all_actions = [a["name"] for a in game.ir["actions"]]

    def offer(stmt, options) -> None:
        for name in stmt.get("among") or all_actions:
            if options is None:
                offered[name] = None
            elif offered.get(name, ()) is not None:
                offered[name] = tuple(dict.fromkeys(offered.get(name, ()) + options))

    def walk(block, options) -> None:
        """The statements of a block; `options`: those that switch it off, or
        None when it may run."""
        for stmt in (block or {}).get("stmts", ()):
            if options is not None:
                off[(stmt["at"][0], stmt["at"][1])] = options
            if stmt["node"] == "take_action":
                offer(stmt, options)
            switch = folding.switching(stmt["cond"]) if stmt["node"] == "if" \
                and options is None else None
            for key, value in stmt.items():
                if not (isinstance(value, dict) and "stmts" in value):
                    continue
                inner = options
                if switch is not None and key in ("then", "otherwise"):
                    taken = "then" if switch[0] else "otherwise"
                    inner = switch[1] if key != taken else None
                walk(value, inner)

    walk(game.ir["setup"], None)
    for phase in game.ir["phases"]:
        walk(phase["body"], None)
    actions = {a["name"]: a for a in game.ir["actions"]}
    barred = {}
    for name, a in actions.items():
        stmts = (a["body"] or {}).get("stmts", [])
        if stmts and stmts[0]["node"] == "requires":
            switch = folding.switching(stmts[0]["cond"])
            if switch is not None and not switch[0]:
                barred[name] = switch[1]
    done: set = set()
    while True:                 # an action's body may offer actions in turn
        live = [n for n in actions if n not in done and n not in barred
                and n in offered and offered[n] is None]
        if not live:
            break
        for name in live:
            done.add(name)
            walk(actions[name]["body"], None)
    while True:                 # offered only where it is off, or barred by `requires`
        dead = [(n, barred.get(n) or offered.get(n)) for n in actions
                if n not in done and (barred.get(n) or offered.get(n))]
        if not dead:
            return off
        for name, options in dead:
            done.add(name)
            off[("action", name)] = options
            walk(actions[name]["body"], options)
