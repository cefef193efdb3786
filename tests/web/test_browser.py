"""The browser table end to end: `rulebook serve` in a subprocess, Chromium
driven by Playwright, seats playing whole games by pointing at the board
as a player would (the tile, the cell, the turn; the cards of a set), a
spectator watching, a tab closed and opened again, and every frame one seat
is sent checked against what that seat may see.

Chromium is the system's (`chromium` on the PATH, else /usr/bin/chromium);
without it these tests are skipped, unless CI is set, when they fail.
Every other shipped game is played to its end in test_browser_games.py.
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

import interpreter  # noqa: E402
from interpreter.presentation.options import parameters, split_action  # noqa: E402
from interpreter.presentation.savefile import read_save  # noqa: E402
from interpreter.web.table import Table  # noqa: E402

from browsing import (Errors, Server, legal_texts, moves_shown, new_page, play_by_pointing,  # noqa: E402
                      point_at, status, wait_for_moves, wait_for_moves_exactly, wait_for_table,
                      whose_turn)


# -- Hanamikoji: two seats, a spectator, a tab reopened, every frame to P1 checked ----------------
@pytest.fixture(scope="module")
def hanamikoji(browser, tmp_path_factory):
    """A whole Hanamikoji played by pointing, P0 and P1 each in its own
    browser context, a spectator in a third; P0's tab closed mid-game and
    opened again; every frame P1's page received recorded."""
    folder = tmp_path_factory.mktemp("hanamikoji")
    errors = Errors()
    with Server("hanamikoji", folder / "game.json", players=2, seed=7) as server:
        frames = []
        p1 = new_page(browser, errors)
        p1.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(payload)))
        p0 = new_page(browser, errors)
        watcher = new_page(browser, errors)
        for page, who in ((p0, "P0"), (p1, "P1"), (watcher, "spectators")):
            page.goto(server.links[who])
            wait_for_table(page)
        pages = {0: p0, 1: p1}

        def reopen(pages, step, played):
            # once, mid-game, when P1 is to move: P0's tab closes, P1 moves, P0 comes back
            if played.reopened is not None or step < 3 or whose_turn(pages) != 1:
                return
            context = pages[0].context
            pages[0].close()
            waiting_before = status(pages[1])
            game = interpreter.load_rulebook("hanamikoji")
            text = random.Random(step).choice(legal_texts(pages[1]))
            point_at(pages[1], text, parameters(game.ir))
            played.moves.append((1, text))
            wait_for_moves(pages[1], step + 1)
            wait_for_moves(watcher, step + 1)
            played.spectator_moves.append(moves_shown(watcher))
            p1_after = status(pages[1])
            page = errors.watch(context.new_page())
            page.goto(server.links["P0"])
            wait_for_table(page)
            wait_for_moves(page, step + 1)
            pages[0] = page
            played.reopened = (step, moves_shown(page), waiting_before, p1_after, status(page))

        played = play_by_pointing("hanamikoji", pages, random.Random(11), spectator=watcher,
                                  reopen=reopen)
        yield {"server": server, "pages": pages, "spectator": watcher, "played": played,
               "frames": frames, "errors": errors, "save": server.save}
        for page in (pages[0], pages[1], watcher):
            page.context.close()


def test_hanamikoji_played_to_the_end_by_pointing(hanamikoji):
    p0, played = hanamikoji["pages"][0], hanamikoji["played"]
    assert played.moves, "no move was played"
    for page in hanamikoji["pages"].values():
        assert status(page).startswith("The game is over")
    outcome = p0.locator("#outcome")
    assert outcome.is_visible()
    assert outcome.locator("tr.winner").count() >= 1 or "draw" in status(p0)
    assert re.search(r"P[01]", status(p0)) or "draw" in status(p0)
    assert moves_shown(p0) == len(played.moves)
    with open(hanamikoji["save"], encoding="utf-8") as file:
        history = json.load(file)["history"]
    assert [(h["player"], h["action"]) for h in history] == played.moves
    assert not hanamikoji["errors"].seen


def set_slider(page, step) -> None:
    """The replay slider moved to `step` as a dragged slider is: its value
    set and an input event sent (the slider may be hidden, see below)."""
    page.eval_on_selector("#replay-step", "(n, v) => { n.value = String(v); "
                          "n.dispatchEvent(new Event('input', {bubbles: true})); }", step)


def test_hanamikoji_replay_slider(hanamikoji):
    p0 = hanamikoji["pages"][0]
    steps = len(hanamikoji["played"].moves)
    slider = p0.locator("#replay-step")
    assert slider.is_visible()
    assert p0.locator("#replay-at").inner_text() == f"{steps} of {steps}"
    end_board = p0.locator("#board").inner_html()
    try:
        slider.fill("0")
        wait_for_moves_exactly(p0, 0)
        assert p0.locator("#board").inner_html() != end_board
        assert not p0.locator("#status").inner_text().startswith("Your turn"), \
            "a replayed step offers a move"
    finally:
        set_slider(p0, steps)
    wait_for_moves_exactly(p0, steps)
    assert p0.locator("#board").inner_html() == end_board
    assert p0.locator("#replay-at").inner_text() == f"{steps} of {steps}"


def test_hanamikoji_replay_slider_stays_at_an_earlier_step(hanamikoji):
    p0 = hanamikoji["pages"][0]
    steps = len(hanamikoji["played"].moves)
    try:
        set_slider(p0, 1)
        wait_for_moves_exactly(p0, 1)
        assert p0.locator("#replay-step").is_visible(), "the slider is gone at step 1"
        assert p0.locator("#replay-at").inner_text() == f"1 of {steps}"
        assert status(p0).startswith(f"Replaying: step 1 of {steps}")
        assert p0.locator("#outcome tr.winner").count() >= 1 or p0.locator("#outcome").is_visible()
    finally:
        set_slider(p0, steps)
        wait_for_moves_exactly(p0, steps)


def test_hanamikoji_spectator_watches_without_seeing_a_hand(hanamikoji):
    played, watcher = hanamikoji["played"], hanamikoji["spectator"]
    assert played.spectator_moves == list(range(1, len(played.moves) + 1)), \
        "the spectator's log did not grow move by move"
    assert not played.spectator_hands, f"the spectator read hand pieces: {played.spectator_hands}"
    assert status(watcher).startswith("The game is over")
    assert watcher.locator("#actions button.action").count() == 0
    assert watcher.locator("#board [data-zone^='hand(']").count() == 0


def test_hanamikoji_tab_closed_and_reopened(hanamikoji):
    played = hanamikoji["played"]
    assert played.reopened is not None, "the game ended before P0's tab could be closed mid-game"
    step, shown, p1_before, p1_after, p0_status = played.reopened
    assert p1_before.startswith("Your turn"), p1_before
    assert shown == step + 1, f"the reopened tab showed {shown} moves, not {step + 1}"
    if played.moves[step + 1:step + 2] and played.moves[step + 1][0] == 0:
        assert p1_after.startswith("Waiting for P0"), p1_after
        assert p0_status.startswith("Your turn"), p0_status
    # P0 moved on after reopening
    assert any(seat == 0 for seat, _ in played.moves[step + 1:]), "P0 never moved after reopening"


def hidden_pieces_of_p0(svg: str) -> list:
    """The elements of a section's SVG that show a piece of P0's private
    zones face up."""
    root = ET.fromstring(svg)
    return [e.attrib for e in root.iter()
            if re.match(r"(hand|secret|trade_off)\(P0\)", e.attrib.get("data-zone", ""))]


def test_hanamikoji_nothing_of_p0s_hand_reaches_p1(hanamikoji):
    frames = [json.loads(f) for f in hanamikoji["frames"]]
    tables = [f for f in frames if f.get("type") == "table"]
    assert len(tables) >= len(hanamikoji["played"].moves)
    game = interpreter.load_rulebook("hanamikoji")
    states, actions, data = read_save(game, hanamikoji["save"])
    for message in tables:
        assert message["seat"] == 1
        for section in message["sections"]:
            assert not hidden_pieces_of_p0(section["svg"]), \
                f"step {message['step']}: P1 is shown P0's cards in {section['key']}"
    # each frame is exactly what seat 1 may be shown at its step (its own view only)
    for message in tables:
        k = message["step"]
        truth = Table(game, rulebook="hanamikoji", players=2, seed=data["seed"],
                      states=list(states[:k + 1]), actions=list(actions[:k]),
                      tokens={"0": "x" * 20, "1": "y" * 20, "spectator": "z" * 20})
        expected = truth.message_for(1)
        assert {key: v for key, v in message.items() if key not in ("undo", "version")} == \
            {key: v for key, v in expected.items() if key not in ("undo", "version")}, \
            f"frame at step {k} differs"
    versions = [m["version"] for m in tables]
    assert versions == sorted(versions), "a frame older than one before it was sent"
    # the log never names P0's set-aside cards, nor the secret card while it is hidden
    for message in tables:
        k = message["step"]
        secret_hidden = any(z["name"] == "secret" and z.get("owner") == 0 and z.get("count")
                            for z in game.view(states[k], 0)["zones"])
        last_secret = max((i for i, a in enumerate(actions[:k])
                           if a.player == 0 and split_action(str(a))[0] == "secret"), default=None)
        for i, entry in enumerate(message["log"]):
            name = split_action(str(actions[i]))[0]
            if actions[i].player == 0 and name == "trade_off":
                assert entry["text"].startswith("trade_off ?"), entry
            if i == last_secret and secret_hidden:
                assert entry["text"].startswith("secret ?"), entry


# -- Lanterns: tiles pointed at, a cell of the lake, a turn shown before it is chosen ---------
def test_lanterns_played_to_the_end_by_pointing(browser, serve):
    errors = Errors()
    server = serve("lanterns", players=2, seed=5)
    pages = {}
    for seat in (0, 1):
        pages[seat] = new_page(browser, errors)
        pages[seat].goto(server.links[f"P{seat}"])
        wait_for_table(pages[seat])
    previews = []
    played = play_by_pointing("lanterns", pages, random.Random(3), previews=previews)
    print(f"lanterns: {len(played.moves)} moves by pointing in {played.seconds:.1f}s")
    assert status(pages[0]).startswith("The game is over")
    assert pages[0].locator("#outcome").is_visible()
    assert pages[0].locator("#outcome tr.winner").count() >= 1 or "draw" in status(pages[0])
    placed = [t for _, t in played.moves if t.startswith("place ")]
    assert placed and len(previews) == len(placed)
    assert played.seconds < 120, f"a Lanterns game by pointing took {played.seconds:.0f}s"
    assert not errors.seen, errors.seen
    for page in pages.values():
        page.context.close()
    missing = [t for t, shown, _ in previews if not shown]
    # a number of turns is a button with the tile as it will lie, even where a
    # piece on the table is named as that number
    assert not missing, f"{len(missing)} of {len(previews)} placements had no turn button " \
                        f"with a preview, e.g. {missing[:3]}"




# -- a server stopped and started again with --load ------------------------------------------
def test_a_server_restarted_with_load_goes_on_from_the_last_move(browser, serve, tmp_path):
    """The game is saved after every move; a server started again with
    --load seats the same links' tokens (kept beside the save) at the game
    as it stood."""
    first = serve("hanamikoji", seed=4)
    pages = {}
    try:
        for seat in (0, 1):
            pages[seat] = page = new_page(browser)
            page.goto(first.links[f"P{seat}"])
            wait_for_table(page)
        for n in range(1, 4):
            page = pages[whose_turn(pages)]
            page.locator("#actions button.action").first.dispatch_event("click")
            for other in pages.values():
                wait_for_moves(other, n)
        before = {seat: page.locator("#log").inner_text() for seat, page in pages.items()}
    finally:
        for page in pages.values():
            page.context.close()
    first.stop()
    again = serve("hanamikoji", seed=None, extra=("--load", first.save))
    assert {k: v.split("#")[1] for k, v in again.links.items()} == \
        {k: v.split("#")[1] for k, v in first.links.items()}, "the links' secrets changed"
    page = new_page(browser)
    try:
        page.goto(again.links["P0"])
        wait_for_table(page)
        wait_for_moves_exactly(page, 3)
        assert page.locator("#log").inner_text() == before[0]
    finally:
        page.context.close()
