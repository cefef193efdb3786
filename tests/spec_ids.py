"""Promise 8 for every game's test file: each rule ID and worked example of
the game's spec is named by a test (its name, a parameter id or its
docstring), and each variant file of the game is listed with what it
changes. One helper per check, shared by tests/test_<game>.py."""

from __future__ import annotations

import inspect
import os
import re
from pathlib import Path

import pytest

# The project's shared material (the games' specifications in rules/, the
# published data files in data/) lies next to the repository; RULEBOOK_SHARED
# names another folder.
SHARED = Path(os.environ.get("RULEBOOK_SHARED")
              or Path(__file__).resolve().parent.parent.parent / "shared")


def spec(game: str) -> Path:
    """The rules specification of `game` (with its rule IDs)."""
    return SHARED / "rules" / f"{game}.md"


def unnamed_rule_ids(spec: Path, prefix: str, module) -> list:
    """The rule IDs (`PREFIX-X9`) of `spec` that no test function of
    `module` names; skips the calling test when the spec is not there."""
    if not spec.exists():
        pytest.skip(f"spec not found at {spec}")
    wanted = set(re.findall(rf"\b{prefix}-[A-Z]\d+\b", spec.read_text(encoding="utf-8")))
    assert wanted, f"no {prefix}- rule ID in {spec}"
    named = set()
    for name, fn in inspect.getmembers(module, inspect.isfunction):
        if not name.startswith("test_"):
            continue
        if f"_{prefix}_" in name:
            named |= {f"{prefix}-{m}" for m in
                      re.findall(r"_([A-Z]\d+)(?=[a-z]?_|[a-z]?$)", name)}
        named |= set(re.findall(rf"\b{prefix}-[A-Z]\d+", fn.__doc__ or ""))
    return sorted(wanted - named)


def added_to_shared(text: str, name: str) -> list:
    """The lines of a shipped data file (`text`) that the shared file
    ``shared/data/NAME.yaml`` does not have, comments left out; skips the
    calling test when the shared file is not there. The shared lines must
    all be kept, in their order (blank lines aside)."""
    shared = SHARED / "data" / f"{name}.yaml"
    if not shared.exists():
        pytest.skip("shared/data is missing")
    theirs = shared.read_text(encoding="utf-8").splitlines()
    ours = text.splitlines()
    kept = [line for line in ours if line in theirs and line.strip()]
    assert kept == [line for line in theirs if line.strip()], "a shared line was changed or moved"
    return [line for line in ours if line not in theirs and not line.startswith("#")]


def shipped_variants(folder: Path, stem: str) -> set:
    """The names of a game's variant files, without the game's prefix: the
    keys its test file lists (``paris-allow-mirror.rules`` → ``allow-mirror``)."""
    return {p.name[len(stem) + 1:-len(".rules")] for p in folder.glob(f"{stem}-*.rules")}
