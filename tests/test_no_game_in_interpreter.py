"""Promise 1: the interpreter knows no game. No game's title, component
types, named pieces or actions appear in interpreter/ (a few ordinary
English words that every engine uses are allowed)."""

from __future__ import annotations

import re
from pathlib import Path

from interpreter.language.loader import load_ir

ROOT = Path(__file__).resolve().parent.parent
ORDINARY = {"item", "pick", "pattern", "light", "pass", "take", "secret", "player", "card",
            "hand", "deck", "table", "centre", "box", "revealed", "discarded", "side", "offered",
            "removed", "draw", "done", "go", "use", "points", "score", "kind",
            "character", "place", "colour", "token", "hex", "tile",   # a hex map, a tile: every board game
            "piece", "build", "pass_turn", "direction", "north", "east", "south", "west",   # grids
            "play", "check", "call", "fold"}   # a card played; checking rules, calling functions, folding constants


def game_words() -> set:
    words = set()
    for path in sorted((ROOT / "rulebooks").glob("*.rules")):
        ir = load_ir(str(path))[0]
        words.update(w.lower() for w in re.findall(r"[A-Za-z]{4,}", ir["game"]["title"]))
        for comp in ir["components"]:
            words.add(comp["name"].lower())
            for row in comp["rows"]:
                name = row["cells"].get("name")
                if name is not None and name.get("value") is not None:
                    words.add(str(name["value"]).lower())
        words.update(a["name"].lower() for a in ir["actions"])
    return {w for w in words if len(w) > 2} - ORDINARY


def test_no_game_word_in_the_interpreter():
    words = game_words()
    assert "hanamikoji" in words and "geisha" in words
    found = []
    for path in sorted((ROOT / "interpreter").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for word in re.findall(r"[A-Za-z][A-Za-z0-9_]*", line):
                if word.lower() in words:
                    found.append(f"{path.relative_to(ROOT)}:{number}: {word}")
    assert not found, "\n".join(found)
