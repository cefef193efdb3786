"""Hostile rulebooks and data files stop with a coded error.

Each ``tests/hostile/*.rules`` is a small rulebook (its data files beside
it) whose header says what loading it gives, as in ``tests/language/``::

    # expect: rulebook/limit 5:9
    # expect: data/invalid shape-off-grid.yaml:3:10
    # expect: ok

`interpreter.load_rulebook`, with every player count `rulebook validate`
checks compiled, must then raise exactly those errors (code and place) or
load, and ``rulebook validate`` must print them without an internal error.
Each ``tests/hostile/play/*.rules`` says so of its first game, each player
taking its first action. The cases that need the file system (links, a
FIFO, a device, files outside the rulebook's folder, a file past its size
limit) and the large inputs (a "billion laughs", 100,000 pieces, a 1 MB
list, a 4,301-digit number) are made in tmp_path, the large ones by
``tests/hostile/generated.py``. How long each takes and how much memory is
measured by tools/hostile_limits.py, each in a process of its own (`pytest
-m soak` runs it), not here, where the suite's own load would fail a bound
of time by chance. The last test holds the table of limits in
docs/language.md §12.1 to `interpreter.language.limits`.
"""

from __future__ import annotations

import os
import re
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from interpreter import load_rulebook
from interpreter.errors import RuleError, RulebookErrors
from interpreter.language import limits, player_counts
from interpreter.language.files import LIBRARY
from interpreter.language.loader import compile_ir
from tests.hostile import generated
from tests.hostile.generated import rulebook, write
from tests.test_language import expectations

ROOT = Path(__file__).resolve().parent.parent
HOSTILE = Path(__file__).resolve().parent / "hostile"
FILES = sorted(HOSTILE.glob("*.rules"))
GAMES = sorted((HOSTILE / "play").glob("*.rules"))
SECRET = "kept-outside-the-folder"      # what a file outside the folder holds
GUARD = 2 << 30         # bytes of address space that stop a runaway validate


def load(path) -> list:
    """The errors of loading `path` as validate does ([] when it loads):
    anything but the language's own errors fails the test."""
    try:
        load_rulebook(str(path)).compile_all()
    except RulebookErrors as e:
        return e.errors
    return []


def places(errors) -> set:
    return {(e.code, Path(e.span.file).resolve() if e.span else None,
             (e.span.line, e.span.column) if e.span else None) for e in errors}


def only(errors) -> tuple:
    """(code, file name, line, column) of the one error."""
    assert len(errors) == 1, "\n".join(map(str, errors))
    (e,) = errors
    return (e.code, Path(e.span.file).name if e.span else None,
            e.span.line if e.span else None, e.span.column if e.span else None)


# -- the files of tests/hostile ------------------------------------------------------

def test_there_are_hostile_files():
    assert len(FILES) >= 20


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_hostile_file(path):
    expected = expectations(path)
    errors = load(path)
    got = places(errors)
    want = {(code, (path.parent / file).resolve(), (line, column))
            for code, file, line, column, *_ in expected}
    shown = "\n".join(f"  {e}" for e in errors)
    assert got == want, f"{path.name}: errors differ from the header\n{shown}"
    assert len(errors) == len(expected), f"{path.name}: an error is reported twice\n{shown}"
    for code, file, line, column, quote, hint, nohint in expected:
        e = next(e for e in errors if (e.code, e.span.line, e.span.column) == (code, line, column))
        if hint is not None:
            assert e.hint and hint in e.hint, f"{e} should hint {hint!r}"
        assert e.hint or nohint, f"{e} gives no hint"


def test_validate_prints_every_hostile_file_without_an_internal_error():
    """The command itself (its address space and time limited, to stop a
    runaway): nothing reads past its limits, blocks, or shows what a
    refused file holds."""
    def bounded():
        resource.setrlimit(resource.RLIMIT_AS, (GUARD, GUARD))
    run = subprocess.run([sys.executable, "-m", "interpreter", "validate", *map(str, FILES)],
                         cwd=ROOT, capture_output=True, text=True, timeout=60, preexec_fn=bounded)
    out = run.stdout + run.stderr
    assert "error[internal]" not in out and "Traceback" not in out, out
    assert "root:" not in out, "the content of a refused file is shown"
    valid = sum(not expectations(p) for p in FILES)
    assert f"{len(FILES)} files checked: {valid} valid" in out, out


def test_there_are_hostile_games():
    assert len(GAMES) >= 4


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_hostile_game(path):
    """Its first game (seed 1), each player taking the first action listed,
    stops with the error of its header, at its place."""
    (expected,) = expectations(path)
    game = load_rulebook(str(path))
    game.compile_all()
    state = game.new_game(game.min_players, seed=1)
    with pytest.raises(RuleError) as info:
        while game.outcome(state) is None:
            player = game.to_move(state)[0]
            state = game.apply(state, game.legal_actions(state, player)[0])
    e = info.value
    assert (e.code, e.span.line, e.span.column) == (expected[0], expected[2], expected[3]), e


@pytest.mark.soak
def test_every_hostile_input_is_refused_within_a_second_and_512_mb():
    """tools/hostile_limits.py: each case in a process of its own, on an idle machine."""
    run = subprocess.run([sys.executable, str(ROOT / "tools" / "hostile_limits.py")],
                         cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert run.returncode == 0, run.stdout + run.stderr


# -- confinement: cases made in tmp_path ---------------------------------------------

@pytest.fixture
def outside(tmp_path) -> Path:
    """A valid data file next to the rulebook's folder, not in it."""
    return write(tmp_path, "outside.yaml", f"- {{name: {SECRET.replace('-', '_')}}}\n"
                                            f"# {SECRET}\n")


def _refused(errors, line=3, column=16):
    assert only(errors) == ("rulebook/file", "t.rules", line, column)
    assert SECRET not in str(errors[0]) and SECRET.replace("-", "_") not in str(errors[0])


def test_a_data_file_outside_the_folder_is_refused_by_a_relative_path(tmp_path, outside):
    errors = load(rulebook(tmp_path / "game", 'component card from "../outside.yaml"'))
    _refused(errors)
    assert "../outside.yaml" in errors[0].message and "outside" in errors[0].message


def test_a_data_file_outside_the_folder_is_refused_by_an_absolute_path(tmp_path, outside):
    _refused(load(rulebook(tmp_path / "game", f'component card from "{outside}"')))


def test_a_data_file_outside_the_folder_is_refused_through_a_link(tmp_path, outside):
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "cards.yaml").symlink_to(outside)
    _refused(load(rulebook(tmp_path / "game", 'component card from "cards.yaml"')))


def test_a_link_inside_the_folder_is_followed(tmp_path):
    write(tmp_path / "game" / "data", "cards.yaml", "- {name: A}\n")
    (tmp_path / "game" / "cards.yaml").symlink_to(tmp_path / "game" / "data" / "cards.yaml")
    assert load(rulebook(tmp_path / "game", 'component card from "cards.yaml"')) == []


def test_a_link_to_a_device_is_refused_unopened(tmp_path):
    _refused(load(generated.a_link_to_a_device(tmp_path)))


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_is_refused_without_blocking(tmp_path):
    path = generated.a_fifo(tmp_path)

    def hung(*_):
        raise AssertionError("loading blocked on the FIFO")
    old = signal.signal(signal.SIGALRM, hung)
    signal.alarm(10)            # stops a load that blocks; it asserts no time
    try:
        errors = load(path)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    _refused(errors)
    assert "FIFO" in errors[0].message


def test_a_data_file_past_16_mib_is_refused_before_it_is_read(tmp_path):
    errors = load(generated.a_data_file_past_16_mib(tmp_path))
    assert only(errors) == ("rulebook/limit", "t.rules", 3, 16)
    assert "16 MiB" in errors[0].message


def test_a_rulebook_past_1_mib_is_refused_before_it_is_read(tmp_path):
    (e,) = load(generated.a_rulebook_past_1_mib(tmp_path))
    assert e.code == "rulebook/limit" and "1 MiB" in e.message


def test_a_variant_base_outside_the_folder_is_refused_through_a_link(tmp_path):
    rulebook(tmp_path / "elsewhere", name="base.rules")
    (tmp_path / "game").mkdir()
    (tmp_path / "game" / "base.rules").symlink_to(tmp_path / "elsewhere" / "base.rules")
    path = write(tmp_path / "game", "v.rules", 'variant of "base.rules"\ngame "Mine"\n')
    assert only(load(path)) == ("rulebook/file", "v.rules", 1, 12)


def test_a_variant_of_a_shipped_game_may_name_its_base_in_the_library(tmp_path):
    base = LIBRARY / "kuhn-poker.rules"
    path = write(tmp_path, "v.rules", f'variant of "{base}"\ngame "Kuhn (mine)"\n')
    assert load(path) == []


# -- large inputs, made by tests/hostile/generated.py --------------------------------

def test_a_billion_laughs_is_refused_in_its_data_file(tmp_path):
    code, file, _, _ = only(load(generated.billion_laughs(tmp_path)))
    assert (code, file) == ("rulebook/limit", "cards.yaml")


def test_ten_thousand_expansions_are_refused_at_their_list(tmp_path):
    errors = load(generated.ten_thousand_expansions(tmp_path))
    assert only(errors) == ("rulebook/limit", "cards.yaml", 3, 20)     # the list of aliases


def test_aliases_within_the_limit_load(tmp_path):
    assert load(generated.aliases_within_the_limit(tmp_path)) == []


def test_thousands_of_broken_records_are_each_reported_once(tmp_path):
    errors = load(generated.thousands_of_broken_records(tmp_path))
    assert len(errors) == 6_000 and {e.code for e in errors} == {"data/invalid"}
    assert len({(e.span.line, e.span.column) for e in errors}) == 6_000


@pytest.mark.parametrize("case, code", [(generated.pieces_at_the_limit, None),
                                        (generated.pieces_past_the_limit, "rulebook/limit")])
def test_pieces_up_to_the_limit_load(tmp_path, case, code):
    assert [e.code for e in load(case(tmp_path))] == ([code] if code else [])


def test_an_attribute_read_of_many_pieces_compiles(tmp_path):
    assert load(generated.an_attribute_read_of_many_pieces(tmp_path)) == []


@pytest.mark.parametrize("case, code", [(generated.two_values_of_each_piece, None),
                                        (generated.ten_values_of_each_piece, "rulebook/limit")])
def test_the_values_a_state_keeps_are_bounded(tmp_path, case, code):
    path = case(tmp_path)
    errors = load(path)
    assert [e.code for e in errors] == ([code] if code else [])
    if code:            # at the declaration that passes the limit, before anything is built
        line = path.read_text(encoding="utf-8").splitlines()[errors[0].span.line - 1]
        assert line.startswith("variable v9 ") and "1,000,001" in errors[0].message


def test_a_rulebook_of_many_small_lists_is_refused_past_the_tokens_limit(tmp_path):
    errors = load(generated.many_small_lists(tmp_path))
    assert [e.code for e in errors] == ["rulebook/limit"] and "20,000" in errors[0].message


def test_a_1_mb_list_is_refused_at_its_bracket(tmp_path):
    path = generated.a_1_mb_list(tmp_path)
    assert 900_000 < path.stat().st_size < limits.MAX_RULEBOOK_BYTES
    assert only(load(path)) == ("rulebook/limit", "t.rules", 3, 15)


def test_a_list_at_the_limit_loads(tmp_path):
    assert load(generated.a_list_at_the_limit(tmp_path)) == []


def test_a_number_of_4301_digits_is_refused_at_its_span(tmp_path):
    (e,) = load(generated.a_number_of_4301_digits(tmp_path))
    assert (e.code, e.span.line, e.span.column, e.span.end_column) == ("rulebook/limit", 3, 18, 4319)


def test_a_long_string_is_refused(tmp_path):
    assert only(load(generated.a_long_string(tmp_path))) == ("rulebook/limit", "t.rules", 3, 12)


def test_a_long_name_is_refused(tmp_path):
    assert only(load(generated.a_long_name(tmp_path))) == ("rulebook/limit", "t.rules", 3, 8)


def test_every_generated_case_is_tested_here():
    tested = set(re.findall(r"generated\.([a-z0-9_]+)", Path(__file__).read_text(encoding="utf-8")))
    assert {name.replace("-", "_") for name in generated.CASES} <= tested


def test_a_long_game_name_is_refused_with_a_limit(tmp_path):
    for name in ("x" * 300, str(tmp_path / ("x" * 300 + ".rules"))):
        (e,) = load(name)
        assert e.code == "rulebook/limit" and "255" in e.hint


def test_the_rulebook_is_bounded_given_as_text():
    text = "#" * (limits.MAX_RULEBOOK_BYTES + 1)
    with pytest.raises(RulebookErrors) as info:
        compile_ir(text, "t.rules", ROOT)
    assert [e.code for e in info.value.errors] == ["rulebook/limit"]


# -- player counts: compiled when first used, and checked within bounds ---------------

COUNTS = """game "Counts"
players 2 to 6
by players
  | players | 2 | 3 | 4 | 5 | 6 |
  | bonus   | 1 | 1 | yes | yes | 1 |
component tile of each player
  | value | copies |
  | 1     | 3      |
zone pile: tile, hidden
phase play
  end game
scoring
  score = bonus + 1
"""


def counts_game(text: str = COUNTS, tmp_path: Path | None = None):
    from interpreter.game.engine import Game
    return Game(compile_ir(text, "c.rules", tmp_path or ROOT))


@pytest.fixture
def compiled(monkeypatch) -> list:
    """The player counts compiled from now on, in order."""
    from interpreter.game import engine
    made = []

    def compile_program(ir, n, options):
        made.append(n)
        return real(ir, n, options)
    real = engine.compile_program
    monkeypatch.setattr(engine, "compile_program", compile_program)
    return made


def test_validate_compiles_both_ends_of_each_run_of_player_counts_that_read_alike():
    assert player_counts.checked(counts_game().ir) == [2, 3, 4, 5, 6]
    plain = COUNTS.replace("yes | yes", "1 | 1")
    assert player_counts.checked(counts_game(plain).ir) == [2, 6]
    runs = COUNTS.replace("| 1 | 1 | yes | yes | 1 |", "| 1 | 1 | 1 | 2 | 2 |")
    assert player_counts.checked(counts_game(runs).ir) == [2, 4, 5, 6]
    one = COUNTS.replace("players 2 to 6", "players 3").replace(
        "| 2 | 3 | 4 | 5 | 6 |", "| 3 |").replace("| 1 | 1 | yes | yes | 1 |", "| 1 |")
    assert player_counts.checked(counts_game(one).ir) == [3]


def test_a_rulebook_is_compiled_for_a_player_count_when_it_is_first_used(compiled):
    game = load_rulebook(HOSTILE / "players-range-sets-of-each-player.rules")
    assert compiled == [1]                   # loading compiles the smallest count only
    state = game.new_game(7, seed=1)
    assert state.n == 7 and compiled == [1, 7]
    game.new_game(7, seed=2)
    game.compile_all()                       # validate: the counts it checks, once each
    assert compiled == [1, 7, 100]


def test_an_error_of_some_player_counts_is_reported_by_validate_and_when_played(compiled):
    game = counts_game()
    game.program(2)                          # 'bonus' is a number with 2 and 3 players
    with pytest.raises(RulebookErrors) as info:
        game.compile_all()
    (e,) = info.value.errors                 # the same error of 4 and 5 players, once
    assert (e.code, e.span.line) == ("rulebook/type", 13)
    assert compiled == [2, 3, 4, 5, 6]
    with pytest.raises(RulebookErrors):
        game.new_game(5)


def test_the_programs_kept_are_bounded_by_what_they_build(compiled, monkeypatch):
    from interpreter.game import engine
    game = counts_game(COUNTS.replace("yes | yes", "1 | 1"))
    sizes = {n: player_counts.Work(game.ir).of(n) for n in (2, 3, 4)}
    monkeypatch.setattr(engine, "MAX_COMPILED", sizes[3] + sizes[4])
    for n in (2, 3, 4, 3, 4, 2):
        game.new_game(n)
    assert compiled == [2, 3, 4, 2]          # 2 was dropped for 4, and made again (3 for it)
    game.measure_coverage()                  # while coverage is measured, all are kept
    for n in (3, 4, 2, 3, 4, 2):
        game.new_game(n)
    assert compiled == [2, 3, 4, 2, 3]
    assert {row["count"] for row in game.coverage()} == {6}


def test_the_language_server_hears_of_the_smallest_player_count_first(tmp_path):
    from interpreter.editor import diagnostics as lsp_diagnostics
    path = write(tmp_path, "c.rules", COUNTS)
    first, every = lsp_diagnostics.error_steps(COUNTS, path)
    assert first == [] and [e.code for e in every] == ["rulebook/type"]
    text = COUNTS.replace("| 1 | 1 | yes | yes | 1 |", "| yes | 1 | 1 | 1 | 1 |")
    first, every = lsp_diagnostics.error_steps(text, path)
    assert [e.code for e in first] == [e.code for e in every] == ["rulebook/type"]
    one = COUNTS.replace("players 2 to 6", "players 2")
    assert len(list(lsp_diagnostics.error_steps(one, path))) == 1
    (steps,) = [list(lsp_diagnostics.diagnostic_steps(COUNTS, path))]
    assert [len(found[str(path)]) for found in steps] == [0, 1]


def test_the_language_server_stops_checking_a_text_that_has_changed(tmp_path, compiled):
    """Between two pieces of the work (the checks, each player count) the
    steps ask whether a newer text has come, and stop when it has."""
    from interpreter.editor import diagnostics as lsp_diagnostics
    path = write(tmp_path, "c.rules", COUNTS)
    assert list(lsp_diagnostics.error_steps(COUNTS, path, stale=lambda: True)) == []
    assert compiled == []                    # the checks only, no player count compiled
    asked = []

    def stale() -> bool:                     # a newer text comes after the second count
        asked.append(len(compiled))
        return len(compiled) >= 2
    assert list(lsp_diagnostics.error_steps(COUNTS, path, stale=stale)) == [[]]
    assert compiled == [2, 3] and asked == [0, 1, 2]
    compiled.clear()
    steps = lsp_diagnostics.error_steps(COUNTS, path, stale=lambda: False)
    assert next(steps) == [] and compiled == [2]     # the smallest count is heard of first
    assert [e.code for e in next(steps)] == ["rulebook/type"] and compiled == [2, 3, 4, 5, 6]
    assert next(steps, None) is None


def test_compiling_one_count_at_a_time_finds_what_compile_all_finds(compiled):
    game = counts_game()
    steps = list(game.compiling())
    assert compiled == [2, 3, 4, 5, 6] and len(steps) == 5
    assert steps[0] == steps[1] == [] and [e.code for e in steps[-1]] == ["rulebook/type"]
    with pytest.raises(RulebookErrors) as caught:
        counts_game().compile_all()
    assert [(e.code, str(e.span)) for e in caught.value.errors] == \
        [(e.code, str(e.span)) for e in steps[-1]]


# -- the documented table ----------------------------------------------------------------

DOCUMENTED = {
    "players": limits.MAX_PLAYERS, "pieces in all": limits.MAX_PIECES,
    "cells of all the declared grids": limits.MAX_GRID_CELLS,
    "values a state keeps": limits.MAX_STATE_VALUES,
    "entries the player counts": limits.MAX_COMPILED,
    "digits of a number": limits.MAX_DIGITS, "characters of a string": limits.MAX_STRING,
    "numbers a formula makes": limits.MAX_DIGITS,
    "characters of a name": limits.MAX_NAME,
    "characters of the game's title": limits.MAX_TITLE,
    "items of one list": limits.MAX_LIST_ITEMS, "nesting of formulas": limits.MAX_NESTING,
    "numbers of one range": limits.MAX_RANGE,
    "rows of the component tables": limits.MAX_TABLE_ROWS,
    "size of a rulebook file": limits.MAX_RULEBOOK_BYTES,
    "words, numbers and signs of a rulebook": limits.MAX_TOKENS, "size of a data file": limits.MAX_DATA_BYTES,
    "values of a data file": limits.MAX_DATA_VALUES,
    "nesting of a data file": limits.MAX_DATA_DEPTH,
    "characters of one part of a file's path": limits.MAX_FILE_NAME,
}


def test_the_limits_table_of_the_language_reference_is_the_code():
    doc = (ROOT / "docs" / "language.md").read_text(encoding="utf-8")
    section = doc.split("### 12.1 Limits", 1)[1].split("\n## ", 1)[0]
    rows = [row for row in re.findall(r"^\| (.+?) \| (.+?) \| .+ \|$", section, re.M)
            if row != ("what", "at most")]
    assert len(rows) == len(DOCUMENTED), rows
    for what, most in rows:
        key = next((k for k in DOCUMENTED if what.startswith(k)), None)
        assert key is not None, f"§12.1 lists '{what}', which the test does not know"
        assert most.startswith(limits.count(DOCUMENTED[key])), f"§12.1: {what}: {most}"
