"""Scripted REPL sessions: input is a list of lines, output a fixed-width text.

The sessions play real Hanamikoji (2 players; a player's hand is the `hand`
zone). Each test asks the engine for the facts it needs (legal actions, the
next decider) instead of hard-coding a deal, so a change of shuffle does not
break them.
"""

from __future__ import annotations

import io
import tempfile
import json

import pytest
from rich.console import Console

from interpreter.terminal.render import zone_contents, TableView, render_to_text
from interpreter.presentation.options import parameters
from interpreter.terminal.repl import Repl

WIDTH = 100
SEED = 7
# Hanamikoji's first decision offers over a hundred actions, chosen step by
# step: option 1 (its first action's name), then option 1 (its first card)
# lead to the first legal action, which Enter confirms.
FIRST = ["1", "1", ""]


# the saves a session makes when its input ends with moves unsaved
SAVES = tempfile.TemporaryDirectory()

@pytest.fixture(scope="module")
def game():
    from interpreter import load_rulebook
    return load_rulebook("hanamikoji")


class Session:
    """A REPL fed from a list of lines; the transcript includes the prompts."""

    def __init__(self, game, lines, seed=SEED, ai=None):
        self.out = io.StringIO()
        self.lines = list(lines)
        console = Console(file=self.out, width=WIDTH, color_system=None,
                          force_terminal=False, legacy_windows=False)
        self.repl = Repl(game, players=2, seed=seed, ai=ai, console=console,
                         input_fn=self.read, save_dir=SAVES.name)

    def read(self, prompt):
        if not self.lines:
            self.out.write(prompt)  # a terminal shows the prompt, then the end of input
            raise EOFError
        line = self.lines.pop(0)
        self.out.write(f"{prompt}{line}\n")
        return line

    def run(self) -> str:
        self.code = self.repl.run()
        return self.out.getvalue()


def start(game, seed=SEED):
    state = game.new_game(players=2, seed=seed)
    player = game.to_move(state)[0]
    return state, player, game.legal_actions(state, player)


def vs_ai(game, seed=SEED):
    """The seat that decides first plays; the other is a random AI."""
    state, player, legal = start(game, seed)
    return {1 - player: "random"}


def forms(game) -> dict:
    return parameters(game.ir)


def screen(game, state, player) -> str:
    actions = [str(a) for a in game.legal_actions(state, player)]
    return render_to_text(TableView(game.view(state, player), actions, forms(game)), WIDTH)


def test_a_number_plays_that_legal_action_of_a_short_list():
    from interpreter import load_rulebook
    kuhn = load_rulebook("kuhn-poker")
    state, player, legal = start(kuhn)
    assert len(legal) < 10
    session = Session(kuhn, ["", str(len(legal))])
    out = session.run()
    assert session.repl.actions == [legal[-1]]
    assert session.repl.state == kuhn.apply(state, legal[-1])
    assert f"  {len(legal)}. {legal[-1]}" in out        # listed, numbered, as before
    assert session.code == 0


def test_numbers_chosen_step_by_step_play_the_first_legal_action(game):
    state, player, legal = start(game)
    session = Session(game, ["", *FIRST])
    session.run()
    assert session.repl.actions == [legal[0]]
    assert session.repl.state == game.apply(state, legal[0])


def test_an_action_text_plays_that_action_ignoring_case_and_spaces(game):
    state, player, legal = start(game)
    chosen = legal[-1]
    session = Session(game, ["", "  " + "   ".join(str(chosen).upper().split())])
    session.run()
    assert session.repl.actions == [chosen]


def test_illegal_or_mistyped_input_prints_its_code_and_changes_nothing(game):
    state, player, legal = start(game)
    session = Session(game, ["", "no such move", str(len(legal) + 1), "0"])
    out = session.run()
    assert out.count("error[action/unknown]") == 3
    assert session.repl.states == [state]
    assert session.repl.actions == []


def test_undo_goes_back_to_the_previous_human_decision_past_ai_moves(game):
    state, player, legal = start(game)
    session = Session(game, [*FIRST, "undo", "undo"], ai=vs_ai(game))
    out = session.run()
    assert "(AI) plays:" in out
    assert session.repl.states == [state]
    assert session.repl.actions == []
    # The second undo has nothing left to take back.
    assert "error[command/usage]: nothing to undo" in out


def test_log_hides_the_other_players_hidden_action(game):
    state, player, legal = start(game)
    other = 1 - player
    hidden = next(a for a in legal if a.text_for(other) != str(a))  # HK-P3 secret
    session = Session(game, ["", str(hidden), "", "log"])
    out = session.run()
    assert game.to_move(session.repl.state) == (other,)
    log = out.split(f"P{other}> log\n", 1)[1].split("End of input.")[0].splitlines()
    assert log == [f"1. P{player}: {hidden.text_for(other)}", f"P{other}> "]
    assert str(hidden) not in log[0]


def test_save_then_load_restores_the_same_game(game, tmp_path):
    path = tmp_path / "game.json"
    session = Session(game, ["1", f"save {path}", "1", "", "1", f"load {path}"],
                      ai=vs_ai(game))
    out = session.run()
    assert f"Saved to {path}." in out and f"Loaded {path}" in out
    saved = json.loads(path.read_text())
    assert session.repl.state == game.state_from_json(saved["state"])
    assert [str(a) for a in session.repl.actions] == [h["action"] for h in saved["history"]]

    fresh = Session(game, [f"load {path}"], ai=vs_ai(game))
    fresh.run()
    assert fresh.repl.states == session.repl.states


def test_a_corrupt_or_foreign_save_is_refused_and_the_game_goes_on(game, tmp_path):
    state, player, legal = start(game)
    broken = tmp_path / "broken.json"
    broken.write_text("{not json")
    good = tmp_path / "good.json"
    Session(game, ["", *FIRST, "", f"save {good}"]).run()
    data = json.loads(good.read_text())
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({**data, "game": "Another Game"}))
    edited = tmp_path / "edited.json"
    edited.write_text(json.dumps({**data, "history": data["history"] * 2}))

    session = Session(game, ["", f"load {broken}", f"load {foreign}",
                             f"load {edited}", f"load {tmp_path / 'missing.json'}", *FIRST])
    out = session.run()
    assert out.count("error[save/corrupt]") == 2
    assert "error[save/mismatch]" in out
    assert "error[save/io]" in out
    assert "Traceback" not in out
    assert session.repl.actions == [legal[0]]


def test_hot_seat_hands_over_and_never_shows_the_other_hand(game):
    # HK-P9: a hand is seen by its owner only; the other sees its size.
    state, p0, legal = start(game)
    after = game.apply(state, legal[0])
    p1 = game.to_move(after)[0]
    assert p1 != p0
    session = Session(game, ["", *FIRST, ""])
    out = session.run()

    handover = f"Pass the device to P{p1}, press Enter\n"
    assert out.count("Pass the device to") == 2
    before, private = out.split(handover, 1)
    private, leaving = private.split("End of input.")
    # After the hand-over only P1's own view is printed, exactly as rendered,
    # under P0's last move as P1 may see it.
    last = f"Last moves: P{p0}: {legal[0].text_for(p1)}\n"
    assert private == "\n" + last + screen(game, after, p1) + f"P{p1}> \n"
    assert str(legal[0]) not in leaving          # leaving saves the game; it shows no card
    hand = next(z for z in game.view(after, p0)["zones"]
                if z["name"] == "hand" and z["owner"] == p0)
    assert f"P{p0}: {hand['count']} cards" in private
    assert zone_contents(hand) not in private and zone_contents(dict(hand, cards=None)) in private
    # P0 had seen their own hand, before the device changed hands.
    first_hand = next(z for z in game.view(state, p0)["zones"]
                      if z["name"] == "hand" and z["owner"] == p0)
    assert zone_contents(first_hand) in before


def test_ai_moves_are_printed_as_the_human_may_see_them(game):
    ai = vs_ai(game)
    session = Session(game, FIRST, ai=ai)
    out = session.run()
    human = 1 - next(iter(ai))
    ai_actions = [a for a in session.repl.actions if a.player != human]
    assert ai_actions
    for action in ai_actions:
        assert f"(AI) plays: {action.text_for(human)}\n" in out


class Ones(Session):
    """Types the first option at every step and confirms the action it leads
    to; at the end, quits without saving."""

    def __init__(self, game, reads, **kw):
        super().__init__(game, [], **kw)
        self.reads = reads

    def read(self, prompt):
        answers = {"game over> ": "quit", "save to> ": "no"}
        self.lines = [] if self.reads == 0 else [
            answers.get(prompt) or ("yes" if prompt.endswith("?> ") else "1")]
        self.reads -= 1
        return super().read(prompt)


def test_a_game_played_to_the_end_prints_the_outcome(game):
    session = Ones(game, 600, ai=vs_ai(game))
    out = session.run()
    outcome = game.outcome(session.repl.state)
    assert outcome is not None
    assert "Game over." in out
    assert "Winner" in out
    assert all(f"P{p}" in out.split("Game over.")[1] for p in outcome.winners)
    assert session.code == 0


def test_help_and_quit(game):
    session = Session(game, ["", "help", "quit", "1"])
    out = session.run()
    assert "save FILE" in out and "undo" in out
    assert session.repl.actions == []
    assert session.code == 0


# The view of docs/api.md, drawn at a fixed width.
API_VIEW = {
    "game": "Hanamikoji", "players": 2, "viewer": 0,
    "round": 1, "turn": 3, "active": 0, "to_move": [0], "over": False,
    "pending": {"player": 0, "kind": "action", "label": "take an action"},
    "zones": [
        {"name": "hand", "owner": 0, "visibility": "owner", "count": 7,
         "cards": ["G1", "G1", "G3"]},
        {"name": "hand", "owner": 1, "visibility": "owner", "count": 6, "cards": None}],
    "variables": {"start_player": "P0"},
    "player_variables": {},
    "components": {"geisha": [{"name": "G1", "charm": 2, "favour": None}]},
    "used": {"P0": {"secret": 1}, "P1": {}},
    "outcome": None,
}

API_SCREEN = """\
Hanamikoji · round 1 · turn 3 · view of P0 · P0 to decide: take an action
hand  P0: G1 ×2 G3 · P1: 6 cards
geisha                   start_player=P0
name   charm   favour
─────────────────────
G1     2       —
Used: P0: secret
Legal actions:
  1. gift G1 G1 G3
  2. secret G1"""

# The same view in full (`TableView(compact=False)`, the REPL's 'table full').
API_DETAILS = """\
Hanamikoji · round 1 · turn 3 · active P0 · view of P0
Zones                      geisha                   Variables
zone   owner   cards       name   charm   favour    variable       value
───────────────────────    ─────────────────────    ────────────────────
hand   P0      G1 ×2 G3    G1     2       —         start_player   P0
hand   P1      6 cards
Used: P0: secret; P1: none
P0 to decide: take an action
Legal actions:
  1. gift G1 G1 G3
  2. secret G1"""


def test_a_view_renders_compact_with_hidden_zones_as_sizes():
    text = render_to_text(TableView(API_VIEW, ["gift G1 G1 G3", "secret G1"]), WIDTH)
    assert [line.rstrip() for line in text.splitlines()] == API_SCREEN.splitlines()


def test_a_view_renders_in_full_as_tables():
    text = render_to_text(TableView(API_VIEW, ["gift G1 G1 G3", "secret G1"], compact=False),
                          WIDTH)
    assert [line.rstrip() for line in text.splitlines()] == API_DETAILS.splitlines()


# -- a board game: Lanterns' lake is drawn, its placements typed as text ----------

@pytest.fixture(scope="module")
def lanterns():
    from interpreter import load_rulebook
    return load_rulebook("lanterns")


def test_lanterns_draws_the_lake_and_takes_a_typed_placement(lanterns):
    state = lanterns.new_game(players=2, seed=SEED)
    player = lanterns.to_move(state)[0]
    legal = [str(a) for a in lanterns.legal_actions(state, player)]
    typed = next(t for t in legal if t.endswith(", (1,0), 1")).replace(", ", ",  ", 1)
    session = Session(lanterns, ["", "help", typed, "quit"], ai={1 - player: "random"})
    out = session.run()
    assert "lake · north at the top" in out
    assert "· (1,0)" in out and "· (0,-1)" in out          # where a tile may go
    # dozens of placements: chosen step by step, the tile first; typed whole, played
    assert f"Legal actions ({len(legal)}), step by step: place … — choose a tile" in out
    assert "Type place TILE, AT, TURNS" in out.split("quit        leave the game")[1]   # help
    assert [str(a) for a in session.repl.actions[:1]] == [typed.replace(",  ", ", ")]


@pytest.fixture(scope="module")
def paris():
    from interpreter import load_rulebook
    return load_rulebook("paris")


def test_paris_draws_the_board_and_refuses_a_placement_naming_its_cell(paris):
    """The 8 x 8 board is drawn with row 0 at the top, the slots a tile may
    go to marked; a refused tile shows the rulebook's line with its rule."""
    state = paris.new_game(players=2, seed=SEED)
    player = paris.to_move(state)[0]
    legal = [str(a) for a in paris.legal_actions(state, player)]
    tile = legal[0].split(",")[0][len("lay_tile "):]
    session = Session(paris, [f"lay_tile {tile}, (1,1), 0", legal[0], "quit"],
                      ai={1 - player: "random"})
    out = session.run()
    flat = " ".join(out.split())                                        # lines wrap at WIDTH
    assert "city · 8 by 8 · row 0 at the top" in out
    assert "'(1,1)' is not a possible 'at' of 'lay_tile' now" in flat   # not a slot's corner
    assert "# PA-P1 (a)" in flat                                        # the rule's line
    assert "possible now: (0,0), (0,2)" in flat
    assert [str(a) for a in session.repl.actions[:1]] == [legal[0]]


def test_the_other_players_last_moves_stay_on_screen_as_the_viewer_may_see_them(game):
    state, player, legal = start(game)
    hidden = next(a for a in legal if a.text_for(1 - player) != str(a))       # HK-P3 secret
    session = Session(game, ["", str(hidden), ""])
    out = session.run()
    other = 1 - player
    shown = out.split(f"Pass the device to P{other}, press Enter\n", 1)[1]
    assert f"Last moves: P{player}: {hidden.text_for(other)}" in shown
    assert str(hidden) not in shown.split("Legal actions")[0]
