"""Rough edges of the table: the player rules a screenful at a time, save
prompts that refuse text which is no file name (and ask again), `new` that
asks before it keeps the finished game, and `undo` in hot-seat play, which
takes back only the asking player's own moves."""

from __future__ import annotations

import io

import pytest
from rich.console import Console
from rich.markdown import Markdown

from interpreter import load_rulebook
from interpreter.terminal.repl import MORE, Repl, read_save
from interpreter.presentation.rules import rules_text

SEED = 7
WIDTH, HEIGHT = 120, 45
DEFAULT = "hanamikoji-7.save.json"


@pytest.fixture(scope="module")
def game():
    return load_rulebook("hanamikoji")


class Script:
    """Input lines, written after their prompts; a line that is an exception
    class is raised instead (EOFError: the end of input, KeyboardInterrupt:
    Ctrl-C), and a function is called with the REPL for the line to type.
    Every prompt asked is kept."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.out = io.StringIO()
        self.prompts = []

    def __call__(self, prompt):
        self.prompts.append(prompt)
        if not self.lines:
            self.out.write(prompt)
            raise EOFError
        line = self.lines.pop(0)
        if callable(line) and not isinstance(line, type):
            line = line(self.repl)
        if isinstance(line, type):
            self.out.write(prompt + "\n")
            raise line
        self.out.write(f"{prompt}{line}\n")
        return line


def session(game, lines, tmp_path, ai=None, players=2, rulebook="hanamikoji"):
    script = Script(lines)
    console = Console(file=script.out, width=WIDTH, height=HEIGHT, color_system=None,
                      force_terminal=False, legacy_windows=False)
    repl = Repl(game, players=players, seed=SEED, ai=ai, console=console, input_fn=script,
                save_dir=str(tmp_path), rulebook=rulebook)
    script.repl = repl
    code = repl.run()
    return repl, script, code


# -- the rules, a screenful at a time ------------------------------------------------

def rules_lines() -> int:
    """The lines Hanamikoji's rules for players take at the tests' width."""
    console = Console(file=io.StringIO(), width=WIDTH, height=HEIGHT, color_system=None)
    return len(console.render_lines(Markdown(rules_text("hanamikoji")), pad=False))


def test_rules_come_a_screenful_at_a_time_and_q_stops(game, tmp_path):
    total = rules_lines()
    assert total > 2 * (HEIGHT - 1)          # more than two pages: the test means something
    _, script, code = session(game, ["", "rules", "", "q", "quit"], tmp_path)
    out = script.out.getvalue()
    pages = out.split("> rules\n", 1)[1].split(MORE)
    assert len(pages) == 3                   # a page, Enter, a page, q: no third prompt
    assert len(pages[0].splitlines()) == HEIGHT - 1
    assert len(pages[1].splitlines()) == HEIGHT   # the answer's line, then a page
    assert script.prompts.count(MORE) == 2 and code == 0
    assert "Legal actions" in pages[2]       # q: the table comes back


def test_every_page_of_the_rules_with_enter_then_the_table(game, tmp_path):
    total = rules_lines()
    pages = -(-total // (HEIGHT - 1))
    _, script, _ = session(game, ["", "rules", *[""] * pages, "quit"], tmp_path)
    assert script.prompts.count(MORE) == pages - 1     # none after the last page
    after = script.out.getvalue().split("> rules\n", 1)[1]
    assert len(after.split("Legal actions", 1)[0].splitlines()) > total


@pytest.mark.parametrize("end", [EOFError, KeyboardInterrupt])
def test_the_end_of_input_at_the_pager_stops_paging_and_loses_nothing(game, tmp_path, end):
    state = game.new_game(players=2, seed=SEED)
    move = str(game.legal_actions(state, game.to_move(state)[0])[0])
    saved = tmp_path / "x.json"
    repl, script, code = session(game, ["", move, "", "rules", end, "quit", str(saved)], tmp_path)
    out = script.out.getvalue()
    assert script.prompts.count(MORE) == 1
    # the table again, then the next prompt: the game goes on to be saved
    assert "Legal actions" in out.split(MORE, 1)[1]
    assert read_save(game, str(saved))[1] == repl.actions != []
    assert code == 0


def test_rules_that_fit_one_screen_ask_nothing(tmp_path):
    kuhn = load_rulebook("kuhn-poker")
    console = Console(file=io.StringIO(), width=WIDTH, height=400, color_system=None)
    script = Script(["", "rules", "quit"])
    repl = Repl(kuhn, players=2, seed=SEED, console=console, input_fn=script,
                save_dir=str(tmp_path), rulebook="kuhn-poker")
    repl.run()
    assert MORE not in script.prompts


# -- save prompts take only a file name ----------------------------------------------

COMMAND = "python -m interpreter play hanamikoji --ai 1=random"


def first_move(game) -> str:
    state = game.new_game(players=2, seed=SEED)
    return str(game.legal_actions(state, game.to_move(state)[0])[0])


@pytest.mark.parametrize("text", [COMMAND, "my game.json", "--ai", "a\x1b[31mb", ".", "''"])
def test_save_refuses_text_that_is_no_file_name_and_writes_nothing(game, tmp_path, text):
    repl, script, _ = session(game, ["", first_move(game), "", f"save {text}", "quit", "no"],
                              tmp_path)
    out = script.out.getvalue()
    assert "error[command/not-a-file-name]" in out and "hint:" in out
    assert repl.saved == () and list(tmp_path.iterdir()) == []


def test_a_quoted_name_may_have_spaces(game, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    repl, script, _ = session(game, ["", first_move(game), "", "save 'my game.json'",
                                     'load "my game.json"', "quit"], tmp_path)
    assert read_save(game, str(tmp_path / "my game.json"))[1] == repl.actions != []
    assert "error[" not in script.out.getvalue()


def test_leaving_asks_again_after_an_answer_that_is_no_file_name(game, tmp_path):
    chosen = tmp_path / "chosen.json"
    repl, script, code = session(game, ["", first_move(game), "", "quit", COMMAND, str(chosen)],
                                 tmp_path)
    out = script.out.getvalue()
    assert script.prompts.count("save to> ") == 2 and code == 0
    assert out.count("error[command/not-a-file-name]") == 1
    assert read_save(game, str(chosen))[1] == repl.actions != []
    assert [p.name for p in tmp_path.iterdir()] == ["chosen.json"]    # no file named 'python …'


@pytest.mark.parametrize("then", [["--x", "a b", "-y"], ["--x", EOFError],
                                  ["a b", KeyboardInterrupt]])
def test_leaving_after_repeated_bad_answers_or_no_answer_saves_to_the_default(game, tmp_path,
                                                                              then):
    repl, script, code = session(game, ["", first_move(game), "", "quit", *then], tmp_path)
    assert code == 0
    assert script.prompts.count("save to> ") == len(then)     # asked again after each
    assert read_save(game, str(tmp_path / DEFAULT))[1] == repl.actions != []
    assert [p.name for p in tmp_path.iterdir()] == [DEFAULT]


def test_no_in_quotes_at_the_leaving_prompt_is_no(game, tmp_path):
    _, _, code = session(game, ["", first_move(game), "", "quit", "'no'"], tmp_path)
    assert code == 0 and list(tmp_path.iterdir()) == []


# -- new asks before it keeps the finished game ------------------------------------

def to_the_end(game, tmp_path, after):
    """A game against a random AI played to the end, the first legal action
    typed at each decision (an empty line, refused, once it is over), then
    `after`."""
    me = game.to_move(game.new_game(players=2, seed=SEED))[0]

    def first_legal(repl):
        if repl.game.outcome(repl.state) is not None:
            return ""
        return str(repl.game.legal_actions(repl.state, me)[0])
    return session(game, [first_legal] * 150 + after, tmp_path, ai={1 - me: "random"})


def test_new_asks_where_to_save_the_finished_game(game, tmp_path):
    chosen = tmp_path / "finished.json"
    repl, script, _ = to_the_end(game, tmp_path, ["new", COMMAND, str(chosen), "quit", "no"])
    out = script.out.getvalue()
    assert "Save this game before a new one? Enter saves to" in out
    assert out.count("error[command/not-a-file-name]") == 1
    assert read_save(game, str(chosen))[0][-1].over
    assert repl.seed == SEED + 1 and [p.name for p in tmp_path.iterdir()] == ["finished.json"]


def test_new_with_enter_saves_to_the_default_and_no_saves_nothing(game, tmp_path):
    repl, _, _ = to_the_end(game, tmp_path, ["new", "", "quit", "no"])
    assert read_save(game, str(tmp_path / DEFAULT))[0][-1].over and repl.seed == SEED + 1
    (tmp_path / DEFAULT).unlink()
    repl, _, _ = to_the_end(game, tmp_path, ["new", "no", "quit", "no"])
    assert repl.seed == SEED + 1 and list(tmp_path.iterdir()) == []


def test_new_keeps_the_game_when_its_file_cannot_be_written(game, tmp_path):
    repl, script, _ = to_the_end(game, tmp_path, ["new", str(tmp_path / "no" / "such.json"),
                                                  "quit", ""])
    out = script.out.getvalue()
    assert "error[save/io]" in out and "not replaced by a new game" in out
    assert repl.seed == SEED                       # the finished game stays
    assert read_save(game, str(tmp_path / DEFAULT))[0][-1].over    # and is kept on leaving


# -- undo in hot-seat play: each takes back only their own moves ---------------------

def opening(game, n=3):
    """The first n moves of the game at SEED (each the first legal action) and
    who made them."""
    state, moves = game.new_game(players=2, seed=SEED), []
    for _ in range(n):
        player = game.to_move(state)[0]
        action = game.legal_actions(state, player)[0]
        moves.append((player, str(action)))
        state = game.apply(state, action)
    return moves


def test_undo_in_hot_seat_is_refused_when_another_human_has_moved_since(game, tmp_path):
    (p, m1), (q, m2), _ = opening(game)
    repl, script, _ = session(game, ["", m1, "", "undo", m2, "", "undo", "quit", "no"], tmp_path)
    out = script.out.getvalue()
    refused = "error[command/not-your-move]: P{0} has moved since; only P{0} can take that back"
    assert refused.format(p) in out and refused.format(q) in out
    assert [(a.player, str(a)) for a in repl.actions] == [(p, m1), (q, m2)]   # nothing taken back


def test_the_mover_takes_back_a_move_before_passing_the_device_on(game, tmp_path):
    (p, m1), (q, m2), _ = opening(game)
    repl, script, _ = session(game, ["", m1, "", m2, "undo", "", "quit", "no"], tmp_path)
    out = script.out.getvalue()
    assert f"P{q}: 'undo' takes back your move." in out
    assert f"P{q} takes back: {m2}\n" in out
    assert [(a.player, str(a)) for a in repl.actions] == [(p, m1)]
    # the table that follows is the mover's again, without a hand-over: the
    # other player's hand is never on the mover's screen
    after = out.split("takes back:", 1)[1]
    assert f"view of P{q}" in after and f"view of P{p}" not in after
    assert "Pass the device" not in after.split(f"P{q}> ", 1)[0]


def test_undo_against_an_ai_says_what_it_took_back(game, tmp_path):
    state = game.new_game(players=2, seed=SEED)
    me = game.to_move(state)[0]
    move = str(game.legal_actions(state, me)[0])
    seen = {}

    def undo(repl):
        seen["ai"] = repl.game.log(repl.states, repl.actions, me)[1:]
        return "undo"
    repl, script, _ = session(game, [move, undo, "undo", "quit"], tmp_path, ai={1 - me: "random"})
    out = script.out.getvalue()
    ai = seen["ai"]
    said = f"P{me} takes back: {move} (and P{1 - me}'s move{'s' if len(ai) > 1 else ''}: " \
           f"{' · '.join(ai)})"
    assert ai and said in out
    assert repl.actions == [] and len(repl.states) == 1
    assert "error[command/usage]: nothing to undo" in out


def test_undo_in_hot_seat_takes_back_the_ai_moves_after_the_askers(tmp_path):
    """Three seats, two of them human: P1's undo before passing the device
    takes back P1's move and the AI's after it, never P0's."""
    lanterns = load_rulebook("lanterns")
    done = {}
    out = io.StringIO()

    def read(prompt):
        if prompt == "save to> ":
            line = "no"
        elif prompt == "":          # a hand-over; after P1's move and the AI's, P1 takes back
            moved = [a.player for a in repl.actions]
            line = ""
            if repl.shown_to == 1 and moved[-1:] == [2] and 1 in moved and not done:
                done["before"] = list(repl.actions)
                line = "undo"
        elif len(repl.actions) > 12:
            line = "quit"
        else:
            line = str(repl.game.legal_actions(repl.state, repl.decider(repl.state))[0])
        out.write(f"{prompt}{line}\n")
        return line

    console = Console(file=out, width=WIDTH, height=HEIGHT, color_system=None)
    repl = Repl(lanterns, players=3, seed=SEED, ai={2: "random"}, console=console,
                input_fn=read, save_dir=str(tmp_path), rulebook="lanterns")
    assert repl.run() == 0
    before = done["before"]
    k = max(i for i, a in enumerate(before) if a.player == 1)
    assert {a.player for a in before[k + 1:]} == {2}
    text = out.getvalue()
    assert f"P1 takes back: {before[k]} (and P2's move" in text
    assert text.count("takes back:") == 1
    assert repl.actions[:k] == before[:k]       # P0's moves as they were


# -- seats are named as the screen names them ---------------------------------------

@pytest.mark.parametrize("rulebook", ["hanamikoji", "variants/hanamikoji-p0-starts"])
def test_the_option_that_names_the_start_player_names_the_seat_the_screen_shows(tmp_path,
                                                                              rulebook):
    options = {"first_player": "P0"} if rulebook == "hanamikoji" else None
    game = load_rulebook(rulebook, options=options)
    assert game.options["first_player"] == "P0"
    for seed in range(5):
        assert game.to_move(game.new_game(players=2, seed=seed)) == (0,)
    _, script, _ = session(game, ["quit"], tmp_path, ai={1: "random"}, rulebook=rulebook)
    assert script.prompts[0] == "P0> "
    if options:
        assert "Options: first_player=P0." in script.out.getvalue()
