"""Rough edges of the table: the player rules a screenful at a time, save
prompts that refuse text which is no file name (and ask again), `new` that
asks before it keeps the finished game, and `undo` in hot-seat play, which
takes back only the asking player's own moves."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from interpreter import load_rulebook
from interpreter.terminal.repl import MORE, Repl, read_save
from interpreter.terminal.rules import rules_text

SEED = 7
WIDTH, HEIGHT = 120, 45
DEFAULT = "hanamikoji-7.save.json"


@pytest.fixture(scope="module")
def game():
    return load_rulebook("hanamikoji")


class Script:
    """Input lines, written after their prompts; a line that is an exception
    class is raised instead (EOFError: the end of input, KeyboardInterrupt:
    Ctrl-C). Every prompt asked is kept."""

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
    code = repl.run()
    return repl, script, code


# -- the rules, a screenful at a time ------------------------------------------------

def rules_lines(game) -> int:
    console = Console(file=io.StringIO(), width=WIDTH, height=HEIGHT, color_system=None)
    from rich.markdown import Markdown
    return len(console.render_lines(Markdown(rules_text("hanamikoji")), pad=False))


def test_rules_come_a_screenful_at_a_time_and_q_stops(game, tmp_path):
    total = rules_lines(game)
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
    total = rules_lines(game)
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
