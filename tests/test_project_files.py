"""The project speaks of itself alone: no file of it names a path of the
machine it was written on (a home folder, a checkout, the specifications'
folder). Rules are named by their rule IDs, files by their path in the
repository."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SKIP = {".git", ".venv", "venv", "__pycache__", ".pytest_cache", ".hypothesis", "build", "dist"}
ABSOLUTE = re.compile(r"(?<![\w.~-])(?:/(?:work|home|root|Users|mnt|srv|opt)/[\w.-]+"
                      r"|[A-Za-z]:\\(?:Users|work)\\)")


def project_files():
    for path in sorted(ROOT.rglob("*")):
        parts = set(path.relative_to(ROOT).parts)
        if path.is_file() and not parts & SKIP and not any(p.endswith(".egg-info") for p in parts):
            yield path


def test_no_absolute_path_of_a_machine():
    found = []
    for path in project_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(text.splitlines(), 1):
            if ABSOLUTE.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_check_sees_a_machine_path():
    slash, backslash = "/", "\\"       # written apart, so this file passes its own check
    assert ABSOLUTE.search(f"# Rules: {slash}work{slash}shared/rules/paris.md")
    assert ABSOLUTE.search(f"see C:{backslash}Users{backslash}me")
    assert not ABSOLUTE.search("rulebooks/paris.rules and docs/api.md")


def test_ci_runs_exactly_the_readme_test_command():
    """The README opens with two commands: play a game, run the tests; CI runs
    the second one as it is written."""
    commands = re.findall(r"```sh\n(.*?)\n```", (ROOT / "README.md").read_text(encoding="utf-8"))
    play, test = commands[:2]
    assert "rulebook play" in play and "pytest" in test
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line and not line.startswith("#")]
    assert test in ci
