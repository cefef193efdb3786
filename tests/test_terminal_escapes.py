"""A hostile rulebook cannot drive the terminal: every text that came from a
rulebook, a data file or typed input reaches the screen `printable` — a
control character written as its escape (`\\x1b`), rich markup as it is
written — at the table (the REPL), in `simulate`, `compare`, `show` and in
`validate`'s errors, whose caret stays under the text it points at.

The rulebook's title, choice labels, a value chosen (so the action texts,
the log and the prompt), an announcement, a part's and a tie-break's
labels and a data file's strings (a component table, a zone's groups) each
hold an OSC 52 sequence (which writes the clipboard), SGR codes, a CSI
(`\\x9b`), a bidirectional override and rich markup. (Names of zones,
variables and components are identifiers: the grammar and the data
checks keep control characters out of them.)
"""

from __future__ import annotations

import io
import json
import re

import pytest
from rich.console import Console
from rich.text import Text

from interpreter import load_rulebook
from interpreter.printable import printable, printable_data, printable_json
from interpreter.terminal import cli
from interpreter.terminal.choosing import Choice, Parameter
from interpreter.terminal.render import OutcomeView, TableView, guarded, render_to_text
from interpreter.terminal.repl import Repl

CLIPBOARD = "\x1b]52;c;SGVsbG8=\x07"          # OSC 52: sets the clipboard to "Hello"
TITLE = f"Evil{CLIPBOARD} [bold]T[/bold] \x9b31m"
LABEL = "a card \x1b[31m[red]x[/red]"
ANNOUNCE = "Hear \x1b[2J[bold]ye[/bold]\u202e"
PART = "part\x1b[1m [link=http://x]l[/link]"
TIE = "tie\x1b[5m [blink]b[/blink]"
NEVER = "never\x1b[5m"
# 24 values of two words, grouped by the first: chosen step by step
WORDS = [f"g{i % 3}\x1b[3{i % 3}m [bold]w{i}\x9b" for i in range(24)]

RULES = f'''\
game "{TITLE}"
players 2
component card from "cards.yaml"
  has marks: number = 0
zone deck: card, public, by colour
zone kept of each player: card, public
setup
  move all card to deck
phase play
  players[0] chooses w as "{LABEL}": one of [{", ".join(f'"{w}"' for w in WORDS)}]
  announce "{ANNOUNCE} {{w}}"
  if 1 > 2
    announce "{NEVER}"
  players[0] chooses c as "{LABEL}": one of deck
  move c to kept(0)
  players[1] chooses d: one of deck
  move d to kept(1)
  end game
scoring
  score = sum(x.value for x in kept(p))
  part "{PART}" = size(kept(p))
  tie break most size(kept(p)) as "{TIE}"
'''
CARDS = '''\
- {name: red, value: 1, note: "[bold]loud[/bold]\\e]52;c;SGVsbG8=\\a", colour: "r\\e[7m"}
- {name: blue, value: 2, note: "\\u009b2J\\u202e", colour: "[i]b"}
'''


def unprintable(text: str) -> set:
    """The characters of `text` a terminal may act on (all but the line feed)."""
    return {hex(ord(c)) for c in text if not c.isprintable() and c != "\n"}


@pytest.fixture(scope="module")
def rulebook(tmp_path_factory):
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "cards.yaml").write_text(CARDS, encoding="utf-8")
    path = folder / "evil\x1b[31m.rules"         # the file's name too
    path.write_text(RULES, encoding="utf-8")
    return path


# -- the function ------------------------------------------------------------------

@pytest.mark.parametrize("ch", ["\x00", "\x07", "\x08", "\t", "\r", "\x1b", "\x7f", "\x85",
                                "\x9b", "\x9d", "\xa0", "\u200b", "\u2028", "\u202e",
                                "\ue000", "\udc80", "\U000e0001"])
def test_every_character_a_terminal_may_act_on_is_escaped(ch):
    shown = printable(f"a{ch}b")
    assert unprintable(shown) == set() and shown == "a" + ascii(ch)[1:-1] + "b"
    assert printable(shown) == shown                         # once is enough
    assert json.loads(printable_json(json.dumps(ch, ensure_ascii=False))) == ch


def test_line_breaks_are_kept_in_prose_and_shown_in_names():
    assert printable("a\nb\x1b") == "a\nb\\x1b"
    assert printable("a\nb", lines=False) == "a\\nb"
    assert printable_data({"k\x1b": ["v\n", ("w\x07", 3)], 1: None}) == \
        {"k\\x1b": ["v\\n", ("w\\x07", 3)], 1: None}


def test_a_guarded_console_escapes_text_and_keeps_its_own_colours():
    out = io.StringIO()
    console = guarded(Console(file=out, force_terminal=True, color_system="truecolor"))
    # (rich itself drops a BEL from a Text)
    console.print(Text(f"a{CLIPBOARD}b", style="bold"), "[red]x[/red]\x1b[2J\x9b",
                  markup=False, highlight=False)
    text = out.getvalue()
    assert "a\\x1b]52;c;SGVsbG8=b" in text and "[red]x[/red]\\x1b[2J\\x9b" in text
    assert "\x1b[1m" in text                                 # bold, rich's own code
    assert unprintable(re.sub(r"\x1b\[[0-9;]*m", "", text)) == set()


# -- at the table ----------------------------------------------------------------------

LINES = ["table full", "show card", "show deck", "hand", "board", "log", "rules", "help",
         "nope\x1b[31m", f"show {CLIPBOARD}", "load /no/such\x1b[31m.json",
         "1", "1", "", "log", "1", "log all", "table", "quit", "no"]


def session(rulebook, tmp_path, colour: bool = False) -> str:
    """The REPL's output for LINES (P1 an AI), its prompts included; what
    is typed is the terminal's echo, not the REPL's, and is left out."""
    out = io.StringIO()
    lines = list(LINES)

    def read(prompt):
        out.write(prompt + "\n")
        if not lines:
            raise EOFError
        return lines.pop(0)

    console = Console(file=out, width=100, legacy_windows=False,
                      **({"force_terminal": True, "color_system": "truecolor"} if colour else
                         {"force_terminal": False, "color_system": None}))
    game = load_rulebook(str(rulebook))
    Repl(game, players=2, seed=1, rulebook=str(rulebook), ai={1: "random"}, console=console,
         input_fn=read, save_dir=str(tmp_path)).run()
    return out.getvalue()


def test_the_table_prints_no_control_character(rulebook, tmp_path):
    text = session(rulebook, tmp_path)
    assert unprintable(text) == set()
    # each hostile text is on screen, escaped: the title, the label, the
    # chosen value (prompt, log, announcement), part and tie-break labels,
    # a data file's strings, typed input
    for hostile in (TITLE, LABEL, ANNOUNCE.split()[1], PART, TIE, WORDS[0].split()[0],
                    WORDS[0].split()[1], "\x1b]52;c;SGVsbG8=\x07", "r\x1b[7m",
                    "nope\x1b[31m", "/no/such\x1b[31m.json"):
        assert printable(hostile) in text, hostile
    assert "P0 w g0\\x1b[30m …> " in text                   # the prompt of a step


def test_rich_markup_in_a_rulebook_prints_as_it_is_written(rulebook, tmp_path):
    text = session(rulebook, tmp_path)
    for markup in ("[bold]T[/bold]", "[red]x[/red]", "[bold]ye[/bold]", "[link=http://x]l[/link]",
                   "[blink]b[/blink]", "[bold]loud[/bold]", "[i]b", "[bold]w0"):
        assert markup in text, markup


def test_a_colour_terminal_gets_only_the_colours_of_the_screen(rulebook, tmp_path):
    text = session(rulebook, tmp_path, colour=True)
    assert "\x1b]" not in text                               # no OSC: no clipboard, no link
    assert unprintable(re.sub(r"\x1b\[[0-9;]*m", "", text)) == set()


def test_the_end_table_keeps_its_columns_with_escaped_labels(rulebook, tmp_path):
    lines = session(rulebook, tmp_path).splitlines()
    k = next(k for k, line in enumerate(lines) if line.startswith("player ") and "score" in line)
    header, row = lines[k], lines[k + 2]            # (a rule under the header)
    assert row.startswith("P1 *")
    for label in (PART, TIE):
        end = header.index(printable(label)) + len(printable(label))
        assert row[end - 1].isdigit() and row[end:end + 1] in ("", " "), (header, row)


def test_a_view_drawn_without_the_repl_is_escaped_before_it_is_laid_out(rulebook):
    game = load_rulebook(str(rulebook))
    state = game.new_game(players=2, seed=1)
    actions = [str(a) for a in game.legal_actions(state, 0)]
    screen = render_to_text(TableView(game.view(state, 0), actions, compact=False), 100)
    assert unprintable(screen) == set()
    assert printable(TITLE) in screen and printable(LABEL) in screen


def test_the_screen_escapes_its_texts_itself_on_any_console(rulebook):
    # no guard here: the table, a step of a choice and the end escape what
    # they draw before it is laid out
    game = load_rulebook(str(rulebook))
    state = game.new_game(players=2, seed=1)
    actions = [str(a) for a in game.legal_actions(state, 0)]
    choice = Choice.start(actions, {"w": (Parameter("w"),)}).narrow("1")
    while not game.outcome(state):
        player = game.to_move(state)[0]
        state = game.apply(state, game.legal_actions(state, player)[0])
    for drawn in (TableView(game.view(state, 0), compact=False), choice,
                  OutcomeView.of(game.outcome(state))):
        out = io.StringIO()
        Console(file=out, width=100, color_system=None).print(drawn)
        assert unprintable(out.getvalue()) == set()
    assert "w g0\\x1b[30m …" in choice.__rich__().renderables[0].plain


# -- the command line --------------------------------------------------------------------

def run(capsys, *argv):
    code = cli.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    assert unprintable(out + err) == set()
    return code, out + err


def test_simulate_and_its_coverage_print_no_control_character(capsys, rulebook):
    code, out = run(capsys, "simulate", rulebook, "--games", "3", "--workers", "1", "--quiet",
                    "--coverage")
    assert code == 0
    assert printable(TITLE) in out and printable(str(rulebook)) in out
    assert printable(NEVER) in out                          # the source line never run


def test_compare_prints_no_control_character(capsys, rulebook):
    code, out = run(capsys, "compare", rulebook, rulebook, "--games", "3", "--workers", "1",
                    "--quiet")
    assert code == 0
    assert out.count(printable(TITLE)) >= 2


def test_show_prints_no_control_character_and_its_json_is_the_ir(capsys, rulebook):
    assert run(capsys, "show", rulebook)[0] == 0
    assert run(capsys, "show", rulebook, "--python")[0] == 0
    code, out = run(capsys, "show", rulebook, "--ir")
    assert code == 0
    assert json.loads(out)["game"]["title"] == TITLE


def test_validate_escapes_the_line_and_keeps_the_caret_under_the_error(capsys, tmp_path):
    after, at = tmp_path / "after.rules", tmp_path / "at.rules"
    after.write_text(f'game "A{CLIPBOARD}\x9b\u202e" extra\nplayers 2\n', encoding="utf-8")
    at.write_text('game "A"\nplayers \x1b[2J 2\n', encoding="utf-8")
    code, out = run(capsys, "validate", after, at)
    assert code == 1 and out.count("error[rulebook/syntax]") == 2
    lines = out.splitlines()
    for line, wrong, width in ((1, "extra", 5), (2, "\\x1b", 4)):
        k = next(k for k, text in enumerate(lines) if text.startswith(f"{line:>4} | "))
        source, caret = lines[k], lines[k + 1]
        assert caret.index("^") == source.index(wrong), (source, caret)
        assert caret.strip() == "^" * width


def test_a_data_files_error_quotes_its_value_escaped(capsys, tmp_path):
    (tmp_path / "cards.yaml").write_text('- {name: "r\\e]52;c;eA==\\a[b]", value: 1}\n',
                                         encoding="utf-8")
    bad = tmp_path / "data.rules"
    bad.write_text('game "D"\nplayers 2\ncomponent card from "cards.yaml"\n'
                   'zone deck: card\nphase play\n  end game\nscoring\n  score = 0\n',
                   encoding="utf-8")
    code, out = run(capsys, "validate", bad)
    assert code == 1 and "error[data/invalid]" in out
    assert "r\\x1b]52;c;eA==\\x07[b]" in out


def test_a_command_line_error_quotes_its_input_escaped(capsys):
    code, out = run(capsys, "simulate", "hanamikoji", "--bogus\x1b[31m")
    assert code == 2 and "--bogus\\x1b[31m" in out
