"""Any rulebook as an OpenSpiel game.

`register()` registers the Python game `python_rulebook` with pyspiel;
then `pyspiel.load_game("python_rulebook(rulebook=NAME,players=2)")`, or
`load_game(NAME, players=2)` here, is that rulebook as an OpenSpiel game.
Its parameters (docs/adapters.md §2 has them all): `rulebook` (a name of
the shipped library or a path), `players` (0: the fewest the rulebook
allows), `options` (`name=value,…`, or in a game string `name:value;…`),
`returns` (below; with `score`, the `utility` to declare and
`min_utility`/`max_utility`), `max_game_length` and
`information_state_tensor` (`present` or `recall`).

The game is SEQUENTIAL: a simultaneous step of the rulebook is asked
seat by seat, each pick hidden from the others until all have chosen, so
such a game is of imperfect information, like one with cards in an
`owner` or `hidden` zone or a `private` action; a rulebook with none of
these is of PERFECT_INFORMATION. Where the rules draw, chance is
EXPLICIT_STOCHASTIC: every draw of the engine is a chance node. Rewards
are TERMINAL. The strings hold what the viewer knows: `observation_string`
is their information state now (`view["info"]`, as JSON), and
`information_state_string` puts before it, move by move, what they saw
of every action and every event they were told (perfect recall). The
observation tensor is the engine's observation vector of the seat, which
knows the present; so is the information-state tensor, unless
`information_state_tensor=recall` makes it the seat's observation vector
after every move so far (`max_game_length` + 1 rows), for methods that
need perfect recall through tensors (NFSP, Deep CFR).

Returns: `outcome` pays +1 shared by the winners and -1 by the others
(ZERO_SUM, a draw 0 to all); `win_share` the victory shared by the
winners, 0 to the others (CONSTANT_SUM, adding up to 1); `score` the
scores, each less their mean where `utility=zero_sum` is declared.

`resampler(seed)` is a resampler for OpenSpiel's ISMCTS bot
(`bot.set_resampler(...)`): it deals the cards the player cannot see at
random with the engine's own determinization (`sample_state`).

pyspiel and NumPy are imported when the game is first needed, so the
package runs without them.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache

from ..errors import OptionError
from ..language.limits import MAX_PLAYERS
from ..runtime.chance import CHANCE
from ..runtime.information import information_state, sample_state
from .rules import REWARDS, centred, load, options_text, parse_options

NAME = "python_rulebook"
RETURNS = REWARDS
TENSORS = ("present", "recall")
# the most numbers a perfect-recall tensor may hold: (max_game_length + 1)
# rows of the observation vector
MAX_RECALL_ENTRIES = 20_000_000
UTILITIES = ("zero_sum", "constant_sum", "general_sum", "identical")
UNBOUNDED = 1e9
PARAMETERS = {"rulebook": "", "players": 0, "options": "", "returns": "outcome", "utility": "",
              "utility_sum": 0.0, "min_utility": 0.0, "max_utility": 0.0,
              "max_game_length": 10_000, "information_state_tensor": "present"}


def register():
    """Registers `python_rulebook` with pyspiel (once) and returns its GameType."""
    import pyspiel

    game_type = _registered_type()
    if NAME not in pyspiel.registered_names():
        pyspiel.register_game(game_type, _classes()[0])
    return game_type


def load_game(rulebook, players: int | None = None, options=None, **parameters):
    """The rulebook as a pyspiel game (registering the game first)."""
    import pyspiel

    register()
    params = {"rulebook": str(rulebook), "players": players or 0,
              "options": options_text(parse_options(options))}
    for name, value in parameters.items():
        # pyspiel tells a parameter's kind by its value: 2 is no float
        kind = type(PARAMETERS.get(name, value))
        params[name] = kind(value) if kind in (int, float) else value
    return pyspiel.load_game(NAME, params)


def resampler(seed=None):
    """A resampler for ISMCTS (`ISMCTSBot.set_resampler`): a state the
    player to move cannot tell from `state`, its hidden cards dealt anew."""
    rng = random.Random(seed)

    def resample(state, player):
        return state.resample(player, rng)

    return resample


@lru_cache(maxsize=None)
def _registered_type():
    import pyspiel

    kind = pyspiel.GameType
    return _game_type(pyspiel, kind.ChanceMode.EXPLICIT_STOCHASTIC,
                      kind.Information.IMPERFECT_INFORMATION, kind.Utility.GENERAL_SUM,
                      1, MAX_PLAYERS)


def _game_type(pyspiel, chance, information, utility, fewest, most):
    kind = pyspiel.GameType
    return kind(short_name=NAME, long_name="Python rulebook (any rulebook of the interpreter)",
                dynamics=kind.Dynamics.SEQUENTIAL, chance_mode=chance,
                information=information, utility=utility,
                reward_model=kind.RewardModel.TERMINAL,
                max_num_players=most, min_num_players=fewest,
                provides_information_state_string=True,
                provides_information_state_tensor=True,
                provides_observation_string=True,
                provides_observation_tensor=True,
                parameter_specification=PARAMETERS,
                default_loadable=False)


class _Moment:
    """What a state of the OpenSpiel game holds: the engine's state (never
    changed: `apply` makes a new one), what each seat and a spectator saw
    of every move so far (one linked list each), and the moves made. A
    clone shares it, as OpenSpiel's deep copy of a state finds it
    immutable; so what is worked out of it (views, vectors, legal ids) is
    kept, for the many calls OpenSpiel makes on one state."""

    __slots__ = ("rules", "state", "seen", "moves", "memo", "rows")

    def __init__(self, rules, state, seen, moves, rows=None):
        self.rules, self.state, self.seen, self.moves = rules, state, seen, moves
        # with a perfect-recall tensor, each viewer's observation vectors so
        # far, one linked list each as `seen`; None without
        self.rows = rows
        self.memo = {}

    def __deepcopy__(self, memo):
        return self

    def __reduce__(self):
        r = self.rules
        rows = None if self.rows is None else [_unlinked(v) for v in self.rows]
        return (_moment_from_save, (r.rulebook, r.players, r.options,
                                    r.game.state_to_json(self.state),
                                    [_unlinked(s) for s in self.seen], self.moves, rows))

    def after(self, state, texts) -> "_Moment":
        rows = self.rows
        if rows is not None:
            rows = tuple((chain, _vector(self.rules, state, viewer))
                         for chain, viewer in zip(rows, _viewers(self.rules)))
        return _Moment(self.rules, state,
                       tuple((seen, text) for seen, text in zip(self.seen, texts)),
                       self.moves + 1, rows)

    def kept(self, key, work):
        found = self.memo.get(key)
        if found is None:
            found = self.memo[key] = work()
        return found

    def legal_ids(self, player: int) -> list:
        return self.kept(("legal", player), lambda: self.rules.space.legal_ids(self.state, player))

    def text(self, viewer) -> str:
        return self.kept(("text", viewer), lambda: self.rules.observation_text(self.state, viewer))

    def vector(self, viewer) -> list:
        if self.rows is not None:           # the newest row is the vector now
            return self.rows[_place(viewer)][1]
        return self.kept(("vector", viewer),
                         lambda: self.rules.game.observation(self.state, viewer))

    def saved(self) -> str:
        return self.kept("saved", lambda: json.dumps(
            self.rules.game.state_to_json(self.state)["state"], separators=(",", ":")))


def _moment_from_save(rulebook, players, options, save, seen, moves, rows=None) -> _Moment:
    rules = load(rulebook, players, options)
    return _Moment(rules, rules.game.state_from_json(save), _linked(seen), moves,
                   None if rows is None else _linked(rows))


def _linked(lists) -> tuple:
    """One linked list (`(rest, last)`) of each list's items."""
    linked = []
    for items in lists:
        chain = None
        for item in items:
            chain = (chain, item)
        linked.append(chain)
    return tuple(linked)


def _viewers(rules) -> tuple:
    """The seats, then a spectator (None): whose strings and tensors a moment keeps."""
    return (*range(rules.players), None)


def _vector(rules, state, viewer):
    import numpy as np

    return np.asarray(rules.game.observation(state, viewer), np.float32)


def _place(viewer) -> int:
    """Where a viewer's list is in a moment's `seen` and `rows`: a seat's
    own, the spectator's (None) last."""
    return -1 if viewer is None else viewer


def _as_seen_by(chains: tuple, player: int) -> tuple:
    """The viewers' lists of a state resampled for `player`: the player's
    own; every other seat's past is what a spectator saw of it."""
    public = chains[-1]
    return tuple(c if seat == player else public for seat, c in enumerate(chains[:-1])) + (public,)


def _unlinked(chain) -> list:
    out = []
    while chain is not None:
        chain, text = chain
        out.append(text)
    return out[::-1]


def _parameters(params: dict) -> dict:
    """The parameters completed and checked, the options in the form a game
    string keeps."""
    given = {**PARAMETERS, **dict(params or {})}
    unknown = set(given) - set(PARAMETERS)
    if unknown:
        raise OptionError(f"unknown parameter '{sorted(unknown)[0]}' of {NAME}",
                          hint="parameters: " + ", ".join(PARAMETERS))
    if not given["rulebook"]:
        raise OptionError(f"{NAME} needs a rulebook", hint=f"{NAME}(rulebook=NAME_OR_PATH)")
    if given["returns"] not in RETURNS:
        raise OptionError(f"returns is one of {', '.join(RETURNS)}, not '{given['returns']}'")
    if given["utility"] and given["utility"] not in UTILITIES:
        raise OptionError(f"utility is one of {', '.join(UTILITIES)}, not '{given['utility']}'")
    if given["utility"] and given["returns"] != "score":
        raise OptionError("utility is declared only with returns=score",
                          hint="returns=outcome is zero-sum, returns=win_share constant-sum")
    if given["information_state_tensor"] not in TENSORS:
        raise OptionError(f"information_state_tensor is one of {', '.join(TENSORS)}, "
                          f"not '{given['information_state_tensor']}'")
    given["options"] = options_text(parse_options(given["options"]))
    return given


@lru_cache(maxsize=None)
def _classes():
    import numpy as np
    import pyspiel

    kind = pyspiel.GameType

    class RulebookGame(pyspiel.Game):
        """A rulebook as an OpenSpiel game (see the module)."""

        def __init__(self, params=None):
            params = _parameters(params)
            rules = load(params["rulebook"], params["players"], params["options"])
            self.returns_kind = params["returns"]
            alone = rules.players == 1
            if self.returns_kind == "outcome":
                # +1 shared by the winners, -1 by the others, 0 all round for
                # a draw or a victory of all; a player alone has nobody to beat
                utility = kind.Utility.GENERAL_SUM if alone else kind.Utility.ZERO_SUM
                low, high = (0.0 if alone else -1.0), 1.0
            elif self.returns_kind == "win_share":
                utility = kind.Utility.GENERAL_SUM if alone else kind.Utility.CONSTANT_SUM
                low, high = 0.0, 1.0
            else:
                utility = getattr(kind.Utility, (params["utility"] or "general_sum").upper())
                low, high = params["min_utility"], params["max_utility"]
                if low >= high:
                    low, high = -UNBOUNDED, UNBOUNDED
            information = (kind.Information.PERFECT_INFORMATION if rules.perfect_information
                           else kind.Information.IMPERFECT_INFORMATION)
            chance = (kind.ChanceMode.EXPLICIT_STOCHASTIC if rules.draws
                      else kind.ChanceMode.DETERMINISTIC)
            game_type = _game_type(pyspiel, chance, information, utility, rules.game.min_players,
                                   rules.game.max_players)
            sums = {kind.Utility.ZERO_SUM: 0.0,
                    kind.Utility.CONSTANT_SUM: (1.0 if self.returns_kind == "win_share"
                                                else params["utility_sum"])}
            info = pyspiel.GameInfo(num_distinct_actions=rules.actions,
                                    max_chance_outcomes=rules.chance_outcomes,
                                    num_players=rules.players,
                                    min_utility=low, max_utility=high,
                                    utility_sum=sums.get(utility),
                                    max_game_length=params["max_game_length"])
            super().__init__(game_type, info, params)
            self.rules = rules
            self.utility = utility
            self.max_length = params["max_game_length"]
            self.low, self.high = low, high
            self.recall = params["information_state_tensor"] == "recall"
            width = len(rules.observation_names)
            if self.recall and (self.max_length + 1) * width > MAX_RECALL_ENTRIES:
                raise OptionError(
                    f"a perfect-recall tensor of {self.max_length + 1} moments of "
                    f"{width} numbers is more than {MAX_RECALL_ENTRIES:,} numbers",
                    hint="give max_game_length the most moves a game of it takes")
            start = rules.new_game(seed=0, chance=True)
            rows = None
            if self.recall:
                rows = tuple((None, _vector(rules, start, v)) for v in _viewers(rules))
            self.start = _Moment(rules, start, (None,) * (rules.players + 1), 0, rows)

        def new_initial_state(self):
            return RulebookState(self)

        def __reduce__(self):
            return (_game_from_string, (str(self),))

        def make_py_observer(self, iig_obs_type=None, params=None):
            recall = (self.max_length if self.recall and iig_obs_type is not None
                      and iig_obs_type.perfect_recall else None)
            return RulebookObserver(self.rules, iig_obs_type, params, recall)

    class RulebookState(pyspiel.State):
        """A moment of a game; OpenSpiel's state API over the engine's."""

        def __init__(self, game):
            super().__init__(game)
            self.moment = game.start

        # -- who moves, and what they may do ------------------------------
        def current_player(self):
            m = self.moment
            if self.is_terminal():
                return pyspiel.PlayerId.TERMINAL
            if m.rules.game.is_chance(m.state):
                return pyspiel.PlayerId.CHANCE
            return m.rules.game.to_move(m.state)[0]

        def is_terminal(self):
            m = self.moment
            return m.state.over or m.moves >= self.get_game().max_length

        def _legal_actions(self, player):
            return list(self.moment.legal_ids(player))

        def chance_outcomes(self):
            m = self.moment
            return m.rules.chance_ids(m.state)

        def _apply_action(self, action):
            m = self.moment
            rules = m.rules
            if rules.game.is_chance(m.state):
                chosen = rules.chance_outcome(m.state, action)
            else:
                chosen = rules.action(rules.game.to_move(m.state)[0], action, m.state)
            state = rules.game.apply(m.state, chosen)
            texts = rules.transition_texts(
                lambda viewer: f"{_who(chosen.player)} {chosen.text_for(viewer)}",
                m.state, state, chosen.player == CHANCE)
            self.moment = m.after(state, texts)

        def _action_to_string(self, player, action):
            m = self.moment
            if player == pyspiel.PlayerId.CHANCE:
                return str(m.rules.chance_outcome(m.state, action))
            return str(m.rules.action(player, action))

        # -- the end ---------------------------------------------------------
        def returns(self):
            m = self.moment
            outcome = m.rules.game.outcome(m.state)
            if outcome is None:
                return [0.0] * m.rules.players
            game = self.get_game()
            paid = m.rules.rewards(outcome, game.returns_kind)
            if game.returns_kind != "score":
                return paid
            if game.utility == kind.Utility.ZERO_SUM:
                paid = centred(paid)
            _check_declared(game, paid)
            return paid

        # -- for ISMCTS --------------------------------------------------------
        def resample(self, player, rng):
            """A state `player` cannot tell from this one: the cards they do
            not see dealt again at random (`sample_state`; the others'
            hidden picks of a simultaneous step are then made again after
            theirs); every other seat's past is what a spectator saw of it."""
            m = self.moment
            game = m.rules.game
            state = sample_state(game, information_state(game, m.state, player), rng)
            rows = None if m.rows is None else _as_seen_by(m.rows, player)
            other = self.get_game().new_initial_state()
            other.moment = _Moment(m.rules, state, _as_seen_by(m.seen, player), m.moves, rows)
            return other

        def __reduce__(self):
            return (_state_from_text, (self.get_game(), self.serialize()))

        def __str__(self):
            return self.moment.saved()

    class RulebookObserver:
        """Strings and tensors of one viewer (the seat, or with no private
        information a spectator); with perfect recall, the string adds what
        the viewer saw of every move, and with `information_state_tensor=
        recall` (`recall`: the game's longest length) the tensor holds the
        viewer's observation vector after every move so far, a row each,
        the rows past the present zero."""

        def __init__(self, rules, iig_obs_type, params, recall=None):
            if params:
                raise ValueError(f"observation parameters are not supported; passed {params}")
            private = (iig_obs_type.private_info if iig_obs_type is not None
                       else pyspiel.PrivateInfoType.SINGLE_PLAYER)
            if private == pyspiel.PrivateInfoType.ALL_PLAYERS or (
                    iig_obs_type is not None and not iig_obs_type.public_info):
                raise ValueError("the observers are a seat's own or a spectator's, with the "
                                 "public information")
            self.rules = rules
            self.own = private == pyspiel.PrivateInfoType.SINGLE_PLAYER
            self.recall = iig_obs_type is not None and iig_obs_type.perfect_recall
            width = len(rules.observation_names)
            self.length = recall
            if recall is None:
                self.tensor = np.zeros(width, np.float32)
                self.dict = {"observation": self.tensor}
            else:
                self.tensor = np.zeros((recall + 1) * width, np.float32)
                self.dict = {"history": self.tensor.reshape(recall + 1, width)}

        def set_from(self, state, player):
            m = state.moment
            viewer = player if self.own else None
            if self.length is None:
                self.tensor[:] = m.vector(viewer)
                return
            history = self.dict["history"]
            rows = _unlinked(m.rows[_place(viewer)])
            history[:len(rows)] = rows
            history[len(rows):] = 0.0

        def string_from(self, state, player):
            m = state.moment
            viewer = player if self.own else None
            if not self.recall:
                return m.text(viewer)
            return m.kept(("recall", viewer), lambda: "\n".join(
                [*_unlinked(m.seen[_place(viewer)]), m.text(viewer)]))

    return RulebookGame, RulebookState, RulebookObserver


def _game_from_string(text: str):
    import pyspiel

    register()
    return pyspiel.load_game(text)


def _state_from_text(game, text: str):
    return game.deserialize_state(text)


def _who(player: int) -> str:
    return "chance" if player == CHANCE else f"P{player}"


def _check_declared(game, paid: list) -> None:
    """Scores declared zero- or constant-sum, or within bounds, must be so."""
    import pyspiel

    kind = pyspiel.GameType.Utility
    total = sum(paid)
    if game.utility == kind.ZERO_SUM and abs(total) > 1e-9:
        raise OptionError(f"utility=zero_sum, but the scores {paid} add up to {total}")
    if game.utility == kind.CONSTANT_SUM and abs(total - game.utility_sum()) > 1e-9:
        raise OptionError(f"utility=constant_sum, but the scores {paid} add up to {total}")
    if game.utility == kind.IDENTICAL and len(set(paid)) > 1:
        raise OptionError(f"utility=identical, but the scores {paid} differ")
    if any(not game.low <= p <= game.high for p in paid):
        raise OptionError(f"the scores {paid} lie outside min_utility={game.low}, "
                          f"max_utility={game.high}")
