"""The table as a player sees it: a scripted game of every shipped rulebook
(and of the games made for these tests, tests/games/) at each of its player
counts, at 120 columns, prints the screens recorded in tests/screens/ (made by
`python tools/screens.py`, which shows the first screen that differs with
`--check`), and no screen is taller than the terminal's 45 lines."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

from tests.scenario import loaded

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("screens_tool", ROOT / "tools" / "screens.py")
screens = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(screens)


@pytest.fixture(scope="module", params=screens.tables(loaded), ids=lambda t: f"{t[0].stem}-{t[1]}p")
def played(request):
    path, players = request.param
    return path, players, screens.transcript(path, players)


def test_the_screens_are_the_recorded_ones(played):
    path, players, text = played
    target = screens.screen_file(path, players)
    assert target.exists(), f"no screens for {path.stem}: run python tools/screens.py {path.stem}"
    difference = screens.first_difference(target.read_text(encoding="utf-8"), text)
    assert difference is None, difference


def test_every_screen_fits_45_lines(played):
    path, _, text = played
    lines, k = screens.tallest(text)
    assert lines <= screens.HEIGHT, f"{path.stem}: screen {k} has {lines} lines"
    assert all(len(line) <= screens.WIDTH for line in text.splitlines())


def test_the_game_is_played_to_its_end_and_its_log_shown(played):
    path, _, text = played
    assert "Game over." in text and "game over> log" in text and "error[internal]" not in text


def test_every_recorded_game_is_one_of_a_rulebook_at_one_of_its_player_counts():
    recorded = {p.name for p in screens.SCREENS.glob("*.txt")}
    assert recorded == {screens.screen_file(p, n).name for p, n in screens.tables(loaded)}
