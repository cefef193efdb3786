"""Compiled statements and the resumable machine that runs them.

The flow (setup, phases), action bodies and every nested block compile to
`Block`s of statement objects. The position in the flow is a stack of frames
``[block id, next step, local names, loop data]`` kept in the state, so a
game can stop at any decision and resume from a saved file. `Machine.run`
executes statements until a choice needs a player (the state's ``pending``
players) or the game ends. Each run is bounded: a rulebook that loops
without asking anybody anything stops with ``rule/loop``.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from .choices import (groups_keys, kinds_keys, many_keys, one_keys, pick_groups, pick_many,
                      pick_one)
from .errors import RuleError, RuleLoop, RuleStuck, span_at
from . import grid
from .layout import CELL, PLAYER, ANY, Layout, comp_type, elem, is_comp, list_of

MAX_STEPS = 200_000      # statements one decision may run before rule/loop
PASS = "pass"


class Block:
    """Statements run in order; `end` decides what happens after the last
    one (pop, loop again, next phase); `scope` maps local names to types."""

    __slots__ = ("id", "stmts", "end", "scope")

    def __init__(self, id_, stmts, end):
        self.id, self.stmts, self.end, self.scope = id_, stmts, end, {}


class Stmt:
    """A compiled statement. `run` returns True when it suspends for a choice."""

    __slots__ = ("at", "sid", "chance")
    suspends = False

    def run(self, m, s, f):   # pragma: no cover - abstract
        raise NotImplementedError


class Machine:
    """Runs the compiled blocks of one rulebook for one player count."""

    def __init__(self, lay: Layout, file: str):
        self.lay = lay
        self.file = file
        self.blocks: list[Block] = []
        self.phase_blocks: list[int] = []
        self.phase_names: list[str] = []
        self.setup_block: int | None = None
        self.stmts: list = []          # every statement, by sid
        self.described: list = []      # sid -> (IR kind, span, context)
        self.coverage: list | None = None   # sid -> times reached, when measuring
        self.steps = 0                 # statements run inline since the last decision
        self.action_counts: dict = {}       # action name -> times taken, when measuring
        # zone instance -> the id range of the component type it holds
        self.zone_range = []
        for slot, _ in lay.zone_list:
            first, count = lay.types.get(slot.of, (0, 0))
            self.zone_range.append((first, first + count))

    def prepare(self) -> None:
        """Marks the 'if' and 'for each' statements whose blocks never
        suspend, jump, end the game or draw (only plain statements, nested
        'if' and 'for each'): those run their blocks at once, in a Python loop,
        instead of pushing frames for `run` to step through. Nothing else
        differs: the same statements run in the same order on the same
        local names, and no decision can fall inside such a block, so the
        frames at every decision are the same."""
        pure: dict = {}

        def block_pure(bid):
            if bid not in pure:
                pure[bid] = False        # (blocks do not nest into themselves)
                pure[bid] = all(stmt_pure(x) for x in self.blocks[bid].stmts)
            return pure[bid]

        def stmt_pure(x):
            if x.chance:         # `opening` stops before a draw, even in a block
                return False
            if type(x) in _PLAIN:
                return True
            if type(x) is If:
                return block_pure(x.then) and (x.otherwise is None or block_pure(x.otherwise))
            if type(x) is ForEach:
                return block_pure(x.body)
            return False

        for x in self.stmts:
            if type(x) is If or type(x) is ForEach:
                x.inline = stmt_pure(x)

    def exec_block(self, s, bid: int, env: dict) -> None:
        """Runs a block that never suspends (see `prepare`) to its end."""
        stmts = self.blocks[bid].stmts
        f = [bid, 0, env, None]
        stmt = None
        try:
            for stmt in stmts:
                stmt.run(self, s, f)
        except (RuleError, TypeError, KeyError, IndexError, ValueError, AttributeError) as e:
            raise self._failure(e, stmt) from None
        self.count_steps(len(stmts), stmts)

    def count_steps(self, k: int, stmts) -> None:
        self.steps += k
        if self.steps > MAX_STEPS:
            raise RuleLoop(
                f"more than {MAX_STEPS} steps without a decision: the rules loop",
                self.span(stmts[-1].at), hint="check loops and 'go to' for a way out")

    def new_block(self, end) -> Block:
        b = Block(len(self.blocks), [], end)
        self.blocks.append(b)
        return b

    def span(self, at) -> Span:
        return span_at(self.file, at)

    # -- running -------------------------------------------------------------
    def start(self, s) -> None:
        if self.setup_block is not None:
            s.frames.append([self.setup_block, 0, {}, "setup"])
        else:
            self.enter_phase(s, 0)
        self.run(s)

    def opening(self, s) -> None:
        """Starts the game as `start` does, but stops before the first
        statement that draws from the generator or asks a player: what runs
        until then is the same in every game of this player count, so the
        engine keeps the result and copies it (see `Game.new_game`)."""
        if self.setup_block is not None:
            s.frames.append([self.setup_block, 0, {}, "setup"])
        else:
            self.enter_phase(s, 0)
        frames, blocks = s.frames, self.blocks
        steps = self.steps = 0
        stmt = None
        try:
            while frames:
                f = frames[-1]
                block = blocks[f[0]]
                pc = f[1]
                if pc >= len(block.stmts):
                    block.end(self, s, f)
                    continue
                stmt = block.stmts[pc]
                if stmt.chance or stmt.suspends:
                    return
                f[1] = pc + 1
                stmt.run(self, s, f)
                steps += 1
                if steps > MAX_STEPS:
                    raise RuleLoop(
                        f"more than {MAX_STEPS} steps without a decision: the rules loop",
                        self.span(stmt.at), hint="check loops and 'go to' for a way out")
        except (RuleError, TypeError, KeyError, IndexError, ValueError, AttributeError) as e:
            raise self._failure(e, stmt) from None

    def enter_phase(self, s, i: int) -> None:
        if i >= len(self.phase_blocks):
            self.end_game(s)
            return
        s.frames.append([self.phase_blocks[i], 0, {}, i])

    def end_game(self, s) -> None:
        s.frames.clear()
        s.over = True
        s.pending = ()

    def run(self, s) -> None:
        frames, blocks = s.frames, self.blocks
        steps = self.steps = 0
        stmt = None
        coverage = self.coverage
        try:
            while frames:
                f = frames[-1]
                stmts = blocks[f[0]].stmts
                pc = f[1]
                if pc >= len(stmts):
                    blocks[f[0]].end(self, s, f)
                    continue
                stmt = stmts[pc]
                if coverage is not None:
                    coverage[stmt.sid] += 1
                f[1] = pc + 1
                if stmt.run(self, s, f):
                    f[1] = pc
                    return
                steps += 1
                if steps > MAX_STEPS:
                    raise RuleLoop(
                        f"more than {MAX_STEPS} steps without a decision: the rules loop",
                        self.span(stmt.at), hint="check loops and 'go to' for a way out")
        except (RuleError, TypeError, KeyError, IndexError, ValueError, AttributeError) as e:
            raise self._failure(e, stmt) from None
        self.end_game(s)

    def _failure(self, e, stmt) -> RuleError:
        """The rule error to report for an exception raised by `stmt`."""
        where = self.span(stmt.at) if stmt is not None else None
        if isinstance(e, RuleError):
            if e.span is None:
                e.span = where
            return e
        return RuleError(f"the rules failed while running: {e}", where)

    def current_choice(self, s):
        f = s.frames[-1]
        return self.blocks[f[0]].stmts[f[1]], f


# -- block ends ---------------------------------------------------------------

def end_pop(m, s, f):
    s.frames.pop()


def end_setup(m, s, f):
    s.frames.pop()
    m.enter_phase(s, 0)


def end_phase(m, s, f):
    s.frames.pop()
    m.enter_phase(s, f[3] + 1)


def end_turn(m, s, f):
    s.frames.pop()
    s.vars[m.lay.slot_current] = f[3]


# -- simple statements ----------------------------------------------------------

def _flatten(v):
    if isinstance(v, list):
        out = []
        for x in v:
            if isinstance(x, list):
                out.extend(_flatten(x))
            else:
                out.append(x)
        return out
    return [] if v is None else [v]


def move_components(m, s, cids, dest: int) -> None:
    if s.shared:
        s.own_board()
    zones, loc, revealed = s.zones, s.loc, s.revealed
    target = zones[dest]
    low, high = m.zone_range[dest]
    for c in cids:
        if not (isinstance(c, int) and low <= c < high):
            slot = m.lay.zone_list[dest][0]
            shown = m.lay.display[c] if isinstance(c, int) and 0 <= c < len(loc) else repr(c)
            raise RuleError(f"cannot put {shown} into zone '{slot.name}', which holds {slot.of}",
                            hint="a zone holds components of the type it is declared with")
        where = loc[c]
        if where >= 0:
            zones[where].remove(c)
        target.append(c)
        loc[c] = dest
        revealed[c] = False


class Move(Stmt):
    __slots__ = ("what", "to")

    def __init__(self, at, what, to):
        self.at, self.what, self.to = at, what, to

    def run(self, m, s, f):
        env = f[2]
        move_components(m, s, _flatten(self.what(s, env)), self.to(s, env))


class Deal(Stmt):
    __slots__ = ("count", "source", "to")

    def __init__(self, at, count, source, to):
        self.at, self.count, self.source, self.to = at, count, source, to

    def run(self, m, s, f):
        env = f[2]
        k = self.count(s, env)
        src = s.zones[self.source(s, env)]
        take = src[max(0, len(src) - k):][::-1] if k > 0 else []
        move_components(m, s, take, self.to(s, env))


class Shuffle(Stmt):
    __slots__ = ("zone",)

    def __init__(self, at, zone):
        self.at, self.zone = at, zone

    def run(self, m, s, f):
        if s.shared:
            s.own_board()
        s.shuffle(s.zones[self.zone(s, f[2])])


class Reveal(Stmt):
    __slots__ = ("what",)

    def __init__(self, at, what):
        self.at, self.what = at, what

    def run(self, m, s, f):
        if s.shared:
            s.own_board()
        lay = m.lay
        shown: dict = {}
        for c in _flatten(self.what(s, f[2])):
            s.revealed[c] = True
            if s.loc[c] >= 0:
                slot, k = lay.zone_list[s.loc[c]]
                where = slot.name if slot.count == 1 else (
                    f"{slot.name}(P{k})" if slot.index == "player"
                    else f"{slot.name}({lay.display[lay.types[slot.index][0] + k]})")
            else:
                where = "the box"
            shown.setdefault(where, []).append(lay.display[c])
        for where, cards in shown.items():
            s.events.append({"event": "reveal", "zone": where, "cards": sorted(cards),
                             "text": f"revealed in {where}: {' '.join(sorted(cards))}"})


class SetSlot(Stmt):
    __slots__ = ("slot", "value", "add")

    def __init__(self, at, slot, value, add):
        self.at, self.slot, self.value, self.add = at, slot, value, add

    def run(self, m, s, f):
        env = f[2]
        v = self.value(s, env)
        i = self.slot(s, env)
        if self.add:
            s.vars[i] = s.vars[i] + v
        else:
            s.vars[i] = list(v) if isinstance(v, list) else v


class Permission(Stmt):
    """'grant NAME [to P]' / 'spend NAME [of P]': a one-shot permission. Granting
    one that is held, or spending one that is not, is a rule error (the
    rulebook lost track); each is announced to everybody as an event."""

    __slots__ = ("name", "slot", "player", "grant")
    GRANT, SPEND = True, False

    def __init__(self, at, name, slot, player, grant):
        self.at, self.name, self.slot, self.player, self.grant = at, name, slot, player, grant

    def run(self, m, s, f):
        env = f[2]
        i = self.slot(s, env)
        p = self.player(s, env) if self.player is not None else None
        who = f"P{p}" if p is not None else "the game"
        if bool(s.vars[i]) == self.grant:
            raise RuleError(f"{who} already holds permission '{self.name}'" if self.grant
                            else f"{who} does not hold permission '{self.name}'", code="rule/runtime")
        s.vars[i] = self.grant
        s.events.append({"event": "grant" if self.grant else "spend", "permission": self.name,
                         "player": p, "text": f"{who} {'gains' if self.grant else 'uses'} "
                                              f"permission {self.name}"})


class Let(Stmt):
    __slots__ = ("name", "value")

    def __init__(self, at, name, value):
        self.at, self.name, self.value = at, name, value

    def run(self, m, s, f):
        v = self.value(s, f[2])
        f[2][self.name] = list(v) if isinstance(v, list) else v


class NewRound(Stmt):
    __slots__ = ("resets",)

    def __init__(self, at, resets):
        self.at, self.resets = at, resets

    def run(self, m, s, f):
        s.round += 1
        for base, count in self.resets:
            s.vars[base:base + count] = [0] * count


class EndGame(Stmt):
    __slots__ = ()

    def __init__(self, at):
        self.at = at

    def run(self, m, s, f):
        s.frames.clear()      # the machine sees no frame left and ends the game


class GoTo(Stmt):
    __slots__ = ("phase",)

    def __init__(self, at, phase):
        self.at, self.phase = at, phase

    def run(self, m, s, f):
        s.frames.clear()
        m.enter_phase(s, self.phase)


class Requires(Stmt):
    """Checked when the action's options are listed; nothing to do when run."""

    __slots__ = ()

    def __init__(self, at):
        self.at = at

    def run(self, m, s, f):
        return False


# -- control flow ---------------------------------------------------------------

class If(Stmt):
    __slots__ = ("cond", "then", "otherwise", "inline")

    def __init__(self, at, cond, then, otherwise):
        self.at, self.cond, self.then, self.otherwise = at, cond, then, otherwise
        self.inline = False       # see Machine.prepare

    def run(self, m, s, f):
        env = f[2]
        target = self.then if self.cond(s, env) else self.otherwise
        if target is not None:
            if self.inline and m.coverage is None:
                m.exec_block(s, target, dict(env))
            else:
                s.frames.append([target, 0, dict(env), None])


class RepeatTimes(Stmt):
    __slots__ = ("count", "body")

    def __init__(self, at, count, body):
        self.at, self.count, self.body = at, count, body

    def run(self, m, s, f):
        k = self.count(s, f[2])
        if k > 0:
            s.frames.append([self.body, 0, dict(f[2]), k])


def end_repeat_times(m, s, f):
    if f[3] > 1:
        f[3] -= 1
        f[1] = 0
    else:
        s.frames.pop()


class RepeatUntil(Stmt):
    __slots__ = ("cond", "body")

    def __init__(self, at, cond, body):
        self.at, self.cond, self.body = at, cond, body

    def run(self, m, s, f):
        if not self.cond(s, f[2]):
            s.frames.append([self.body, 0, dict(f[2]), None])


def make_end_repeat_until(cond):
    def end(m, s, f):
        if cond(s, f[2]):
            s.frames.pop()
        else:
            f[1] = 0
    return end


class ForEach(Stmt):
    __slots__ = ("var", "source", "body", "inline")

    def __init__(self, at, var, source, body):
        self.at, self.var, self.source, self.body = at, var, source, body
        self.inline = False       # see Machine.prepare

    def run(self, m, s, f):
        items = list(self.source(s, f[2]))
        if items:
            env = dict(f[2])
            var = self.var
            if self.inline and m.coverage is None:
                # one local env for every pass, as end_for_each keeps it
                body = self.body
                stmts = m.blocks[body].stmts
                frame = [body, 0, env, None]
                stmt = None
                try:
                    for x in items:
                        env[var] = x
                        for stmt in stmts:
                            stmt.run(m, s, frame)
                except (RuleError, TypeError, KeyError, IndexError, ValueError,
                        AttributeError) as e:
                    raise m._failure(e, stmt) from None
                m.count_steps(len(items) * (len(stmts) + 1), stmts or [self])
                return
            env[var] = items[0]
            s.frames.append([self.body, 0, env, [var, items, 0]])


def end_for_each(m, s, f):
    var, items, i = f[3]
    i += 1
    if i < len(items):
        f[3] = [var, items, i]
        f[2][var] = items[i]
        f[1] = 0
    else:
        s.frames.pop()


class Turn(Stmt):
    __slots__ = ("player", "body", "resets")

    def __init__(self, at, player, body, resets):
        self.at, self.player, self.body, self.resets = at, player, body, resets

    def run(self, m, s, f):
        p = self.player(s, f[2])
        lay = m.lay
        previous = s.vars[lay.slot_current]
        s.vars[lay.slot_current] = p
        s.turn += 1
        for base, count in self.resets:
            s.vars[base:base + count] = [0] * count
        s.frames.append([self.body, 0, dict(f[2]), previous])


# -- choices --------------------------------------------------------------------

class ChoiceSpec:
    """One parameter or decision: how to list its options and print them."""

    __slots__ = ("name", "kind", "source", "where", "count", "groups", "size", "key",
                 "show_value", "value_type", "at", "why")

    def __init__(self, name, kind, source, where, count, groups, size, key, show_value,
                 value_type, at=None):
        self.name, self.kind, self.source, self.where = name, kind, source, where
        self.count, self.groups, self.size = count, groups, size
        self.key, self.show_value, self.value_type = key, show_value, value_type
        self.at = at          # the choice's span in the rulebook (for explanations)
        # (state, env, value) -> the cell that keeps a value out, or None (explain.py)
        self.why = None

    def show(self, name, args) -> str:
        """The text of a decision's action: its name and the chosen value."""
        return name + " " + self.show_value(args[0])

    def keys(self, s, env) -> list:
        """The content keys of every option, in a deterministic order."""
        values = self.source(s, env)
        if self.kind == "one":
            if self.where is None:
                return one_keys(values, self.key)
            first: dict = {}
            key = self.key
            for v in values:
                first.setdefault(key(v), v)
            inner = dict(env)
            kept = []
            for k, v in first.items():
                inner[self.name] = v
                if self.where(s, inner):
                    kept.append(k)
            return kept
        if self.kind == "many":
            return many_keys(values, self.key, self.count(s, env))
        if self.kind == "kinds":
            return kinds_keys(values, self.key, self.groups(s, env), self.size(s, env))
        return groups_keys(values, self.key, self.groups(s, env), self.size(s, env))

    def pairs(self, s, env) -> list:
        """[(key, value)] of every option, in the order of `keys`, reading the
        source once (for a parameter that later ones read)."""
        if self.kind != "one":
            return [(k, self.value(s, env, k)) for k in self.keys(s, env)]
        values = self.source(s, env)
        first: dict = {}
        key = self.key
        for v in values:
            first.setdefault(key(v), v)
        if self.where is None:
            return list(first.items())
        inner = dict(env)
        kept = []
        for k, v in first.items():
            inner[self.name] = v
            if self.where(s, inner):
                kept.append((k, v))
        return kept

    def value(self, s, env, k):
        """The concrete value an option's key stands for."""
        values = self.source(s, env)
        if self.kind == "one":
            return pick_one(values, self.key, k)
        if self.kind in ("many", "kinds"):
            return pick_many(values, self.key, k)
        return pick_groups(values, self.key, k)


class Action:
    """A move: who, which action or decision, and its arguments by content.

    Frozen and hashable; ``str(action)`` is the text the REPL prints and
    accepts. ``text_for(viewer)`` hides a private action's arguments."""

    __slots__ = ("player", "name", "args", "private", "_show", "_text", "_hash")

    def __init__(self, player, name, args, private=False, show=None):
        self.player, self.name, self.args = player, name, args
        self.private, self._show, self._text = private, show, None
        self._hash = None

    def __str__(self) -> str:
        if self._text is None:
            self._text = self._show(self.name, self.args) if self._show else self.name
        return self._text

    def text_for(self, viewer) -> str:
        if self.private and viewer != self.player:
            return f"{self.name} ?"
        return str(self)

    def __repr__(self) -> str:
        return f"Action(player={self.player}, text={str(self)!r})"

    def __eq__(self, other) -> bool:
        return (isinstance(other, Action) and self.player == other.player
                and self.name == other.name and self.args == other.args)

    def __hash__(self) -> int:
        h = self._hash
        if h is None:
            h = self._hash = hash((self.player, self.name, self.args))
        return h


class Product:
    """The options of an action whose parameters are independent: every
    combination of the parameters' keys (the last one varying fastest), made
    into an `Action` only when asked for and bound when applied."""

    __slots__ = ("player", "name", "lists", "sets", "private", "show", "size")

    def __init__(self, player, name, lists, private, show):
        self.player, self.name, self.lists = player, name, lists
        self.private, self.show = private, show
        self.sets = None
        size = 1
        for keys in lists:
            size *= len(keys)
        self.size = size

    def __len__(self) -> int:
        return self.size

    def at(self, i: int) -> "Action":
        keys = []
        for options in reversed(self.lists):
            i, k = divmod(i, len(options))
            keys.append(options[k])
        return Action(self.player, self.name, tuple(reversed(keys)), self.private, self.show)

    def __iter__(self):
        player, name, private, show = self.player, self.name, self.private, self.show
        return (Action(player, name, ks, private, show) for ks in itertools.product(*self.lists))

    def holds(self, action) -> bool:
        args = action.args
        if action.name != self.name or action.player != self.player or len(args) != len(self.lists):
            return False
        if self.sets is None:
            self.sets = [set(keys) for keys in self.lists]
        try:
            return all(k in keys for k, keys in zip(args, self.sets))
        except TypeError:          # an unhashable key is no legal one
            return False


class Offer:
    """One player's options at a decision: the actions in a fixed order and
    what each binds (None: worked out from the action's keys when applied).
    The actions of a `Product` are made only when listed and recognised by
    their keys, so hundreds of placements cost almost nothing until a player
    looks at them."""

    __slots__ = ("parts", "size", "_index")

    def __init__(self, pairs=None):
        self.parts: list = []       # Products and lists of (action, binding) pairs
        self.size = 0
        self._index = None
        if pairs:
            self.extend(pairs)

    def extend(self, pairs) -> None:
        if type(pairs) is not Product and type(pairs) is not list:
            pairs = list(pairs)
        if len(pairs):
            self.parts.append(pairs)
            self.size += len(pairs)

    def append(self, pair) -> None:
        self.extend([pair])

    def __len__(self) -> int:
        return self.size

    def __iter__(self):
        for part in self.parts:
            if type(part) is Product:
                yield from part
            else:
                for pair in part:
                    yield pair[0]

    def at(self, i: int) -> "Action":
        for part in self.parts:
            n = len(part)
            if i < n:
                return part.at(i) if type(part) is Product else part[i][0]
            i -= n
        raise IndexError("no such action")

    def get(self, action, default=None):
        """The binding of a legal action, or `default`."""
        index = self._index
        if index is None:
            index = {}
            for part in self.parts:
                if type(part) is not Product:
                    index.update(part)
            self._index = index
        found = index.get(action, _ABSENT)
        if found is not _ABSENT:
            return found
        for part in self.parts:
            if type(part) is Product and part.holds(action):
                return None
        return default


class Actions(Sequence):
    """A player's legal actions as a read-only list (`game.legal_actions`):
    indexing makes only the action asked for."""

    __slots__ = ("_offer",)

    def __init__(self, offer: Offer):
        self._offer = offer

    def __len__(self) -> int:
        return self._offer.size

    def __getitem__(self, i):
        offer = self._offer
        n = offer.size
        if type(i) is int and 0 <= i < n:
            parts = offer.parts
            if len(parts) == 1 and type(parts[0]) is list:
                return parts[0][i][0]
            return offer.at(i)
        if isinstance(i, slice):
            return [self._offer.at(k) for k in range(*i.indices(n))]
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("action index out of range")
        return self._offer.at(i)

    def __iter__(self):
        return iter(self._offer)

    def __contains__(self, action) -> bool:
        return isinstance(action, Action) and self._offer.get(action, _ABSENT) is not _ABSENT

    def __eq__(self, other) -> bool:
        if isinstance(other, (Actions, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    def __repr__(self) -> str:
        return repr(list(self))


_ABSENT = object()


class ActionDef:
    """An action of the rulebook. `independent`: no parameter's options read
    another parameter and there is no `requires`, so the options are the
    product of each parameter's keys (a placement: tiles × cells × turns),
    listed without binding any of them."""

    __slots__ = ("name", "params", "requires", "body", "limit", "private", "show",
                 "independent", "at", "requires_at", "requires_first")

    def __init__(self, name, params, requires, body, limit, private, show, independent=False,
                 at=None, requires_at=None, requires_first=False):
        self.name, self.params, self.requires, self.body = name, params, requires, body
        self.limit, self.private, self.show = limit, private, show
        self.independent = independent
        self.at, self.requires_at = at, requires_at     # spans, for explanations
        # the `requires` reads no parameter: checked once, before listing any option
        self.requires_first = requires_first

    def options(self, s, player, env) -> list:
        """[(Action, binding env or None)] for this action; [] when not allowed.
        A binding of None is worked out from the action's keys when applied."""
        if self.limit is not None:
            base, times = self.limit
            if s.vars[base + player] >= times:
                return []
        env = dict(env)
        env["me"] = player
        params = self.params
        name, private, show = self.name, self.private, self.show
        if not params:
            if self.requires is None or self.requires(s, env):
                return [(Action(player, name, (), private, show), env)]
            return []
        requires = self.requires
        if self.requires_first:
            if not requires(s, env):
                return []
            requires = None
        if len(params) == 1 and requires is None:
            return [(Action(player, name, (k,), private, show), None)
                    for k in params[0].keys(s, env)]
        if self.independent:
            lists = []
            for spec in params:          # a parameter without options: no action at all
                keys = spec.keys(s, env)
                if not keys:
                    return []
                lists.append(keys)
            return Product(player, name, lists, private, show)
        out = []
        keys: list = []

        def rec(i, env):
            if i == len(params):
                if requires is None or requires(s, env):
                    out.append((Action(player, name, tuple(keys), private, show), env))
                return
            spec = params[i]
            for k, v in spec.pairs(s, env):
                inner = dict(env)
                inner[spec.name] = v
                keys.append(k)
                rec(i + 1, inner)
                keys.pop()

        rec(0, env)
        return out

    def bind(self, s, player, env, args) -> dict:
        env = dict(env)
        env["me"] = player
        for spec, k in zip(self.params, args):
            env[spec.name] = spec.value(s, env, k)
        return env


class TakeAction(Stmt):
    """'P takes an action [if able]' / 'P may take an action [from a, b]'.

    With `if able` the statement must know whether any action is legal
    before it stops: it lists the options once and leaves them in the
    state's option cache (``state.cache``, derived and never saved), where
    the engine looks first, so they are not listed twice. With none it is
    no decision and the flow goes on."""

    __slots__ = ("player", "actions", "optional", "if_able", "actions_by_name")
    suspends = True

    def __init__(self, at, player, actions, optional, if_able=False):
        self.at, self.player, self.actions, self.optional = at, player, actions, optional
        self.if_able = if_able
        self.actions_by_name = {a.name: a for a in actions}

    def run(self, m, s, f):
        p = self.player(s, f[2])
        if self.if_able:
            s.memo = {}         # nothing changes while the options are listed
            try:
                offer = self._offer(s, f, p)
            finally:
                s.memo = None
            if not offer.size:
                return False
            cache = s.cache
            if cache is None:
                cache = s.cache = {}
            cache[p] = offer
        s.pending = (p,)
        return True

    def _offer(self, s, f, p) -> Offer:
        out = Offer()
        for a in self.actions:
            out.extend(a.options(s, p, f[2]))
        if self.optional:
            out.append((Action(p, PASS, ()), PASS))
        return out

    def options(self, m, s, f, player) -> Offer:
        out = self._offer(s, f, player)
        if not out:
            raise RuleStuck(f"P{player} must take an action but none is allowed", m.span(self.at),
                            hint="use 'may take an action' where passing is possible, or "
                                 "'takes an action if able' to skip")
        return out

    def resolve(self, m, s, f, action, binding) -> None:
        f[1] += 1
        if m.coverage is not None:
            m.action_counts[action.name] = m.action_counts.get(action.name, 0) + 1
        if binding is PASS:
            return
        a = self.actions_by_name[action.name]
        if binding is None:
            binding = a.bind(s, action.player, f[2], action.args)
        else:
            binding = dict(binding)   # the cached one belongs to the input state
        if a.limit is not None:
            s.vars[a.limit[0] + action.player] += 1
        s.frames.append([a.body, 0, binding, None])


def _decision_actions(memo: dict, player, spec, keys, private) -> list:
    """[(Action, None)] for the keys of a decision. The actions of plain
    keys (numbers, words, component classes) are kept by player and key:
    they are values, and the same few come up all game. (Not yes/no, which
    equal 1 and 0 as keys but print otherwise, nor tuples, which may hold
    them.)"""
    out = []
    mine = memo.get(player)
    if mine is None or len(mine) > 10_000:
        mine = memo[player] = {}
    for k in keys:
        if type(k) is int or type(k) is str:
            a = mine.get(k)
            if a is None:
                a = mine[k] = Action(player, spec.name, (k,), private, spec.show)
        else:
            a = Action(player, spec.name, (k,), private, spec.show)
        out.append((a, None))
    return out


class Choose(Stmt):
    """'P chooses NAME: …' inside a flow or an action."""

    __slots__ = ("player", "spec", "memo")
    suspends = True

    def __init__(self, at, player, spec):
        self.at, self.player, self.spec = at, player, spec
        self.memo = {}

    def run(self, m, s, f):
        s.pending = (self.player(s, f[2]),)
        return True

    def options(self, m, s, f, player) -> list:
        p = player
        spec = self.spec
        out = _decision_actions(self.memo, p, spec, spec.keys(s, f[2]), False)
        if not out:
            raise RuleStuck(f"P{p} must choose {spec.name} but there is nothing to choose from",
                            m.span(self.at))
        return out

    def resolve(self, m, s, f, action, value) -> None:
        value = self.spec.value(s, f[2], action.args[0])
        f[2][self.spec.name] = list(value) if isinstance(value, list) else value
        f[1] += 1


PICKS = "#picks"     # env key of a simultaneous step's picks so far: {"p": value or None}


class EachChooses(Stmt):
    """'each p in PLAYERS chooses NAME: …': all of them decide at once.

    `to_move` lists everybody who has not chosen yet; a pick is kept in the
    frame, out of every other player's view (and its action text is private),
    until all have chosen. Then NAME is bound to a list indexed by player
    (none for players who did not choose) and the flow goes on."""

    __slots__ = ("player_var", "players", "spec", "memo")
    suspends = True

    def __init__(self, at, player_var, players, spec):
        self.at, self.player_var, self.players, self.spec = at, player_var, players, spec
        self.memo = {}

    def run(self, m, s, f):
        env = f[2]
        picks = env.get(PICKS)
        if picks is None:
            picks = env[PICKS] = {str(p): None for p in self.players(s, env)}
        waiting = tuple([int(p) for p, v in picks.items() if v is None])
        if waiting:
            s.pending = waiting
            return True
        chosen = [None] * s.n
        for p, v in picks.items():
            chosen[int(p)] = v[0]
        del env[PICKS]
        env[self.spec.name] = chosen
        return False

    def _env(self, env, p):
        inner = dict(env)
        inner[self.player_var] = p
        return inner

    def options(self, m, s, f, player) -> list:
        spec = self.spec
        keys = spec.keys(s, self._env(f[2], player))
        if not keys:
            raise RuleStuck(f"P{player} must choose {spec.name} but there is nothing to choose "
                            f"from", m.span(self.at))
        return _decision_actions(self.memo, player, spec, keys, True)

    def resolve(self, m, s, f, action, value) -> None:
        env = f[2]
        value = self.spec.value(s, self._env(env, action.player), action.args[0])
        picks = dict(env[PICKS])
        # kept in a one-element list: a pick may itself be none-like (player 0)
        picks[str(action.player)] = [list(value) if isinstance(value, list) else value]
        env[PICKS] = picks


class Rotate(Stmt):
    """'rotate ZONE by K': every player's ZONE goes K seats to the left at once."""

    __slots__ = ("base", "by")

    def __init__(self, at, base, by):
        self.at, self.base, self.by = at, base, by

    def run(self, m, s, f):
        if s.shared:
            s.own_board()
        n, base = s.n, self.base
        k = self.by(s, f[2]) % n
        old = s.zones[base:base + n]
        for p in range(n):
            dest = base + (p + k) % n
            s.zones[dest] = old[p]
            for c in old[p]:
                s.loc[c] = dest


# statements that never suspend and push no frame
_PLAIN = (Move, Deal, Shuffle, Reveal, SetSlot, Let, NewRound, Requires, Rotate)


def printer(type_: str, lay: Layout):
    """value key -> text, for a choice of the given element type."""
    if is_comp(type_):
        shown = lay.class_display
        return lambda k: shown[k]
    if type_ == PLAYER:
        return lambda k: f"P{k}"
    if type_ == CELL:
        return grid.text
    if type_.startswith("list:"):
        inner = printer(elem(type_), lay)
        sep = " | " if elem(type_).startswith("list:") else " "
        return lambda k: sep.join(inner(x) for x in k)
    return _plain_text


def _plain_text(k) -> str:
    if k is None:
        return "none"
    if k is True or k is False:
        return "yes" if k else "no"
    return str(k)


__all__ = ["Machine", "Action", "ActionDef", "ChoiceSpec", "printer", "ANY", "comp_type",
           "list_of"]
