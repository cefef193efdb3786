"""The browser tests' fixtures: a Chromium per module, servers stopped at
the end of each test, the folder screenshots are kept in."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture(scope="module")
def browser():
    from browsing import chromium_path, sync_api
    path = chromium_path()
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"],
                                              timeout=30_000)
        try:
            yield chromium
        finally:
            chromium.close()


@pytest.fixture
def serve(tmp_path):
    """serve(game, …) → a running Server; every one is stopped at the end."""
    from browsing import Server
    started = []

    def start(game, **kwargs):
        server = Server(game, tmp_path / f"{game}-{len(started)}.json", **kwargs)
        started.append(server)
        return server
    yield start
    for server in started:
        server.stop()




ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def screenshots():
    """Where the pictures of every game's board are kept, as the run's
    artefacts: $RULEBOOK_SCREENSHOTS, else build/screenshots/ (not tracked)."""
    folder = os.environ.get("RULEBOOK_SCREENSHOTS")
    path = Path(folder) if folder else ROOT / "build" / "screenshots"
    path.mkdir(parents=True, exist_ok=True)
    return path
