"""The browser table end to end: `rulebook serve` in a subprocess, Chromium
driven by Playwright, seats playing whole games by pointing at the board
as a player would (the tile, the cell, the turn; the cards of a set), a
spectator watching, a tab closed and opened again, and every frame one seat
is sent checked against what that seat may see.

Chromium is the system's (`chromium` on the PATH, else /usr/bin/chromium);
without it these tests are skipped, unless CI is set, when they fail.
Screenshots of every shipped game mid-game go to $RULEBOOK_SCREENSHOTS
(default: the test's tmp_path).
"""

from __future__ import annotations

import json
import os
import queue
import random
import re
import shutil
import subprocess
import sys
import threading
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

sync_api = pytest.importorskip("playwright.sync_api")

import interpreter  # noqa: E402
from interpreter.presentation.options import parameters, pointing, split_action  # noqa: E402
from interpreter.presentation.savefile import read_save  # noqa: E402
from interpreter.web.table import Table  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = sorted(p.stem for p in (ROOT / "rulebooks").glob("*.rules"))
START_TIMEOUT = 30          # seconds for the server to print its links
STOP_TIMEOUT = 5            # seconds for it to stop when asked, before it is killed
UI_TIMEOUT = 10_000         # milliseconds for any one thing on a page
MOVE_LIMIT = 400            # moves in one game by clicking, at most
LINK = re.compile(r"^(P\d+|spectators)(?: \([^)]*\))?: (http://\S+)$")


# -- the browser ----------------------------------------------------------------------
def chromium_path():
    found = shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(found):
        if os.environ.get("CI"):
            pytest.fail(f"Chromium is needed for the browser tests in CI: none at {found}")
        pytest.skip(f"no Chromium ({found}): the browser tests need the system's Chromium")
    return found


@pytest.fixture(scope="module")
def browser():
    path = chromium_path()
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=path, args=["--no-sandbox"],
                                              timeout=30_000)
        try:
            yield chromium
        finally:
            chromium.close()


class Errors:
    """The console errors and uncaught exceptions of the pages watched."""

    def __init__(self):
        self.seen = []

    def watch(self, page):
        page.on("console", lambda m: m.type == "error" and self.seen.append(f"console: {m.text}"))
        page.on("pageerror", lambda e: self.seen.append(f"page error: {e}"))
        return page


def new_page(browser, errors=None):
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(UI_TIMEOUT)
    page = context.new_page()
    if errors is not None:
        errors.watch(page)
    return page


# -- the server -----------------------------------------------------------------------
class Server:
    """`rulebook serve GAME` in a subprocess, its links read from its output
    (a thread keeps reading it, so the pipe never fills)."""

    def __init__(self, game, save, *, players=None, seed=1, extra=()):
        self.save = str(save)
        command = [sys.executable, "-m", "interpreter", "serve", game, "--port", "0",
                   "--save", self.save, *extra]
        if seed is not None:
            command += ["--seed", str(seed)]
        if players is not None:
            command += ["--players", str(players)]
        env = dict(os.environ, PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1")
        self.errors = open(f"{self.save}.stderr", "w+", encoding="utf-8")
        self.process = subprocess.Popen(command, cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                                        stdout=subprocess.PIPE, stderr=self.errors, text=True)
        self.lines: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.links = {}
        deadline = time.monotonic() + START_TIMEOUT
        try:
            while "spectators" not in self.links:
                left = deadline - time.monotonic()
                try:
                    line = self.lines.get(timeout=max(left, 0.01))
                except queue.Empty:
                    raise AssertionError(f"serve {game} printed no links in {START_TIMEOUT}s: "
                                         f"{self.stderr()}") from None
                if line is None:
                    raise AssertionError(f"serve {game} ended (code {self.process.wait()}) "
                                         f"before printing its links: {self.stderr()}")
                found = LINK.match(line.strip())
                if found:
                    self.links[found.group(1)] = found.group(2)
        except BaseException:
            self.stop()
            raise

    def _read(self):
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def stderr(self) -> str:
        self.errors.flush()
        self.errors.seek(0)
        return self.errors.read()[-2000:]

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(STOP_TIMEOUT)
        self.errors.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()


@pytest.fixture
def serve(tmp_path):
    """serve(game, …) → a running Server; every one is stopped at the end."""
    started = []

    def start(game, **kwargs):
        server = Server(game, tmp_path / f"{game}-{len(started)}.json", **kwargs)
        started.append(server)
        return server
    yield start
    for server in started:
        server.stop()


# -- reading a page -------------------------------------------------------------------
def status(page) -> str:
    return page.locator("#status").inner_text()


def moves_shown(page) -> int:
    """How many moves the page's log lists (its events aside)."""
    return page.locator("#log li:not(.event)").count()


def wait_for_moves(page, at_least: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#log li:not(.event)').length >= n",
                           arg=at_least, polling=50)


def wait_for_moves_exactly(page, n: int) -> None:
    page.wait_for_function("n => document.querySelectorAll('#log li:not(.event)').length === n",
                           arg=n, polling=50)


def wait_for_table(page) -> None:
    page.wait_for_selector("#board section.table-section")
    page.wait_for_function("() => document.getElementById('status').textContent.length > 0")


def legal_texts(page) -> list:
    return page.eval_on_selector_all("#actions button.action",
                                     "ns => ns.map(n => n.getAttribute('data-text'))")


def quoted(value: str) -> str:
    """`value` as a CSS string, for an attribute selector."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def whose_turn(pages: dict):
    """The seat whose page says it is its turn, or None."""
    for seat, page in pages.items():
        if status(page).startswith("Your turn"):
            return seat
    return None


def point_at(page, text: str, forms: dict, before_step=None) -> None:
    """Plays `text` as a player points at it: each step's tokens on the
    board (an element marked legal) or among the choice buttons, then the
    button that plays it; an option without steps by its name's button or
    its own. Fails naming the option when some part cannot be pointed at."""
    [option] = pointing([text], forms)
    if not option["steps"]:
        name = page.locator(f"#names button.name[data-name={quoted(option['name'])}]")
        if name.count():
            name.first.click()
            return
        confirm = page.locator(f"#confirm button.confirm[data-text={quoted(text)}]")
        if not confirm.count():
            pytest.fail(f"{text!r} (no steps) has neither a name button nor a play button")
        confirm.first.click()
        return
    for i, step in enumerate(option["steps"]):
        if before_step is not None:
            before_step(page, option, i)
        for token in step["tokens"]:
            on_board = page.locator(f"#board [data-token={quoted(token)}].legal")
            choice = page.locator(f"#choices button.choice[data-token={quoted(token)}]")
            if on_board.count():
                on_board.first.click()
            elif choice.count():
                choice.first.click()
            else:
                shown = page.eval_on_selector_all(
                    "#board .legal[data-token], #choices button.choice",
                    "ns => ns.map(n => n.getAttribute('data-token'))")
                pytest.fail(f"cannot point at {text!r}: {token!r} ({step['title']}) is neither "
                            f"legal on the board nor a choice; pointable: {shown}")
    confirm = page.locator(f"#confirm button.confirm[data-text={quoted(text)}]")
    if not confirm.count():
        offered = page.eval_on_selector_all("#confirm button.confirm",
                                            "ns => ns.map(n => n.getAttribute('data-text'))")
        pytest.fail(f"pointed at every part of {text!r} but no button plays it; offered: {offered}")
    confirm.first.click()


# -- a game played by pointing -------------------------------------------------------------
class Played:
    """What was seen while a game was played by clicking."""

    def __init__(self):
        self.moves = []              # (seat, text) in order
        self.spectator_moves = []    # how many moves the spectator's log showed after each
        self.spectator_hands = []    # (step, what) of any hand piece the spectator could read
        self.reopened = None         # (step before closing, step the new tab showed, P1's status)
        self.seconds = 0.0


def play_by_pointing(game_name, pages, rng, *, spectator=None, reopen=None, on_move=None,
                     previews=None, limit=MOVE_LIMIT) -> Played:
    """Plays until a page says the game is over: the seat whose turn it is
    picks a legal action at random and points at it. `reopen(pages, step)`
    may replace a page mid-game (the closed tab test); `previews` collects
    each rotation button's preview shown before it is clicked."""
    game = interpreter.load_rulebook(game_name)
    forms = parameters(game.ir)
    played = Played()
    started = time.monotonic()
    while len(played.moves) < limit:
        first = next(iter(pages.values()))
        if status(first).startswith("The game is over"):
            break
        if reopen is not None:
            reopen(pages, len(played.moves), played)
        seat = whose_turn(pages)
        if seat is None:
            pytest.fail(f"after {len(played.moves)} moves no page says it is its turn: "
                        f"{[status(p) for p in pages.values()]}")
        page = pages[seat]
        texts = legal_texts(page)
        assert texts, f"P{seat}'s turn with no legal action listed"
        text = rng.choice(texts)
        looked = _look_at_previews(previews, text) if previews is not None else None
        point_at(page, text, forms, looked)
        played.moves.append((seat, text))
        n = len(played.moves)
        for other in pages.values():
            wait_for_moves(other, n)
        assert page.locator("#message").is_hidden(), \
            f"{text!r} was refused: {page.locator('#message').inner_text()}"
        if spectator is not None:
            wait_for_moves(spectator, n)
            played.spectator_moves.append(moves_shown(spectator))
            readable = spectator.eval_on_selector_all(
                "#board [data-zone^='hand(']",
                "ns => ns.map(n => n.getAttribute('data-zone') + ' ' + n.getAttribute('data-token'))")
            if readable:
                played.spectator_hands.append((n, readable))
        if on_move is not None:
            on_move(n)
    else:
        pytest.fail(f"{game_name} did not end in {limit} moves")
    played.seconds = time.monotonic() - started
    return played


def _look_at_previews(previews: list, text: str):
    """A `before_step` for point_at: before a placement's last step (its
    quarter turns, a choice button), what that button shows: (text, whether
    it holds an SVG preview, the turns)."""
    def look(page, option, i):
        if option["name"] == "place" and i == len(option["steps"]) - 1:
            turns = option["steps"][i]["tokens"][0]
            button = page.locator(f"#choices button.choice[data-token={quoted(turns)}]")
            previews.append((text, button.count() > 0 and button.locator(".preview svg").count() > 0,
                             turns))
    return look


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
        assert {key: v for key, v in message.items() if key != "undo"} == \
            {key: v for key, v in expected.items() if key != "undo"}, f"frame at step {k} differs"
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


# -- every shipped game to its end, and as a picture ---------------------------------------------
@pytest.fixture(scope="module")
def screenshots(tmp_path_factory):
    folder = os.environ.get("RULEBOOK_SCREENSHOTS")
    path = Path(folder) if folder else tmp_path_factory.mktemp("screenshots")
    path.mkdir(parents=True, exist_ok=True)
    return path


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
