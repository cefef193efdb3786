"""`rulebook validate --play` as data: every ``tests/playcheck/*.rules`` file
is a small rulebook whose header says what its random games must find.

    # expect: rule/never-legal 30:1 'wait'
    # expect: ok
    # play: 5 --max-decisions 200
    # message: the last refusal: its requirement does not hold

`expect` is a code and the ``line:column`` of the finding, then optionally
a text its message must quote; ``ok`` means the games find nothing. The
set of (code, line, column) must be exactly the expected one. `play` gives
the arguments after ``--play`` (default: the default number of games);
each `message` is a text the command's output must hold (a line of a
finding's message, with the values it names).
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from interpreter.terminal import cli

PLAYCHECK = Path(__file__).resolve().parent / "playcheck"
FILES = sorted(PLAYCHECK.glob("*.rules"))

_EXPECT = re.compile(r"^#\s*expect:\s*(?P<code>[a-z]+/[a-z-]+)\s+(?P<line>\d+):(?P<column>\d+)"
                     r"(?:\s+'(?P<quote>[^']+)')?\s*$")


def header(path: Path) -> tuple:
    """(expected [(code, line, column, quote)], play arguments, message texts)."""
    expected, play, messages, ok = [], [], [], False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.startswith("#"):
            break
        if re.match(r"^#\s*expect:\s*ok\s*$", line):
            ok = True
        elif re.match(r"^#\s*expect:", line):
            m = _EXPECT.match(line)
            assert m, f"{path.name}:{number}: cannot read this expectation: {line!r}"
            expected.append((m["code"], int(m["line"]), int(m["column"]), m["quote"]))
        elif line.startswith("# play:"):
            play = shlex.split(line.partition(":")[2])
        elif line.startswith("# message:"):
            messages.append(line.partition(":")[2].strip())
    assert expected or ok, f"{path.name}: the header says nothing about the expected findings"
    assert not (expected and ok), f"{path.name}: 'expect: ok' together with expected findings"
    return expected, play, messages


def test_there_are_playcheck_files():
    assert len(FILES) >= 3


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.stem)
def test_playcheck_file(capsys, path):
    expected, play, messages = header(path)
    code = cli.main(["validate", str(path), "--play", *play])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err and not err, err
    pattern = r"(?m)^\S*" + re.escape(path.name) + r":(\d+):(\d+): error\[([a-z]+/[a-z-]+)\]: (.*)"
    found = {(m[3], int(m[1]), int(m[2])): m[4] for m in re.finditer(pattern, out)}
    assert set(found) == {(c, line, column) for c, line, column, _ in expected}, out
    for c, line, column, quote in expected:
        assert quote is None or quote in found[(c, line, column)], out
    for text in messages:
        assert text in out, out
    assert code == (1 if expected else 0), out
