"""Random games that find the mistakes only a game finds (`rulebook validate --play`).

A rulebook that passes every static check can still go wrong in play: a
table change that leaves a player with no legal action (`rule/stuck`), a
formula that fails on a value only some deals produce (`rule/runtime`),
rules that run on without asking anybody (`rule/loop`), a game that never
ends (`rule/endless`: still going after `MAX_DECISIONS` decisions), a
display that fails for a piece only some games show (a `by`, a `drawn as`,
a `shade by`: each game builds the table's views as it goes). `check`
plays seeded random games for every player count of a rulebook and returns
each distinct rule error once — by code and place in the rulebook — with
the player count and seed of the first game that found it. Every seat is
the `random` AI seeded as `rulebook play --ai SEAT=random` seeds it (the
game's seed plus the seat), and the first player to move decides first, as
at the table, so `rulebook play FILE --players N --seed S --ai 0=random
--ai 1=random …` replays a found game move for move. Only the engine's API
is used (`new_game`, `to_move`, `legal_actions`, `advance`, `view`,
`outcome`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..ai.players import make_player
from .end_conditions import described
from .never_legal import Offers
from ..errors import RuleEndless, RuleError, RulebookError, Span, as_rule_error

GAMES = 20                  # games per player count when `--play` names no number
MAX_DECISIONS = 10_000      # as `simulate --max-decisions`: past it a game is endless
VIEW_EVERY = 32             # a game builds a view at every 32nd decision and at its end


@dataclass(frozen=True)
class Finding:
    """A rule error random play ran into: the error as the engine raised it,
    the player count and seed of the first game that found it, and how many
    games did. A finding of all the games together (`rule/never-legal`) has
    `games` 0, and the player count and seed of the game of its last
    refusal (None when there was none)."""

    error: RuleError
    players: int | None
    seed: int | None
    games: int = 1

    def reported(self) -> RuleError:
        """The error as `validate` lists it: its code, place and hint, the
        first line of its message naming the game that found it."""
        first, newline, rest = self.error.message.partition("\n")
        if self.players is not None:
            first += f" ({self.players} players, seed {self.seed})"
        return RuleError(f"{first}{newline}{rest}", self.error.span, hint=self.error.hint,
                         code=self.error.code)


@dataclass
class Report:
    """What `check` found; `played` counts the games played (to their end or
    their error), `skipped` those left out after an endless game (each would
    take as long)."""

    findings: list = field(default_factory=list)
    played: int = 0
    skipped: int = 0


def play_one(game, players: int, seed: int, max_decisions: int = MAX_DECISIONS, offers=None):
    """Plays one random game (see the module doc) to its end and its
    scoring, building views of the table on the way (`_look`): the rule
    error it ran into, or None. `offers` (a `never_legal.Offers`), when
    given, watches every decision's options."""
    bots = [make_player("random", seed=seed + seat) for seat in range(players)]
    try:
        state = game.new_game(players=players, seed=seed)
        looks = 0
        while True:
            deciders = game.to_move(state)
            if not deciders or (state.decisions + seed) % VIEW_EVERY == 0:
                _look(game, state, (seed + looks) % (players + 1))
                looks += 1
            if not deciders:
                game.outcome(state)
                return None
            if state.decisions >= max_decisions:
                return _endless(game, state, max_decisions)
            player = deciders[0]
            actions = game.legal_actions(state, player)
            if offers is not None:
                offers.saw(state, player, actions, seed)
            game.advance(state, bots[player].act(game, None, actions))
    except RuleError as err:
        return err


def _look(game, state, seat: int) -> None:
    """Builds what seat `seat` sees of `state` (`Game.view`; the seat past
    the last one is a spectator), as a screen draws it after a decision, so
    that a display that fails — a zone's `by`, a type's `drawn as`, a grid's
    `shade by` — is found in play. A rule error is the view's own (at the
    define it reads); any other failure of a view is rule/runtime at the
    decision the game stands at.

    A view costs as much as tens of decisions (every zone, drawing and
    option of the viewer written out), so a game builds one at every
    `VIEW_EVERY`-th decision and at its end, each for the next viewer in
    turn, the first decision and viewer moved on by the game's seed: the
    games of a player count look at every viewer, at every point of a game."""
    viewer = None if seat == state.n else seat
    try:
        game.view(state, viewer)
    except RuleError:
        raise
    except Exception as error:  # noqa: BLE001 - any failure of a display is the rulebook's
        who = "a spectator" if viewer is None else f"P{viewer}"
        raise as_rule_error(error, _here(game, state),
                            f"the table could not be shown to {who}") from None


def _here(game, state):
    """The span of the decision the game stands at, or of the rulebook's
    first line once it is over."""
    machine = game.program(state.n).machine
    if state.frames:
        stmt, _ = machine.current_choice(state)
        return machine.span(stmt.at)
    return Span(machine.file, 1, 1)


def _endless(game, state, max_decisions: int) -> RuleEndless:
    """`rule/endless` at the decision the game stands at when it is cut off,
    its message listing the rulebook's ends as they stand then (the
    conditions of its `repeat until`s and of the `if`s above its `end
    game`s, with their values: `end_conditions`)."""
    machine = game.program(state.n).machine
    stmt, _ = machine.current_choice(state)
    return RuleEndless(f"the game is still going after {max_decisions:,} decisions of random "
                       f"players" + described(game, state),
                       machine.span(stmt.at),
                       hint="make sure the game can end: a 'repeat until' that comes true, an "
                            "'end game' that is reached; a game that may rightly go on longer: "
                            "--max-decisions N")


def check(game, games: int = GAMES, seed: int = 0, max_decisions: int = MAX_DECISIONS,
          counts=None) -> Report:
    """Plays `games` random games (dealt with seeds `seed`, `seed + 1`, …)
    for each player count of `game` (or of `counts`); each distinct rule
    error once, sorted by its place in the rulebook. After an endless game
    the other games of that player count are skipped."""
    report = Report()
    found: dict = {}
    offers = Offers(game)
    for players in counts or range(game.min_players, game.max_players + 1):
        for i in range(games):
            error = play_one(game, players, seed + i, max_decisions, offers)
            report.played += 1
            offers.played(players)
            if error is None:
                continue
            key = (error.code, error.span)
            if key in found:
                earlier = found[key]
                found[key] = Finding(earlier.error, earlier.players, earlier.seed,
                                     earlier.games + 1)
            else:
                found[key] = Finding(error, players, seed + i)
            if isinstance(error, RuleEndless):
                report.skipped += games - i - 1
                break
        if offers.refused_in(players):
            offers.explore(players, games, seed, max_decisions)
    for error, players, first in offers.findings():
        found[(error.code, error.span)] = Finding(error, players, first, 0)
    report.findings = sorted(found.values(), key=lambda f: RulebookError.sort_key(f.error))
    return report


__all__ = ["GAMES", "MAX_DECISIONS", "Finding", "Report", "check", "play_one"]
