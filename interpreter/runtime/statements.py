"""Compiled statements and the resumable machine that runs them.

The flow (setup, phases), action bodies and every nested block compile to
`Block`s of statement objects. The position in the flow is a stack of frames
``[block id, next step, local names, loop data]`` kept in the state, so a
game can stop at any decision and resume from a saved file. `Machine.run`
executes statements until a choice needs a player (the state's ``pending``
players) or the game ends; the statements that stop for a decision are in
`decisions`. Each run is bounded: a rulebook that loops without asking
anybody anything stops with ``rule/loop``. In a game whose draws are chance
nodes (`State.chance`), `run_chance` also stops before a draw no chance
outcome has decided (runtime/chance.py).
"""

from __future__ import annotations

from ..errors import FORMULA_ERRORS, RuleError, RuleLoop, Span, as_rule_error, span_at
from . import chance as chance_nodes
from .chance import CHANCE, ChanceNeeded
from ..language.layout import Layout
from ..stdlib.types import ANY, BOOL, NUMBER, PLAYER, SYMBOL, comp_type, list_of

MAX_STEPS = 200_000      # statements one decision may run before rule/loop
_FAILURES = (RuleError,) + FORMULA_ERRORS   # what a statement raises when the rules go wrong


class Block:
    """Statements run in order; `end` decides what happens after the last
    one (pop, loop again, next phase); `scope` maps local names to types."""

    __slots__ = ("id", "stmts", "end", "scope", "fast")

    def __init__(self, id_, stmts, end):
        self.id, self.stmts, self.end, self.scope = id_, stmts, end, {}
        # pc -> (function, pc after, statements) where a compiled run of
        # statements that never stop starts (compiler/pyblocks.py), else None
        self.fast = None


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
        self.quiet = False             # a search's playout: nobody hears announcements
        self.action_counts: dict = {}       # action name -> times taken, when measuring
        # the file name of each compiled run of statements -> its lines' sids
        self.lines: dict = {}
        # block id -> its compiled runs that do not draw (see `chance_runs`)
        self._chance_runs: list | None = None
        self._chance_flows: list | None = None      # (see `chance_flows`)
        # block id -> the function that goes on with a frame of the block
        # (compiler/pyflow.py), or None: stepped through one statement at a time
        self.flows: list | None = None
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
        except _FAILURES as e:
            raise self._failure(e, stmt) from None
        self.count_steps(len(stmts), stmts)

    def count_steps(self, k: int, stmts) -> None:
        self.steps += k
        if self.steps > MAX_STEPS:
            raise self._looping(stmts[-1])

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
                    raise self._looping(stmt)
        except _FAILURES as e:
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
        if s.chance is not None:
            self.run_chance(s)
            return
        # each block's own function (compiler/pyflow.py) goes on with its
        # frame, or, measuring coverage, the statements one at a time; the
        # machine goes on with whichever frame is then on top
        flows = self.flows if self.coverage is None else None
        frames = s.frames
        self.steps = steps = 0
        try:
            while frames:
                f = frames[-1]
                if (step_frame if flows is None else flows[f[0]])(self, s, f):
                    return
                steps += 1
                if steps > MAX_STEPS:
                    raise self._looping_in(f[0])
        except _FAILURES as e:
            raise self._failure(e, None) from None
        self.end_game(s)

    def step(self, s, f) -> bool:
        """Goes on with frame `f` one statement at a time (its compiled runs
        at once, unless coverage is measured: then every statement counts)
        until a decision stops the game there (True) or another frame is on
        top (False): a block whose function could not be written, a frame
        that stands inside a run (see compiler/pyflow.py), any block while
        coverage is measured."""
        frames = s.frames
        block = self.blocks[f[0]]
        stmts, coverage = block.stmts, self.coverage
        fast = block.fast if coverage is None else None
        stmt = None
        try:
            while True:
                pc = f[1]
                if pc >= len(stmts):
                    block.end(self, s, f)
                else:
                    stmt = stmts[pc]
                    if coverage is not None:
                        coverage[stmt.sid] += 1
                    run = fast[pc] if fast is not None else None
                    if run is not None:
                        f[1] = run[1]
                        run[0](self, s, f)
                    else:
                        f[1] = pc + 1
                        if stmt.run(self, s, f):
                            f[1] = pc
                            return True
                self.steps += 1
                if self.steps > MAX_STEPS:
                    raise self._looping(stmt) if stmt is not None else self._looping_in(f[0])
                if not frames or frames[-1] is not f:
                    return False
        except _FAILURES as e:
            raise self._failure(e, stmt) from None

    def _looping_in(self, bid: int) -> RuleLoop:
        """`_looping` at the last statement of a block (of the rules, for an
        empty one)."""
        stmts = self.blocks[bid].stmts or self.stmts
        return self._looping(stmts[-1])

    def _looping(self, stmt) -> RuleLoop:
        """The error of a step that ran more than MAX_STEPS statements."""
        return RuleLoop(f"more than {MAX_STEPS} steps without a decision: the rules loop",
                        self.span(stmt.at), hint="check loops and 'go to' for a way out")

    def run_chance(self, s) -> None:
        """`run` for a game in chance mode: the same statements, except that
        a draw no chance outcome has decided stops the machine before its
        statement, at a chance node (`s.pending` is `(CHANCE,)`, the node in
        `s.chance.node`); a node of one outcome is taken at once. The
        statement runs again from its start once an outcome is decided
        (runtime/chance.py), so the compiled runs that draw are stepped
        through one statement at a time: a statement stopped at a draw has
        changed nothing. A block in which nothing can draw goes on in its
        compiled function (`chance_flows`), as outside chance mode."""
        frames, blocks, chance, lay = s.frames, self.blocks, s.chance, self.lay
        runs = self.chance_runs()
        flows = self.chance_flows() if self.coverage is None else None
        steps = self.steps = 0
        stmt = None
        coverage = self.coverage
        try:
            while frames:
                f = frames[-1]
                if flows is not None and flows[f[0]] is not None:
                    if flows[f[0]](self, s, f):
                        chance.draws = []
                        return
                    steps += 1
                    if steps > MAX_STEPS:
                        raise self._looping_in(f[0])
                    continue
                block = blocks[f[0]]
                stmts = block.stmts
                pc = f[1]
                chance.at = 0
                try:
                    if pc >= len(stmts):
                        block.end(self, s, f)     # ('repeat until' may draw there)
                    else:
                        stmt = stmts[pc]
                        fast = runs[block.id]
                        if coverage is not None:
                            coverage[stmt.sid] += 1
                        elif fast is not None and fast[pc] is not None:
                            fast = fast[pc]           # a compiled run that does not draw
                            fast[0](self, s, f)
                            f[1] = fast[1]
                            steps += fast[2]
                            continue
                        f[1] = pc + 1
                        if stmt.run(self, s, f):
                            f[1] = pc
                            chance.draws = []     # (its player's draws are taken)
                            return
                        steps += 1
                except ChanceNeeded as need:
                    f[1] = pc
                    if coverage is not None and pc < len(stmts):
                        coverage[stmt.sid] -= 1       # counted when it runs through
                    outcomes = chance_nodes.node(lay, s, need)
                    if len(outcomes) > 1:
                        chance.node = outcomes
                        s.pending = (CHANCE,)
                        return
                    chance_nodes.decide(chance, outcomes[0][3])
                    continue
                if chance.draws:
                    chance.draws = []
                if steps > MAX_STEPS:
                    raise self._looping(stmt)
        except _FAILURES as e:
            raise self._failure(e, stmt) from None
        self.end_game(s)

    def chance_runs(self) -> list:
        """Per block, its compiled runs (`Block.fast`) but those that draw:
        the ones `run_chance` may call."""
        runs = self._chance_runs
        if runs is None:
            runs = []
            for b in self.blocks:
                if b.fast is None:
                    runs.append(None)
                    continue
                runs.append([None if r is None or any(map(self._draws, b.stmts[pc:r[1]])) else r
                             for pc, r in enumerate(b.fast)])
            self._chance_runs = runs
        return runs

    def chance_flows(self) -> list:
        """Per block, its function (`flows`) where nothing the block runs
        can draw: none of its statements, nor the statement whose block it
        is (whose condition a `repeat until` tests at the block's end), else
        None. Such a block never stops at a chance node."""
        found = self._chance_flows
        if found is None:
            found = [None] * len(self.blocks)
            if self.flows is not None:
                owner: dict = {}
                for x in self.stmts:
                    for bid in _blocks_of(x):
                        owner[bid] = x
                for b in self.blocks:
                    x = owner.get(b.id)
                    if b.stmts and not any(map(self._draws, b.stmts)) and not (
                            x is not None and x.chance):
                        found[b.id] = self.flows[b.id]
            self._chance_flows = found
        return found

    def _draws(self, x) -> bool:
        """Whether a statement, or one of the blocks it runs, may draw."""
        return x.chance or any(self._draws(y) for b in _blocks_of(x) for y in self.blocks[b].stmts)

    def _failure(self, e, stmt) -> RuleError:
        """The rule error to report for an exception raised by `stmt`, or
        by the statement of a compiled run whose line it was raised at."""
        if self.lines:
            sid = self._compiled_statement(e)
            if sid is not None:
                stmt = self.stmts[sid]
        return as_rule_error(e, self.span(stmt.at) if stmt is not None else None)

    def _compiled_statement(self, e):
        """The sid of the innermost compiled statement an exception passed."""
        found, tb = None, e.__traceback__
        while tb is not None:
            lines = self.lines.get(tb.tb_frame.f_code.co_filename)
            if lines is not None and tb.tb_lineno - 1 < len(lines):
                found = lines[tb.tb_lineno - 1] if lines[tb.tb_lineno - 1] is not None else found
            tb = tb.tb_next
        return found

    def current_choice(self, s):
        f = s.frames[-1]
        return self.blocks[f[0]].stmts[f[1]], f


def _blocks_of(x) -> list:
    """The blocks a statement runs (its branches, its loop's body)."""
    if type(x) is If:
        return [x.then] + ([x.otherwise] if x.otherwise is not None else [])
    if type(x) in (ForEach, RepeatTimes, RepeatUntil, Turn):
        return [x.body]
    return []


# -- block ends ---------------------------------------------------------------

def end_pop(m, s, f):
    s.frames.pop()


def step_frame(m, s, f) -> bool:
    """`Machine.step`, as a block's resuming function (compiler/pyflow.py)."""
    return m.step(s, f)


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


def move_value(m, s, value, dest: int) -> None:
    """'move WHAT to ZONE' of a value: a piece, none, or a list of them."""
    move_components(m, s, (value,) if value.__class__ is int else _flatten(value), dest)


def move_components(m, s, cids, dest: int) -> None:
    if s.shared:
        s.own_board()
    loc, revealed = s.loc, s.revealed
    target = s.zone_to_change(dest)
    low, high = m.zone_range[dest]
    for c in cids:
        if not (isinstance(c, int) and low <= c < high):
            slot = m.lay.zone_list[dest][0]
            shown = m.lay.display[c] if isinstance(c, int) and 0 <= c < len(loc) else repr(c)
            raise RuleError(f"cannot put {shown} into zone '{slot.name}', which holds {slot.of}",
                            hint="a zone holds components of the type it is declared with")
        where = loc[c]
        if where >= 0:
            s.zone_to_change(where).remove(c)
        target.append(c)
        loc[c] = dest
        revealed[c] = 0


class Move(Stmt):
    __slots__ = ("what", "to")

    def __init__(self, at, what, to):
        self.at, self.what, self.to = at, what, to

    def run(self, m, s, f):
        env = f[2]
        move_value(m, s, self.what(s, env), self.to(s, env))


class Deal(Stmt):
    """'deal N from ZONE to …' and 'move N of ZONE [where …] to …': the top N
    of the pieces `source` gives (a zone's, or those of it that pass), as a
    deal by hand takes them; all of them when fewer are there."""

    __slots__ = ("count", "source", "to")

    def __init__(self, at, count, source, to):
        self.at, self.count, self.source, self.to = at, count, source, to

    def run(self, m, s, f):
        env = f[2]
        k = self.count(s, env)
        move_components(m, s, top(self.source(s, env), k), self.to(s, env))


def top(zone: list, k: int) -> list:
    """What a deal of k takes from a zone: its last k pieces (the top of an
    ordered zone is last), the topmost first; all of them when it holds fewer."""
    return zone[max(0, len(zone) - k):][::-1] if k > 0 else []


class Shuffle(Stmt):
    __slots__ = ("zone",)

    def __init__(self, at, zone):
        self.at, self.zone = at, zone

    def run(self, m, s, f):
        if s.shared:
            s.own_board()
        zone = self.zone(s, f[2])
        if s.chance is None:
            s.shuffle(s.zone_to_change(zone))
        else:                   # decided card by card at chance nodes (runtime/chance.py)
            s.zone_to_change(zone)[:] = s.chance.order(s.zones[zone], zone)


class Reveal(Stmt):
    """'reveal WHAT [to WHO]': the pieces are shown where they lie, to
    everybody or to the players WHO names (a player or a list of them), until
    each moves. Told as one event per zone: to everybody, or to each player
    shown, with the cards, and to everybody how many were shown in which zone,
    and to whom (as at the table: a hand handed over is seen)."""

    __slots__ = ("what", "to")

    def __init__(self, at, what, to=None):
        self.at, self.what, self.to = at, what, to

    def run(self, m, s, f):
        if s.shared:
            s.own_board()
        lay = m.lay
        env = f[2]
        seats, mask = self.shown(s, env)
        by_zone: dict = {}
        for c in _flatten(self.what(s, env)):
            s.revealed[c] |= mask
            by_zone.setdefault(lay.place_name(s.loc[c]), []).append(c)
        for where, pieces in by_zone.items():
            cards = sorted(lay.display[c] for c in pieces)
            ids = sorted(set(pieces))
            # the ids are the engine's (the log's hindsight); views leave them out
            if seats is None:
                s.events.append({"event": "reveal", "zone": where, "cards": cards,
                                 "text": f"revealed in {where}: {' '.join(cards)}",
                                 "pieces": ids})
                continue
            if not seats:
                continue
            whom = ", ".join(f"P{p}" for p in seats)
            for p in seats:
                s.events.append({"event": "reveal", "zone": where, "cards": cards,
                                 "text": f"revealed to {whom} in {where}: {' '.join(cards)}",
                                 "pieces": ids, "to": p})
            many = f"{len(ids)} piece" + ("s" if len(ids) != 1 else "")
            s.events.append({"event": "reveal", "zone": where, "count": len(ids),
                             "players": list(seats),
                             "text": f"revealed to {whom} in {where}: {many}"})

    def shown(self, s, env) -> tuple:
        """(the seats shown, or None: everybody; those seats as bits)."""
        if self.to is None:
            return None, s.everyone
        seats = shown_to(self.to(s, env), s.n)
        return seats, sum(1 << p for p in seats)


def shown_to(v, n: int) -> list:
    """The seats a `reveal … to WHO` names: a player, or a list of players
    (each once, in seat order); anything else is a rule error at the reveal."""
    seats = v if isinstance(v, list) else [v]
    for p in seats:
        if not (type(p) is int and 0 <= p < n):
            what = f"P{p}" if type(p) is int else "none" if p is None else repr(p)
            raise RuleError(f"cannot reveal to {what}: this game's players are P0 to P{n - 1}",
                            hint="reveal to a player or a list of players: 'to me', "
                                 "'to [p, q]', 'to players'")
    return sorted(set(seats))


class RevealPicks(Reveal):
    """'reveal NAME [to WHO]' of the picks of an `each … chooses`: every
    player's pick is told to everybody (or to the players WHO names), as one
    event that names the players whose picks it shows, and picked pieces are
    revealed where they lie. The log then shows those picks in full to whom
    they were told (runtime/hindsight.py)."""

    __slots__ = ("name", "tell", "pieces")

    def __init__(self, at, name, tell, pieces, to=None):
        self.at, self.what, self.name, self.tell, self.pieces = at, None, name, tell, pieces
        self.to = to

    def run(self, m, s, f):
        env = f[2]
        picks = env.get(self.name)
        if not isinstance(picks, list):
            return
        seats, mask = self.shown(s, env)
        shown = [(p, v) for p, v in enumerate(picks) if v is not None]
        if self.pieces and shown:
            if s.shared:
                s.own_board()
            for _, v in shown:
                for c in _flatten(v):
                    s.revealed[c] |= mask
        if shown:
            told = ", ".join(f"P{p} {self.tell(v)}" for p, v in shown)
            event = {"event": "reveal", "choice": self.name,
                     "players": [p for p, _ in shown],
                     "text": f"revealed {self.name}: {told}"}
            if seats is None:
                s.events.append(event)
            for p in seats or ():
                s.events.append({**event, "players": list(event["players"]), "to": p,
                                 "text": f"revealed {self.name} to "
                                         f"{', '.join(f'P{q}' for q in seats)}: {told}"})


def seat_check(n: int):
    """value -> value, for a `set` of something that holds a player: a seat
    of this game or none, else a rule error (at the `set`, which the machine
    adds) — never a game that runs on with a player who is not there."""
    def checked(v):
        if v is None or (type(v) is int and 0 <= v < n):
            return v
        what = f"P{v}" if type(v) is int else ("yes" if v is True else "no" if v is False
                                                 else repr(v))
        raise RuleError(f"{what} is not a player of this game (P0 to P{n - 1})",
                        hint="a player is a seat from 0 to the number of players - 1, or "
                             "none: compute it with players[…], next_player(…) or random(players)")
    return checked


def kind_check(kind: str, lay: Layout):
    """value -> value, for a `set` (or a starting value) of a slot declared
    of `kind`: a value of that kind or none, else a rule error at the `set`
    — never a state that its own save could not hold. A player is a seat
    (`seat_check`); None for a kind that holds anything (any, a list)."""
    if kind == PLAYER:
        return seat_check(lay.n)
    if kind.startswith("comp:") and kind[5:] in lay.types:
        first, count = lay.types[kind[5:]]
        end = first + count

        def piece(v):
            if v is None or (type(v) is int and first <= v < end):
                return v
            raise _not_of_kind(v, f"a {kind[5:]}", lay)
        return piece
    plain = {NUMBER: (int, "a number"), BOOL: (bool, "yes or no"), SYMBOL: (str, "a word")}
    if kind not in plain:
        return None
    want, words = plain[kind]

    def plain_value(v):
        if v is None or type(v) is want:
            return v
        raise _not_of_kind(v, words, lay)
    return plain_value


def _not_of_kind(v, words: str, lay: Layout) -> RuleError:
    if type(v) is int and 0 <= v < lay.ncomponents and words.startswith("a ") \
            and words[2:] in lay.types:
        shown = f"{lay.display[v]} (a {lay.type_of[v]})"
    elif v is True or v is False:
        shown = "yes" if v else "no"
    else:
        shown = "a list" if isinstance(v, list) else repr(v)
    return RuleError(f"{shown} is not {words}, the kind this holds",
                     hint="a value of kind any (a variable, a define's parameter) may hold "
                          "anything: set the slot only to values of its kind")


class SetSlot(Stmt):
    """'set TARGET = VALUE', or 'add VALUE to TARGET' (`add`). `check`
    refuses a value not of the slot's kind (`kind_check`: a seat for a slot
    that holds a player), or for `add` the sum past the compiler's bound."""

    __slots__ = ("slot", "value", "add", "check")

    def __init__(self, at, slot, value, add, check=None):
        self.at, self.slot, self.value, self.add = at, slot, value, add
        self.check = check

    def run(self, m, s, f):
        env = f[2]
        v = self.value(s, env)
        if self.check is not None and not self.add:
            v = self.check(v)
        i = self.slot(s, env)
        if self.add:
            v = s.vars[i] + v
            s.vars[i] = v if self.check is None else self.check(v)
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


class Announce(Stmt):
    """'announce "TEXT" [to P]': an event of the transition, its text made
    of literal pieces and of the values of its placeholders; told to P alone
    when it names P (the views show it to P only)."""

    __slots__ = ("pieces", "to", "tellers")

    def __init__(self, at, pieces, to, tellers=None):
        self.at, self.pieces, self.to = at, pieces, to
        self.tellers = tellers   # per piece: None (text) or value -> text, for a compiler

    def run(self, m, s, f):
        if m.quiet:
            return
        env = f[2]
        text = "".join(p if type(p) is str else p(s, env) for p in self.pieces)
        event = {"event": "announce", "text": text}
        if self.to is not None:
            event["to"] = self.to(s, env)
        s.events.append(event)


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
        s.ended = (self.at[0], self.at[1])   # which end it was, for reports
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


class Do(Stmt):
    """'do NAME(ARGS)': the procedure's steps, in a frame of their own whose
    locals are its parameters (each argument of its declared kind); back
    after the 'do' when they end. A decision among them waits there, as
    anywhere."""

    __slots__ = ("body", "params", "args", "checks")

    def __init__(self, at, body, params, args, checks):
        self.at, self.body, self.params, self.args, self.checks = at, body, params, args, checks

    def run(self, m, s, f):
        env = f[2]
        local = {}
        for name, arg, check in zip(self.params, self.args, self.checks):
            v = arg(s, env)
            if check is not None:
                v = check(v)
            local[name] = list(v) if isinstance(v, list) else v
        s.frames.append([self.body, 0, local, None])


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
    end.cond = cond         # (written out by compiler/pyflow.py)
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
                except _FAILURES as e:
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
        if type(p) is not int or not 0 <= p < s.n:
            no_turn(p, s.n)
        lay = m.lay
        previous = s.vars[lay.slot_current]
        s.vars[lay.slot_current] = p
        s.turn += 1
        for base, count in self.resets:
            s.vars[base:base + count] = [0] * count
        s.frames.append([self.body, 0, dict(f[2]), previous])


def no_turn(p, n: int):
    """Raises the error of a turn for a player who is no seat."""
    raise RuleError(f"the player whose turn it is is {'none' if p is None else repr(p)}, "
                    f"not a player of this game (P0 to P{n - 1})",
                    hint="a formula for a player can give none (a tie of majority, an "
                         "unset variable) or a number past the last seat")


class Rotate(Stmt):
    """'rotate ZONE by K': every player's ZONE goes K seats to the left at once."""

    __slots__ = ("base", "by")

    def __init__(self, at, base, by):
        self.at, self.base, self.by = at, base, by

    def run(self, m, s, f):
        s.own_board(every_zone=True)       # (zones change places: each its own first)
        n, base = s.n, self.base
        k = self.by(s, f[2]) % n
        old = s.zones[base:base + n]
        for p in range(n):
            dest = base + (p + k) % n
            s.zones[dest] = old[p]
            for c in old[p]:
                s.loc[c] = dest


# statements that never suspend and push no frame
_PLAIN = (Move, Deal, Shuffle, Reveal, RevealPicks, SetSlot, Let, NewRound, Requires, Rotate, Announce)


__all__ = ["Machine", "ANY", "comp_type", "list_of"]
