"""The generic engine: a `Game` built from a rulebook's IR runs any rulebook.

`Game` is static (the rules, compiled once per player count); `State`
changes. The API follows docs/api.md: `new_game`, `to_move`,
`legal_actions`, `apply`, `outcome`, `view`, `parse_action`, JSON
saves, and in a game started with `chance=True` its chance nodes
(`is_chance`, `chance_outcomes`, `parse_chance`; runtime/chance.py).
`apply` copies the state, binds the chosen option, and lets the machine
run to the next decision; an illegal action raises and leaves the input
untouched.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator, Optional
from pathlib import Path

from ..compiler.compiler import Program, compile_program
from ..language import player_counts
from ..language.limits import MAX_COMPILED
from ..language.checks import walk
from ..language.syntax import room_to_nest
from ..runtime.decisions import Action, EachChooses, Offer, TakeAction
from ..runtime.hindsight import history_texts
from ..runtime.explain import explain, text_key
from ..errors import (GameOver, IllegalAction, NotYourTurn, OptionError, RuleError, RulebookErrors,
                      FORMULA_ERRORS, SaveError, SaveMismatch, UnknownAction, as_rule_error,
                      did_you_mean)
from ..runtime.saved import damaged, shown, state_from_data
from ..runtime.state import State, splitmix64
from ..runtime.chance import CHANCE, Chance, ChanceOutcome, decide
from ..runtime import views
from ..runtime.changes import changes as _changes
from .observation import ObservationSpec, Observer
from .options import checked_options
from .spaces import ActionSpace, build_space

SAVE_FORMAT = "rulebook-save/1"


@dataclass(frozen=True)
class Outcome:
    """The end of a game: a score per player, players best first, winners;
    each player's named parts of the score ({label: value}, the rulebook's
    `part` lines) and tie-break values, and what decided: "score", a
    tie-break step's name, "winners" (the rulebook's own rule), or "tie"
    (nothing told the winners apart from everybody). `lowest_wins`: the
    rulebook's 'lowest score wins', by which the ranking put lower scores first.

    A draw is an end that sets nobody above the others: two players or more
    all level on the score and every tie-break (all of them winners, "tie"),
    or a `winners` rule that named nobody (no winners)."""

    scores: tuple
    ranking: tuple
    winners: tuple
    parts: tuple = ()
    tie_breaks: tuple = ()         # per player, the value of each tie-break step
    steps: tuple = ()              # the tie-break steps' names
    decided_by: Optional[str] = None
    lowest_wins: bool = False

    @property
    def draw(self) -> bool:
        # a player alone is never level with anybody: their game is won
        return (self.decided_by == "tie" and len(self.scores) > 1) or not self.winners

    def to_json(self) -> dict:
        return {"scores": list(self.scores), "ranking": list(self.ranking),
                "winners": list(self.winners), "parts": [dict(p) for p in self.parts],
                "tie_breaks": [list(t) for t in self.tie_breaks],
                "steps": list(self.steps), "decided_by": self.decided_by,
                "lowest_wins": self.lowest_wins, "draw": self.draw}


class Game:
    def __init__(self, ir: dict, options: dict | None = None, path: str | None = None,
                 blame=None):
        self.ir = ir
        self.path = path
        self.name = ir["game"]["title"]
        self.min_players = ir["players"]["min"]
        self.max_players = ir["players"]["max"]
        self.options = checked_options(ir, options or {})
        # where the file lies is not part of the rules: a save loads from any
        # folder; nor the game's words for its counters and its layout, which
        # only the screen reads
        rules = {k: v for k, v in ir.items() if k not in ("file", "called", "layout")}
        with room_to_nest():        # the IR nests as deep as the rulebook
            canon = json.dumps({"ir": _without_spans(rules), "options": self.options},
                               sort_keys=True, separators=(",", ":"))
        self.fingerprint = hashlib.sha256(canon.encode()).hexdigest()[:16]
        # player count -> its program, compiled when first asked for (`program`)
        self._programs: dict[int, Program] = {}
        self._work: player_counts.Work | None = None     # what each program builds
        # errors found while compiling -> pointed at a variant file's changes (load_rulebook's)
        self._blame = blame
        # player count -> the state after the setup's steps that every game shares
        self._openings: dict[int, State] = {}
        # player count -> its fixed action ids and observation layout (game/spaces.py,
        # game/observation.py), made when first asked for
        self._spaces: dict = {}
        self._observers: dict = {}
        self._counters: tuple | None = None

    def __repr__(self) -> str:
        return f"<Game {self.name!r} {self.min_players}-{self.max_players} players>"

    def program(self, n: int) -> Program:
        """The compiled rules of an n-player game, compiled when first asked
        for; a rulebook that fails to compile for n raises RulebookErrors."""
        prog = self._programs.get(n)
        if prog is None:
            prog = self._compile(n)
        return prog

    def _compile(self, n: int) -> Program:
        if not self.min_players <= n <= self.max_players:
            raise OptionError(f"{self.name} is for {self.min_players} to {self.max_players} "
                              f"players, not {n}")
        try:
            with room_to_nest():
                prog = compile_program(self.ir, n, self.options)
        except RulebookErrors as e:
            if self._blame is not None:
                self._blame(e.errors)
            raise
        prog.machine.prepare()
        if self._measuring:
            prog.machine.coverage = [0] * len(prog.machine.stmts)
        self._keep(n, prog)
        return prog

    def _keep(self, n: int, prog: Program) -> None:
        """Keep `prog`, and drop the programs compiled longest ago (with their
        openings, action spaces and observers) while the kept ones build more
        than MAX_COMPILED entries together: one is compiled again when asked
        for. The counts `compile_all` checks fit together (the checks refuse
        a rulebook whose do not); a game measuring coverage keeps them all."""
        if self._work is None:
            self._work = player_counts.Work(self.ir)
        self._programs[n] = prog
        kept = {k: self._work.of(k) for k in self._programs}
        while not self._measuring and len(kept) > 1 and sum(kept.values()) > MAX_COMPILED:
            oldest = next(iter(kept))
            del kept[oldest]
            for cache in (self._programs, self._openings, self._spaces, self._observers):
                cache.pop(oldest, None)

    def compile_all(self) -> None:
        """Compile every player count that `rulebook validate` checks, so
        that the errors found while compiling are reported: both ends of each
        run of counts whose `by players` values read alike, the only thing
        besides the seats and what grows with them that differs from one
        count to another (language/player_counts.py). The others are compiled
        when first played."""
        found: list = []
        for found in self.compiling():
            pass
        if found:
            raise RulebookErrors(found)

    def compiling(self) -> Iterator[list]:
        """`compile_all` one player count at a time, in the order of
        `player_counts.checked`: after each count, the errors of the counts
        compiled so far (each once). A caller may stop between two counts:
        an editor, when the text it checks has changed."""
        errors: dict = {}
        for n in player_counts.checked(self.ir):
            try:
                self.program(n)
            except RulebookErrors as e:
                for err in e.errors:
                    errors[(str(err.span), err.message)] = err
            yield list(errors.values())

    # -- rule coverage -----------------------------------------------------------
    _measuring = False

    def measure_coverage(self) -> None:
        """From now on count how often each statement runs and each action is
        taken (a little slower); `coverage()` reports the counts."""
        self._measuring = True
        for prog in self._programs.values():
            if prog.machine.coverage is None:
                prog.machine.coverage = [0] * len(prog.machine.stmts)

    def coverage(self) -> list:
        """[{kind, context, line, column, count}] for every statement and
        action of the rulebook, merged over the player counts played."""
        rows: dict = {}
        for a in self.ir["actions"]:
            rows[("action", a["name"])] = {"kind": "action", "context": f"action {a['name']}",
                                           "line": a["at"][0], "column": a["at"][1], "count": 0}
        for prog in self._programs.values():
            m = prog.machine
            for sid, (kind, at, context) in enumerate(m.described):
                row = rows.setdefault((at[0], at[1]), {"kind": kind, "context": context,
                                                       "line": at[0], "column": at[1],
                                                       "count": 0})
                if m.coverage is not None:
                    row["count"] += m.coverage[sid]
            for name, count in m.action_counts.items():
                if ("action", name) in rows:      # not 'pass', which is no rule
                    rows[("action", name)]["count"] += count
        return sorted(rows.values(), key=lambda r: (r["line"], r["column"]))

    # -- the game API ----------------------------------------------------------
    def new_game(self, players: int, seed: int = 0, chance: bool = False) -> State:
        """The first state of a game; with `chance`, every draw of the rules
        is a chance node instead (see `chance_outcomes`)."""
        prog = self.program(players)
        rng = splitmix64(int(seed) & ((1 << 64) - 1))[1]
        if prog.machine.coverage is not None:       # measuring: run every statement
            s = self._blank(prog, rng)
            if chance:
                s.chance = Chance()
            prog.machine.start(s)
            return s
        opening = self._openings.get(players)
        if opening is None:
            opening = self._blank(prog, rng)
            prog.machine.opening(opening)
            if opening.rng != rng:                   # never: nothing before it draws
                raise AssertionError("the opening drew from the generator")
            # kept only once it ran: an opening that failed fails every game the same way
            self._openings[players] = opening
        s = opening.copy()
        s.rng = rng
        if chance:
            s.chance = Chance()
        prog.budget.reset()
        prog.machine.run(s)
        return s

    def _blank(self, prog, rng) -> State:
        """A state before the first statement of the setup."""
        prog.budget.reset()       # the variables' defaults are formulas too
        lay, players = prog.lay, prog.n
        s = State(players, [[] for _ in lay.zone_list], [-1] * lay.ncomponents,
                  [None] * lay.nvars, [0] * lay.ncomponents, [], rng)
        for base, times, scope in lay.limits.values():
            s.vars[base:base + players] = [0] * players
        for slot, fn in prog.defaults:
            if fn is not None:
                value = fn(s, {})
                s.vars[slot] = list(value) if isinstance(value, list) else value
        return s

    def to_move(self, state: State) -> tuple:
        return () if state.over else tuple(state.pending)

    def legal_actions(self, state: State, player: int) -> list:
        if state.over or player not in state.pending:
            return []
        return self._bindings(state, player)

    def _bindings(self, state: State, player: int) -> Offer:
        """One player's options (cached on the state)."""
        cache = state.cache
        if cache is None:
            cache = state.cache = {}
        else:
            found = cache.get(player)
            if found is not None:
                return found
        if player == CHANCE:          # chance takes chance outcomes, not actions
            return Offer()
        found = cache[player] = self._listed(self.program(state.n), state, player)
        return found

    def _listed(self, prog: Program, state: State, player: int) -> Offer:
        """One player's options at the decision the state stands at, listed
        now with a budget of their own."""
        m = prog.machine
        f = state.frames[-1]
        stmt = m.blocks[f[0]].stmts[f[1]]
        prog.budget.reset()
        state.memo = {}     # the state holds still while its options are listed
        try:        # as `running_rules`, without a context manager
            found = stmt.options(m, state, f, player)
        except (RuleError,) + FORMULA_ERRORS as e:
            raise _rule_failure(m, stmt.at, e) from None
        finally:
            state.memo = None
        return found if type(found) is Offer else Offer(found)

    def apply(self, state: State, action: Action) -> State:
        cache = state.cache
        offer = cache.get(action.player) if cache and type(action) is Action else None
        # the options listed for this player are the ones it may take (the
        # cache holds only players to move in a game not over)
        binding = _ILLEGAL if offer is None else offer.get(action, _ILLEGAL)
        if binding is _ILLEGAL:
            if type(action) is ChanceOutcome:
                s = state.successor()
                self._chance_step(state, s, action)
                return s
            binding = self._binding(state, action)
        return self._applied(state, action, binding)

    def apply_move(self, state: State, player: int, move: int) -> State:
        """`apply` of the option at place `move` of `legal_actions(state,
        player)`: a move is that index, checked by range and taken by place
        (nothing is looked for, no action is built for a list that had
        none). An index out of range, or not an int, is refused as an
        illegal action (action/illegal), and the state stays as it was."""
        action, binding = self._moved(state, player, move)
        return self._applied(state, action, binding)

    def _applied(self, state: State, action: Action, binding) -> State:
        s = state.successor()      # no events (they belong to one transition)
        frames = s.frames
        self._step(self.program(state.n), s, action, binding)
        cache = state.cache
        if cache and len(state.pending) > 1 and not s.over and len(frames) == len(state.frames):
            g, h = frames[-1], state.frames[-1]
            if g[0] == h[0] and g[1] == h[1]:
                # still the same simultaneous step: a pick changes nothing the
                # others' options depend on, so theirs stay valid
                pending = s.pending
                s.cache = {p: opts for p, opts in cache.items()
                           if p != action.player and p in pending}
        return s

    def _binding(self, state: State, action) -> object:
        """What a legal action binds; raises the error an illegal one earns."""
        if state.over:
            raise GameOver("the game is over; no more actions")
        if not isinstance(action, Action):
            raise IllegalAction(f"not an action: {action!r}")
        player = action.player
        _to_move(state, player)
        binding = self._bindings(state, player).get(action, _ILLEGAL)
        if binding is _ILLEGAL:
            raise IllegalAction(f"'{action}' is not a legal action for P{action.player} now",
                                hint="list the legal actions to see what is allowed")
        return binding

    def _moved(self, state: State, player: int, move) -> tuple:
        """(action, binding) of a player's legal move; raises the error an
        illegal one earns."""
        if state.over:
            raise GameOver("the game is over; no more actions")
        _to_move(state, player)
        offer = self._bindings(state, player)
        if type(move) is not int or not 0 <= move < offer.size:
            places = f"0 to {offer.size - 1}" if offer.size else "none"
            raise IllegalAction(f"{move!r} is not a legal move for {_who(player)} now: a move is "
                                f"the place of an option among its legal actions ({places})",
                                hint="list the legal actions to see what is allowed")
        return offer.taken(move)

    def _step(self, prog: Program, s: State, action: Action, binding) -> None:
        """Takes a legal action in `s`, which becomes the next state: one step
        of the API, with one budget for the binding and the rules after it."""
        m = prog.machine
        f = s.frames[-1]
        stmt = m.blocks[f[0]].stmts[f[1]]
        s.decisions += 1
        s.pending = ()
        prog.budget.reset()
        try:            # as `running_rules`, without a context manager
            stmt.resolve(m, s, f, action, binding)
        except (RuleError,) + FORMULA_ERRORS as e:
            raise _rule_failure(m, stmt.at, e) from None
        m.run(s)

    # -- the search players' fast path ---------------------------------------
    def advance(self, state: State, action: Action) -> None:
        """`apply` for a scratch state of a search player: `state` itself
        becomes the next state, with no copy. The state must be the caller's
        own (a sampled one, or a copy); anything else that holds it sees it
        change. An action `apply` refuses is refused the same way, and the
        state is left as it was."""
        if type(action) is ChanceOutcome:
            if state.shared:
                state.own_board()
            self._chance_step(state, state, action)
            return
        binding = self._binding(state, action)
        self._advance(self.program(state.n), state, action, binding)

    def advance_move(self, state: State, player: int, move: int) -> None:
        """`apply_move` for a scratch state of a search player, in place, as
        `advance` is for `apply`."""
        action, binding = self._moved(state, player, move)
        self._advance(self.program(state.n), state, action, binding)

    def _advance(self, prog: Program, s: State, action: Action, binding) -> None:
        if s.shared:
            s.own_board()
        s.cache = None
        s.events = []
        self._step(prog, s, action, binding)

    def playout(self, state: State, rng, limit: int = 10_000) -> State:
        """A random game from `state` to its end (or `limit` decisions): the
        first player to move picks uniformly among its legal actions, with
        `rng.randrange`, as a loop over `legal_actions` and `apply` would,
        and the same draws give the same game. It runs on one copy of
        `state`, changed in place, and makes only the actions it takes;
        `state` is left as it was. Nobody reads a playout's table talk, so
        its announcements are not made (the state it ends in has no
        `announce` events); everything else is the game the API plays."""
        prog = self.program(state.n)
        s = state.copy(events=False)
        prog.machine.quiet = True
        try:
            self._play_out(prog, s, rng, limit)
        finally:
            prog.machine.quiet = False
        return s

    def _play_out(self, prog: Program, s: State, rng, limit: int) -> None:
        """The loop of `playout`, on a state that is nobody else's: no option
        cache kept, no board to own."""
        steps = 0
        while not s.over and steps < limit:
            player = s.pending[0]
            if player == CHANCE:      # a game in chance mode: chance drawn with `rng` too
                self._chance_step(s, s, _sampled(self._chance_node(s), rng))
                continue
            cache = s.cache         # ('if able' lists the options as it stops)
            offer = cache.get(player) if cache is not None else None
            if offer is None:
                offer = self._listed(prog, s, player)
            action, binding = offer.taken(rng.randrange(offer.size))
            s.cache = None
            s.events = []
            self._step(prog, s, action, binding)
            steps += 1

    # -- chance nodes (a game started with chance=True) -------------------------
    def is_chance(self, state: State) -> bool:
        """Whether chance is to move: a game in chance mode at a draw of the
        rules (`to_move` is then `(CHANCE,)`)."""
        return not state.over and state.pending == _CHANCE_ONLY

    def chance_outcomes(self, state: State, exact: bool = False) -> list:
        """[(ChanceOutcome, probability)] at a chance node, the probabilities
        floats (`Fraction`s with `exact`) that sum to 1; [] elsewhere."""
        return [(o, Fraction(k, total) if exact else k / total)
                for o, k, total, _ in self._chance_node(state)]

    def _chance_node(self, state: State) -> tuple:
        if state.chance is None or not self.is_chance(state):
            return ()
        node = state.chance.node
        if node is None:            # a state read back: the machine finds it again
            prog = self.program(state.n)
            again = state.copy(events=False)
            prog.budget.reset()
            prog.machine.run(again)
            node = state.chance.node = again.chance.node or ()
        return node

    def parse_chance(self, state: State, text: str) -> ChanceOutcome:
        """The chance outcome whose text is `text` (spacing and case aside),
        or the `k`-th of `chance_outcomes` for a number k; else an
        `ActionError` as `parse_action` raises."""
        outcomes = [o for o, _ in self.chance_outcomes(state)]
        if not outcomes:
            raise NotYourTurn("chance is not to move now" + (
                f"; waiting for {', '.join(_who(p) for p in state.pending)}"
                if state.pending and not state.over else ""))
        if not isinstance(text, str):
            raise UnknownAction(f"a chance outcome is typed as text, not {type(text).__name__}")
        wanted = " ".join(text.split()).lower()
        if wanted.isascii() and wanted.isdigit():
            k = int(wanted) if len(wanted) <= 18 else 0
            if 1 <= k <= len(outcomes):
                return outcomes[k - 1]
            raise UnknownAction(f"there is no chance outcome number "
                                f"{shown(wanted.lstrip('0') or '0')}",
                                hint=f"choose 1 to {len(outcomes)}")
        for o in outcomes:
            if " ".join(str(o).split()).lower() == wanted:
                return o
        raise UnknownAction(f"'{shown(text, 80)}' is not a chance outcome now",
                            hint=did_you_mean(text[:_LONGEST_ACTION], [str(o) for o in outcomes])
                            or "chance outcomes: " + ", ".join(str(o) for o in outcomes[:20]))

    def _chance_step(self, state: State, s: State, outcome: ChanceOutcome) -> None:
        """Takes a chance outcome of `state` in `s`, its successor or itself.
        The events of a chance step add to those before it: no player has
        decided in between (docs/api.md)."""
        if state.over:
            raise GameOver("the game is over; no more chance outcomes")
        node = self._chance_node(state)
        if not node:
            raise NotYourTurn("chance is not to move; waiting for "
                              + ", ".join(_who(p) for p in state.pending))
        effect = next((e for o, _, _, e in node if o == outcome), None)
        if effect is None:
            raise IllegalAction(f"'{outcome}' is not a chance outcome now",
                                hint="list them with chance_outcomes(state)")
        if s is not state:
            s.events = [dict(e) for e in state.events]
        s.cache = None
        decide(s.chance, effect)
        s.pending = ()
        prog = self.program(s.n)
        prog.budget.reset()
        prog.machine.run(s)

    @property
    def lowest_wins(self) -> bool:
        """The rulebook says 'lowest score wins': a lower score is better."""
        return self.ir["scoring"].get("lowest_wins", False)

    def scores(self, state: State) -> tuple:
        """The rulebook's score of every player now (also before the end)."""
        prog = self.program(state.n)
        return _each_player(prog, prog.score, state)

    @property
    def has_estimate(self) -> bool:
        """The rulebook declares `estimate = …` in its scoring section."""
        return self.ir["scoring"].get("estimate") is not None

    def estimate(self, state: State) -> tuple:
        """How every player stands now, in the score's units and direction:
        the rulebook's `estimate = …` before the end, where it declares one,
        else the score the end-of-game scoring gives if the game ended now
        (`scores`). A game over has its scores, estimate or not: what a
        player that looks ahead compares is then the real result."""
        prog = self.program(state.n)
        formula = prog.score if prog.estimate is None or state.over else prog.estimate
        return _each_player(prog, formula, state)

    def outcome(self, state: State) -> Outcome | None:
        if not state.over:
            return None
        cache = state.cache          # (a state over changes no more: worked out once)
        found = cache.get(_OUTCOME) if cache is not None else None
        if found is None:
            found = self._outcome(state)
            if state.cache is None:
                state.cache = {}
            state.cache[_OUTCOME] = found
        return found

    def _outcome(self, state: State) -> Outcome:
        prog = self.program(state.n)
        players = range(state.n)
        prog.budget.reset()
        tie_break, score = prog.tie_break, prog.score.fn
        winners = None
        with running_rules(prog.machine, prog.score.at):
            envs = [{"p": p} for p in players]
            scores = tuple([score(state, env) for env in envs])
            values = [tuple([c.fn(state, env) for _, c in tie_break]) for env in envs]
            if prog.winners is not None:
                winners = tuple(sorted(set(_as_list(prog.winners.fn(state, {})))))
            parts = tuple([{label: c.fn(state, env) for label, c in prog.parts} for env in envs]
                          if prog.parts else [{} for _ in players])
        # higher is better in every key: 'lowest score wins' turns the
        # score round; a tie-break step keeps its own most/fewest
        ranked = _neg(scores) if prog.lowest_wins else scores
        if tie_break:
            signs = [sign for sign, _ in tie_break]
            full = [(ranked[p],) + tuple([sign * v for sign, v in zip(signs, values[p])])
                    for p in players]
        else:
            full = [(r,) for r in ranked]
        if winners is None:
            best = max(full)
            winners = tuple([p for p in players if full[p] == best])
        ranking = tuple([k[2] for k in sorted([(p not in winners, _neg(full[p]), p)
                                               for p in players])])
        return Outcome(scores, ranking, winners, parts, tuple(values), tuple(prog.steps),
                       _decided_by(prog, full, winners, ranking), prog.lowest_wins)

    def source_of(self, span) -> str | None:
        """The text of the rulebook file a span points into (this rulebook, a
        variant's base or a data file), or None."""
        if span is None or not span.file:
            return None
        here = Path(self.path).parent if self.path else Path(".")
        for candidate in (Path(span.file), here / Path(span.file).name):
            try:
                return candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
        return None

    def log(self, states: list, actions: list, viewer: int | None,
            changes: bool = False) -> list:
        """The text of each action of a game as `viewer` may read it now, with
        hindsight: a hidden action is shown in full once the table has
        revealed it to the viewer (runtime/hindsight.py). `states[k + 1]` is
        the state `actions[k]` led to, `states[0]` the first. With
        `changes`, each text is followed by what the action changed as the
        viewer saw it then (`Game.changes`): 'take ruby — coins(ruby) P0 0 → 2'."""
        texts = history_texts(states, actions, viewer,
                              lambda k: [] if type(actions[k]) is ChanceOutcome
                              else self._named(states[k], actions[k]))
        if not changes:
            return texts
        seen = [self.view(s, viewer) for s in states[:len(texts) + 1]]
        told = [_changes(seen[k], seen[k + 1]) for k in range(len(texts))]
        return [f"{text} — {' · '.join(lines)}" if lines else text
                for text, lines in zip(texts, told)]

    def _named(self, state: State, action: Action) -> list:
        """The pieces a legal action's arguments stand for in `state`, the
        state it was taken in (none when they are values)."""
        prog = self.program(state.n)
        m = prog.machine
        f = state.frames[-1]
        stmt = m.blocks[f[0]].stmts[f[1]]
        binding = self._binding(state, action)
        prog.budget.reset()
        try:
            if isinstance(stmt, EachChooses):
                spec = stmt.spec
                env = {**f[2], stmt.player_var: action.player}
                values = [(spec, spec.value(state, env, action.args[0]))]
            elif isinstance(stmt, TakeAction) and action.name in stmt.actions_by_name:
                a = stmt.actions_by_name[action.name]
                env = binding if isinstance(binding, dict) else \
                    a.bind(state, action.player, f[2], action.args)
                values = [(spec, env[spec.name]) for spec in a.params]
            else:
                return []
        except (RuleError,) + FORMULA_ERRORS:
            return []
        return [c for spec, v in values if "comp:" in spec.value_type for c in _pieces(v)]

    def view(self, state: State, player: int | None) -> dict:
        self.program(state.n).budget.reset()
        return views.view(self, state, player)

    @property
    def counters(self) -> tuple:
        """The counters the rules use, of 'round' and 'turn' (a `new round`,
        a `turn`, a formula that reads `round`, `turn` or `current`): what a
        screen's header shows of them."""
        if self._counters is None:
            used = set()
            for node in walk(self.ir):
                kind = node.get("node")
                if kind == "new_round":
                    used.add("round")
                elif kind == "turn":
                    used.add("turn")
                elif kind == "name" and node.get("ref") == "constant":
                    used.add({"current": "turn"}.get(node.get("name"), node.get("name")))
            self._counters = tuple(c for c in ("round", "turn") if c in used)
        return self._counters

    def changes(self, before: State, after: State, viewer: int | None) -> list:
        """What changed from `before` to `after` as `viewer` (None: a
        spectator) sees it, in lines of text: pieces gained and lost by zone
        (only how many where the viewer may not look), values that moved
        (runtime/changes.py)."""
        return _changes(self.view(before, viewer), self.view(after, viewer))

    # -- fixed ids and numbers, for learning programs -------------------------------
    def action_space(self, players: int) -> ActionSpace:
        """Every action a game of `players` can ever offer, numbered (see
        game/spaces.py): `size`, `id_of`, `action_of`, `mask`, `text`, `names`."""
        space = self._spaces.get(players)
        if space is None:
            space = self._spaces[players] = build_space(self, players)
        return space

    def observation_spec(self, players: int) -> ObservationSpec:
        """The layout of `observation`: one name per entry (`names`), `size`."""
        return self._observer(players).spec

    def observation(self, state: State, player: int | None) -> list:
        """`player`'s information state as a list of numbers of a fixed length
        (see game/observation.py); `None` is a spectator."""
        return self._observer(state.n).observe(state, player)

    def _observer(self, players: int) -> Observer:
        observer = self._observers.get(players)
        if observer is None:
            observer = self._observers[players] = Observer(self, players)
        return observer

    def parse_action(self, state: State, player: int, text: str) -> Action:
        """The legal action of `player` that `text` names: its number in the
        list of legal actions (1 first, written in ASCII digits) or its text
        form, up to spacing and case. Any other text, of any length and in
        any script, raises an `ActionError` with its code (action/unknown,
        action/illegal or action/not-your-turn), never anything else."""
        actions = self.legal_actions(state, player)
        self.program(state.n).budget.reset()     # explaining a refusal evaluates
        if not isinstance(text, str):
            raise UnknownAction(f"an action is typed as text, not {type(text).__name__}")
        wanted = " ".join(text.split()).lower()
        if wanted.isascii() and wanted.isdigit():
            # compared as text first: int() refuses thousands of digits
            k = int(wanted) if len(wanted) <= 18 else 0
            if 1 <= k <= len(actions):
                return actions[k - 1]
            raise UnknownAction(f"there is no action number {shown(wanted.lstrip('0') or '0')}",
                                hint=f"choose 1 to {len(actions)}" if actions
                                else "nobody can act now")
        if len(wanted) <= _LONGEST_ACTION:
            wanted_key = text_key(wanted)
            for a in actions:
                if text_key(str(a)) == wanted_key:
                    return a
        if state.over or player not in state.pending:
            raise NotYourTurn(f"P{shown(player)} is not to move now"
                              + (f"; waiting for {', '.join(f'P{p}' for p in state.pending)}"
                                 if state.pending and not state.over else ""))
        quoted = shown(text, 80)
        if len(wanted) > _LONGEST_ACTION:
            raise UnknownAction(f"'{quoted}' is too long to be an action "
                                f"({len(text)} characters)",
                                hint="type the number of an action, or its text as listed")
        reason = None
        # a control character is in no action, and a refusal quotes what was
        # typed: longer texts get no finer reason than "not legal"
        if wanted.isprintable() and len(wanted) <= _EXPLAINED:
            try:
                reason = explain(self, state, player, text)
            except (RuleError, RecursionError) + FORMULA_ERRORS:
                pass
        if reason is not None:
            raise reason
        hint = did_you_mean(text, [str(a) for a in actions[:_HINTED]])
        if hint is None and actions:
            names = sorted({a.name for a in actions})
            hint = "legal actions start with: " + ", ".join(names)
        raise UnknownAction(f"'{quoted}' is not a legal action for P{player} now", hint=hint)

    # -- saves -----------------------------------------------------------------
    def state_to_json(self, state: State) -> dict:
        return {"format": SAVE_FORMAT, "rulebook": self.name, "fingerprint": self.fingerprint,
                "state": state.to_data()}

    def state_from_json(self, data) -> State:
        """The state a save (`state_to_json` output, read as JSON) holds, checked
        field by field against this rulebook's program for its player count
        (see `runtime.state.state_from_data`): `SaveMismatch` for a save of
        other rules or options, `SaveError` (save/corrupt) naming the first
        field that no game of these rules can hold. Nothing else is raised."""
        if type(data) is not dict or data.get("format") != SAVE_FORMAT:
            raise SaveError("not a rulebook save file", hint=f"expected format '{SAVE_FORMAT}'")
        for key in data:
            if key not in ("format", "rulebook", "fingerprint", "state"):
                damaged(f"'{shown(key)}'", "is no part of a save")
        if data.get("rulebook") != self.name or data.get("fingerprint") != self.fingerprint:
            raise SaveMismatch(
                f"this save belongs to '{shown(data.get('rulebook'))}' (rules "
                f"{shown(data.get('fingerprint'))}), not to '{self.name}' (rules {self.fingerprint})",
                hint="load it with the same rulebook and options it was saved with")
        raw = data.get("state")
        players = raw.get("players") if type(raw) is dict else None
        if type(players) is not int or not self.min_players <= players <= self.max_players:
            damaged("state.players", f"is not a player count from {self.min_players} "
                                     f"to {self.max_players}")
        return state_from_data(raw, self.program(players))

_ILLEGAL = object()
_CHANCE_ONLY = (CHANCE,)
# characters beyond which a typed text cannot be an action's (its matching and
# its did-you-mean cost grow with the length), and the actions a hint compares
_LONGEST_ACTION = 4000
_EXPLAINED = 500
_HINTED = 2000


_OUTCOME = object()     # the key of a finished game's outcome in its state's cache


def _who(p) -> str:
    return "chance" if p == CHANCE else f"P{p}"


def _to_move(state: State, player) -> None:
    """Raises NotYourTurn unless `player` is to move (a player given as
    anything but a seat number is quoted as it was given)."""
    if player not in state.pending:
        who = _who(player) if type(player) is int else repr(player)
        raise NotYourTurn(f"{who} is not to move; waiting for "
                          + ", ".join(_who(p) for p in state.pending))


def _sampled(node: tuple, rng) -> ChanceOutcome:
    """A chance outcome drawn by its probability with `rng.randrange`."""
    k = rng.randrange(node[0][2])
    for outcome, count, _, _ in node:
        if k < count:
            return outcome
        k -= count
    return node[-1][0]


def _rule_failure(machine, at, error) -> RuleError:
    """The rule error to report for an exception raised by the rules at `at`:
    a rule error gets the span if it has none; a Python error of a formula
    becomes rule/runtime there."""
    return as_rule_error(error, machine.span(at), "the rules failed while evaluating")


class running_rules:
    """Python errors raised by a formula become rule/runtime errors at `at`.
    A plain class, not contextlib: it is entered on every apply."""

    __slots__ = ("machine", "at")

    def __init__(self, machine, at):
        self.machine, self.at = machine, at

    def __enter__(self):
        return self

    def __exit__(self, kind, error, traceback):
        if isinstance(error, (RuleError,) + FORMULA_ERRORS):
            raise _rule_failure(self.machine, self.at, error) from None
        return False


def _each_player(prog, formula, state: State) -> tuple:
    """A scoring formula of `p` (the score, the estimate) for every seat."""
    prog.budget.reset()
    with running_rules(prog.machine, formula.at):
        return tuple(formula.fn(state, {"p": p}) for p in range(state.n))


def _decided_by(prog, full: dict, winners: tuple, ranking: tuple) -> str:
    """What told the winners apart from the best of the others: the score,
    the first tie-break step where they differ, the rulebook's own rule for
    winners, or nothing ("tie": everybody won)."""
    if prog.winners is not None:
        return "winners"
    others = [p for p in ranking if p not in winners]
    if not others:
        return "tie"
    ours, theirs = full[winners[0]], full[others[0]]
    step = next(i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b)
    return "score" if step == 0 else prog.steps[step - 1]


def _pieces(value) -> list:
    """The component ids in a value bound to a choice of pieces (one, a list,
    or groups of them)."""
    if isinstance(value, list):
        return [c for v in value for c in _pieces(v)]
    return [value] if type(value) is int else []


def _as_list(value) -> list:
    if value is None:
        return []
    return list(value) if isinstance(value, (list, tuple)) else [value]


def _neg(t):
    return tuple([-x if isinstance(x, (int, float)) else 0 for x in t])


def _without_spans(node):
    """The IR as the fingerprint reads it: without places in the file, nor
    the labels of actions' parameters, which change only what a player is
    asked (a save stays good when a rulebook words its prompts better), nor
    what a component `shows` or a zone's pieces are labelled by, which
    changes only what the screen lists."""
    if isinstance(node, dict):
        shown_only = ("label",) if node.get("node") in ("param", "zone") else \
            ("shows",) if node.get("node") == "component" else ()
        return {k: _without_spans(v) for k, v in node.items()
                if k != "at" and not k.endswith("_at") and k not in shown_only}
    if isinstance(node, list):
        return [_without_spans(v) for v in node]
    return node
