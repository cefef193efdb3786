"""The actions that none of `validate --play`'s random games ever offered.

An action whose `requires` can never hold or whose parameter never has an
option is dead rules: the static checks cannot tell, a game can. `Offers`
watches the decisions of every game of a check: the actions each `takes an
action` offered, and, for an action offered to nobody yet, the last
decision that considered it and refused it (kept as a state that shares
the board until the game changes it, so that watching costs almost nothing
once every action has been legal). An action refused in a player count's
games is given a second chance in as many games again whose players pick
an action's name first (`explore`): a random pick among all the options
seldom takes the one card of many that opens a rare step. After the
games, `findings` asks the rules why the last refusal was
(`runtime.explain.refusal`: its limit used up, its requirement not
holding, a parameter without options) and reports each action never legal
in any player count's games as `rule/never-legal` at its declaration.
Not reported: an action legal in some player counts only (a `by players`
table may rightly keep it from the others); one that the options in force
switch off for every player count played (`options_off`, as coverage
tells them apart); one that no step the games reached offered (a rare
step: `simulate --coverage` lists the rules that never ran).
"""

from __future__ import annotations

import random

from ..errors import RuleNeverLegal, RulebookError, span_at
from ..runtime.decisions import Product, TakeAction
from ..runtime.explain import refusal
from .options_off import switched_off


class Offers:
    """What the games of one check offered (see the module doc)."""

    def __init__(self, game):
        self.game = game
        self.declared = {a["name"]: a["at"] for a in game.ir["actions"]}
        self.waiting = set(self.declared)       # never legal so far
        self.refused: dict = {}                 # name -> (state, player, players, seed)
        self.games: dict = {}                   # players -> games watched

    def played(self, players: int) -> None:
        """One more random game of `players` players watched."""
        self.games[players] = self.games.get(players, 0) + 1

    def saw(self, state, player: int, offer, seed: int | None) -> None:
        """The options `offer` that `player` had at the decision `state`
        stands at, in the game dealt with `seed` (None: a game of `explore`,
        whose refusals are not kept: it is no game the replay plays)."""
        if not self.waiting:
            return
        machine = self.game.program(state.n).machine
        stmt, _ = machine.current_choice(state)
        if type(stmt) is not TakeAction:
            return
        for part in offer.parts:
            if type(part) is Product:
                self.waiting.discard(part.name)
            else:
                self.waiting.difference_update({pair[0].name for pair in part})
        left = [a.name for a in stmt.actions if a.name in self.waiting]
        if left and seed is not None:
            kept = (state.successor(), player, state.n, seed)
            for name in left:
                self.refused[name] = kept

    def refused_in(self, players: int) -> bool:
        """Whether some action never legal yet was refused in a game of
        `players` players."""
        return any(self.refused[n][2] == players for n in self.waiting if n in self.refused)

    def explore(self, players: int, games: int, seed: int, max_decisions: int) -> None:
        """Plays `games` more games of `players` players (dealt with `seed`,
        `seed + 1`, …) in which every decision picks an action by its name
        first (`_by_name`), watching what they offer: an action that a
        random pick among all the options reaches seldom (one card among
        many that opens a rare step) is reached by them far more often. What
        goes wrong in them is not reported: the random games report it."""
        for i in range(games):
            rng = random.Random(f"explore/{seed + i}")
            try:
                state = self.game.new_game(players=players, seed=seed + i)
                while not state.over and state.decisions < max_decisions and self.waiting:
                    player = self.game.to_move(state)[0]
                    offer = self.game.legal_actions(state, player)
                    self.saw(state, player, offer, None)
                    self.game.advance(state, _by_name(offer, rng))
            except RulebookError:
                continue

    def findings(self) -> list:
        """[(rule/never-legal error, players, seed of the last refusal or
        None)] for every action never legal (see the module doc)."""
        counts = sorted(self.games)
        off = {n: switched_off(self.game, n) for n in counts}
        out = []
        for name in sorted(self.waiting, key=lambda n: self.declared[n][:2]):
            if all(("action", name) in off[n] for n in counts):
                continue
            last = self.refused.get(name)
            if last is None:
                continue
            out.append((self._error(name, last, counts), *(last[2:] if last else (None, None))))
        return out

    def _error(self, name: str, last, counts: list) -> RuleNeverLegal:
        game = self.game
        file = game.program(counts[0]).machine.file
        at = span_at(file, self.declared[name])
        games = sum(self.games.values())
        who = (f"{counts[0]}" if len(counts) == 1 else f"{counts[0]} to {counts[-1]}")
        head = f"'{name}' was never legal in {games} random game{'s' if games != 1 else ''} " \
               f"of {who} players"
        state, player, players, _ = last
        prog = game.program(players)
        prog.budget.reset()
        _, f = prog.machine.current_choice(state)
        state.memo = {}         # as while options are listed: the state holds still
        try:
            why = refusal(prog.machine, state, player, f[2], prog.actions[name])
        finally:
            state.memo = None
        if why is None:
            told = "refused, without a rule that says why"
        else:
            reason, span = why
            where = f"line {span.line}" if span.file == at.file else str(span)
            quoted = _quoted(game, span)
            told = f"{reason}" + (f": {quoted}" if quoted else "") + f" ({where})"
        return RuleNeverLegal(f"{head}; the last refusal (P{player}): {told}", at,
                              hint="an action no game can take is dead rules: loosen what "
                                   "refuses it, or remove it")


def _by_name(offer, rng):
    """An option of `offer`: an action's name picked at random among those
    it offers, then one of that action's options."""
    names: dict = {}            # name -> [(part, place)] in order
    for part in offer.parts:
        if type(part) is Product:
            names.setdefault(part.name, []).append((part, None))
        else:
            for i, pair in enumerate(part):
                names.setdefault(pair[0].name, []).append((part, i))
    chosen = names[rng.choice(list(names))]
    weights = [len(part) if i is None else 1 for part, i in chosen]
    part, i = rng.choices(chosen, weights)[0]
    return part.at(rng.randrange(len(part))) if i is None else part[i][0]


def _quoted(game, span) -> str | None:
    """The rulebook's text at a one-line span that is a rule of its own
    (a `requires`), quoted; else None (a parameter's line is the action's)."""
    text = game.source_of(span)
    lines = text.split("\n") if text else []
    if not 0 < span.line <= len(lines):
        return None
    words = lines[span.line - 1][span.column - 1:].split("#", 1)[0].strip()
    if not words.startswith("requires ") or len(words) > 80:
        return None
    return f"'{words}'"


__all__ = ["Offers"]
