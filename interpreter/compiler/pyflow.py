"""Compile each block of the flow to one Python function that resumes it.

The machine keeps where a game stands as frames (block, position, locals,
loop data; runtime/statements.py), so that it can stop at any decision and
go on from there. Stepping through a block one statement object at a time
costs a turn of the machine's loop for every statement. This module writes
every block as a function ``bN(m, s, f)`` that goes on with frame `f` from
its position to the block's end:

- a compiled run of statements (compiler/pyblocks.py) is one call;
- a statement that opens a block (a turn, a repeat, a 'for each', an 'if'
  whose blocks stop for decisions) pushes its frame as it always did, and
  the function calls that block's function at once, instead of going back
  to the machine;
- a decision records its position and returns True: the game waits there;
- the block's end pops its frame (or starts the next pass of a loop)
  written out, and the function returns False when another frame is on top,
  so the machine goes on with it.

Each position of a block is an entry: a function begins where its frame
stands (``if pc <= k``), so a game resumes after a decision, or after a
block that the frame opened, in the same function. The frames at every
decision are those the statements leave one by one: saves, replays, views
and explanations see no difference. A game whose coverage is measured is
stepped statement by statement (`Machine.step`), and so, in chance mode,
is every block in which something can draw (`Machine.chance_flows`).

The generated text follows `pysource`'s rules: every identifier is the
compiler's own, and the statements, blocks and functions it calls are
constants of the module (``kN``). A rule error raised in it is reported at
its statement's line through `Machine.lines`, as for the runs.
"""

from __future__ import annotations

import itertools

from ..runtime import decisions as dc
from ..runtime import statements as st
from .pysource import Module

# statements that push one frame for a block of theirs and suspend never
_OPENS = (st.Turn, st.RepeatUntil, st.RepeatTimes, st.ForEach, st.If, st.Do)
# statements that may stop for a decision and push no frame
_ASKS = (dc.TakeAction, dc.Choose, dc.EachChooses)


class FlowCompiler:
    """Writes the resuming function of every block of a machine."""

    def __init__(self, machine: st.Machine, mod: Module):
        self.m = machine
        self.mod = mod
        self._chunks = itertools.count(1)

    def compile_all(self) -> None:
        m = self.m
        flows: list = [None] * len(m.blocks)
        self._flows = self.mod.constant(flows, "the resuming function of each block")
        for block in m.blocks:
            flows[block.id] = self._function(block) or st.step_frame
        m.flows = flows

    def _function(self, block: st.Block):
        stmts, fast = block.stmts, block.fast or [None] * len(block.stmts)
        if not stmts:
            return None             # (an empty block: the machine steps through it)
        name = self.mod.fresh("b")
        self.lines, self.sids = [], []
        last = stmts[-1].sid
        self.emit(0, f"def {name}(m, s, f):", last)
        self.emit(1, "frames = s.frames", last)
        self.emit(1, "pc = f[1]", last)
        inside = set()          # positions inside a run: none can be resumed at
        k = 0
        while k < len(stmts):
            if fast[k] is not None:
                inside.update(range(k + 1, fast[k][1]))
                k = fast[k][1]
            else:
                k += 1
        if inside:
            self.emit(1, f"if pc in {self.mod.constant(frozenset(inside))}:", last)
            self.emit(2, f"return {self.mod.constant(st.step_frame)}(m, s, f)", last)
        self.emit(1, "while True:", last)
        k = 0
        while k < len(stmts):
            x = stmts[k]
            if fast[k] is not None:
                fn, after, _ = fast[k]
                self.emit(2, f"if pc <= {k}:", x.sid)
                self.emit(3, f"f[1] = {after}", x.sid)
                self.emit(3, f"{self.mod.constant(fn)}(m, s, f)", x.sid)
                k = after
                continue
            self.statement(x, k)
            k += 1
        self.end(block, last)
        filename = f"<rulebook flow {next(self._chunks)}>"
        note = f"the flow of the block at line {stmts[0].at[0]}"
        if not self.mod.added(self.lines, filename, note):
            return None             # the machine steps through it one statement at a time
        self.m.lines[filename] = self.sids
        return self.mod.namespace[name]

    def emit(self, depth: int, text: str, sid) -> None:
        self.lines.append("    " * depth + text)
        self.sids.append(sid)

    def statement(self, x, k: int) -> None:
        sid, me = x.sid, self.mod.constant(x)
        self.emit(2, f"if pc <= {k}:", sid)
        self.emit(3, f"f[1] = {k + 1}", sid)
        kind = type(x)
        if kind is dc.TakeAction and not x.if_able or kind is dc.Choose:
            # the player to decide, who must be a seat (else the statement
            # itself says why); the game waits here
            self.seat(x, "p", x.player, sid)
            self.emit(3, "s.pending = (p,)", sid)
            self.emit(3, f"f[1] = {k}", sid)
            self.emit(3, "return True", sid)
            return
        if kind is st.Turn:
            slot = self.m.lay.slot_current
            self.seat(x, "p", x.player, sid)
            self.emit(3, f"g = [{x.body}, 0, dict(f[2]), s.vars[{slot}]]", sid)
            self.emit(3, f"s.vars[{slot}] = p", sid)
            self.emit(3, "s.turn += 1", sid)
            for base, count in x.resets:
                self.emit(3, f"s.vars[{base}:{base + count}] = [0] * {count}", sid)
            self.enter(sid)
            return
        if kind is st.RepeatUntil:
            self.emit(3, f"if not {self.mod.constant(x.cond)}(s, f[2]):", sid)
            self.emit(4, f"g = [{x.body}, 0, dict(f[2]), None]", sid)
            self.enter(sid, 4)
            return
        if kind is st.If and not x.inline:
            cond = self.mod.constant(x.cond)
            if x.otherwise is None:
                self.emit(3, f"if {cond}(s, f[2]):", sid)
            else:
                self.emit(3, f"g = [{x.then} if {cond}(s, f[2]) else {x.otherwise}, 0, "
                             f"dict(f[2]), None]", sid)
                self.enter(sid)
                return
            self.emit(4, f"g = [{x.then}, 0, dict(f[2]), None]", sid)
            self.enter(sid, 4)
            return
        if isinstance(x, _OPENS):
            # the frame it pushes goes on in its block's function, here and now
            self.emit(3, f"{me}.run(m, s, f)", sid)
            self.emit(3, "if frames[-1] is not f:", sid)
            self.emit(4, "g = frames[-1]", sid)
            self.descend(sid, 4)
            return
        if x.suspends:
            self.emit(3, f"if {me}.run(m, s, f):", sid)
            self.emit(4, f"f[1] = {k}", sid)
            self.emit(4, "return True", sid)
        else:
            self.emit(3, f"{me}.run(m, s, f)", sid)
        if not isinstance(x, _ASKS):        # a jump, the game's end
            self.emit(3, "if not frames or frames[-1] is not f:", sid)
            self.emit(4, "return False", sid)

    def seat(self, x, name: str, player, sid) -> None:
        """`name` = the player a statement names, checked to be a seat as
        the statement checks it, with its error where it is not."""
        n = self.m.lay.n
        self.emit(3, f"{name} = {self.mod.constant(player)}(s, f[2])", sid)
        self.emit(3, f"if {name}.__class__ is not {self.mod.constant(int)} or not "
                     f"0 <= {name} < {n}:", sid)
        if type(x) is st.Turn:
            self.emit(4, f"{self.mod.constant(st.no_turn)}({name}, {n})", sid)
        else:
            what = "takes an action" if type(x) is dc.TakeAction else "chooses"
            self.emit(4, f"{self.mod.constant(dc.seat)}({name}, {n}, {what!r})", sid)

    def enter(self, sid, depth: int = 3) -> None:
        """Pushes the frame `g` and goes on with it in its block's function,
        here and now; back here when the block ends."""
        self.emit(depth, "frames.append(g)", sid)
        self.descend(sid, depth)

    def descend(self, sid, depth: int) -> None:
        """Goes on with the frame `g` on top in its block's function: the
        game waits if it does; back here when its block ends, unless the
        flow jumped or the game ended on the way."""
        self.emit(depth, f"if {self._flows}[g[0]](m, s, g):", sid)
        self.emit(depth + 1, "return True", sid)
        self.emit(depth, "if not frames or frames[-1] is not f:", sid)
        self.emit(depth + 1, "return False", sid)

    def end(self, block: st.Block, sid) -> None:
        """The block's end: its frame popped, or the next pass of its loop."""
        end = block.end
        if end is st.end_pop:
            self.emit(2, "frames.pop()", sid)
            self.emit(2, "return False", sid)
            return
        if end is st.end_turn:
            self.emit(2, "frames.pop()", sid)
            self.emit(2, f"s.vars[{self.m.lay.slot_current}] = f[3]", sid)
            self.emit(2, "return False", sid)
            return
        cond = getattr(end, "cond", None)
        if cond is not None:            # 'repeat until': done, or another pass
            self.emit(2, f"if {self.mod.constant(cond)}(s, f[2]):", sid)
            self.emit(3, "frames.pop()", sid)
            self.emit(3, "return False", sid)
            self.emit(2, "f[1] = 0", sid)
        else:
            self.emit(2, f"{self.mod.constant(end)}(m, s, f)", sid)
            self.emit(2, "if not frames or frames[-1] is not f:", sid)
            self.emit(3, "return False", sid)
        # another pass: it counts towards the machine's limit, as its steps did
        self.emit(2, "pc = f[1]", sid)
        self.emit(2, f"m.steps += {len(block.stmts) + 1}", sid)
        self.emit(2, f"if m.steps > {st.MAX_STEPS}:", sid)
        self.emit(3, f"m.count_steps(0, {self.mod.constant(block.stmts)})", sid)
