"""The same games as before: every recorded golden playthrough replays
decision by decision (who decides, the legal actions, the action taken, the
state after it) and ends with the same scores and winners.

The records are made by `python tools/golden.py`; a change to the engine
must leave them as they are, and a change to a rulebook's rules re-records
that rulebook's games and shows the change as a diff of tests/golden/.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("golden_tool", ROOT / "tools" / "golden.py")
golden = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(golden)


@pytest.mark.parametrize("path", golden.rulebooks(), ids=golden.name_of)
def test_the_recorded_games_replay_the_same(path):
    target = golden.golden_file(path)
    assert target.exists(), f"no golden games for {path.name}: run python tools/golden.py {path.stem}"
    want = json.loads(target.read_text(encoding="utf-8"))
    assert want["rulebook"] == str(path.relative_to(ROOT))
    assert golden.first_difference(want, golden.record(path)) is None


def test_no_record_without_its_rulebook():
    names = {golden.name_of(p) for p in golden.rulebooks()}
    assert {p.stem for p in golden.GOLDEN.glob("*.json")} <= names


def test_a_changed_game_is_reported_at_its_decision():
    rec = golden.record(ROOT / "rulebooks" / "hanamikoji.rules")
    changed = json.loads(golden.dumps(rec))
    assert golden.first_difference(changed, rec) is None
    changed["games"][0]["decisions"][5]["take"] = "something else"
    assert golden.first_difference(changed, rec).startswith("2 players, seed 1, decision 5: take")
