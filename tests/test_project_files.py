"""The project speaks of itself alone: no file of it names a path of the
machine it was written on (a home folder, a checkout, the specifications'
folder). Rules are named by their rule IDs, files by their path in the
repository."""

from __future__ import annotations

import re
import tomllib
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


def test_ci_runs_exactly_the_readme_test_commands():
    """The README opens with three commands: play a game, run the tests, run
    the tests of the extras; CI runs the second and then the third as they
    are written. The second is the core suite alone, the third the tests of
    tests/adapters/ alone (pytest does not go into that folder unless told)."""
    commands = re.findall(r"```sh\n(.*?)\n```", (ROOT / "README.md").read_text(encoding="utf-8"))
    play, test, extras = commands[:3]
    assert "rulebook play" in play and "pytest" in test
    assert "pip install -q -e '.[all]'" in extras and extras.endswith(" tests/adapters tests/web")
    assert "apt-get install -y -q chromium neovim" in extras    # the browser tests' browser, the editor test's Neovim
    assert "adapters" not in test
    ci = [line for line in (ROOT / ".ci" / "run").read_text().splitlines()
          if line and not line.startswith("#")]
    assert test in ci and extras in ci and ci.index(test) < ci.index(extras)


def test_the_core_suite_leaves_the_adapter_tests_out():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    pytest_options = config["tool"]["pytest"]["ini_options"]
    assert pytest_options["testpaths"] == ["tests"]
    assert {"adapters", "web"} <= set(pytest_options["norecursedirs"])
    extras = config["project"]["optional-dependencies"]
    assert {"test", "ray", "pettingzoo", "openspiel"} <= set(extras)
    named = re.fullmatch(r"rulebook\[(.*)\]", *extras["all"]).group(1).split(",")
    assert set(named) == set(extras) - {"all"}, "[all] must name every other extra"
