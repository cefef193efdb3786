"""Golden boards: every shipped rulebook's table as the browser draws it
(interpreter/web/svg.py), as seat 0 sees it, at three points of a seeded
random game.

Usage:
  python tools/boards.py [RULEBOOK ...]             record (every shipped game by default)
  python tools/boards.py --check [RULEBOOK ...]     compare; exit 1 naming the pages that differ
  python tools/boards.py --png DIR [RULEBOOK ...]   record, and screenshot each page into DIR
                                                    with headless chromium, to look at

Each rulebook in rulebooks/ is played at its smallest player count (and
at 4 for the games with a map or a lake, TABLES) without chance nodes, the
game's seed 1: at every decision the first player to move takes the legal
action `random.Random(1)` picks. The table is drawn at the start, at a
decision from DECISIONS on where seat 0 is to move (one where its legal
actions name cells, so that they are drawn, where one comes soon) and at
the end, each with what the last move
changed highlighted, and written as one HTML page of its sections,
tests/web/boards/GAME-Np-STAGE.html. tests/web/test_svg.py draws them
again and compares.
"""

from __future__ import annotations

import argparse
import random
import subprocess
import sys
from html import escape
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from interpreter import load_rulebook  # noqa: E402
from interpreter.presentation import changes, options  # noqa: E402
from interpreter.web.svg import draw_table  # noqa: E402

BOARDS = ROOT / "tests" / "web" / "boards"
SEED = 1
DECISIONS = 12          # about a third of a short game's decisions
MOST = 3000             # a game is cut off after this many decisions
TABLES = {"lanterns": (4,), "samurai": (4,)}   # player counts drawn besides the smallest
CHROMIUM = "/usr/bin/chromium"
STYLE = ("body{font-family:sans-serif;margin:12px;background:#ffffff}"
         "h1{font-size:18px;margin:0 0 8px}h2{font-size:13px;margin:10px 0 2px;color:#37474f}"
         "svg{display:block}")


def rulebooks(names=()) -> list:
    paths = sorted((ROOT / "rulebooks").glob("*.rules"))
    return [p for p in paths if not names or p.stem in names]


def tables(load=load_rulebook, names=()) -> list:
    """(rulebook path, player count) of every recorded game."""
    out = []
    for path in rulebooks(names):
        game = load(str(path))
        counts = {game.min_players} | {n for n in TABLES.get(path.stem, ())
                                       if game.min_players <= n <= game.max_players}
        out += [(path, n) for n in sorted(counts)]
    return out


def targets(view: dict) -> list:
    """The cells the viewer's legal actions name, as text."""
    return [f"({x},{y})" for x, y in sorted(options.legal_cells(view.get("actions") or ()))]


def stages(game, players: int) -> list:
    """[(stage, view, view before)] of seat 0 at the start, in the middle
    and at the end: the middle is the first decision from DECISIONS on
    where seat 0 moves and its legal actions name cells (within another
    2 × DECISIONS decisions), else the first where it moves."""
    rng = random.Random(SEED)
    state = game.new_game(players, seed=SEED)
    before, view = None, game.view(state, 0)
    out = [("start", view, None)]
    middle = fallback = None
    for decision in range(1, MOST + 1):
        if state.over:
            break
        mover = game.to_move(state)[0]
        actions = game.legal_actions(state, mover)
        state = game.apply(state, actions[rng.randrange(len(actions))])
        before, view = view, game.view(state, 0)
        if middle is None and decision >= DECISIONS and not state.over and 0 in game.to_move(state):
            fallback = fallback or ("middle", view, before)
            if targets(view) or decision >= 3 * DECISIONS:
                middle = ("middle", view, before)
    middle = middle or fallback
    return out + ([middle] if middle else []) + [("end", view, before)]


def page(title: str, view: dict, before) -> str:
    """One HTML page of the table's sections, each under its title."""
    drawn = draw_table(view, changed=changes.changed(before, view))
    parts = [f"<h2>{escape(s['title'])} <small>({escape(s['kind'])})</small></h2>\n{s['svg']}"
             for s in drawn]
    return ("<!doctype html>\n<html><head><meta charset=\"utf-8\">"
            f"<title>{escape(title)}</title><style>{STYLE}</style></head>\n<body>\n"
            f"<h1>{escape(title)}</h1>\n" + "\n".join(parts) + "\n</body></html>\n")


def pages(path: Path, players: int, load=load_rulebook) -> dict:
    """file name → page text, for one game at one player count."""
    game = load(str(path))
    out = {}
    for stage, view, before in stages(game, players):
        name = f"{path.stem}-{players}p-{stage}.html"
        out[name] = page(f"{view.get('game')} · {players} players · {stage} · turn "
                         f"{view.get('turn')}", view, before)
    return out


def screenshot(page_file: Path, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / (page_file.stem + ".png")
    subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                    f"--screenshot={target}", "--window-size=1200,1600", page_file.as_uri()],
                   check=True, capture_output=True, timeout=120)
    return target


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("rulebooks", nargs="*")
    parser.add_argument("--check", action="store_true")
    parser.add_argument("--png", metavar="DIR")
    args = parser.parse_args(argv)
    differ = []
    BOARDS.mkdir(parents=True, exist_ok=True)
    for path, players in tables(names=args.rulebooks):
        for name, text in pages(path, players).items():
            target = BOARDS / name
            if args.check:
                if not target.exists() or target.read_text(encoding="utf-8") != text:
                    differ.append(name)
                continue
            target.write_text(text, encoding="utf-8")
            if args.png:
                print(screenshot(target, Path(args.png)))
    if differ:
        print("boards that differ: " + " ".join(differ))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
