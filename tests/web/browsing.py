"""What the browser tests share: the system's Chromium, a `rulebook serve`
in a subprocess with the links it prints, reading a page, and a game played
by pointing at the board as a player would. The fixtures are in
conftest.py."""

from __future__ import annotations

import os
import queue
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

import interpreter
from interpreter.presentation.options import parameters, pointing

sync_api = pytest.importorskip("playwright.sync_api")

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


