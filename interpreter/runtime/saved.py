"""A saved state read back: every field checked against the compiled program.

`state_from_data` reads only what a game of the rules can be in — the types
and ranges of every field, each component in one place, frames the program's
blocks can hold, the deciders they ask — and refuses anything else with
save/corrupt, naming the field; nothing else is raised, however the data is
made. `damaged` and `shown` are the two helpers the engine and the terminal
use for refusals and for printing untrusted text.
"""

from __future__ import annotations

from ..errors import RulebookError, SaveError
from ..printable import printable
from ..stdlib import grid
from ..stdlib.types import ANY, BOOL, CELL, NUMBER, PLAYER, SYMBOL
from .chance import CHANCE, Chance, ChanceNeeded
from .decisions import PICKS, Choose, EachChooses, TakeAction
from .state import _MASK, State, _plain
from .statements import Do, ForEach, If, Let, RepeatTimes, RepeatUntil, Turn

FIELDS = ("players", "zones", "loc", "vars", "revealed", "frames", "rng", "decisions",
          "pending", "over", "round", "turn", "events")
OPTIONAL = ("events", "chance")     # saves before events had none; chance: in chance mode
BIG = 10 ** 30            # the bound of every number a game holds: language/limits.py MAX_NUMBER
MAX_DEPTH = 32            # lists inside a value of kind `any` nest no deeper
MAX_TEXT = 100_000        # characters in a word or an event's text
MAX_FRAMES = 10_000       # blocks nested inside each other at one moment


def state_from_data(data, prog) -> State:
    """A State rebuilt from `State.to_data()` output, with every field checked
    against `prog`, the compiled program of its player count (types, ranges,
    each component in one place, a flow the program's blocks can be at, the
    deciders that flow asks). Anything a game of these rules cannot hold is
    refused with a `SaveError` (save/corrupt) that names the field; nothing
    else is raised, however the data is made."""
    return _Reader(prog).state(data)


def damaged(field: str, problem: str):
    """Refuses a saved state: `field` is where in the save, `problem` what is
    wrong there (never a hidden card: the message may be shown at the table)."""
    raise SaveError(f"the save file is damaged: {field} {problem}",
                    hint="a save is only read back as written; restore the file or start anew")


def shown(text, limit: int = 40) -> str:
    """A piece of untrusted text fit to print: control characters escaped, cut
    to `limit` characters."""
    if type(text) is not str:    # (repr of a deeply nested value would recurse)
        small = type(text) is bool or text is None or type(text) is int and abs(text) < BIG
        text = str(text) if small else f"<{type(text).__name__}>"
    cut = text[:limit]
    return printable(cut, lines=False) + ("…" if len(text) > limit else "")


class _Reader:
    """Checks one saved state against a program and builds it from copies."""

    def __init__(self, prog):
        self.prog, self.lay, self.m, self.n = prog, prog.lay, prog.machine, prog.n

    def state(self, data) -> State:
        if type(data) is not dict:
            damaged("state", "is not an object")
        for key in data:
            if key not in FIELDS and key not in OPTIONAL:
                damaged(f"state.{shown(key)}", "is no part of a state")
        for key in FIELDS:
            if key not in data and key not in OPTIONAL:
                damaged(f"state.{key}", "is missing")
        if type(data["players"]) is not int or data["players"] != self.n:
            damaged("state.players", f"is not {self.n}")
        zones, loc = self.board(data["zones"], data["loc"])
        revealed = self.revealed(data["revealed"], len(loc))
        values = self.variables(data["vars"])
        counts = [self.count(data[key], f"state.{key}") for key in ("decisions", "round", "turn")]
        if type(data["over"]) is not bool:
            damaged("state.over", "is not yes/no")
        chance = self.chance(data["chance"]) if "chance" in data else None
        if chance is not None and data["pending"] == [CHANCE]:
            pending = [CHANCE]
        else:
            pending = self.players(data["pending"], "state.pending")
        events = self.events(data.get("events", []))
        frames = self.frames(data["frames"])
        s = State(self.n, zones, loc, values, revealed, frames, self.generator(data["rng"]),
                  counts[0], tuple(pending), data["over"], counts[1], counts[2], events, chance)
        self.flow(s)
        if chance is not None:
            self.chance_node(s)
        return s

    def revealed(self, data, count: int) -> list:
        """Per component, who it was revealed to where it lies: yes (everyone),
        no (nobody) or a list of distinct seats (`state.revealed_data`)."""
        wrong = f"is not {count} entries, one per component: yes, no or a list of seats"
        if type(data) is not list or len(data) != count:
            damaged("state.revealed", wrong)
        everyone = (1 << self.n) - 1
        out = []
        for r in data:
            if type(r) is bool:
                out.append(everyone if r else 0)
            elif type(r) is list and r and all(type(p) is int and 0 <= p < self.n for p in r) \
                    and len(set(r)) == len(r):
                out.append(sum(1 << p for p in r))
            else:
                damaged("state.revealed", wrong)
        return out

    # -- chance mode -----------------------------------------------------------
    def chance(self, v) -> Chance:
        """The outcomes decided for the statement under way (runtime/chance.py):
        each an index of a ``random(…)``, or the cards a shuffle placed."""
        ncomp = self.lay.ncomponents
        if type(v) is not dict or set(v) != {"draws"} or type(v["draws"]) is not list \
                or len(v["draws"]) > MAX_FRAMES:
            damaged("state.chance", "is not the chance outcomes of a step, {\"draws\": […]}")
        for k, d in enumerate(v["draws"]):
            if not (type(d) is int and 0 <= d < BIG or type(d) is list and len(d) <= ncomp
                    and all(type(c) is int and 0 <= c < ncomp for c in d)):
                damaged(f"state.chance.draws[{k}]", "is neither a value's number nor cards "
                                                    "in an order")
        return Chance([list(d) if type(d) is list else d for d in v["draws"]])

    def chance_node(self, s: State) -> None:
        """A state of a game in chance mode waits for chance only where the
        rules draw, with outcomes they can give, and the machine finds that
        node again; elsewhere no outcome is decided."""
        if s.pending != (CHANCE,):
            if s.chance.draws:
                damaged("state.chance.draws", "is not empty, but chance is not to move")
            return
        again = s.copy(events=False)
        self.prog.budget.reset()
        try:
            self.m.run(again)
        except (RulebookError, TypeError, KeyError, IndexError, ValueError, AttributeError,
                RecursionError):
            again = None
        if again is not None:
            again.events = s.events
        if again is None or again.to_data() != s.to_data():
            damaged("state.chance", "is not a chance step where the rules of the flow draw")
        s.chance.node = again.chance.node

    # -- the board -------------------------------------------------------------
    def zone_name(self, i: int) -> str:
        lay = self.lay
        slot, k = lay.zone_list[i]
        if slot.index2 is not None:
            return lay.place_name(i)
        if slot.count == 1:
            return slot.name
        if slot.index == "player":
            return f"{slot.name}(P{k})"
        if slot.index in lay.types:
            return f"{slot.name}({lay.display[lay.types[slot.index][0] + k]})"
        return f"{slot.name}[{k}]"

    def board(self, zones, loc) -> tuple:
        """Each component in one zone at most, of the zone's type, and `loc`
        saying the same (-1: in no zone, the box)."""
        lay, ncomp = self.lay, self.lay.ncomponents
        if type(zones) is not list or len(zones) != len(lay.zone_list):
            damaged("state.zones", f"is not a list of {len(lay.zone_list)} zones")
        if type(loc) is not list or len(loc) != ncomp:
            damaged("state.loc", f"is not a list of {ncomp} places, one per component")
        where = [-1] * ncomp
        out = []
        for i, z in enumerate(zones):
            field = f"state.zones[{i}] (zone {self.zone_name(i)})"
            if type(z) is not list:
                damaged(field, "is not a list of components")
            low, high = self.m.zone_range[i]
            for c in z:
                if type(c) is not int or not 0 <= c < ncomp:
                    damaged(field, "holds something that is not a component")
                if not low <= c < high:
                    damaged(field, f"holds a component that is not a {lay.zone_list[i][0].of}")
                if where[c] != -1:
                    damaged(field, "holds a component that is in a zone already")
                where[c] = i
            out.append(list(z))
        for c, place in enumerate(loc):
            if type(place) is not int or place != where[c]:
                damaged(f"state.loc[{c}]", "disagrees with the zones about where the component is")
        return out, where

    # -- values ----------------------------------------------------------------
    def slot_kinds(self) -> list:
        """Per variable slot: (what it is, the kind of value it holds)."""
        lay = self.lay
        kinds: list = [("a slot", ANY)] * lay.nvars
        for v in lay.variables.values():
            for k in range(v.count):
                kinds[v.base + k] = (f"variable {v.name}" + (f"{list(v.keys(k))}" if v.count > 1
                                                             else ""), v.type)
        for name, column in lay.has.items():
            for cid, slot in enumerate(column):
                if slot >= 0:
                    kinds[slot] = (f"{name} of {lay.display[cid]}", lay.has_type[name])
        kinds[lay.slot_current] = ("the player of the turn", PLAYER)
        for action, (base, times, _) in lay.limits.items():
            for p in range(self.n):
                kinds[base + p] = (f"the uses of {action} by P{p}", ("uses", times))
        return kinds

    def variables(self, values) -> list:
        if type(values) is not list or len(values) != self.lay.nvars:
            damaged("state.vars", f"is not a list of {self.lay.nvars} values")
        out = []
        for i, (value, (what, kind)) in enumerate(zip(values, self.slot_kinds())):
            if type(kind) is tuple:             # an action's uses: 0 up to its limit
                times = kind[1]
                if type(value) is not int or not 0 <= value <= (times if type(times) is int else BIG):
                    damaged(f"state.vars[{i}] ({what})", f"is not a count from 0 to {times}")
            elif not self.fits(value, kind):
                damaged(f"state.vars[{i}] ({what})", f"is not a value of kind {kind}")
            out.append(_plain(value))
        return out

    def fits(self, v, kind: str, depth: int = 0) -> bool:
        """Whether `v` is a value of `kind` (a type name of stdlib/types.py) in
        this game; none fits every kind."""
        if v is None:
            return True
        t = type(v)
        if kind == NUMBER:
            return t is int and -BIG < v < BIG
        if kind == BOOL:
            return t is bool
        if kind == PLAYER:
            return t is int and 0 <= v < self.n
        if kind == SYMBOL:
            return t is str and len(v) <= MAX_TEXT
        if kind == CELL:
            return t is int and 0 < v // grid.BASE < grid.BASE and 0 < v % grid.BASE
        if kind.startswith("comp:"):
            first, count = self.lay.types.get(kind[5:], (0, self.lay.ncomponents))
            return t is int and first <= v < first + count
        if kind.startswith("list:"):
            return t is list and depth < MAX_DEPTH and all(
                self.fits(x, kind[5:], depth + 1) for x in v)
        return _plain_value(v, depth)

    def count(self, v, field: str) -> int:
        if type(v) is not int or not 0 <= v < BIG:
            damaged(field, "is not a count (a whole number, 0 or more)")
        return v

    def players(self, v, field: str) -> list:
        if type(v) is not list or not all(type(p) is int and 0 <= p < self.n for p in v) \
                or len(set(v)) != len(v):
            damaged(field, f"is not a list of different players from P0 to P{self.n - 1}")
        return list(v)

    def generator(self, v) -> int:
        if not (type(v) is str and 0 < len(v) <= 20 and v.isascii() and v.isdigit()
                and str(int(v)) == v and int(v) <= _MASK):
            damaged("state.rng", "is not a generator state (a whole number below 2^64, as text)")
        return int(v)

    def events(self, events) -> list:
        """The public events of the last transition, each as the rules make it."""
        if type(events) is not list:
            damaged("state.events", "is not a list")
        out = []
        for k, e in enumerate(events):
            field = f"state.events[{k}]"
            kind = e.get("event") if type(e) is dict else None
            shape = _EVENTS.get(kind) if type(kind) is str else None
            if shape is None:
                damaged(field, "is not an event (reveal, grant, spend or announce)")
            keys = set(e)
            fits = [(needed, optional) for needed, optional in shape
                    if needed <= keys <= needed | optional]
            if not fits:
                damaged(field, f"is not a {e['event']} event: its parts are " + " or ".join(
                    ", ".join(sorted(needed)) for needed, _ in shape))
            ok = type(e["text"]) is str and len(e["text"]) <= MAX_TEXT
            if "zone" in e:
                ok = ok and type(e["zone"]) is str
            if "cards" in e:
                ok = ok and type(e["cards"]) is list and all(type(c) is str for c in e["cards"])
            if "count" in e:
                ok = ok and type(e["count"]) is int and 0 < e["count"] <= self.lay.ncomponents
            if "pieces" in e:
                ncomp = self.lay.ncomponents
                ok = ok and type(e["pieces"]) is list and all(
                    type(c) is int and 0 <= c < ncomp for c in e["pieces"])
            if "choice" in e:
                ok = ok and type(e["choice"]) is str
            if "players" in e:
                ok = ok and type(e["players"]) is list and all(
                    type(p) is int and self.fits(p, PLAYER) for p in e["players"])
            if "permission" in e:
                ok = ok and type(e["permission"]) is str and self.fits(e["player"], PLAYER)
            if "to" in e:
                ok = ok and self.fits(e["to"], PLAYER)
            if not ok:
                damaged(field, f"has a part of the wrong kind for a {e['event']} event")
            out.append({key: list(v) if type(v) is list else v for key, v in e.items()})
        return out

    # -- the flow --------------------------------------------------------------
    def frames(self, frames) -> list:
        """Each frame's shape: [block id, step, locals, loop data]."""
        if type(frames) is not list or len(frames) > MAX_FRAMES:
            damaged("state.frames", "is not a list of flow frames")
        blocks = self.m.blocks
        out = []
        for k, f in enumerate(frames):
            field = f"state.frames[{k}]"
            if type(f) is not list or len(f) != 4:
                damaged(field, "is not [block, step, local names, loop data]")
            bid, pc, env, loop = f
            if type(bid) is not int or not 0 <= bid < len(blocks):
                damaged(f"{field}[0]", f"is not a block of the rules (0 to {len(blocks) - 1})")
            if type(pc) is not int or not 0 <= pc <= len(blocks[bid].stmts):
                damaged(f"{field}[1]", f"is not a step of block {bid} "
                                       f"(0 to {len(blocks[bid].stmts)})")
            if type(env) is not dict or not all(type(name) is str for name in env):
                damaged(f"{field}[2]", "is not a table of local names")
            out.append([bid, pc, env, loop])
        return out

    def flow(self, s: State) -> None:
        """The frames form a chain the program makes — the setup or a phase at
        the bottom, each frame above pushed by the statement its parent has
        just run, with that statement's loop data — whose top stops at a
        decision asking exactly the pending players; every frame's locals are
        names its blocks bind, each with a value of its kind."""
        frames = s.frames
        if s.over:
            if frames or s.pending:
                damaged("state.frames" if frames else "state.pending",
                        "is not empty, but the game is over")
            return
        if not frames:
            damaged("state.frames", "is empty, but the game is not over")
        blocks = self.m.blocks
        known: dict = {}          # local name -> the kinds its blocks give it
        required: set = set()     # names bound on the way to this frame
        for k, f in enumerate(frames):
            field = f"state.frames[{k}]"
            bid, pc, env, loop = f
            block = blocks[bid]
            if k == 0:
                self.bottom(f, field)
            else:
                parent = frames[k - 1]
                if parent[1] == 0:
                    damaged(f"state.frames[{k - 1}][1]", "has run nothing, yet a frame lies above it")
                pusher = blocks[parent[0]].stmts[parent[1] - 1]
                pushed = self.pushed(pusher, f, field)
                # a procedure's steps have their parameters as their only locals
                required = pushed if isinstance(pusher, Do) else required | pushed
            for name, kind in block.scope.items():
                known.setdefault(name, set()).add(kind)
            top = k == len(frames) - 1
            # (chance at a draw: `chance_node` checks the step with the machine)
            at_chance = top and s.pending == (CHANCE,)
            if top and not at_chance and (pc >= len(block.stmts) or not block.stmts[pc].suspends):
                damaged(f"{field}[1]", "is not at a decision, where a saved game stops")
            for stmt in block.stmts[:pc]:
                name = _binds(stmt)
                if name is not None:
                    required.add(name)
            decision = block.stmts[pc] if top and not at_chance else None
            for name in required:
                if name not in env:
                    damaged(f"{field}[2]", f"lacks the local name '{shown(name)}'")
            for name, value in env.items():
                if name == PICKS and isinstance(decision, EachChooses):
                    continue
                kinds = known.get(name)
                if kinds is None:
                    damaged(f"{field}[2]", f"holds '{shown(name)}', a name its blocks never bind")
                if not any(self.fits(value, kind) for kind in kinds):
                    damaged(f"{field}[2].{shown(name)}", "holds a value of the wrong kind")
            f[2] = {name: ({p: _plain(v) for p, v in value.items()} if name == PICKS
                           else _plain(value))
                    for name, value in env.items()}
            f[3] = _plain(loop)
        if s.pending != (CHANCE,):
            self.deciders(s, frames[-1], f"state.frames[{len(frames) - 1}]")

    def bottom(self, f, field: str) -> None:
        bid, loop = f[0], f[3]
        m = self.m
        if bid == m.setup_block and bid is not None:
            if loop != "setup":
                damaged(f"{field}[3]", "is not 'setup', the loop data of the setup")
        elif bid in m.phase_blocks:
            if type(loop) is not int or loop != m.phase_blocks.index(bid):
                damaged(f"{field}[3]", "is not the number of its phase")
        else:
            damaged(f"{field}[0]", "is not the setup or a phase, yet is at the bottom of the flow")

    def pushed(self, pusher, f, field: str) -> set:
        """Checks a frame against the statement that pushed it; the local
        names the push binds."""
        bid, loop = f[0], f[3]
        names: set = set()
        if isinstance(pusher, If):
            ok = bid in (pusher.then, pusher.otherwise) and loop is None
        elif isinstance(pusher, (RepeatUntil, RepeatTimes, Turn)):
            ok = bid == pusher.body and (
                loop is None if isinstance(pusher, RepeatUntil) else
                type(loop) is int and 0 < loop < BIG if isinstance(pusher, RepeatTimes) else
                self.fits(loop, PLAYER))
        elif isinstance(pusher, ForEach):
            kind = self.m.blocks[bid].scope.get(pusher.var, ANY) if bid == pusher.body else ANY
            ok = (bid == pusher.body and type(loop) is list and len(loop) == 3
                  and loop[0] == pusher.var and type(loop[1]) is list and type(loop[2]) is int
                  and 0 <= loop[2] < len(loop[1]) and self.fits(loop[1], "list:" + kind))
            names.add(pusher.var)
        elif isinstance(pusher, Do):
            ok = bid == pusher.body and loop is None
            names.update(pusher.params)
        elif isinstance(pusher, TakeAction):
            action = next((a for a in pusher.actions if a.body == bid), None)
            ok = action is not None and loop is None
            if ok:
                names.add("me")
                names.update(spec.name for spec in action.params)
        else:
            ok = False
        if not ok:
            damaged(field, "is not a block (with its loop data) that the statement of the "
                           "frame below it runs")
        return names

    def deciders(self, s: State, f, field: str) -> None:
        """The pending players are those the decision at the top asks: its
        player, or at a simultaneous step everybody yet to pick."""
        stmt, env = self.m.blocks[f[0]].stmts[f[1]], f[2]
        if isinstance(stmt, EachChooses):
            picks = env.get(PICKS)
            kind = stmt.spec.value_type
            if type(picks) is not dict or not picks or not all(
                    type(p) is str and p.isascii() and p.isdigit() and str(int(p)) == p
                    and int(p) < self.n and (v is None or type(v) is list and len(v) == 1
                                             and self.fits(v[0], kind))
                    for p, v in picks.items()):
                damaged(f"{field}[2].{PICKS}", "is not the picks of a simultaneous step")
            waiting = tuple(int(p) for p, v in picks.items() if v is None)
            if not waiting:
                damaged(f"{field}[2].{PICKS}", "has every pick made, yet the step waits")
            asked = self.evaluate(lambda: [str(p) for p in stmt.players(s, env)], field)
            if list(dict.fromkeys(asked)) != list(picks):
                damaged(f"{field}[2].{PICKS}", "is not one pick for each player the step asks")
        else:
            if PICKS in env:
                damaged(f"{field}[2]", f"holds '{PICKS}' outside a simultaneous step")
            waiting = (self.evaluate(lambda: stmt.player(s, env), field),)
        if s.pending != waiting:
            damaged("state.pending", "is not the players the decision at the top of the flow asks")

    def evaluate(self, fn, field: str):
        self.prog.budget.reset()
        try:
            return fn()
        except (RulebookError, TypeError, KeyError, IndexError, ValueError, AttributeError,
                RecursionError, ChanceNeeded):
            damaged(field, "is a decision the rules cannot work out who makes")


# each kind of event: its shapes, as (the parts it has, the parts it may have)
_EVENTS = {"reveal": (({"event", "zone", "cards", "text"}, {"pieces", "to"}),
                      ({"event", "zone", "count", "players", "text"}, set()),
                      ({"event", "choice", "players", "text"}, {"to"})),
           "grant": (({"event", "permission", "player", "text"}, set()),),
           "spend": (({"event", "permission", "player", "text"}, set()),),
           "announce": (({"event", "text"}, {"to"}),)}


def _binds(stmt):
    """The local name a statement binds in its block's locals, or None."""
    if isinstance(stmt, Let):
        return stmt.name
    if isinstance(stmt, (Choose, EachChooses)):
        return stmt.spec.name
    return None


def _plain_value(v, depth: int) -> bool:
    """Whether `v` is a value the rules can make: none, yes/no, a whole
    number, a word, or a list of them, nested no deeper than MAX_DEPTH."""
    t = type(v)
    if v is None or t is bool:
        return True
    if t is int:
        return -BIG < v < BIG
    if t is str:
        return len(v) <= MAX_TEXT
    return t is list and depth < MAX_DEPTH and all(_plain_value(x, depth + 1) for x in v)
