"""No input crashes the table or loses its game: a hot-seat session of
Hanamikoji is fed 1,000 seeded random lines — text in any script, digits of
every kind and length, control characters, and real moves and commands
among them (`save` and `load` with odd names, damaged and foreign saves,
`undo`, `log`, `new` at the end, the odd `quit`) — and must answer every
line with the project's own coded messages, never `error[internal]` or a
traceback. Whenever a game is replaced (`load`, `new`) or the session ends,
the game is in a file that loads back to the same state.
"""

from __future__ import annotations

import io
import json
import random

import pytest
from rich.console import Console

from interpreter import load_rulebook
from interpreter.terminal.repl import Repl, read_save

LINES = 1000
SEED = 11


@pytest.fixture(scope="module")
def game():
    return load_rulebook("hanamikoji")


class Checked(Repl):
    """A Repl that checks, each time it keeps a game before replacing it,
    that the file it names holds that game."""

    kept = 0

    def keep(self, why, instead_of=None):
        unsaved = self.unsaved()
        super().keep(why, instead_of)
        if unsaved:
            states, actions, _ = read_save(self.game, self.save_path)
            assert states[-1] == self.state and actions == self.actions
            Checked.kept += 1


ODD_CHARS = ("²", "①", "١٢", "𝟙", "Ⅻ", "½", "٣", "\x00", "\x1b[2J", "\x07", "\r", "\t", "\x7f",
             "\u200b", "\ufeff", "\ud800", "é", "漢字", "🂡", "ℌ", "ǅ", "İ", "ß")


# names to save to: plain, strange or impossible — never one outside the
# test's folder that could be written, nor one of the damaged saves
SAVE_NAMES = ("plain.json", "two words.json", "漢字.json", "-", "~", ".", "..", "/", "a\x00b",
              "missing/dir/x.json", "x" * 300, "\x1b[2J.json", "/dev/null", "/dev/zero",
              "hanamikoji-11.save.json", "saved.json", "①.json", "")
# and to load from: those, the damaged saves, and places that are no files
LOAD_NAMES = SAVE_NAMES + ("broken.json", "deep.json", "big.json", "foreign.json",
                           "empty.json", "edited.json", "/dev/stdin", "/proc")


def odd_name(rng, loading=False) -> str:
    return rng.choice(LOAD_NAMES if loading else SAVE_NAMES)


def random_line(rng, repl) -> str:
    """One line of input, as a careless, curious or hostile player types it."""
    r = rng.random()
    state = repl.state
    if r < 0.30:                                   # a real move, by number or text
        movers = repl.game.to_move(state)
        if movers:
            actions = repl.game.legal_actions(state, movers[0])
            k = rng.randrange(len(actions))
            return str(k + 1) if rng.random() < 0.6 else str(actions[k]).upper()
        return rng.choice(["new", "log", "help", "save saved.json"])
    if r < 0.40:                                   # digits of every kind and length
        return rng.choice(["0", "-1", "+1", "01", "1.0", "9" * 19, "9" * 20, "9" * 4301,
                           "9" * 5000, "1" * 50] + list(ODD_CHARS[:7]))
    if r < 0.55:                                   # any characters at all
        return "".join(chr(rng.randrange(0x110000)) for _ in range(rng.randrange(1, 30)))
    if r < 0.65:                                   # control characters and odd marks
        return "".join(rng.choice(ODD_CHARS) for _ in range(rng.randrange(1, 6)))
    if r < 0.80:                                   # save and load, with odd names
        word = rng.choice(["save", "load", ":save", ":load", "SAVE", "LOAD"])
        return f"{word} {odd_name(rng, loading=word.lower().endswith('load'))}"
    if r < 0.97:                                   # the other commands
        return rng.choice(["undo", ":undo", "log", "help", "", " ", "new", "undo undo",
                           "log " + "x" * 100, "gift", "secret", "pass", "P0", "P1",
                           "save", "load", "help me", "rules"])
    return rng.choice(["quit", "exit", ":quit"])


def damaged_saves(folder, game) -> None:
    """The bad files the random lines may `load`."""
    (folder / "broken.json").write_text("{not json")
    (folder / "deep.json").write_text('{"format": "rulebook-save", "version": 1, "x": '
                                      + "[" * 50_000 + "]" * 50_000 + "}")
    (folder / "big.json").write_text('{"format": "rulebook-save", "version": 1, "seed": '
                                     + "9" * 5000 + "}")
    (folder / "empty.json").write_text("")
    out = io.StringIO()
    repl = Repl(game, players=2, seed=SEED, console=Console(file=out), input_fn=lambda _: "",
                save_dir=str(folder))
    repl.play(game.legal_actions(repl.state, game.to_move(repl.state)[0])[0])
    repl.save(str(folder / "good.json"))
    data = json.loads((folder / "good.json").read_text())
    (folder / "foreign.json").write_text(json.dumps({**data, "game": "Another Game"}))
    (folder / "edited.json").write_text(json.dumps({**data, "history": data["history"] * 2}))


def test_a_thousand_random_lines_never_crash_the_table_or_lose_its_game(game, tmp_path,
                                                                       monkeypatch):
    monkeypatch.chdir(tmp_path)              # where the odd file names are written
    damaged_saves(tmp_path, game)
    rng = random.Random(SEED)
    out = io.StringIO()
    console = Console(file=out, width=100, color_system=None, force_terminal=False)
    fed = 0
    sessions = 0
    resume = None
    while fed < LINES:
        holder = {}

        def read(prompt):
            nonlocal fed
            if fed >= LINES:
                raise EOFError
            fed += 1
            repl = holder["repl"]
            line = odd_name(rng) if prompt == "save to> " else random_line(rng, repl)
            return line

        repl = Checked(game, players=2, seed=SEED, console=console, input_fn=read,
                       save_dir=str(tmp_path), rulebook="hanamikoji")
        holder["repl"] = repl
        if resume is not None:               # the file the last session named
            repl.restore(resume, *read_save(game, resume))
        code = repl.run()
        sessions += 1
        assert code == 0
        text = out.getvalue()
        assert "error[internal]" not in text and "Traceback" not in text
        # the session ended: its game is in the file it named, or it had nothing new
        assert not repl.unsaved()
        if repl.save_path is not None:
            states, actions, _ = read_save(game, repl.save_path)
            assert states[-1] == repl.state and actions == repl.actions
        resume = repl.save_path
    text = out.getvalue()
    for code in ("action/unknown", "command/usage", "save/io", "save/corrupt"):
        assert f"error[{code}]" in text, code
    assert sessions >= 1 and Checked.kept >= 1
