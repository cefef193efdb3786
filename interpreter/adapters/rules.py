"""A rulebook loaded for one player count, as both adapters read it.

`Rules` puts together what a research library needs of a `Game` and
nothing the engine does not already say: the fixed action ids
(`game.action_space`) with each player's mask, the observation vector and
its names, the chance nodes, whether anything is ever hidden (a perfect-
information game has no `owner` or `hidden` zone, no `private` action and
no simultaneous step), and the rewards an outcome pays. `load` keeps one
`Rules` per rulebook, player count and options, so that two environments
of one game share the compiled rules. Options travel as text,
`name=value,name=value` or, inside an OpenSpiel game string, where `=` and
`,` are taken, `name:value;name:value`; a list option's items follow its
name, `name=A,B,C`. The game reads each value by its option's kind, as it
reads `--option` (game/options.py), and a dict's values are written in
that text form only when they are values an option can hold.
"""

from __future__ import annotations

import json
from functools import lru_cache

from ..errors import OptionError
from ..game.load import load_rulebook
from ..game.options import checked_options, option_text, shown_value
from ..runtime.information import information_state, told_events
from ..runtime.saved import shown

# node kinds of the IR that hide something from a player
_HIDING = {"private", "each_chooses"}
# what an end pays, in every adapter (`Rules.rewards`)
REWARDS = ("outcome", "win_share", "score")
RENDER_MODES = ["ansi", "human"]


def parse_options(text) -> dict:
    """{name: value} from `name=value,…` or `name:value;…` (values as text:
    the game reads them as its options' kinds). A part with neither `=` nor
    `:` is one more item of the previous option's list. A dict passes as it is."""
    if text is None:
        return {}
    if isinstance(text, dict):
        return dict(text)
    if not isinstance(text, str):
        raise OptionError("options are text like 'name=value,name=value', "
                          f"not {type(text).__name__}")
    options: dict = {}
    last = None
    for part in text.replace(";", ",").split(","):
        part = part.strip()
        if not part:
            continue
        name, sep, value = _split(part)
        if sep:
            last = name.strip()
            if not last:
                raise OptionError(f"an option without a name in '{text}'",
                                  hint="write options as name=value,name=value")
            options[last] = value.strip()
        elif last is None:
            raise OptionError(f"'{part}' is not name=value",
                              hint="write options as name=value,name=value")
        else:
            options[last] += "," + part
    return options


def _split(part: str) -> tuple:
    """(name, separator, value) at the first `=` or `:`."""
    cut = min((i for i in (part.find("="), part.find(":")) if i >= 0), default=-1)
    if cut < 0:
        return part, "", ""
    return part[:cut], part[cut], part[cut + 1:]


def options_text(options: dict) -> str:
    """The options as `name:value;…`, sorted by name: the form that survives
    an OpenSpiel game string, and the key `load` keeps rules under. A value
    must be one an option can hold (`option_text` writes it, the game reads
    it back by the option's kind): a float, a table or a text with `;`
    would arrive as another value, and is refused here."""
    parts = []
    for name in sorted(options, key=str):
        value = options[name]
        items = value if type(value) in (list, tuple) else [value]
        if type(name) is not str or not all(_plain(v) for v in items):
            raise OptionError(f"option '{shown(name)}' is given {shown_value(value)}, "
                              f"which no option holds",
                              hint="an option is a number, yes/no, a word, a text, none or a "
                                   "list of names (with no ';')")
        parts.append(f"{name}:{option_text(value)}")
    return ";".join(parts)


def _plain(value) -> bool:
    return (value is None or type(value) in (bool, int)
            or type(value) is str and ";" not in value)


def load(rulebook, players: int | None = None, options=None) -> "Rules":
    """The `Rules` of a rulebook (a name of the shipped library or a path)
    for `players` (None or 0: the fewest the rulebook allows)."""
    given = parse_options(options)
    rules = _load(str(rulebook), players or 0, options_text(given))
    if any(type(v) is not str for v in given.values()):
        # values given as Python values are held to their kinds too: the
        # text of 3 is a string option's "3", of ["x"] a word's x
        checked_options(rules.game.ir, given)
    return rules


@lru_cache(maxsize=32)
def _load(rulebook: str, players: int, options: str) -> "Rules":
    game = load_rulebook(rulebook, parse_options(options) or None)
    return Rules(game, rulebook, players or game.min_players, options)


class Rules:
    """One rulebook at one player count: its action ids (`space`),
    observations, chance nodes, information and rewards."""

    def __init__(self, game, rulebook: str, n: int, options: str = ""):
        if not isinstance(n, int) or not game.min_players <= n <= game.max_players:
            raise OptionError(f"{game.name} is for {game.min_players} to {game.max_players} "
                              f"players, not {n}")
        self.game = game
        self.rulebook = rulebook
        self.options = options
        self.players = n
        self.space = game.action_space(n)
        self.observation_names = game.observation_spec(n).names
        self.perfect_information = (all(z["visibility"] == "public" for z in game.ir["zones"])
                                    and not _hides(game.ir))
        program = game.program(n)
        self.draws = any(stmt.chance for stmt in program.machine.stmts)
        # a chance node picks a card of a shuffled zone, or a value of a
        # collection of pieces, players or cells: at most this many outcomes
        lay = program.lay
        cells = sum(len(g.cells) for g in lay.grids.values())
        self.chance_outcomes = max(lay.ncomponents, n, cells) if self.draws else 0

    def __repr__(self) -> str:
        return f"<Rules {self.game.name!r} for {self.players}>"

    @property
    def actions(self) -> int:
        return self.space.size

    def new_game(self, seed: int, chance: bool = False):
        return self.game.new_game(players=self.players, seed=seed, chance=chance)

    def action(self, player: int, action_id: int, state=None):
        """The action of an id (a NumPy integer too) for `player`; with the
        `state` it is taken in, the engine's own action where it is legal
        there, which `apply` takes without looking for it again."""
        if state is None:
            return self.space.action_of(int(action_id), player)
        return self.space.legal_action(state, player, int(action_id))

    def chance_ids(self, state) -> list:
        """[(id, probability)] at a chance node: an outcome's id is its place
        in the engine's list of the node's outcomes."""
        outcomes = self.game.chance_outcomes(state)
        if len(outcomes) > self.chance_outcomes:
            raise OptionError(f"a chance node of {self.game.name} has {len(outcomes)} outcomes, "
                              f"more than the {self.chance_outcomes} expected")
        return [(k, p) for k, (_, p) in enumerate(outcomes)]

    def chance_outcome(self, state, outcome_id: int):
        return self.game.chance_outcomes(state)[int(outcome_id)][0]

    def rewards(self, outcome, kind: str = "outcome") -> list:
        """What an end pays each player, by the `kind` of `REWARDS`:
        `outcome_rewards`, `win_shares` or the scores, turned round under
        `lowest score wins` so that more is better."""
        if kind == "outcome":
            return outcome_rewards(outcome, self.players)
        if kind == "win_share":
            return win_shares(outcome, self.players)
        sign = -1.0 if outcome.lowest_wins else 1.0
        return [sign * float(s) for s in outcome.scores]

    def table_text(self, state, seat, render_mode):
        """The table as `seat` sees it, for an environment's `render()`:
        returned (`"ansi"`) or printed (`"human"`); with no render mode, a
        warning and nothing, as Gymnasium's environments do."""
        from gymnasium import logger

        if render_mode is None:
            logger.warn("render() was called without a render_mode "
                        "(give render_mode='ansi' or 'human')")
            return None
        from ..terminal.render import TableView, render_to_text

        view = self.game.view(state, seat)
        text = render_to_text(TableView(view, view.get("actions", ())))
        if render_mode == "human":
            print(text, end="")
            return None
        return text

    def observation_text(self, state, viewer) -> str:
        """What `viewer` (None: a spectator) knows now, as compact JSON: the
        information state of their view (`view["info"]`, docs/api.md), the
        state with all they cannot see taken out."""
        return json.dumps(information_state(self.game, state, viewer), separators=(",", ":"),
                          ensure_ascii=False)

    def transition_texts(self, action_text, before, after, chance: bool) -> tuple:
        """What each seat, and then a spectator, reads of one move: the
        action as they may see it, and the events they were told. A chance
        step's events add to those before it, which were read already."""
        texts = []
        for viewer in (*range(self.players), None):
            told = told_events(after, viewer)
            if chance:
                told = told[len(told_events(before, viewer)):]
            said = [e["text"] for e in told if "text" in e]
            texts.append("\n".join([action_text(viewer), *said]))
        return tuple(texts)


def outcome_rewards(outcome, n: int) -> list:
    """The rewards of an outcome, zero-sum: the k winners share +1 (1/k each)
    and the n-k others share -1. A draw pays 0 to all, and so does a victory
    of every player (a `winners` rule naming them all): with nobody beaten
    it is a tie. A player alone gets +1 for a victory and 0 without one."""
    if n == 1:
        return [0.0 if outcome.draw else 1.0]
    winners = set(outcome.winners)
    k = len(winners)
    if outcome.draw or k in (0, n):
        return [0.0] * n
    return [1.0 / k if p in winners else -1.0 / (n - k) for p in range(n)]


def win_shares(outcome, n: int) -> list:
    """The win shares of an outcome, adding up to 1: the k winners share the
    victory (1/k each) and the others get 0, as `simulate` counts a seat's
    wins; a draw with no winner shares it among all, so that the shares of
    every end add up to 1 (CONSTANT_SUM)."""
    winners = set(outcome.winners)
    if outcome.draw or not winners:
        return [1.0 / n] * n
    return [1.0 / len(winners) if p in winners else 0.0 for p in range(n)]


def centred(scores) -> list:
    """Each score less the mean of all: the scores' differences, adding up
    to zero (two players' scores 7 and 4 pay +1.5 and -1.5)."""
    mean = sum(scores) / len(scores)
    return [s - mean for s in scores]


def _hides(node) -> bool:
    """Whether a part of a rulebook's IR hides a choice: a private action,
    a simultaneous step."""
    if isinstance(node, dict):
        if node.get("node") in _HIDING:
            return True
        return any(_hides(v) for v in node.values())
    if isinstance(node, list):
        return any(_hides(v) for v in node)
    return False
