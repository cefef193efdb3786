"""No input loses a game (issue: "never lose a game"): quit, Ctrl-C and the
end of input offer to save first and save where nobody can answer; an
internal error saves the game, is reported, and the session goes on; `load`
and `new` keep the game they replace; at the end the table offers the log,
a save, a new game or quit; `rulebook play --load FILE` resumes. A save
cannot lie: its history replays to its state, or it is refused naming the
step (without showing a hidden card), and every other field is checked."""

from __future__ import annotations

import io
import json

import pytest
from rich.console import Console

from interpreter import load_rulebook
from interpreter.ai.players import RandomPlayer
from interpreter.errors import SaveError
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


@pytest.fixture(scope="module")
def moves(game):
    """The text of the first legal action at each of the first decisions of
    the hot-seat game: typed whole, each is played at once, however long
    the list (a number would only start choosing it step by step)."""
    state, out = game.new_game(players=2, seed=SEED), []
    for _ in range(3):
        action = game.legal_actions(state, game.to_move(state)[0])[0]
        out.append(str(action))
        state = game.apply(state, action)
    return out


def test_ctrl_c_with_moves_unsaved_saves_to_the_default_file_on_enter(game, tmp_path, moves):
    repl, out, code = session(game, ["", moves[0], KeyboardInterrupt, ""], tmp_path)
    assert code == 0 and "Interrupted. Save the game before leaving?" in out
    states, actions, _ = read_save(game, str(tmp_path / DEFAULT))
    assert states[-1] == repl.state and actions == repl.actions
    assert f"rulebook play --load {tmp_path / DEFAULT}" in out


def test_ctrl_c_saves_to_the_file_named(game, tmp_path, moves):
    named = tmp_path / "mine.json"
    repl, out, _ = session(game, ["", moves[0], KeyboardInterrupt, str(named)], tmp_path)
    assert read_save(game, str(named))[0][-1] == repl.state
    assert not (tmp_path / DEFAULT).exists()


def test_no_means_no(game, tmp_path, moves):
    _, out, code = session(game, ["", moves[0], "quit", "no"], tmp_path)
    assert code == 0 and "Leaving. Save the game" in out
    assert list(tmp_path.iterdir()) == []


def test_the_end_of_input_saves_where_nobody_can_answer(game, tmp_path, moves):
    repl, out, _ = session(game, ["", moves[0], EOFError, EOFError], tmp_path)
    assert read_save(game, str(tmp_path / DEFAULT))[0][-1] == repl.state


def test_leaving_with_nothing_new_asks_nothing(game, tmp_path, moves):
    saved = tmp_path / "here.json"
    _, out, _ = session(game, ["", moves[0], "", f"save {saved}", "quit"], tmp_path)
    assert "Save the game before leaving" not in out
    _, out, _ = session(game, ["", "quit"], tmp_path)
    assert "Save the game before leaving" not in out


def test_a_second_save_of_the_same_game_goes_to_the_same_file(game, tmp_path, moves):
    (tmp_path / DEFAULT).write_text("another game's save")
    repl, out, _ = session(game, ["", moves[0], KeyboardInterrupt, ""], tmp_path)
    second = tmp_path / "hanamikoji-7-2.save.json"
    assert (tmp_path / DEFAULT).read_text() == "another game's save"
    assert read_save(game, str(second))[0][-1] == repl.state


def test_an_internal_error_saves_the_game_reports_it_and_the_session_goes_on(
        game, tmp_path, monkeypatch, moves):
    calls = {"n": 0}
    real = game.apply
    kept = {}

    def failing(state, action):
        calls["n"] += 1
        if calls["n"] == 3:
            raise RuntimeError("a bug")
        return real(state, action)

    real_rescue = Repl.rescue

    def rescue(self, error):
        real_rescue(self, error)
        kept["actions"] = read_save(game, str(tmp_path / DEFAULT))[1]

    monkeypatch.setattr(game, "apply", failing)
    monkeypatch.setattr(Repl, "rescue", rescue)
    repl, out, code = session(game, ["", moves[0], "", moves[1], "", moves[2], moves[2]], tmp_path)
    monkeypatch.undo()
    assert len(kept["actions"]) == 2                # saved when the error came
    assert (f"error[internal]: RuntimeError: a bug; the game so far is saved: "
            f"rulebook play --load {tmp_path / DEFAULT}.") in out
    assert code == 0 and len(repl.actions) == 3     # the next line was played
    assert read_save(game, str(tmp_path / DEFAULT))[0][-1] == repl.state


def test_an_error_that_keeps_coming_back_ends_the_session_with_the_game_saved(
        game, tmp_path, monkeypatch, moves):
    real = game.view
    monkeypatch.setattr(game, "view", lambda state, player: (
        real(state, player) if state.decisions < 1 else 1 / 0))
    repl, out, code = session(game, ["", moves[0], "", moves[1]], tmp_path)
    monkeypatch.undo()
    assert code == 1 and out.count("error[internal]: ZeroDivisionError") == 3
    assert "the session ends here" in out
    assert read_save(game, str(tmp_path / DEFAULT))[1] == repl.actions


def test_load_and_new_keep_the_game_they_replace(game, tmp_path, moves):
    other = tmp_path / "other.json"
    session(game, ["", moves[0], "", f"save {other}"], tmp_path)
    repl, out, _ = session(game, ["", moves[0], "", moves[1], "", f"load {other}", "", "quit"], tmp_path)
    assert f"The game so far is kept: rulebook play --load {tmp_path / DEFAULT}" in out
    assert len(read_save(game, str(tmp_path / DEFAULT))[1]) == 2
    assert len(repl.actions) == 1 and repl.save_path == str(other)
    # loading the file the game was last saved to keeps it in another one
    repl, out, _ = session(game, ["", f"save {other}", moves[0], "", f"load {other}", "quit"],
                           tmp_path)
    assert len(read_save(game, str(other))[1]) == 0
    kept = out.split("The game so far is kept: rulebook play --load ")[1].split()[0]
    assert kept != str(other) and len(read_save(game, kept)[1]) == 1


def test_the_end_offers_log_save_new_game_and_quit(game, tmp_path):
    start = game.new_game(players=2, seed=SEED)
    me = game.to_move(start)[0]
    saved = tmp_path / "finished.json"
    # plays to the end against the AI, step by step, each action confirmed; a 'yes'
    # where nothing is to confirm, and the extra lines after the end, are refused
    lines = ["1", "1", "yes"] * 100
    repl, out, code = session(game, lines + ["log", f"save {saved}", "new", "quit"], tmp_path,
                              ai={1 - me: "random"})
    assert "Game over." in out and "game over> log" in out
    assert read_save(game, str(saved))[0][-1].over
    assert f"a new game, seed {SEED + 1}" in out and repl.seed == SEED + 1
    assert code == 0


def test_play_load_resumes_the_saved_game_where_it_was(game, tmp_path, monkeypatch, capsys, moves):
    """A scripted game interrupted with Ctrl-C, saved, and resumed with --load
    to the same state."""
    repl, _, _ = session(game, ["", moves[0], "", moves[1], KeyboardInterrupt, ""], tmp_path)
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


# -- saves that cannot lie -----------------------------------------------------------

def saved_game(game, tmp_path, moves=3):
    """A save of a hot-seat game after `moves` moves, and its JSON."""
    path = tmp_path / "game.json"
    state, lines = game.new_game(players=2, seed=SEED), []
    for _ in range(moves):
        action = game.legal_actions(state, game.to_move(state)[0])[0]
        state = game.apply(state, action)
        lines += ["", str(action)]
    session(game, lines + ["", f"save {path}"], tmp_path)
    return path, json.loads(path.read_text())


def refusal(game, path, data):
    path.write_text(json.dumps(data))
    with pytest.raises(SaveError) as err:
        read_save(game, str(path))
    return err.value


def test_an_illegal_step_of_the_history_is_refused_naming_the_step(game, tmp_path):
    path, data = saved_game(game, tmp_path)
    hidden = data["history"][1]["action"]
    edited = json.loads(json.dumps(data))
    edited["history"][1]["action"] = "gift G9 G9 G9"
    err = refusal(game, path, edited)
    assert err.code == "save/corrupt" and "step 2 of its history" in err.message
    assert "gift" in err.message and "G9" not in err.message
    edited["history"][1] = {"player": data["history"][1]["player"], "action": hidden + " x"}
    err = refusal(game, path, edited)
    assert "step 2" in err.message and hidden not in err.message     # no hidden card shown
    edited["history"][1] = {"player": 1 - data["history"][1]["player"], "action": hidden}
    assert "step 2" in refusal(game, path, edited).message
    edited["history"][1] = ["a player", "an action"]
    assert "step 2" in refusal(game, path, edited).message


def test_a_history_that_replays_elsewhere_than_its_state_is_refused(game, tmp_path):
    path, data = saved_game(game, tmp_path)
    err = refusal(game, path, {**data, "history": data["history"][:-1]})
    assert err.code == "save/corrupt" and "does not lead to its saved state" in err.message


@pytest.mark.parametrize("ai", [{"99": "random"}, {"2": "random"}, {"1": "genius"},
                                {"²": "random"}, {"P": "random"}, {"1": ["random"]}, []])
def test_ai_seats_in_a_save_are_held_to_the_rules_of_the_command_line(game, tmp_path, ai):
    path, data = saved_game(game, tmp_path)
    assert refusal(game, path, {**data, "ai": ai}).code == "save/corrupt"
    assert cli.main(["play", "hanamikoji", "--players", "2", "--ai", "5=random"]) == 2


def test_ai_seats_are_written_as_on_the_command_line(game, tmp_path):
    path, data = saved_game(game, tmp_path)
    path.write_text(json.dumps({**data, "ai": {"P1": "random"}}))
    assert read_save(game, str(path))[2]["ai"] == {1: "random"}


@pytest.mark.parametrize("field, value", [
    ("players", 3), ("players", "2"), ("players", True), ("seed", "7"), ("seed", 1.5),
    ("seed", 10 ** 30), ("history", {}), ("rulebook", 5), ("rulebook", "a\x00b"),
    ("extra", 1), ("options", []), ("options", {"first_player": {"x": 1}})])
def test_every_field_of_a_save_is_checked(game, tmp_path, field, value):
    path, data = saved_game(game, tmp_path, moves=1)
    err = refusal(game, path, {**data, field: value})
    assert err.code in ("save/corrupt", "save/mismatch")


@pytest.mark.parametrize("text", [
    "[" * 100_000, '{"format": "rulebook-save", "version": 1, "seed": ' + "9" * 5000 + "}",
    '{"format": "rulebook-save", "version": 1, "seed": NaN}', "\xff\xfe", "", "null"])
def test_a_file_that_is_no_save_is_refused_as_corrupt(game, tmp_path, text):
    path = tmp_path / "odd.json"
    path.write_bytes(text.encode("utf-8", "surrogateescape") if text != "\xff\xfe"
                     else b"\xff\xfe")
    with pytest.raises(SaveError) as err:
        read_save(game, str(path))
    assert err.value.code == "save/corrupt"


def test_the_state_in_a_save_is_checked_field_by_field(game, tmp_path):
    path, data = saved_game(game, tmp_path)
    data["state"]["state"]["pending"] = [5]
    err = refusal(game, path, data)
    assert err.code == "save/corrupt" and "state.pending" in err.message


@pytest.mark.parametrize("name, code", [
    ("/dev/null", "save/io"), ("/dev/zero", "save/io"), ("x" * 300, "save/io"),
    ("missing/folder/x.json", "save/io"),
    # refused before any file is opened: a folder, a control character
    (".", "command/not-a-file-name"), ("/proc", "command/not-a-file-name"),
    ("a\x00b", "command/not-a-file-name")])
def test_saves_and_loads_refuse_what_is_no_file(game, tmp_path, name, code, moves):
    _, out, _ = session(game, ["", moves[0], "", f"save {name}", f"load {name}", "quit", ""], tmp_path)
    assert out.count(f"error[{code}]") == 2 and "Traceback" not in out
    assert read_save(game, str(tmp_path / DEFAULT))[1]


def test_ctrl_c_while_an_ai_thinks_still_offers_to_save(game, tmp_path, monkeypatch, moves):
    start = game.new_game(players=2, seed=SEED)
    me = game.to_move(start)[0]
    repl_ai = {1 - me: "random"}

    def interrupted(*_):
        raise KeyboardInterrupt

    monkeypatch.setattr(RandomPlayer, "act", interrupted)
    repl, out, code = session(game, [moves[0], ""], tmp_path, ai=repl_ai)
    assert code == 0 and "Interrupted. Save the game before leaving?" in out
    assert read_save(game, str(tmp_path / DEFAULT))[1] == repl.actions


def test_play_refuses_a_seed_no_game_is_dealt_from_and_a_save_for_other_players(
        game, tmp_path, capsys):
    assert cli.main(["play", "hanamikoji", "--seed", str(1 << 64)]) == 2
    assert "--seed" in capsys.readouterr().err
    path, data = saved_game(game, tmp_path, moves=1)
    path.write_text(json.dumps({**data, "players": 5}))
    assert cli.main(["play", "--load", str(path)]) == 1
    assert "error[save/corrupt]" in capsys.readouterr().err


def test_a_save_of_a_long_rulebook_name_in_a_folder_with_spaces_resumes_as_typed(game, tmp_path, moves):
    folder = tmp_path / "my games"
    folder.mkdir()
    script = Script(["", moves[0], KeyboardInterrupt, ""])
    console = Console(file=script.out, width=400, color_system=None, force_terminal=False)
    repl = Repl(game, players=2, seed=SEED, console=console, input_fn=script,
                save_dir=str(folder), rulebook="x" * 300 + ".rules")
    assert repl.run() == 0
    path = repl.save_path
    assert len(path.rsplit("/", 1)[1]) < 255 and read_save(game, path)[1] == repl.actions
    assert f"rulebook play --load '{path}'" in script.out.getvalue()


def test_a_game_with_options_says_which_at_its_start(tmp_path):
    """The banner names every option not at its default, as --option writes it."""
    from interpreter import load_rulebook
    game = load_rulebook("hanamikoji", options={"reveal_trade_off_at_round_end": True})
    _, out, _ = session(game, [], tmp_path)
    assert out.splitlines()[0] == ("Hanamikoji: 2 players, seed 7. Options: "
                                   "reveal_trade_off_at_round_end=yes. Type 'help' for commands.")
    _, plain, _ = session(load_rulebook("hanamikoji"), [], tmp_path)
    assert "Options" not in plain.splitlines()[0]
