"""Decisions: the options a player picks from, and the statements that ask.

`ChoiceSpec` lists, prints and binds the options of one action parameter or
decision; `ActionDef` lists an action's options. The statements that stop
for a decision — `TakeAction`, `Choose`, `EachChooses` — give the engine each
deciding player's options (`options`) and go on with the one picked
(`resolve`). `Action` is the small frozen value a player picks; `Offer`
holds one player's options and is the read-only list `game.legal_actions`
returns, and `Product` holds the options of an action whose parameters are
independent (made only when looked at).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

from ..stdlib import grid
from .choices import (fast_key, groups_keys, kinds_keys, many_keys, one_keys, pick_groups,
                      pick_many, pick_one, same)
from ..errors import RuleError, RuleStuck
from ..language.layout import Layout
from ..stdlib.types import CELL, PLAYER, elem, is_comp
from .statements import Stmt

PASS = "pass"


class ChoiceSpec:
    """One parameter or decision: how to list its options and print them."""

    __slots__ = ("name", "kind", "source", "where", "count", "groups", "size", "key",
                 "show_value", "value_type", "at", "why", "kept", "label")

    def __init__(self, name, kind, source, where, count, groups, size, key, show_value,
                 value_type, at=None):
        self.name, self.kind, self.source, self.where = name, kind, source, where
        self.count, self.groups, self.size = count, groups, size
        self.key, self.show_value, self.value_type = key, show_value, value_type
        self.at = at          # the choice's span in the rulebook (for explanations)
        # (state, env, value) -> the cell that keeps a value out, or None (explain.py)
        self.why = None
        # (state, env) -> `pairs` of a 'one of … where …', compiled (see
        # compiler/pysource.py), or None
        self.kept = None
        # what is chosen, in the rulebook's words ('chooses s as "a settlement"'), or None
        self.label = None

    @property
    def asked(self) -> str:
        """What a player is asked to choose: the label, else the name."""
        return self.label if self.label is not None else self.name

    def show(self, name, args) -> str:
        """The text of a decision's action: its name and the chosen value."""
        return name + " " + self.show_value(args[0])

    def keys(self, s, env) -> list:
        """The content keys of every option, in a deterministic order."""
        if self.kind == "one":
            if self.where is None:
                return one_keys(self.source(s, env), self.key)
            return [k for k, _ in self.pairs(s, env)]
        values = self.source(s, env)
        if self.kind == "many":
            return many_keys(values, self.key, self.count(s, env), s.memo)
        if self.kind == "kinds":
            return kinds_keys(values, self.key, self.groups(s, env), self.size(s, env), s.memo)
        return groups_keys(values, self.key, self.groups(s, env), self.size(s, env), s.memo)

    def listed(self, s, env) -> tuple:
        """(keys, values): the keys of every option, as `keys` lists them,
        and for a 'one of' the value each stands for (else None), so that
        taking an option binds it by its place."""
        if self.kind != "one":
            return self.keys(s, env), None
        kept = self.kept
        if kept is not None:            # the compiled loop of a 'one of … where'
            found = kept(s, env)
            if getattr(kept, "own_keys", False):
                return found, found
            return [k for k, _ in found], [v for _, v in found]
        if self.where is None:
            if self.key is same:
                keys = list(dict.fromkeys(self.source(s, env)))
                return keys, keys
            first = self._first(s, env)
            return list(first), list(first.values())
        pairs = self.pairs(s, env)
        return [k for k, _ in pairs], [v for _, v in pairs]

    def pairs(self, s, env) -> list:
        """[(key, value)] of every option, in the order of `keys`, reading the
        source once (for a parameter that later ones read)."""
        if self.kind != "one":
            return [(k, self.value(s, env, k)) for k in self.keys(s, env)]
        if self.kept is not None:
            if getattr(self.kept, "own_keys", False):
                return [(v, v) for v in self.kept(s, env)]
            return self.kept(s, env)
        first = self._first(s, env)
        if self.where is None:
            return list(first.items())
        inner = dict(env)
        kept = []
        for k, v in first.items():
            inner[self.name] = v
            if self.where(s, inner):
                kept.append((k, v))
        return kept

    def _first(self, s, env) -> dict:
        """{key: the first element of the source with that key}, in the
        order the keys first come (what `pick_one` finds for each)."""
        values = self.source(s, env)
        key = self.key
        if key is same:
            return {v: v for v in dict.fromkeys(values)}     # (the first of equal values)
        first: dict = {}
        for k, v in zip(map(fast_key(key, values), values), values):
            if k not in first:
                first[k] = v
        return first

    def value(self, s, env, k):
        """The concrete value an option's key stands for."""
        values = self.source(s, env)
        if self.kind == "one":
            return pick_one(values, self.key, k)
        if self.kind in ("many", "kinds"):
            return pick_many(values, self.key, k)
        return pick_groups(values, self.key, k)


class OptionalSpec(ChoiceSpec):
    """'one of … or none': the options of the choice, then none, listed last
    (its text is 'no NAME')."""

    __slots__ = ()

    def keys(self, s, env) -> list:
        return super().keys(s, env) + [None]

    def listed(self, s, env) -> tuple:
        keys, values = super().listed(s, env)
        return keys + [None], values + [None]

    def pairs(self, s, env) -> list:
        return super().pairs(s, env) + [(None, None)]

    def value(self, s, env, k):
        return None if k is None else super().value(s, env, k)


def optional_printer(name: str, show):
    """The text of an optional choice's value: 'no NAME' for none."""
    nothing = f"no {name}"
    return lambda k: nothing if k is None else show(k)


class Action:
    """A move: who, which action or decision, and its arguments by content.

    Frozen and hashable; ``str(action)`` is the text the REPL prints and
    accepts. ``text_for(viewer)`` hides a private action's arguments."""

    __slots__ = ("player", "name", "args", "private", "_show", "_text", "_hash", "_src", "_at")

    def __init__(self, player, name, args, private=False, show=None, src=None, at=None):
        self.player, self.name, self.args = player, name, args
        self.private, self._show, self._text = private, show, None
        self._hash = None
        # the `Product` that listed it, if one did: an offer that holds that
        # product knows the action legal without looking at its keys; and,
        # in a product of one parameter, its place there (what it binds is
        # read at that place, not looked for)
        self._src = src
        self._at = at

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

    __slots__ = ("player", "name", "lists", "sets", "private", "show", "size", "values")

    def __init__(self, player, name, lists, private, show, values=None):
        self.player, self.name, self.lists = player, name, lists
        self.private, self.show = private, show
        self.sets = None
        if len(lists) == 1:
            self.size = len(lists[0])
        else:
            size = 1
            for keys in lists:
                size *= len(keys)
            self.size = size
        # the value each key stands for, in the keys' order (bound when
        # applied without looking for it again), or None: of one parameter
        # a list; of several, a list per parameter (None for a parameter
        # whose values are worked out from its keys when applied)
        self.values = values

    def __len__(self) -> int:
        return self.size

    def at(self, i: int) -> "Action":
        lists = self.lists
        if len(lists) == 1:
            return Action(self.player, self.name, (lists[0][i],), self.private, self.show, self, i)
        keys = tuple([options[k] for options, k in zip(lists, self.places(i))])
        return Action(self.player, self.name, keys, self.private, self.show, self, i)

    def places(self, i: int) -> list:
        """The place of option `i`'s key in each parameter's list."""
        out = []
        for options in reversed(self.lists):
            i, k = divmod(i, len(options))
            out.append(k)
        out.reverse()
        return out

    def __iter__(self):
        player, name, private, show = self.player, self.name, self.private, self.show
        if len(self.lists) == 1:
            return (Action(player, name, (k,), private, show, self, i)
                    for i, k in enumerate(self.lists[0]))
        return (Action(player, name, ks, private, show, self, i)
                for i, ks in enumerate(itertools.product(*self.lists)))

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


class Parts(list):
    """Several parts of one action's options, in order (`ActionDef._last_free`)."""

    __slots__ = ()


class Offer(Sequence):
    """One player's options at a decision, and the read-only list
    `game.legal_actions` returns: the actions in a fixed order and what each
    binds (None: worked out from the action's keys when applied). The
    actions of a `Product` are made only when looked at (indexing makes only
    the one asked for) and recognised by their keys, so hundreds of
    placements cost almost nothing until a player looks at them."""

    __slots__ = ("parts", "size", "_index", "ids")

    def __init__(self, pairs=None):
        self.parts: list = []       # Products and lists of (action, binding) pairs
        self.size = 0
        self._index = None
        # (the action space, {id: action}) once an action space numbered
        # these options (ActionSpace.legal), or None
        self.ids = None
        if pairs:
            self._extend(pairs)

    def _extend(self, pairs) -> None:
        if type(pairs) is not Product and type(pairs) is not list:
            pairs = list(pairs)
        if len(pairs):
            self.parts.append(pairs)
            self.size += len(pairs)

    def __len__(self) -> int:
        return self.size

    def __getitem__(self, i):
        if type(i) is int and 0 <= i < self.size:
            parts = self.parts
            if len(parts) == 1:             # (most decisions: one part)
                one = parts[0]
                return one[i][0] if type(one) is list else one.at(i)
            return self.at(i)
        if isinstance(i, slice):
            return [self.at(k) for k in range(*i.indices(self.size))]
        if i < 0:
            i += self.size
        if not 0 <= i < self.size:
            raise IndexError("action index out of range")
        return self.at(i)

    def __iter__(self):
        for part in self.parts:
            if type(part) is Product:
                yield from part
            else:
                for pair in part:
                    yield pair[0]

    def __contains__(self, action) -> bool:
        return isinstance(action, Action) and self.get(action, _ABSENT) is not _ABSENT

    def __eq__(self, other) -> bool:
        if isinstance(other, (Offer, list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None

    def __repr__(self) -> str:
        return repr(list(self))

    def at(self, i: int) -> "Action":
        return self.taken(i)[0]

    def taken(self, i: int) -> tuple:
        """(action, binding) of the option at place `i`, 0 <= i < size: what
        taking move `i` binds, found by its place, not looked for."""
        for part in self.parts:
            n = len(part)
            if i < n:
                return part[i] if type(part) is list else (part.at(i), part)
            i -= n
        raise IndexError("no such action")

    def get(self, action, default=None):
        """The binding of a legal action, or `default`: for an action one of
        this offer's products listed, that product (TakeAction.resolve binds
        the value it found, or the keys)."""
        src = action._src
        if src is not None:
            for part in self.parts:
                if part is src:
                    return src      # (bound from its keys, or its values: TakeAction.resolve)
        index = self._index
        if index is None:
            # an action listed by this offer is found by identity, without
            # hashing every option (a playout applies what it was just shown)
            for part in self.parts:
                if type(part) is not Product:
                    for pair in part:
                        if pair[0] is action:
                            return pair[1]
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


def offer_of(parts: list, size: int) -> Offer:
    """An offer of the given parts, which hold `size` options (what the
    compiled listers return: no check, no copy)."""
    out = _new(Offer)
    out.parts, out.size, out._index, out.ids = parts, size, None, None
    return out


def product_of(player, name, keys: list, private, show, values=None) -> "Product":
    """The `Product` of one parameter's keys (with the value each stands
    for, or None), made without `Product.__init__`'s general case."""
    out = _new(Product)
    out.player, out.name, out.lists, out.private, out.show = player, name, [keys], private, show
    out.sets, out.size, out.values = None, len(keys), values
    return out


_new = object.__new__


_ABSENT = object()


class ActionDef:
    """An action of the rulebook. `independent`: no parameter's options read
    another parameter and there is no `requires`, so the options are the
    product of each parameter's keys (a placement: tiles × cells × turns),
    listed without binding any of them."""

    __slots__ = ("name", "params", "requires", "body", "limit", "private", "show",
                 "independent", "at", "requires_at", "requires_first", "single")

    def __init__(self, name, params, requires, body, limit, private, show, independent=False,
                 at=None, requires_at=None, requires_first=False):
        self.name, self.params, self.requires, self.body = name, params, requires, body
        self.limit, self.private, self.show = limit, private, show
        self.independent = independent
        self.at, self.requires_at = at, requires_at     # spans, for explanations
        # the `requires` reads no parameter: checked once, before listing any option
        self.requires_first = requires_first
        # one parameter and no `requires`: its keys are the options (`_one`)
        self.single = len(params) == 1 and requires is None

    def options(self, s, player, env) -> list:
        """[(Action, binding env or None)] for this action; [] when not allowed.
        A binding of None is worked out from the action's keys when applied.
        `env`: the statement's locals with `me`, the player (the same dict
        for every action of a decision; nothing here changes it)."""
        if self.limit is not None:
            base, times = self.limit
            if s.vars[base + player] >= times:
                return []
        if self.single:
            return self._one(s, player, env)
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
        if len(params) == 1 and requires is None:      # (a `requires` checked first)
            return self._one(s, player, env)
        if self.independent:
            lists, values = [], []
            for spec in params:          # a parameter without options: no action at all
                keys, found = spec.listed(s, env)
                if not keys:
                    return []
                lists.append(keys)
                values.append(found)
            return Product(player, name, lists, private, show, values)
        if requires is None:
            return self._last_free(s, player, env)
        return [(Action(player, name, keys, private, show), bound)
                for keys, bound in self._prefixes(s, env, len(params)) if requires(s, bound)]

    def _last_free(self, s, player, env) -> "Parts":
        """The options of parameters that read earlier ones, with no
        `requires`: for every choice of the others, a `Product` of the last
        one's keys, with the values chosen before it and, for a 'one of',
        the value of each of its keys (bound by their places when taken);
        another kind of choice works the last value out only for the option
        taken (`bind`)."""
        last, firsts = self.params[-1], self.params[:-1]
        out = Parts()
        for keys, bound in self._prefixes(s, env, len(firsts)):
            found, values = last.listed(s, bound)
            if found:
                out.append(Product(player, self.name, [[k] for k in keys] + [found],
                                   self.private, self.show,
                                   [[bound[spec.name]] for spec in firsts] + [values]))
        return out

    def _prefixes(self, s, env, count: int, i: int = 0, keys: tuple = ()):
        """(keys, locals) of every choice of the first `count` parameters,
        each parameter's options read with the values chosen before it."""
        if i == count:
            yield keys, env
            return
        spec = self.params[i]
        for k, v in spec.pairs(s, env):
            inner = dict(env)
            inner[spec.name] = v
            yield from self._prefixes(s, inner, count, i + 1, keys + (k,))

    def _one(self, s, player, env):
        """The options of one parameter: a product of its keys, with the
        value each stands for where the listing finds them (`ChoiceSpec.listed`)."""
        keys, values = self.params[0].listed(s, env)
        return Product(player, self.name, [keys], self.private, self.show, values) if keys else []

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

    __slots__ = ("player", "actions", "optional", "if_able", "actions_by_name", "lister")
    suspends = True

    def __init__(self, at, player, actions, optional, if_able=False):
        self.at, self.player, self.actions, self.optional = at, player, actions, optional
        self.if_able = if_able
        self.actions_by_name = {a.name: a for a in actions}
        # (state, locals with `me`, player) -> the Offer, compiled
        # (compiler/pyoptions.py), or None: listed action by action
        self.lister = None

    def run(self, m, s, f):
        p = seat(self.player(s, f[2]), s.n, "takes an action")
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
        env = dict(f[2])
        env["me"] = p
        if self.lister is not None:
            return self.lister(s, env, p)
        out = Offer()
        for a in self.actions:
            part = a.options(s, p, env)
            if part:
                out.size += added(out.parts, part)
        if self.optional:
            out._extend([(Action(p, PASS, ()), PASS)])
        return out

    def options(self, m, s, f, player) -> Offer:
        lister = self.lister
        if lister is not None:
            env = f[2].copy()
            env["me"] = player
            out = lister(s, env, player)
        else:
            out = self._offer(s, f, player)
        if not out.size:
            # explain.py reads the decisions, so it is imported here, where it is needed
            from .explain import reasons_text, refusals
            here = m.span(self.at)
            reasons = refusals(m, s, player, f[2], self.actions)
            raise RuleStuck(f"P{player} must take an action but none is allowed"
                            + reasons_text(reasons, here), here,
                            hint="use 'may take an action' where passing is possible, or "
                                 "'takes an action if able' to skip", reasons=reasons)
        return out

    def resolve(self, m, s, f, action, binding) -> None:
        f[1] += 1
        if m.coverage is not None:
            m.action_counts[action.name] = m.action_counts.get(action.name, 0) + 1
        if binding is PASS:
            return
        a = self.actions_by_name[action.name]
        if type(binding) is Product and binding.values is not None:
            # (the product this offer listed: the values by the option's place)
            product, binding = binding, f[2].copy()
            binding["me"] = action.player
            if len(a.params) == 1:
                binding[a.params[0].name] = product.values[action._at]
            else:
                for spec, found, k, key in zip(a.params, product.values,
                                               product.places(action._at), action.args):
                    binding[spec.name] = found[k] if found is not None else \
                        spec.value(s, binding, key)
        elif binding is None or type(binding) is Product:
            binding = a.bind(s, action.player, f[2], action.args)
        else:
            binding = dict(binding)   # the cached one belongs to the input state
        if a.limit is not None:
            s.vars[a.limit[0] + action.player] += 1
        s.frames.append([a.body, 0, binding, None])


def added(parts: list, part) -> int:
    """Adds the options one action listed (`ActionDef.options`) to an
    offer's parts; how many they are."""
    if type(part) is Parts:
        parts.extend(part)
        return sum(map(len, part))
    if type(part) is not Product and type(part) is not list:
        part = list(part)
    parts.append(part)
    return len(part)


def _decision_actions(memo: dict, player, spec, keys, private, values=None):
    """[(Action, value)] for the keys of a decision and the values they
    stand for (None: worked out when taken), or a `Product` of them when
    they are tuples (several components picked). The actions of plain
    keys (numbers, words, component classes) are kept by player and key:
    they are values, and the same few come up all game. (Not yes/no, which
    equal 1 and 0 as keys but print otherwise, nor tuples, which may hold
    them.)"""
    if keys and type(keys[0]) is tuple:
        # K of N cards: hundreds of options, made into actions only when looked at
        return Product(player, spec.name, [keys], private, spec.show)
    out = []
    mine = memo.get(player)
    if mine is None or len(mine) > 10_000:
        mine = memo[player] = {}
    for i, k in enumerate(keys):
        if type(k) is int or type(k) is str:
            a = mine.get(k)
            if a is None:
                a = mine[k] = Action(player, spec.name, (k,), private, spec.show)
        else:
            a = Action(player, spec.name, (k,), private, spec.show)
        out.append((a, None if values is None else values[i]))
    return out


class Choose(Stmt):
    """'P chooses NAME: …' inside a flow or an action."""

    __slots__ = ("player", "spec", "memo")
    suspends = True

    def __init__(self, at, player, spec):
        self.at, self.player, self.spec = at, player, spec
        self.memo = {}

    def run(self, m, s, f):
        s.pending = (seat(self.player(s, f[2]), s.n, "chooses"),)
        return True

    def options(self, m, s, f, player) -> list:
        p = player
        spec = self.spec
        keys, values = spec.listed(s, f[2])
        out = _decision_actions(self.memo, p, spec, keys, False, values)
        if not out:
            raise RuleStuck(f"P{p} must choose {_named(spec)} but there is nothing to choose "
                            f"from", m.span(self.at))
        return out

    def resolve(self, m, s, f, action, value) -> None:
        if value is None or type(value) is Product:       # (not listed with its key)
            value = self.spec.value(s, f[2], action.args[0])
        f[2][self.spec.name] = list(value) if isinstance(value, list) else value
        f[1] += 1


def _named(spec) -> str:
    """A decision as an error names it: its label and the name the rules read."""
    return spec.name if spec.label is None else f"{spec.label} ('{spec.name}')"


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
            picks = env[PICKS] = {str(seat(p, s.n, "chooses")): None
                                  for p in _players(self.players(s, env))}
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
        keys, values = spec.listed(s, self._env(f[2], player))
        if not keys:
            raise RuleStuck(f"P{player} must choose {_named(spec)} but there is nothing to "
                            f"choose from", m.span(self.at))
        return _decision_actions(self.memo, player, spec, keys, True, values)

    def resolve(self, m, s, f, action, value) -> None:
        env = f[2]
        if value is None or type(value) is Product:       # (not listed with its key)
            value = self.spec.value(s, self._env(env, action.player), action.args[0])
        picks = dict(env[PICKS])
        # kept in a one-element list: a pick may itself be none-like (player 0)
        picks[str(action.player)] = [list(value) if isinstance(value, list) else value]
        env[PICKS] = picks


def seat(p, n: int, what: str) -> int:
    """The player a statement names to decide (or to play a turn), who must
    be one of the game's seats: a rule error otherwise (the statement's span
    is added by the machine), never a decision for nobody."""
    if type(p) is not int or not 0 <= p < n:
        shown = "none" if p is None else repr(p)
        raise RuleError(f"the player who {what} is {shown}, not a player of this game "
                        f"(P0 to P{n - 1})",
                        hint="a formula for a player can give none (a tie of majority, an "
                             "unset variable) or a number past the last seat")
    return p


def _players(value) -> list:
    """The players of `each P in PLAYERS chooses …`, who must be a list."""
    if isinstance(value, list):
        return value
    raise RuleError(f"'each … in' names a list of players, not {value!r}")


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


__all__ = ["PASS", "Action", "ActionDef", "ChoiceSpec", "OptionalSpec", "Offer", "TakeAction",
           "Choose", "EachChooses", "PICKS", "printer"]
