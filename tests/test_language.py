"""Language tests as data: every ``tests/language/*.rules`` file is a tiny
rulebook whose header comment lists the errors it must produce.

One expectation per line, in the file's header::

    # expect: rulebook/unknown-name 18:20 'dekc' hint 'deck'
    # expect: data/invalid data/bad-values.yaml:4:12
    # expect: ok

An expectation is a code and a place (``line:column`` in the rulebook, or
``file:line:column`` for a data file it includes), then optionally the name
the message must quote, and ``hint 'TEXT'`` or ``hint "TEXT"`` (the hint
contains TEXT) or ``nohint``. ``ok`` means no error at all. The test compares the *set* of
(code, file, line, column) exactly, so a missing or an extra error fails.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from interpreter.errors import RulebookErrors
from interpreter.language.loader import compile_ir

LANGUAGE = Path(__file__).resolve().parent / "language"
FILES = sorted(LANGUAGE.glob("*.rules"))

_EXPECT = re.compile(
    r"^#\s*expect:\s*(?P<code>[a-z]+/[a-z-]+)\s+"
    r"(?:(?P<file>[^\s:]+):)?(?P<line>\d+):(?P<column>\d+)"
    r"(?:\s+'(?P<quote>[^']+)')?"
    r"(?:\s+(?:hint\s+(?:'(?P<hint>[^']+)'|\"(?P<hint2>[^\"]+)\")|(?P<nohint>nohint)))?\s*$")


def expectations(path: Path):
    """[(code, file, line, column, quote, hint, nohint)], [] for '# expect: ok'."""
    found, ok = [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("#"):
            break
        if not re.match(r"^#\s*expect:", line):
            continue
        if re.match(r"^#\s*expect:\s*ok\s*$", line):
            ok = True
            continue
        m = _EXPECT.match(line)
        assert m, f"{path.name}:{number}: cannot read this expectation: {line!r}"
        found.append((m["code"], m["file"] or path.name, int(m["line"]), int(m["column"]),
                      m["quote"], m["hint"] or m["hint2"], bool(m["nohint"])))
    assert found or ok, f"{path.name}: the header says nothing about the expected errors"
    assert not (found and ok), f"{path.name}: 'expect: ok' together with expected errors"
    return found


def errors_of(path: Path) -> list:
    """The errors `rulebook validate` reports: the checks', then, for a
    rulebook they pass, the compiler's (kinds of values, limits of ranges)."""
    from interpreter.game.engine import Game
    try:
        Game(compile_ir(path.read_text(encoding="utf-8"), path.name, path.parent)).compile_all()
    except RulebookErrors as e:
        return e.errors
    return []


def test_there_are_language_tests():
    assert len(FILES) >= 40


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_language_file(path):
    expected = expectations(path)
    errors = errors_of(path)
    got = {(e.code, e.span.file, e.span.line, e.span.column) for e in errors if e.span}
    want = {x[:4] for x in expected}
    shown = "\n".join(f"  {e}" for e in errors)
    assert got == want, f"{path.name}: errors differ from the header\n{shown}"
    assert len(errors) == len(expected), f"{path.name}: an error is reported twice\n{shown}"

    # every error is located, and they come sorted by position
    for e in errors:
        assert e.span.line >= 1 and e.span.column >= 1, e
    keys = [e.sort_key() for e in errors]
    assert keys == sorted(keys)

    by_place = {(e.code, e.span.file, e.span.line, e.span.column): e for e in errors}
    for code, file, line, column, quote, hint, nohint in expected:
        e = by_place[(code, file, line, column)]
        if quote is not None:
            assert f"'{quote}'" in e.message, f"{e} should quote '{quote}'"
        if hint is not None:
            assert e.hint and hint in e.hint, f"{e} should hint {hint!r}"
        if nohint:
            assert e.hint is None, f"{e} should have no hint"


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_named_errors_quote_the_name_and_unknown_names_say_whether_a_close_one_exists(path):
    """The header of each file is held to the error-message contract: errors
    about a name quote it, and each unknown name either names the close
    match ('did you mean …') or says explicitly that none exists."""
    for code, _file, line, _col, quote, hint, nohint in expectations(path):
        if code in ("rulebook/unknown-name", "rulebook/duplicate-name", "rulebook/arity",
                    "rulebook/recursion", "rulebook/unreachable-phase"):
            assert quote, f"{path.name}: line {line}: say which name the {code} message quotes"
        if code == "rulebook/unknown-name":
            assert hint or nohint, f"{path.name}: line {line}: say 'hint …' or 'nohint'"


def test_unknown_name_hints_are_did_you_mean():
    for path in FILES:
        for e in errors_of(path):
            if e.code == "rulebook/unknown-name" and e.hint and "did you mean" in e.hint:
                assert re.search(r"did you mean '[A-Za-z_][A-Za-z0-9_]*'\?", e.hint), e


VALID = [p for p in FILES if not expectations(p)]
ENGINE_BUGS: dict = {}


@pytest.mark.parametrize("path", [
    pytest.param(p, id=p.stem, marks=[pytest.mark.xfail(strict=True, reason=ENGINE_BUGS[p.stem])]
                 if p.stem in ENGINE_BUGS else []) for p in VALID])
def test_a_valid_file_starts_a_game_for_every_player_count(path):
    from interpreter.game.engine import Game
    game = Game(compile_ir(path.read_text(encoding="utf-8"), path.name, path.parent))
    for players in range(game.min_players, game.max_players + 1):
        state = game.new_game(players, seed=1)
        assert state.over or game.to_move(state)


def test_the_checker_and_the_engine_agree_on_the_name_of_passing():
    from interpreter.language import checks
    from interpreter.runtime import decisions
    assert checks.PASS == decisions.PASS


def _mutants(text: str, kinds: str):
    lines = text.splitlines(keepends=True)
    for i in range(len(lines)):
        if not lines[i].split("#", 1)[0].strip():
            continue           # blank and comment lines change nothing
        if "left out" in kinds:
            yield "".join(lines[:i] + lines[i + 1:])
        if "twice" in kinds:
            yield "".join(lines[:i + 1] + lines[i:])
        if "cut short" in kinds:
            yield "".join(lines[:i] + [lines[i].rstrip("\n")[:-1] + "\n"] + lines[i + 1:])


@pytest.mark.parametrize("name, kinds", [
    ("valid-small.rules", "left out, twice, cut short"),
    ("valid-features.rules", "left out"),
])
def test_broken_rulebooks_fail_with_located_errors_only(name, kinds):
    """Leave out, repeat or cut short any line of a valid rulebook: the
    pipeline either accepts it or reports located RulebookErrors, never a
    Python exception."""
    text = (LANGUAGE / name).read_text(encoding="utf-8")
    for mutant in _mutants(text, kinds):
        try:
            compile_ir(mutant, name, LANGUAGE)
        except RulebookErrors as e:
            assert e.errors
            for err in e.errors:
                assert err.span is not None and err.span.line >= 1 and err.span.column >= 1, err
                assert err.code.startswith(("rulebook/", "data/")), err
