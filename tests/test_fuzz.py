"""A short run of the fuzzer (tools/fuzz.py): broken rulebooks end in a project error.

A fixed seed and a fixed small number of cases, two at a time, within 30 s:
every mutant of a shipped rulebook and every random rulebook must come out
valid or with a project error code, never with a crash, a hang or the
memory limit. `KNOWN` lists the findings of today's engine still waiting for
their fix; a finding listed there is left out. Empty it as the fixes land.
The classification of the tool itself is checked on made-up outputs.
"""

from __future__ import annotations

import importlib.util
import random
import signal
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (class, words of the message): findings of today's engine, to be fixed.
KNOWN: list = []


def load_tool():
    spec = importlib.util.spec_from_file_location("fuzz_tool", ROOT / "tools" / "fuzz.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module         # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


fuzz = load_tool()


def is_known(finding) -> bool:
    return any(finding.result.cls == cls and words in finding.result.message
               for cls, words in KNOWN)


def test_a_short_fuzz_finds_no_crash_hang_or_memory(tmp_path):
    report = fuzz.fuzz(seed=7, cases=28, workers=2, out=tmp_path, minutes=0.35, shrink_runs=0)
    assert report.cases > 0 and sum(report.counts.values()) == report.cases
    unexpected = [f"{f.result.cls}: {f.result.message} (case {f.case.index}: "
                  f"{f.case.origin} {' '.join(f.case.steps)}; {f.folder})"
                  for f in report.findings if not is_known(f)]
    assert not unexpected, "\n".join(unexpected)


def test_cases_depend_on_the_seed_alone():
    sources, walker = fuzz.shipped(), fuzz.GrammarWalker()
    first = [fuzz.make_case(3, i, sources, walker) for i in range(30)]
    again = [fuzz.make_case(3, i, sources, walker) for i in reversed(range(30))][::-1]
    assert [(c.text, c.folder, c.simulate) for c in first] == \
        [(c.text, c.folder, c.simulate) for c in again]
    assert {c.origin for c in first} >= {"grammar", "template"}
    assert fuzz.make_case(4, 0, sources, walker).text != first[0].text


def test_the_template_games_parse():
    from interpreter.language.syntax import parse
    rng = random.Random(1)
    for _ in range(20):
        assert parse(fuzz.template_rulebook(rng), "template.rules")["node"]


OUTPUTS = [  # (return code, stdout, stderr, timed out) -> class
    ((0, "rulebooks/case.rules: ok\n", "", False), "valid"),
    ((1, "rulebooks/case.rules:3:1: error[rulebook/syntax]: unexpected 'x'\n", "", False), "coded"),
    ((1, "", "error[rule/loop]: game 0 failed\n", False), "coded"),
    ((1, "rulebooks/case.rules: error[internal]: KeyError: 'x'\n", "", False), "crash"),
    ((1, "", "Traceback (most recent call last):\n  File \"x\", line 1\nValueError: no\n", False),
     "crash"),
    ((1, "rulebooks/case.rules: error[internal]: MemoryError: \n", "", False), "memory"),
    ((1, "", "Traceback (most recent call last):\nMemoryError\n", False), "memory"),
    ((-signal.SIGKILL, "", "", False), "memory"),
    ((-signal.SIGSEGV, "", "Fatal Python error: Segmentation fault\n", False), "crash"),
    ((2, "", "something went wrong\n", False), "crash"),
    ((-signal.SIGKILL, "", "", True), "hang"),
]


def test_each_kind_of_ending_has_its_class(tmp_path):
    got = [fuzz.classify("validate", *ending, tmp_path, fuzz.Limits()).cls for ending, _ in OUTPUTS]
    assert got == [cls for _, cls in OUTPUTS]


def test_a_message_is_the_same_wherever_the_case_ran(tmp_path):
    line = f"{tmp_path}/rulebooks/case.rules:12:5: error[internal]: KeyError: 'x'\n"
    result = fuzz.classify("validate", 1, line, "", False, tmp_path, fuzz.Limits())
    assert result.message == ("validate: DIR/rulebooks/case.rules:L:C: "
                              "error[internal]: KeyError: 'x'")
