"""Fixed action ids: every action a rulebook can ever offer, numbered once
for a player count, so that a learning program can name actions by number.

The space is built from the rulebook's declarations, never from games
played. Each decision — an action and its parameters, the `pass` of `may
take an action`, a `chooses`, an `each … chooses` — numbers the options its
choices could ever have, told apart by content as the engine tells them
(runtime/choices.py): `one of` a zone of pieces has one option per class of
the zone's type, `N of` one per sub-multiset of those classes (no more
copies of a class than the pieces it has), `K groups of M`, `K kinds of M`
likewise. A collection, count or `where` test that reads nothing of the
state (a list written out, a component type, a grid, an option, a
parameter's static attribute) is worked out, for every value of the
parameters and players it reads, so `one of [0, 1, 2, 3]` numbers four
values and a parameter that depends on another (`r: one of
orientations(b.cells)`) only those each `b` allows. What stays unknown
falls back on its kind: a cell on the declared grids; a cell of an open grid
(a zone `grid by`) within a Manhattan radius of the cells its pieces hold
after the setup — the radius the number of its pieces could reach, cut
where one decision would pass OPEN_LIMIT ids; a count given by a formula
grows from 0 until the choice would pass GROW_LIMIT options; a number or a
word, one the rulebook could write (`rulebook_numbers`, `rulebook_words`). An action
beyond such a bound is outside the space: `id_of` raises `OutsideSpace`
(action/outside-space) and `mask` leaves it out.

Ids run decision by decision in the rulebook's order (the actions as
declared, then `pass`, then the choices in the order of their statements),
each a product of its parameters' options (the last varying fastest), the
options in a fixed order (class numbers, numbers, cells by x then y, words
alphabetically), so every process gives the same ids.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Mapping
from math import comb, factorial, prod
from types import MappingProxyType

from ..language.optimise import _binders, names_read, reads_no_state
from ..errors import FORMULA_ERRORS, OutsideSpace, RuleError, RulebookError, SpaceTooLarge, span_at
from ..runtime.choices import groups_keys, kinds_keys, many_keys
from ..runtime.decisions import PASS, Action, Choose, EachChooses, Offer, OptionalSpec, TakeAction
from ..stdlib import grid
from ..stdlib.types import BOOL, CELL, NUMBER, PLAYER, SYMBOL, elem, is_comp

GROW_LIMIT = 10_000        # options of a choice whose count is a formula of the state
OPEN_LIMIT = 50_000        # ids of one decision that names cells of an open grid
CHOICE_LIMIT = 200_000     # options of one choice: past it, space/too-large
SPACE_LIMIT = 1_000_000    # ids of a whole space: past it, space/too-large
NO_GRID_RADIUS = 16        # cells chosen where the rulebook declares no grid: around (0,0)
_COMBOS = 4096             # values of the locals a formula is worked out for, at most

OPEN = "open cells"        # a domain of open-grid cells, until the radius is known


class ActionSpace:
    """The numbered actions of one rulebook at one player count (see the
    module's docstring); `game.action_space(players)` makes it once."""

    def __init__(self, game, players: int, parts: list, radius):
        self._game = game
        self.players = players
        self.parts = parts
        self.radius = radius          # of the open grid's cells, or None
        self.size = sum(p.size for p in parts)
        self._offsets = [p.offset for p in parts]
        self._by_name: dict = {}
        for p in parts:
            self._by_name.setdefault(p.name, []).append(p)
        self._names = None

    def __len__(self) -> int:
        return self.size

    def __repr__(self) -> str:
        return f"<ActionSpace {self._game.name!r} players={self.players} size={self.size}>"

    @property
    def blocks(self) -> list:
        """[(decision's name, first id, ids)]: the space decision by decision."""
        out: dict = {}
        for p in self.parts:
            first, size = out.get(p.name, (p.offset, 0))
            out[p.name] = (first, size + p.size)
        return [(name, first, size) for name, (first, size) in out.items()]

    def _find(self, action):
        if not isinstance(action, Action):
            return None
        for part in self._by_name.get(action.name, ()):
            i = part.position(action.args)
            if i is not None:
                return part.offset + i
        return None

    def holds(self, action) -> bool:
        """Whether the space numbers this action."""
        return self._find(action) is not None

    def id_of(self, action) -> int:
        """The id of an action; `OutsideSpace` for one the space does not number."""
        i = self._find(action)
        if i is None:
            raise OutsideSpace(f"'{action}' is outside the action space of {self._game.name} for "
                               f"{self.players} players", hint=self._why(action))
        return i

    def _why(self, action) -> str:
        if not isinstance(action, Action):
            return "only an Action has an id"
        if action.name not in self._by_name:
            return "no decision of the rulebook has that name"
        return ("a value past the space's bound (an open grid's cells within "
                f"{self.radius} of its start, a count that grew past {GROW_LIMIT:,} options)"
                if self.radius is not None else
                f"a value the rulebook's declarations do not offer, or a count that grew past "
                f"{GROW_LIMIT:,} options")

    def action_of(self, i: int, player: int) -> Action:
        """The action of id `i` for `player`: its text is the engine's; `apply`
        refuses it where it is not legal."""
        if type(i) is not int or not 0 <= i < self.size:
            raise OutsideSpace(f"there is no action id {i!r}: ids are 0 to {self.size - 1}")
        part = self.parts[bisect.bisect_right(self._offsets, i) - 1]
        return part.action(i - part.offset, player)

    def text(self, i: int) -> str:
        """The text of action id `i` (as any player's)."""
        return str(self.action_of(i, 0))

    @property
    def names(self) -> list:
        """The text of every id, in order."""
        if self._names is None:
            self._names = [str(a) for part in self.parts for a in part.actions(0)]
        return self._names

    def legal(self, state, player: int) -> Mapping:
        """{id: Action} of `player`'s legal actions in `state` that the space
        holds, read-only: the engine's own actions, which `apply` takes
        without looking for them again (worked out once for the options of a
        state)."""
        return MappingProxyType(self._legal(state, player))

    def _legal(self, state, player: int) -> dict:
        offer = self._game.legal_actions(state, player)
        listed = type(offer) is Offer        # ([] for a player not to move)
        kept = offer.ids if listed else None
        if kept is not None and kept[0] is self:
            return kept[1]
        find = self._find
        out = {}
        for a in offer:
            i = find(a)
            if i is not None:
                out.setdefault(i, a)
        if listed:
            offer.ids = (self, out)
        return out

    def legal_action(self, state, player: int, i: int) -> Action:
        """The action of id `i` for `player` in `state`: the engine's own
        where it is legal (no search when applied), else `action_of`'s,
        which `apply` refuses."""
        found = self._legal(state, player).get(i) if type(i) is int else None
        return found if found is not None else self.action_of(i, player)

    def legal_ids(self, state, player: int) -> list:
        """The ids of `player`'s legal actions in `state` that the space holds, ascending."""
        return sorted(self._legal(state, player))

    def mask(self, state, player: int) -> bytes:
        """One byte per id: 1 for `player`'s legal actions in `state`, else 0."""
        out = bytearray(self.size)
        for i in self._legal(state, player):
            out[i] = 1
        return bytes(out)


class _Part:
    """The options of one decision (or one value of the parameters it
    depends on): the product of its parameters' domains."""

    __slots__ = ("name", "domains", "private", "show", "offset", "size", "_index")

    def __init__(self, name, domains, private, show):
        self.name, self.domains, self.private, self.show = name, domains, private, show
        self.offset = 0
        self.size = 0
        self._index = None

    def count(self, cells: int) -> int:
        return prod(cells if d is OPEN else len(d) for d in self.domains)

    def position(self, args):
        """The position of a tuple of keys in the product, or None."""
        if type(args) is not tuple or len(args) != len(self.domains):
            return None
        index = self._index
        if index is None:
            index = self._index = [{k: i for i, k in enumerate(d)} for d in self.domains]
        i = 0
        try:
            for table, k in zip(index, args):
                pos = table.get(k)
                if pos is None:
                    return None
                i = i * len(table) + pos
        except TypeError:           # an unhashable value is no key
            return None
        return i

    def keys(self, i: int) -> tuple:
        out = []
        for d in reversed(self.domains):
            i, k = divmod(i, len(d))
            out.append(d[k])
        return tuple(reversed(out))

    def action(self, i: int, player: int) -> Action:
        return Action(player, self.name, self.keys(i), self.private, self.show)

    def actions(self, player: int):
        for keys in itertools.product(*self.domains):
            yield Action(player, self.name, keys, self.private, self.show)


def build_space(game, players: int) -> ActionSpace:
    return _Builder(game, players).space()


class _Builder:
    """Works out every decision's domains for one player count."""

    def __init__(self, game, n: int):
        self.game, self.n = game, n
        self.prog = prog = game.program(n)
        self.lay = lay = prog.lay
        self.defines = {d["name"]: d for d in game.ir["defines"]}
        self.cids_of: dict = {}                 # class -> its component ids
        for cid, k in enumerate(lay.ckey):
            self.cids_of.setdefault(k, []).append(cid)
        self.state = self._opening()
        self.players = list(range(n))
        self._numbers = self._words = None
        self.open_zones = [z for z in game.ir["zones"] if z.get("grid")]
        self.bounded = sorted({c for g in lay.grids.values() for c in g.cells})
        self.has_open = bool(self.open_zones) or not lay.grids

    def _opening(self):
        """A state to work formulas out on: they read nothing of it, but the
        cells an open grid starts with are there. (Its setup is not counted
        where the game measures coverage.)"""
        coverage = self.prog.machine.coverage
        counted = list(coverage) if coverage is not None else None
        try:
            return self.game.new_game(self.n, seed=0)
        except RulebookError:
            return self.game._blank(self.prog, 0)
        finally:
            if counted is not None:
                coverage[:] = counted

    # -- the decisions ----------------------------------------------------------
    def space(self) -> ActionSpace:
        parts: list = []
        prog, ir = self.prog, self.game.ir
        action_params: dict = {}
        for a in ir["actions"]:
            act = prog.actions[a["name"]]
            nodes = [p["choice"] for p in a["params"]]
            found = self._action_parts(act, nodes)
            action_params[a["name"]] = (act, found)
            parts += found
        stmts = prog.machine.stmts
        if any(isinstance(s, TakeAction) and s.optional for s in stmts):
            parts.append(_Part(PASS, [], False, None))
        choices = self._choice_nodes(ir)
        for s in stmts:
            if isinstance(s, (Choose, EachChooses)):
                node, action = choices.get(tuple(s.at), (None, None))
                known = {"me": (PLAYER, self.players)} if action is not None else {}
                if action is not None:
                    known.update(self._param_values(*action_params[action]))
                if isinstance(s, EachChooses):
                    known[s.player_var] = (PLAYER, self.players)
                dom = self._domain(s.spec, node, known)
                parts.append(_Part(s.spec.name, [dom], isinstance(s, EachChooses), s.spec.show))
        parts = _without_repeats(parts)
        radius = self._radius(parts) if any(OPEN in p.domains for p in parts) else None
        if radius is not None:
            cells = self._cells(radius)
            for p in parts:
                p.domains = [cells if d is OPEN else d for d in p.domains]
        offset = 0
        for p in parts:
            p.offset, p.size = offset, p.count(0)
            offset += p.size
        if offset > SPACE_LIMIT:
            raise SpaceTooLarge(f"the action space of {self.game.name} for {self.n} players "
                                f"would number {offset:,} actions, more than {SPACE_LIMIT:,}")
        return ActionSpace(self.game, self.n, [p for p in parts if p.size], radius)

    def _choice_nodes(self, ir) -> dict:
        """at -> (the IR choice of a `chooses` statement, its action or None)."""
        out: dict = {}

        def walk(node, action):
            if isinstance(node, dict):
                if node.get("node") in ("choose", "each_chooses"):
                    key = tuple(node["at"])
                    out[key] = (node["choice"], action) if key not in out else (None, None)
                for v in node.values():
                    walk(v, action)
            elif isinstance(node, list):
                for v in node:
                    walk(v, action)
        for part in ("setup", "phases", "procedures"):
            walk(ir.get(part), None)
        for a in ir["actions"]:
            walk(a.get("body"), a["name"])
        return out

    def _action_parts(self, act, nodes) -> list:
        """The parts of an action: one product, or one per value of the
        parameters that later parameters' options depend on."""
        partials = [[]]
        params = act.params
        for i, spec in enumerate(params):
            node = nodes[i]
            earlier = {params[j].name: j for j in range(i)}
            base = {"me": (PLAYER, self.players)}
            read = self._reads(spec, node, set(base) | set(earlier))
            deps = sorted({earlier[name] for name in read if name in earlier})
            expanded = []
            for doms in partials:
                if deps and all(doms[j] is not OPEN for j in deps) and \
                        prod(len(doms[j]) for j in deps) <= _COMBOS:
                    for combo in itertools.product(*(doms[j] for j in deps)):
                        known = dict(base)
                        fixed = list(doms)
                        for j, k in zip(deps, combo):
                            fixed[j] = (k,)
                            t = params[j].value_type
                            known[params[j].name] = (t, [self._value(k, t)])
                        expanded.append(fixed + [self._domain(spec, node, known)])
                else:
                    expanded.append(doms + [self._domain(spec, node, base)])
            partials = expanded
        return [_Part(act.name, doms, act.private, act.show) for doms in partials]

    def _param_values(self, act, parts) -> dict:
        """name -> representative values of each of an action's parameters,
        for a `chooses` in its body that reads them."""
        out = {}
        for i, spec in enumerate(act.params):
            keys: dict = {}
            for p in parts:
                d = p.domains[i]
                if d is OPEN:
                    break
                keys.update(dict.fromkeys(d))
            else:
                if len(keys) <= _COMBOS:
                    t = spec.value_type
                    out[spec.name] = (t, [self._value(k, t) for k in keys])
        return out

    def _reads(self, spec, node, known) -> set:
        """The local names read by the parts of a choice that can be worked
        out when `known` names are known."""
        out = set()
        if node is None:
            return out
        for part in self._parts(spec, node):
            free = _free_locals(part) - {spec.name}
            if self._static(part) and free <= known:
                out |= free
        return out

    def _parts(self, spec, node) -> list:
        parts = [node["source"]] + [node[k] for k in ("count", "groups", "size", "kinds")
                                    if node.get(k) is not None]
        if node.get("where") is not None:
            parts += _conjuncts(node["where"])
        return parts

    # -- one choice's options ---------------------------------------------------
    def _domain(self, spec, node, known):
        """The keys of every option a choice can have (a tuple), or OPEN;
        none last for one 'or none'."""
        keys = self._domain_of(spec, node, known)
        if keys is not OPEN and isinstance(spec, OptionalSpec):
            return keys + (None,)
        return keys

    def _domain_of(self, spec, node, known):
        item = {"one": spec.value_type, "groups": elem(elem(spec.value_type))}.get(
            spec.kind, elem(spec.value_type))
        values = self._worked_out(spec.source, node["source"], known) if node else None
        if spec.kind == "one":
            if values is not None:
                keys = _unique(spec.key(v) for vs in values for v in _items(vs))
            else:
                keys = self._collection(node["source"], item, known) if node else \
                    self._kind_domain(item)
                if keys is OPEN:
                    return OPEN
            if node is None or node.get("where") is None:
                return _ordered(keys)
            return self._kept(spec.name, spec.value_type, node["where"], known, keys)
        if values is not None:
            mults: dict = {}
            for vs in values:
                counts: dict = {}
                for v in _items(vs):
                    k = spec.key(v)
                    counts[k] = counts.get(k, 0) + 1
                for k, c in counts.items():
                    mults[k] = max(mults.get(k, 0), c)
        else:
            classes = self._kind_domain(item)
            if classes is OPEN:
                classes = tuple(self._cells(1))
            distinct = node is not None and is_comp(item) and self._distinct(node["source"])
            mults = {k: (len(self.cids_of[k]) if distinct else None) for k in classes}
        if spec.kind == "many":
            counts = self._worked_out(spec.count, node["count"], known) if node else None
            return self._many(spec, mults, counts, item)
        pairs = None
        if node is not None:
            first = node["kinds" if spec.kind == "kinds" else "groups"]
            pairs = self._pairs((spec.groups, spec.size), (first, node["size"]), known)
        return self._grouped(spec, mults, pairs)

    def _collection(self, node, t: str, known):
        """The keys of the elements of a collection not worked out: those of
        their kind, narrowed by the tests of a filter that read nothing of
        the state (`[h in map where h.kind == "land" and …]`), through the
        defines it calls."""
        kind, ref = node.get("node"), node.get("ref")
        if ref == "define":
            d = self.defines[node["name"] if kind == "name" else node["fn"]]
            inner = {}
            for param, arg in zip(d["params"] or (), node.get("args") or ()):
                if arg.get("node") == "name" and arg.get("ref") == "local" and arg["name"] in known:
                    inner[param] = known[arg["name"]]
            return self._collection(d["body"], t, inner)
        if kind == "aggregate" and node.get("fn") == "filter":
            source = node["source"]
            values = None
            if self._static(source):
                values = self._worked_out(self._compiled(source, self._types(known)), source, known)
            if values is not None:
                keys = _unique(self._key(t, v) for vs in values for v in _items(vs))
            else:
                keys = self._collection(node["source"], t, known)
            if keys is OPEN or node.get("where") is None:
                return keys
            return self._kept(node["var"], t, node["where"], known, keys)
        return self._kind_domain(t)

    def _key(self, t: str, v):
        return self.lay.ckey[v] if is_comp(t) and type(v) is int else v

    def _types(self, known) -> dict:
        return {name: t for name, (t, _) in known.items()}

    def _kept(self, name: str, t: str, where, known, keys) -> tuple:
        """The keys that a `where` can keep, bound to `name` of type t: each
        test of it that reads nothing of the state is worked out for every
        key (and every value of the known names it reads); the others keep
        every key."""
        scope = self._types(known)
        scope[name] = t
        for test in _conjuncts(where):
            free = _free_locals(test) - {name}
            if not self._static(test) or not free <= set(known):
                continue
            fn = self._compiled(test, scope)
            if fn is None:
                continue
            names = sorted(free)
            combos = list(itertools.product(*(known[x][1] for x in names)))
            if len(combos) * len(keys) > _COMBOS * 16:
                continue
            kept = []
            for k in keys:
                value = self._value(k, t)
                for combo in combos:
                    env = dict(zip(names, combo))
                    env[name] = value
                    try:
                        self.prog.budget.reset()
                        if fn(self.state, env):
                            kept.append(k)
                            break
                    except (RuleError,) + FORMULA_ERRORS:
                        kept.append(k)       # refused otherwise, maybe: keep it
                        break
            keys = kept
        return _ordered(keys)

    def _compiled(self, node, scope):
        """A test compiled on its own (its type errors were reported with the
        rulebook's: none is kept), or None."""
        exprs = self.prog.exprs
        errors = len(exprs.errors)
        try:
            return self.prog.formulas.checked(node, scope)
        except FORMULA_ERRORS + (RulebookError,):
            return None
        finally:
            del exprs.errors[errors:]

    def _many(self, spec, mults: dict, counts, item) -> tuple:
        classes = _ordered(mults)
        if counts is not None:
            out = []
            for c in sorted({c for c in counts if type(c) is int and c >= 0}):
                options = _multisets(mults, c)
                if options > CHOICE_LIMIT:
                    raise self._too_large(spec, options)
                out += many_keys(_pool(classes, mults, c), _same, c)
            return tuple(_unique(out))
        # a count the state gives: grow it until the options would pass the limit
        bounded = all(m is not None for m in mults.values())
        cap = sum(mults.values()) if bounded else (self.lay.ncomponents if is_comp(item) else 64)
        out, total = [], 0
        for c in range(cap + 1):
            total += _multisets(mults, c)
            if total > GROW_LIMIT:
                break
            out += many_keys(_pool(classes, mults, c), _same, c)
        return tuple(out)

    def _grouped(self, spec, mults: dict, pairs) -> tuple:
        """The options of `K groups of M` or `K kinds of M`."""
        classes = _ordered(mults)
        grow = pairs is None
        if grow:
            most = max((m for m in mults.values() if m is not None), default=8)
            width = len(classes) if spec.kind == "kinds" else sum(m or most for m in mults.values())
            pairs = sorted(((k, m) for k in range(1, width + 1) for m in range(1, most + 1)),
                           key=lambda km: (km[0] * km[1], km))
        out, total = [], 0
        for k, m in pairs:
            if spec.kind == "kinds":
                enough = sum(1 for x in mults.values() if x is None or x >= m)
                count = comb(enough, k) if k >= 0 else 0
                keys = (lambda k=k, m=m: kinds_keys(_pool(classes, mults, k * m, m), _same, k, m))
            else:
                count = _multisets(mults, k * m) * _splits(k, m) if k >= 0 and m >= 0 else 0
                keys = (lambda k=k, m=m: groups_keys(_pool(classes, mults, k * m), _same, k, m))
            if grow:
                total += count
                if total > GROW_LIMIT:
                    break
            elif count > CHOICE_LIMIT:
                raise self._too_large(spec, count)
            out += keys()
        return tuple(_unique(out))

    def _pairs(self, fns, nodes, known):
        """The (K, M) a `K groups of M` or `K kinds of M` can ask, or None."""
        if not all(self._static(n) and _free_locals(n) <= set(known) for n in nodes):
            return None
        names = sorted(_free_locals(nodes[0]) | _free_locals(nodes[1]))
        lists = [known[x][1] for x in names]
        if prod(len(x) for x in lists) > _COMBOS:
            return None
        out = []
        for combo in itertools.product(*lists):
            env = dict(zip(names, combo))
            try:
                self.prog.budget.reset()
                k, m = fns[0](self.state, env), fns[1](self.state, env)
            except (RuleError,) + FORMULA_ERRORS:
                continue
            if type(k) is int and type(m) is int:
                out.append((k, m))
        return sorted(set(out), key=lambda km: (km[0] * km[1], km)) if out else None

    def _too_large(self, spec, count) -> SpaceTooLarge:
        return SpaceTooLarge(f"choice '{spec.name}' has {count:,} options, more than "
                             f"{CHOICE_LIMIT:,} an action space can number",
                             span_at(self.game.ir["file"], spec.at) if spec.at else None,
                             hint="choose in steps (one piece, then the next) or narrow the choice")

    def _worked_out(self, fn, node, known):
        """Every value of a formula, for each value of the known names it
        reads; None where it reads the state or a name not known."""
        if fn is None or node is None or not self._static(node):
            return None
        names = sorted(_free_locals(node))
        if not set(names) <= set(known):
            return None
        lists = [known[x][1] for x in names]
        if prod(len(x) for x in lists) > _COMBOS:
            return None
        out = []
        for combo in itertools.product(*lists):
            try:
                self.prog.budget.reset()
                out.append(fn(self.state, dict(zip(names, combo))))
            except (RuleError,) + FORMULA_ERRORS:
                continue        # never legal with these values
        return out or None

    def _static(self, node) -> bool:
        def define_ok(name):
            d = self.defines[name]
            return not d["params"] and reads_no_state(d["body"], self.lay, define_ok)
        return reads_no_state(node, self.lay, define_ok)

    def _distinct(self, node) -> bool:
        """Whether a collection holds each piece at most once: a zone, a
        component type, a filter of one."""
        if not isinstance(node, dict):
            return False
        kind, ref = node.get("node"), node.get("ref")
        if ref in ("zone", "component_type"):
            return True
        if kind == "aggregate" and node.get("fn") == "filter":
            return self._distinct(node["source"])
        if ref == "define" and kind == "name" and not self.defines[node["name"]]["params"]:
            return self._distinct(self.defines[node["name"]]["body"])
        return False

    # -- the options of a kind of value -----------------------------------------
    def _kind_domain(self, t: str):
        """Every key a value of type t can have, where its collection is not known."""
        if is_comp(t):
            return self._classes(t[5:])
        if t == PLAYER:
            return tuple(self.players)
        if t == BOOL:
            return (False, True)
        if t == CELL:
            return OPEN if self.has_open else tuple(self.bounded)
        if t == NUMBER:
            return self.numbers()
        if t == SYMBOL:
            return self.words()
        if t.startswith("list:"):
            inner = self._kind_domain(elem(t))
            if inner is OPEN:
                inner = tuple(self._cells(1))
            mults = {k: (len(self.cids_of[k]) if is_comp(elem(t)) else None) for k in inner}
            out, total = [], 0
            for c in range(len(inner) * 8 + 1):
                total += _multisets(mults, c)
                if total > GROW_LIMIT:
                    break
                out += many_keys(_pool(_ordered(mults), mults, c), _same, c)
            return tuple(out)
        return self.numbers() + self.words()

    def _classes(self, type_name: str) -> tuple:
        lay = self.lay
        if type_name:
            first, count = lay.types[type_name]
            cids = range(first, first + count)
        else:
            cids = range(lay.ncomponents)
        return tuple(sorted({lay.ckey[c] for c in cids}))

    def numbers(self) -> tuple:
        if self._numbers is None:
            self._numbers = rulebook_numbers(self.game.ir, self.lay)
        return self._numbers

    def words(self) -> tuple:
        if self._words is None:
            self._words = rulebook_words(self.game.ir, self.lay)
        return self._words

    def _value(self, key, t: str, used=None):
        """A value that an option's key stands for: a piece of its class (a
        different one for each copy a list holds), the value itself otherwise."""
        if is_comp(t):
            if key is None:
                return None
            cids = self.cids_of[key]
            if used is None:
                return cids[0]
            n = used.get(key, 0)
            used[key] = n + 1
            return cids[n % len(cids)]
        if t.startswith("list:"):
            used = {} if used is None else used
            return [self._value(k, elem(t), used) for k in key]
        return key

    # -- open grids ---------------------------------------------------------------
    def _centres(self) -> list:
        """The cells the open grids' pieces hold after the setup, and (0,0)."""
        found = {grid.cell(0, 0)}
        lay, s = self.lay, self.state
        for z in self.open_zones:
            column = lay.has.get(z["grid"])
            slot = lay.zones[z["name"]]
            for k in range(slot.count):
                for cid in s.zones[slot.base + k]:
                    c = s.vars[column[cid]] if column is not None and column[cid] >= 0 else None
                    if type(c) is int:
                        found.add(c)
        return sorted(found)

    def _reach(self) -> int:
        """How far from its start an open grid can grow: a piece placed next
        to the others lies at most one step further out than they do."""
        if not self.open_zones:
            return NO_GRID_RADIUS
        return max(self.lay.types[z["of"]][1] for z in self.open_zones)

    def _cells(self, radius: int) -> tuple:
        out = set(self.bounded)
        for c in self._centres():
            x0, y0 = grid.x_of(c), grid.y_of(c)
            for dx in range(-radius, radius + 1):
                rest = radius - abs(dx)
                for dy in range(-rest, rest + 1):
                    x, y = x0 + dx, y0 + dy
                    if abs(x) <= grid.LIMIT and abs(y) <= grid.LIMIT:
                        out.add(grid.cell(x, y))
        return tuple(sorted(out))

    def _radius(self, parts) -> int:
        """The largest radius up to the reach at which no decision that names
        open cells passes OPEN_LIMIT ids."""
        sizes: dict = {}
        for p in parts:
            if OPEN in p.domains:
                sizes.setdefault(p.name, []).append(p)
        best = 0
        for r in range(1, self._reach() + 1):
            cells = len(self._cells(r))
            if any(sum(p.count(cells) for p in ps) > OPEN_LIMIT for ps in sizes.values()):
                break
            best = r
        return best


def rulebook_numbers(ir: dict, lay) -> tuple:
    """The whole numbers from the least the rulebook writes (in formulas and
    in its tables of pieces), or 0, to the greatest it writes or the number
    of its pieces (a size, a count); only those written where the ends lie
    1,000 or more apart."""
    found = {v for v in _literals(ir, "number") if type(v) is int}
    for attr, t in lay.static_type.items():
        if t == NUMBER:
            found |= {v for v in lay.static[attr] if type(v) is int}
    found |= {0, lay.ncomponents}
    low, high = min(found), max(found)
    return tuple(range(low, high + 1)) if high - low < 1000 else tuple(sorted(found))


def rulebook_words(ir: dict, lay) -> tuple:
    """Every word the rulebook writes (in formulas, options and its tables
    of pieces), in alphabetical order."""
    found = {v for kind in ("symbol", "string") for v in _literals(ir, kind) if isinstance(v, str)}
    for attr, t in lay.static_type.items():
        if t == SYMBOL:
            found |= {v for v in lay.static[attr] if isinstance(v, str)}
    return tuple(sorted(found))


def _without_repeats(parts: list) -> list:
    """The parts with one of each action: a decision asked at several places
    (a `chooses` in two branches) is numbered once; a part whose every
    action an earlier part of its name holds is dropped. The one kept is
    private if either is (a pick of an `each … chooses` is hidden from the
    others until all have chosen), so that an action made from an id never
    shows more than the engine's would."""
    out: list = []
    for p in parts:
        for q in out:
            if q.name == p.name and _covers(q.domains, p.domains):
                q.private = q.private or p.private
                break
        else:
            out.append(p)
    return out


def _covers(outer, inner) -> bool:
    if len(outer) != len(inner):
        return False
    for a, b in zip(outer, inner):
        if a is OPEN or b is OPEN:
            if a is not b:
                return False
        elif not set(b) <= set(a):
            return False
    return True


def _items(value):
    return value if isinstance(value, (list, tuple)) else []


def _same(v):
    return v


def _pool(classes, mults: dict, count: int, at_least: int = 1) -> list:
    """A list of keys, each as often as a collection can hold it (at most
    `count`): the keys `many_keys` and its kind list options from."""
    out = []
    for k in classes:
        m = mults[k]
        out += [k] * (count if m is None else min(m, max(count, at_least)))
    return out


def _multisets(mults: dict, count: int) -> int:
    """How many sub-multisets of `count` keys the multiplicities allow."""
    ways = [1] + [0] * count
    for m in mults.values():
        m = count if m is None else min(m, count)
        new = [0] * (count + 1)
        for total in range(count + 1):
            if ways[total]:
                for take in range(min(m, count - total) + 1):
                    new[total + take] += ways[total]
        ways = new
    return ways[count]


def _splits(groups: int, size: int) -> int:
    """At most how many ways one multiset of groups × size splits into groups."""
    return factorial(groups * size) // (factorial(size) ** groups * factorial(groups))


def _rank(k):
    if k is None:
        return (0,)
    if isinstance(k, bool):
        return (1, int(k))
    if isinstance(k, (int, float)):
        return (2, k)
    if isinstance(k, str):
        return (3, k)
    if isinstance(k, tuple):
        return (4, tuple(_rank(x) for x in k))
    return (5, repr(k))


def _ordered(keys) -> tuple:
    return tuple(sorted(_unique(keys), key=_rank))


def _unique(keys) -> list:
    out, seen = [], set()
    for k in keys:
        if k not in seen:
            seen.add(k)
            out.append(k)
    return out


def _conjuncts(node) -> list:
    if node.get("node") == "and":
        return _conjuncts(node["left"]) + _conjuncts(node["right"])
    return [node]


def _free_locals(node) -> set:
    """The local names a formula reads that it does not bind itself."""
    return names_read(node, local_only=True) - _binders(node)


def _literals(node, kind: str):
    if isinstance(node, dict):
        if node.get("node") == kind and "value" in node:
            yield node["value"]
        for v in node.values():
            yield from _literals(v, kind)
    elif isinstance(node, list):
        for v in node:
            yield from _literals(v, kind)
