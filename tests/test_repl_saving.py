"""No input loses a game (issue: "never lose a game"): quit, Ctrl-C and the
end of input offer to save first and save where nobody can answer; an
internal error saves before it is reported; at the end the table offers the
log, a save, a new game or quit; `rulebook play --load FILE` resumes."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from interpreter import load_rulebook
from interpreter.terminal import cli
from interpreter.terminal.repl import Repl, read_save

SEED = 7


@pytest.fixture(scope="module")
def game():
    return load_rulebook("hanamikoji")


class Script:
    """Input lines; a line that is an exception class is raised instead
    (KeyboardInterrupt is Ctrl-C, EOFError the end of input)."""

    def __init__(self, lines):
        self.lines = list(lines)
        self.out = io.StringIO()

    def __call__(self, prompt):
        if not self.lines:
            raise EOFError
        line = self.lines.pop(0)
        if isinstance(line, type):
            raise line
        self.out.write(f"{prompt}{line}\n")
        return line


def session(game, lines, tmp_path, ai=None):
    script = Script(lines)
    console = Console(file=script.out, width=400, color_system=None, force_terminal=False)
    repl = Repl(game, players=2, seed=SEED, ai=ai, console=console, input_fn=script,
                save_dir=str(tmp_path), rulebook="hanamikoji")
    code = repl.run()
    return repl, script.out.getvalue(), code


DEFAULT = "hanamikoji-7.save.json"


def test_ctrl_c_with_moves_unsaved_saves_to_the_default_file_on_enter(game, tmp_path):
    repl, out, code = session(game, ["", "1", KeyboardInterrupt, ""], tmp_path)
    assert code == 0 and "Interrupted. Save the game before leaving?" in out
    states, actions, _ = read_save(game, str(tmp_path / DEFAULT))
    assert states[-1] == repl.state and actions == repl.actions
    assert f"rulebook play --load {tmp_path / DEFAULT}" in out


def test_ctrl_c_saves_to_the_file_named(game, tmp_path):
    named = tmp_path / "mine.json"
    repl, out, _ = session(game, ["", "1", KeyboardInterrupt, str(named)], tmp_path)
    assert read_save(game, str(named))[0][-1] == repl.state
    assert not (tmp_path / DEFAULT).exists()


def test_no_means_no(game, tmp_path):
    _, out, code = session(game, ["", "1", "quit", "no"], tmp_path)
    assert code == 0 and "Leaving. Save the game" in out
    assert list(tmp_path.iterdir()) == []


def test_the_end_of_input_saves_where_nobody_can_answer(game, tmp_path):
    repl, out, _ = session(game, ["", "1", EOFError, EOFError], tmp_path)
    assert read_save(game, str(tmp_path / DEFAULT))[0][-1] == repl.state


def test_leaving_with_nothing_new_asks_nothing(game, tmp_path):
    saved = tmp_path / "here.json"
    _, out, _ = session(game, ["", "1", "", f"save {saved}", "quit"], tmp_path)
    assert "Save the game before leaving" not in out
    _, out, _ = session(game, ["", "quit"], tmp_path)
    assert "Save the game before leaving" not in out


def test_a_second_save_of_the_same_game_goes_to_the_same_file(game, tmp_path):
    (tmp_path / DEFAULT).write_text("another game's save")
    repl, out, _ = session(game, ["", "1", KeyboardInterrupt, ""], tmp_path)
    second = tmp_path / "hanamikoji-7-2.save.json"
    assert (tmp_path / DEFAULT).read_text() == "another game's save"
    assert read_save(game, str(second))[0][-1] == repl.state


def test_an_internal_error_saves_the_game_before_it_is_reported(game, tmp_path, monkeypatch):
    calls = {"n": 0}
    real = game.apply

    def failing(state, action):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("a bug")
        return real(state, action)

    monkeypatch.setattr(game, "apply", failing)
    with pytest.raises(RuntimeError):
        session(game, ["", "1", "", "1", "", "1"], tmp_path)
    monkeypatch.undo()
    states, actions, _ = read_save(game, str(tmp_path / DEFAULT))
    assert len(actions) == 2


def test_the_end_offers_log_save_new_game_and_quit(game, tmp_path):
    start = game.new_game(players=2, seed=SEED)
    me = game.to_move(start)[0]
    saved = tmp_path / "finished.json"
    lines = ["1"] * 60                       # plays to the end against the AI; extra 1s are refused
    repl, out, code = session(game, lines + ["log", f"save {saved}", "new", "quit"], tmp_path,
                              ai={1 - me: "random"})
    assert "Game over." in out and "game over> log" in out
    assert read_save(game, str(saved))[0][-1].over
    assert f"a new game, seed {SEED + 1}" in out and repl.seed == SEED + 1
    assert code == 0


def test_play_load_resumes_the_saved_game_where_it_was(game, tmp_path, monkeypatch, capsys):
    """A scripted game interrupted with Ctrl-C, saved, and resumed with --load
    to the same state."""
    repl, _, _ = session(game, ["", "1", "", "1", KeyboardInterrupt, ""], tmp_path)
    path = tmp_path / DEFAULT
    seen = {}
    real_run = Repl.run

    def run_and_keep(self):
        seen["state"], seen["actions"] = self.state, list(self.actions)
        return 0
    monkeypatch.setattr(Repl, "run", run_and_keep)
    assert cli.main(["play", "--load", str(path)]) == 0
    assert seen["state"] == repl.state and seen["actions"] == repl.actions
    monkeypatch.setattr(Repl, "run", real_run)
    assert json.loads(path.read_text())["rulebook"] == "hanamikoji"


def test_play_load_refuses_a_bad_save_and_flags_the_save_decides(tmp_path, capsys):
    bad = tmp_path / "bad.json"
    bad.write_text("[" * 100_000)              # nested too deep for the parser
    assert cli.main(["play", "--load", str(bad)]) != 0
    assert "error[save/corrupt]" in capsys.readouterr().err
    assert cli.main(["play", "--load", str(bad), "--seed", "3"]) != 0
    assert "taken from the save" in capsys.readouterr().err
    assert cli.main(["play"]) != 0
    assert "--load FILE" in capsys.readouterr().err
