"""Every shipped rulebook played to its end in the browser, each seat on its
own link, every move pointed at; a picture of each game's board kept after
ten moves and at the end, in $RULEBOOK_SCREENSHOTS (default:
build/screenshots/, not tracked by git)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

pytest.importorskip("playwright.sync_api")

from browsing import Errors, new_page, play_by_pointing, wait_for_table  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = sorted(p.stem for p in (ROOT / "rulebooks").glob("*.rules"))


@pytest.mark.parametrize("rulebook", RULEBOOKS)
def test_every_game_played_to_the_end_by_pointing(rulebook, browser, serve, screenshots):
    """Every shipped rulebook, at its fewest players, played to its end by
    each seat on its own link, every move pointed at; P0's board kept as a
    picture after ten moves and at the end."""
    errors = Errors()
    server = serve(rulebook, seed=2)
    seats = sorted((k for k in server.links if k != "spectators"), key=lambda k: int(k[1:]))
    assert len(seats) >= 2
    pages = {}          # a context per seat: a tab in the background is not drawn
    try:
        for seat in seats:
            pages[int(seat[1:])] = page = new_page(browser, errors)
            page.goto(server.links[seat])
            wait_for_table(page)

        def picture(n):
            if n == 10:
                pages[0].screenshot(path=str(screenshots / f"{rulebook}-{len(seats)}p-mid.png"),
                                    full_page=True)
        played = play_by_pointing(rulebook, pages, random.Random(rulebook), on_move=picture)
        page = pages[0]
        page.screenshot(path=str(screenshots / f"{rulebook}-{len(seats)}p-end.png"), full_page=True)
        assert played.moves, f"{rulebook}: nobody could move"
        assert page.locator("#board section.table-section").count() >= 1
        assert page.locator("#outcome").is_visible(), f"{rulebook}: no outcome at the end"
        assert not errors.seen, f"{rulebook}: {errors.seen}"
    finally:
        for page in pages.values():
            page.context.close()
