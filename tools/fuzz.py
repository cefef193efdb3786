"""Fuzzing the rulebook command: broken and random rulebooks that must never crash it.

Usage: python tools/fuzz.py --minutes N [--workers K] [--seed S] [--out DIR]
       [--cases N] [--timeout SECONDS] [--memory MB] [--shrink-runs N]

Every case is a rulebook file: a mutant of a shipped rulebook or variant
(lines deleted, duplicated, swapped or re-indented, numbers made 0, -1 or
huge, names exchanged, hostile strings inserted, the file truncated, a
`from "…"` or `variant of "…"` path pointed at another file), a random
rulebook walked from the grammar's rules (grammar/rulebook.lark, read with
Lark), or a small random game written from templates. Each case runs as
`python -m interpreter validate FILE` in a child process with a time and a
memory limit, and when it is valid a short `simulate --games 3` too. A case
is `valid`, `coded` (the command printed `error[CODE]` with a project code
and stopped cleanly), `crash` (a traceback, `error[internal]`, a signal, or
an exit without a project error), `hang` (the time limit) or `memory` (the
memory limit: MemoryError or killed). Every distinct crash, hang or memory
finding is shrunk, by deleting lines while the same class and the same first
line of the message come back, and kept in its own folder under the out
directory (default: `fuzz-findings` in the system temp folder) beside links to
the shipped rulebooks, so its relative and absolute paths still resolve.

A run is the same for the same seed: case `i` is made from its own generator
seeded by ``(seed, i)``, and results are taken in the order of the cases,
whatever the number of workers. `--minutes` only says how many cases there
is time for. This is a developer tool: the package never imports it, and it
imports nothing of the package (it runs the command in child processes).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = ROOT / "rulebooks"
GRAMMAR = ROOT / "grammar" / "rulebook.lark"
CASE = "case.rules"                    # every case has this name, in its slot's folder
DIR_MARK = "@@DIR@@"                   # stands for the absolute path of the case's rulebooks/
CLASSES = ("valid", "coded", "crash", "hang", "memory")
FINDINGS = ("crash", "hang", "memory")
# A project code looks like `rulebook/syntax` or `rule/loop`; `internal` is not one.
CODE = re.compile(r"error\[([a-z][a-z0-9_-]*/[a-z0-9_/-]+)\]")
INTERNAL = re.compile(r"^(?:.*?: )?error\[internal\]: ?(.*)$", re.M)
# Codes that are project codes yet name a bug of the engine (docs/language.md §13).
SUSPECT_CODES = ("rulebook/schema",)

KEYWORDS = """able action add all an and announce as at both break by chooses component deal
define each else end false fewest for from game go grant grid groups has hexes if in kinds
let links mark may most move new no none not of once one option or otherwise part per
permission phase players private repeat requires reveal rotate round score scoring set setup
shade shape shuffle sides spend takes tie times to true turn until variable variant ways
where winners with yes zone""".split()
BUILTINS = """players player_count round turn current me p opponent next_player previous_player
turn_order random size contains abs smaller larger first last is_empty distinct reverse
multiplicities cell x_of y_of neighbour neighbours ray next_to turned count sum min max any
all filter each majority minority best worst sorted unmatched matched owner public hidden
ordered number bool player""".split()
HUGE = "9" * 5000
NUMBERS = ("0", "-1", "1", "2", "7", "1000000000", "-1000000000", str(2 ** 63), str(2 ** 64 + 1),
           HUGE, "-" + HUGE, "00", "0x10", "1e9", "3.5")
LOOKALIKES = {"a": "\u0430", "e": "\u0435", "o": "\u043e", "p": "\u0440", "c": "\u0441",
              "x": "\u0445", "i": "\u0456", "s": "\u0455"}
HOSTILE = ('"', '""', '"unterminated', "__import__('os')", '"{__import__(\'os\').system(\'id\')}"',
           '"{}"', '"{0}"', '"{{"', '"}"', '"{me.__class__}"', '"%s%n"', "\\", "\x00", "\r",
           "\x0c", "\t", "\u00a0", "\u200b", "\ufeff", "\u202e", "\udcff", "\u2028", "\u0085",
           "\uff11\uff12", "\u0663", "\u00b2", "\u01c5", "e\u0301", "\U0001f3b2", "#", "|", "||",
           "-", "[", "]", "(", ")", ".", ",", ":", "=", "==", "//", "% 0", "// 0",
           "(" * 400 + "1" + ")" * 400, "[" * 600, "not " * 400 + "yes", "-" * 500 + "1",
           " + ".join(["1"] * 800), "a" * 20000, "x." * 300 + "y", "none", "me", "players")
DATA_PATHS = ("../../etc/passwd", "/dev/zero", "/dev/urandom", "/dev/null", "/etc/passwd",
              "/proc/self/status", "/", ".", "..", "", "nonexistent.yaml", "missing/../x.yaml",
              CASE, "hanamikoji.rules", "variants", "a" * 5000)
TEXT_SUFFIXES = (".rules", ".yaml")


# -- the shipped rulebooks ----------------------------------------------------------

@dataclass(frozen=True)
class Source:
    """A shipped rulebook: its text and the folder it lives in, relative to
    the repository (`rulebooks` or `rulebooks/variants`)."""

    name: str
    folder: str
    text: str


def shipped() -> list:
    sources = []
    for folder in ("rulebooks", "rulebooks/variants"):
        for path in sorted((ROOT / folder).glob("*.rules")):
            sources.append(Source(path.name, folder, path.read_text(encoding="utf-8")))
    return sources


def link_rulebooks(target: Path) -> Path:
    """`target/rulebooks` laid out as the shipped folder, each file a link to
    the shipped one: a case beside them reads them as a shipped rulebook
    does, and since links are followed they are the shipped library's own
    files, which a rulebook may read from anywhere (a copy outside the
    library would be refused as a file from elsewhere)."""
    dest = target / "rulebooks"
    (dest / "variants").mkdir(parents=True, exist_ok=True)
    for folder in (RULEBOOKS, RULEBOOKS / "variants"):
        for path in folder.iterdir():
            if path.is_file() and path.suffix in TEXT_SUFFIXES:
                link = dest / path.relative_to(RULEBOOKS)
                link.unlink(missing_ok=True)
                try:
                    link.symlink_to(path)
                except OSError:         # no links here: copies, which may be refused
                    shutil.copyfile(path, link)
    return dest


# -- cases ------------------------------------------------------------------------------

@dataclass
class Case:
    """One rulebook to try: its text (with `DIR_MARK` for the absolute path
    of its rulebooks folder), the folder it sits in, how it was made, and the
    arguments of its `simulate` run."""

    index: int
    text: str
    folder: str = "rulebooks"
    origin: str = ""
    steps: list = field(default_factory=list)
    simulate: list = field(default_factory=list)
    flags: list = field(default_factory=list)      # before the command: --debug

    def data(self, rulebooks: Path) -> bytes:
        text = self.text.replace(DIR_MARK, str(rulebooks))
        return text.encode("utf-8", "surrogateescape")


def make_case(seed: int, index: int, sources: list, walker: "GrammarWalker") -> Case:
    """Case `index` of the run seeded `seed`, the same on every machine."""
    rng = random.Random(f"{seed}/{index}")
    roll = rng.random()
    if roll < 0.12:
        case = Case(index, walker.rulebook(rng), origin="grammar")
    elif roll < 0.27:
        case = Case(index, template_rulebook(rng), origin="template")
        if rng.random() < 0.5:
            mutate(case, rng, rng.randint(1, 2))
    else:
        variants = [s for s in sources if s.folder.endswith("variants")]
        bases = [s for s in sources if not s.folder.endswith("variants")]
        source = rng.choice(variants if rng.random() < 0.3 else bases)
        case = Case(index, source.text, source.folder, source.name)
        if rng.random() < 0.35:         # a rulebook that still loads, to play it
            mutate(case, rng, rng.choice((1, 1, 2)), GENTLE)
        else:
            mutate(case, rng, rng.choice((1, 1, 1, 2, 2, 3, 4)))
    case.simulate = simulate_args(case.text, rng)
    return case


def simulate_args(text: str, rng: random.Random) -> list:
    args = ["--games", "3", "--workers", "1", "--seed", str(rng.randrange(1000)),
            "--max-decisions", "2000"]
    players = 0
    found = re.search(r"^players[ \t]+(\d{1,2})(?:[ \t]+to[ \t]+(\d{1,2}))?[ \t]*(?:#.*)?$",
                      text, re.M)
    if found:
        low = int(found.group(1))
        high = int(found.group(2) or low)
        if 1 <= low <= high <= 12:
            players = rng.randint(low, min(high, low + 3))
            args += ["--players", str(players)]
    if players != 1 and rng.random() < 0.25:
        args += ["--ai", "1=greedy"]
    return args


# -- mutations --------------------------------------------------------------------------

NAME = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
NUMBER = re.compile(r"(?<![\w.])-?\d+\b")
STRING = re.compile(r'"[^"\n]*"')
PATH = re.compile(r'((?:from|variant\s+of)\s+")([^"\n]*)(")')


def mutate(case: Case, rng: random.Random, count: int, ops: Optional[tuple] = None) -> None:
    for _ in range(count):
        op = rng.choice(ops or MUTATIONS)
        text = op(case.text, rng, case)
        if text is not None:
            case.text = text
            case.steps.append(op.__name__)


def _lines(text: str) -> list:
    return text.split("\n")


def _pick_line(lines: list, rng: random.Random) -> int:
    busy = [i for i, line in enumerate(lines) if line.strip() and not line.lstrip().startswith("#")]
    return rng.choice(busy) if busy else rng.randrange(len(lines))


def delete_line(text, rng, case):
    lines = _lines(text)
    del lines[_pick_line(lines, rng)]
    return "\n".join(lines)


def delete_block(text, rng, case):
    lines = _lines(text)
    i = _pick_line(lines, rng)
    indent = len(lines[i]) - len(lines[i].lstrip())
    j = i + 1
    while j < len(lines) and (not lines[j].strip() or
                              len(lines[j]) - len(lines[j].lstrip()) > indent):
        j += 1
    del lines[i:j]
    return "\n".join(lines)


def duplicate_line(text, rng, case):
    lines = _lines(text)
    i = _pick_line(lines, rng)
    lines.insert(i, lines[i])
    return "\n".join(lines)


def swap_lines(text, rng, case):
    lines = _lines(text)
    i, j = _pick_line(lines, rng), _pick_line(lines, rng)
    lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def move_line(text, rng, case):
    lines = _lines(text)
    line = lines.pop(_pick_line(lines, rng))
    lines.insert(rng.randrange(len(lines) + 1), line)
    return "\n".join(lines)


def reindent(text, rng, case):
    lines = _lines(text)
    i = _pick_line(lines, rng)
    body = lines[i].lstrip(" \t")
    indent = lines[i][:len(lines[i]) - len(body)]
    new = rng.choice(("", " ", indent + " ", indent + "  ", indent + "    ", indent[:-1],
                      indent[:-2], "\t", indent + "\t", "\t" + indent, " " * 200, "  \t  "))
    lines[i] = new + body
    return "\n".join(lines)


def _replace_match(text, rng, pattern, make):
    found = list(pattern.finditer(text))
    if not found:
        return None
    m = rng.choice(found)
    return text[:m.start()] + make(m) + text[m.end():]


def change_number(text, rng, case):
    return _replace_match(text, rng, NUMBER, lambda m: rng.choice(NUMBERS))


def small_number(text, rng, case):
    return _replace_match(text, rng, NUMBER, lambda m: rng.choice(
        ("0", "1", "2", "3", "5", "10", "100", "-1", m.group(0) + "1")))


def change_all_numbers(text, rng, case):
    value = rng.choice(NUMBERS[:8])
    return NUMBER.sub(lambda m: value if rng.random() < 0.5 else m.group(0), text)


def change_name(text, rng, case):
    names = sorted(set(NAME.findall(text)))
    if not names:
        return None
    pool = rng.choice((names, names, KEYWORDS, BUILTINS))

    def other(m):
        word = rng.choice(pool)
        if rng.random() < 0.1:
            word = "".join(LOOKALIKES.get(ch, ch) if rng.random() < 0.5 else ch for ch in word)
        return word
    return _replace_match(text, rng, NAME, other)


def rename_everywhere(text, rng, case):
    names = sorted(set(NAME.findall(text)) - set(KEYWORDS))
    if len(names) < 2:
        return None
    old, new = rng.sample(names, 2)
    return re.sub(rf"\b{re.escape(old)}\b", new, text)


def lookalike(text, rng, case):
    def swap(m):
        word = m.group(0)
        spots = [k for k, ch in enumerate(word) if ch in LOOKALIKES]
        if not spots:
            return word + "\u200b"
        k = rng.choice(spots)
        return word[:k] + LOOKALIKES[word[k]] + word[k + 1:]
    return _replace_match(text, rng, NAME, swap)


def insert_hostile(text, rng, case):
    lines = _lines(text)
    i = _pick_line(lines, rng)
    line = lines[i]
    k = rng.randrange(len(line) + 1)
    lines[i] = line[:k] + rng.choice(HOSTILE) + line[k:]
    return "\n".join(lines)


def hostile_line(text, rng, case):
    lines = _lines(text)
    indent = rng.choice(("", "  ", "    "))
    lines.insert(rng.randrange(len(lines) + 1), indent + rng.choice(HOSTILE))
    return "\n".join(lines)


def hostile_string(text, rng, case):
    inside = rng.choice(("{__import__('os').system('id')}", "{", "}", "{{}}", "{me}", "{p.x}",
                         "{0}", "{!r}", "%(x)s", "\x00", "\u202e", "\\", "{" + "a" * 5000 + "}",
                         "{players}" * 200, "\u00e9\u0301\U0001f3b2"))
    return _replace_match(text, rng, STRING, lambda m: '"' + inside + '"')


def truncate(text, rng, case):
    return text[:rng.randrange(len(text) + 1)]


def swap_words(text, rng, case):
    lines = _lines(text)
    i = _pick_line(lines, rng)
    words = lines[i].split(" ")
    if len(words) < 2:
        return None
    a, b = rng.sample(range(len(words)), 2)
    words[a], words[b] = words[b], words[a]
    lines[i] = " ".join(words)
    return "\n".join(lines)


def join_lines(text, rng, case):
    lines = _lines(text)
    i = _pick_line(lines, rng)
    if i + 1 >= len(lines):
        return None
    lines[i:i + 2] = [lines[i] + rng.choice((" ", "", " \\")) + lines[i + 1].lstrip()]
    return "\n".join(lines)


def line_endings(text, rng, case):
    return text.replace("\n", rng.choice(("\r\n", "\r", "\n\n", "\\\n", "\x0c\n")))


def table_cell(text, rng, case):
    rows = [i for i, line in enumerate(_lines(text)) if line.strip().startswith("|")]
    if not rows:
        return None
    lines = _lines(text)
    i = rng.choice(rows)
    cells = lines[i].split("|")
    k = rng.randrange(len(cells))
    choice = rng.random()
    if choice < 0.4:
        del cells[k]
    elif choice < 0.7:
        cells.insert(k, " " + rng.choice(("1", "-", "x", '"s"', "[1, 2]", "[[[]]]", HUGE, "-1",
                                           "yes", "none", "[]")) + " ")
    else:
        cells[k] = " " + rng.choice(NUMBERS) + " "
    lines[i] = "|".join(cells)
    return "\n".join(lines)


def data_path(text, rng, case):
    def other(m):
        path = rng.choice(DATA_PATHS + ("ABS",) * 3)
        if path == "ABS":
            names = ("lanterns.yaml", "paris.yaml", "samurai.yaml", "hanamikoji.rules",
                     m.group(2).split("/")[-1] or "x")
            path = f"{DIR_MARK}/{rng.choice(names)}"
        return m.group(1) + path + m.group(3)
    return _replace_match(text, rng, PATH, other)


def self_variant(text, rng, case):
    """A variant of itself, of another variant, or of a data file."""
    target = rng.choice((CASE, f"../variants/{CASE}", "./" + CASE, "hanamikoji-seat-1-starts.rules",
                         "../lanterns.yaml", f"{DIR_MARK}/variants/{CASE}"))
    line = f'variant of "{target}"'
    found = PATH.search(text)
    if found and found.group(1).startswith("variant"):
        return text[:found.start()] + line + text[found.end():]
    return line + "\n" + text


# Changes that often leave a rulebook that loads, so its games are played.
GENTLE = (small_number, small_number, small_number, change_name, rename_everywhere, delete_line,
          duplicate_line, swap_lines, delete_block)
MUTATIONS = (delete_line, delete_line, delete_block, duplicate_line, swap_lines, move_line,
             reindent, reindent, change_number, change_number, change_number, change_all_numbers,
             change_name, change_name, change_name, rename_everywhere, lookalike,
             insert_hostile, insert_hostile, hostile_line, hostile_string, truncate, swap_words,
             join_lines, line_endings, table_cell, table_cell, data_path, data_path, self_variant)


# -- random rulebooks from the grammar ---------------------------------------------------

class GrammarWalker:
    """Random sentences of grammar/rulebook.lark: its rules as Lark compiles
    them (with the `?`, `[…]` and repetitions written out), walked from
    `start`; past a depth or a size, each rule takes its shortest expansion."""

    def __init__(self, path: Path = GRAMMAR):
        from lark import Lark
        parser = Lark(path.read_text(encoding="utf-8"), parser="lalr")
        self.rules: dict = {}
        for rule in parser.rules:
            self.rules.setdefault(rule.origin.name, []).append(
                [(sym.is_term, sym.name) for sym in rule.expansion])
        self.patterns = {t.name: t.pattern for t in parser.terminals}
        self.cost = self._costs()

    def _costs(self) -> dict:
        cost = {name: float("inf") for name in self.rules}
        changed = True
        while changed:
            changed = False
            for name, expansions in self.rules.items():
                best = min(1 + sum(0 if term else cost[sym] for term, sym in e)
                           for e in expansions)
                if best < cost[name]:
                    cost[name], changed = best, True
        return cost

    def rulebook(self, rng: random.Random, budget: int = 400) -> str:
        tokens: list = []
        for _ in range(rng.randint(3, 16)):
            self._walk("_item", rng, 0, tokens, budget)
        return render_tokens(tokens, rng)

    def _walk(self, name, rng, depth, tokens, budget) -> None:
        expansions = self.rules[name]
        # The shortest expansion half the time keeps formulas readable: the
        # precedence levels of the grammar would otherwise nest at every level.
        short = name not in ("_item", "_stmt", "_component_part", "_scoring_part")
        if depth > 14 or len(tokens) > budget or (short and rng.random() < 0.5):
            expansion = min(expansions, key=lambda e: sum(0 if t else self.cost[s] for t, s in e))
        else:
            expansion = rng.choice(expansions)
        deeper = depth if name.startswith("__") or name.startswith("_item") else depth + 1
        for term, sym in expansion:
            if term:
                tokens.append(self.terminal(sym, rng))
            else:
                self._walk(sym, rng, deeper, tokens, budget)

    def terminal(self, name: str, rng: random.Random) -> str:
        if name in ("_NL", "_INDENT", "_DEDENT"):
            return name
        pattern = self.patterns[name]
        if type(pattern).__name__ == "PatternStr":
            return pattern.value
        if name == "NAME":
            return rng.choice(KEYWORDS[:3] + BUILTINS + ["card", "deck", "hand", "x", "value",
                                                          "colour", "pile", "kept", "a", "b"])
        if name == "INT":
            return rng.choice(("0", "1", "2", "3", "10", "1000000000"))
        if name == "SIGNED_INT":
            return rng.choice(("-1", "-2", "-1000000000"))
        if name == "STRING":
            return rng.choice(('"x"', '"lanterns.yaml"', '"{x}"', '""', '"../hanamikoji.rules"'))
        alternatives = re.findall(r"[^|()?:]+", pattern.value.replace("\\", ""))
        return rng.choice(alternatives) if alternatives else "x"


def render_tokens(tokens: list, rng: random.Random) -> str:
    """Tokens with `_NL`, `_INDENT`, `_DEDENT` laid out as lines and indentation."""
    out, line, level = [], [], 0
    for token in tokens:
        if token == "_NL":
            out.append("  " * level + " ".join(line))
            line = []
        elif token == "_INDENT":
            level += 1
        elif token == "_DEDENT":
            level = max(0, level - 1)
        else:
            line.append(token)
    if line:
        out.append("  " * level + " ".join(line))
    return "\n".join(out) + "\n"


# -- small random games from templates ---------------------------------------------------

class Exprs:
    """Random formulas of a few kinds over the names of a template game."""

    def __init__(self, rng: random.Random, two_players: bool):
        self.rng = rng
        self.two = two_players
        self.in_define = False
        self.scope = {"num": [], "card": [], "player": []}

    def num(self, d=0) -> str:
        r = self.rng
        simple = [str(r.randrange(6)), "total", "size(deck)", "size(hand(P))", "pts(P)",
                  "player_count", "round", "turn", "bonus", "hand_size"]
        simple += self.scope["num"] + [f"{c}.value" for c in self.scope["card"]]
        if d > 3 or r.random() < 0.35:
            return r.choice(simple).replace("P", self.player(d + 1))
        k = r.randrange(11)
        if k < 3:
            op = r.choice(("+", "-", "*", "//", "%"))
            right = self.num(d + 1)
            if op in ("//", "%") and r.random() < 0.8:      # mostly not a division by zero
                right = f"(1 + abs({right}))"
            return f"{self.num(d + 1)} {op} {right}"
        if k == 3:
            return f"-{self.num(d + 1)}"
        if k == 4:
            return f"{r.choice(('smaller', 'larger'))}({self.num(d + 1)}, {self.num(d + 1)})"
        if k == 5:
            return f"count(c in {self.cards(d + 1)} where {self.cond('c', d + 1)})"
        if k == 6:
            return f"sum(c.value for c in {self.cards(d + 1)})"
        if k == 7:
            return f"({r.choice(('max', 'min'))}(c.value for c in {self.cards(d + 1)}) otherwise 0)"
        if k == 8:
            return f"({self.num(d + 1)} if {self.bool(d + 1)} else {self.num(d + 1)})"
        if k == 9:
            return f"abs({self.num(d + 1)})"
        if self.in_define:
            return str(r.randrange(3))
        return f"d_score({self.player(d + 1)})"

    def cond(self, var: str, d: int) -> str:
        r = self.rng
        return r.choice((f"{var}.value {r.choice(('<', '>', '==', '!='))} {self.num(d + 1)}",
                         f'{var}.colour == "{r.choice(("red", "blue"))}"',
                         f"{var}.value % 2 == 0", self.bool(d + 1)))

    def bool(self, d=0) -> str:
        r = self.rng
        if d > 3 or r.random() < 0.3:
            return r.choice(("yes", "no", "flag", f"is_empty({self.cards(d + 1)})",
                             f"{self.num(d + 1)} > {self.num(d + 1)}"))
        k = r.randrange(6)
        if k == 0:
            return f"{self.bool(d + 1)} {r.choice(('and', 'or'))} {self.bool(d + 1)}"
        if k == 1:
            return f"not {self.bool(d + 1)}"
        if k == 2:
            return f"any(c in {self.cards(d + 1)} where {self.cond('c', d + 1)})"
        if k == 3:
            return f"all(q in players where pts(q) {r.choice(('<', '>=', '=='))} {self.num(d + 1)})"
        if k == 4:
            return f"{self.player(d + 1)} == {self.player(d + 1)}"
        return f"{self.num(d + 1)} {r.choice(('<', '<=', '>', '>=', '==', '!='))} {self.num(d + 1)}"

    def cards(self, d=0) -> str:
        r = self.rng
        simple = ["deck", "pile", "card", "hand(P)", "kept(P)"]
        if d > 3 or r.random() < 0.5:
            return r.choice(simple).replace("P", self.player(d + 1))
        return r.choice((f"[c in {self.cards(d + 1)} where {self.cond('c', d + 1)}]",
                         f"sorted(c in {self.cards(d + 1)} by {r.choice(('c.value', '-c.value'))})",
                         f"reverse({self.cards(d + 1)})", f"distinct({self.cards(d + 1)})",
                         f"best(c in {self.cards(d + 1)} by c.value)",
                         f"unmatched(c in {self.cards(d + 1)} by c.colour)"))

    def card(self, d=0) -> str:
        r = self.rng
        options = self.scope["card"] + [f"first({self.cards(d + 1)})", f"last({self.cards(d + 1)})",
                                        f"majority(c in {self.cards(d + 1)} by c.value)"]
        return r.choice(options)

    def player(self, d=0) -> str:
        r = self.rng
        options = self.scope["player"] + ["players[0]", "current", "leader"]
        if d < 3:
            options += [f"next_player({self.player(d + 1)})",
                        f"previous_player({self.player(d + 1)}, {r.randrange(4)})",
                        "majority(q in players by pts(q))",
                        f"players[{self.num(d + 1)} % player_count]"]
            if self.two:
                options.append(f"opponent({self.player(d + 1)})")
        return r.choice(options)


def template_rulebook(rng: random.Random) -> str:
    """A small random game: cards, zones, variables, defines, a setup, phases,
    actions and scoring, with random formulas and statements in them."""
    low = rng.randint(1, 4)
    high = rng.choice((low, low, low + 1, low + 2))
    ex = Exprs(rng, low == high == 2)
    hand = rng.randint(0, 4)
    lines = [f'game "Fuzz {rng.randrange(10 ** 6)}"',
             f"players {low}" + (f" to {high}" if high != low else ""),
             f"option bonus = {rng.randint(0, 3)}" + rng.choice(("", " one of [0, 1, 2, 3]")),
             "by players",
             "  | players | " + " | ".join(str(n) for n in range(low, high + 1)) + " |",
             "  | hand_size | " + " | ".join(str(hand + rng.randint(0, 1))
                                            for _ in range(low, high + 1)) + " |",
             "component card",
             "  | value | colour | copies |"]
    for v in range(rng.randint(1, 6)):
        colour = rng.choice(("red", "blue"))
        lines.append(f"  | {v + rng.randint(0, 3)} | {colour} | {rng.randint(1, 5)} |")
    lines += ["zone deck: card, hidden, ordered",
              "zone pile: card, public" + (", ordered" if rng.random() < 0.5 else ""),
              "zone hand of each player: card, owner",
              "zone kept of each player: card, public",
              "variable total: number = 0",
              "variable flag: bool = no",
              "variable leader: player = none",
              "variable pts of each player: number = 0"]
    ex.scope["player"], ex.in_define = ["p"], True
    lines.append(f"define d_score(p) = {ex.num(2)}")
    ex.scope["player"], ex.in_define = [], False
    lines += ["setup", "  move all card to deck", "  shuffle deck",
              "  for each p in players", "    deal hand_size from deck to hand(p)",
              "  set leader = players[0]"]
    phases = ["main"] + (["extra"] if rng.random() < 0.3 else [])
    for k, phase in enumerate(phases):
        lines.append(f"phase {phase}")
        if rng.random() < 0.5:
            lines.append(f"  repeat {rng.randint(1, 4)} times")
        else:
            lines.append(f"  repeat until {ex.bool(2)} or turn > {rng.randint(2, 30)}")
        verb = rng.choice(("takes an action", "takes an action if able", "may take an action"))
        lines += ["    for each p in turn_order(leader)", "      turn p", f"        p {verb}"]
        lines += statements(ex, rng, 1, rng.randint(0, 2))
        if k + 1 < len(phases) and rng.random() < 0.5:
            lines.append(f"  go to {phases[k + 1]}")
    where = f" where {ex.cond('c', 2)}" if rng.random() < 0.5 else ""
    actions = [("play", f"(c: one of hand(me){where})", "card"),
               ("draw", "", None), ("offer", f"(cs: {rng.randint(1, 2)} of hand(me))", None)]
    for name, params, kind in actions[:rng.randint(1, 3)]:
        limit = rng.choice(("", "", " once per turn", " once per round", " 2 times per game",
                            " private", " once per round, private"))
        lines.append(f"action {name}{params}{limit}")
        ex.scope = {"num": [], "card": ["c"] if kind else [], "player": ["me"]}
        if rng.random() < 0.4:
            lines.append(f"  requires {ex.bool(2)}")
        if name == "play":
            lines.append("  move c to pile")
        elif name == "draw":
            draw = ("  deal 1 from deck to hand(me)", "  deal 1 from deck to hand(me)",
                    "  add 1 to pts(me)")
            lines.append(rng.choice(draw))
        else:
            lines.append("  move cs to kept(me)")
        lines += statements(ex, rng, 1, rng.randint(0, 3))
        ex.scope = {"num": [], "card": [], "player": []}
    ex.scope["player"] = ["p"]
    lines += ["scoring", f"  score = {ex.num(1)}"]
    if rng.random() < 0.5:
        lines.append(f"  tie break {rng.choice(('most', 'fewest'))} {ex.num(2)}")
    return "\n".join(lines) + "\n"


def statements(ex: Exprs, rng: random.Random, level: int, count: int, depth: int = 0) -> list:
    """`count` random statements at indentation `level`."""
    pad = "  " * level
    out = []
    outer = {kind: list(names) for kind, names in ex.scope.items()}
    for _ in range(count):
        k = rng.randrange(16)
        if k == 0:
            out.append(f"{pad}add {ex.num()} to pts({ex.player()})")
        elif k == 1:
            out.append(f"{pad}set total = {ex.num()}")
        elif k == 2:
            where = rng.choice(("pile", "deck", f"kept({ex.player()})"))
            out.append(f"{pad}move {ex.card()} to {where}")
        elif k == 3:
            where = rng.choice(("pile", "deck", f"hand({ex.player()})"))
            out.append(f"{pad}move all {ex.cards()} to {where}")
        elif k == 4:
            out.append(f"{pad}deal {ex.num()} from deck to hand({ex.player()})")
        elif k == 5:
            out.append(pad + rng.choice(("shuffle deck", "reveal pile", f"set flag = {ex.bool()}",
                                         f"set leader = {ex.player()}")))
        elif k == 6:
            text = rng.choice(("total {total}", "{leader} leads", "{{", "plain"))
            out.append(f'{pad}announce "{text}"')
        elif k == 7 and depth < 3:
            out.append(f"{pad}if {ex.bool()}")
            out += statements(ex, rng, level + 1, rng.randint(1, 2), depth + 1)
            if rng.random() < 0.4:
                out.append(f"{pad}else")
                out += statements(ex, rng, level + 1, 1, depth + 1)
        elif k == 8 and depth < 3:
            name = f"c{depth}"
            out.append(f"{pad}for each {name} in {ex.cards()}")
            ex.scope["card"].append(name)
            out += statements(ex, rng, level + 1, rng.randint(1, 2), depth + 1)
            ex.scope["card"].remove(name)
        elif k == 9 and depth < 3:
            out.append(f"{pad}repeat {rng.choice(('0', '1', '3', ex.num()))} times")
            out += statements(ex, rng, level + 1, 1, depth + 1)
        elif k == 10:
            name = f"n{depth}_{len(out)}"
            out.append(f"{pad}let {name} = {ex.num()}")
            ex.scope["num"].append(name)
        elif k == 11 and "me" in ex.scope["player"]:
            name = f"pick{depth}_{len(out)}"
            out.append(f"{pad}{ex.player()} chooses {name}: one of {ex.cards()}")
            ex.scope["card"].append(name)
        elif k == 12 and "me" not in ex.scope["player"] and depth == 0:
            name = f"pick{len(out)}"
            out.append(f"{pad}each q in players chooses {name}: one of hand(q)")
        elif k == 13:
            out.append(f"{pad}rotate hand by {rng.choice(('1', '-1', '0', ex.num()))}")
        elif k == 14 and "me" not in ex.scope["player"]:
            out.append(f"{pad}{rng.choice(('new round', 'end game'))}")
        else:
            out.append(f"{pad}add {ex.num()} to total")
    if depth > 0:               # what a nested block names ends with it
        ex.scope = outer
    return out


# -- running a case ------------------------------------------------------------------------

@dataclass
class Result:
    """How a case ended: its class, the first line of what it printed (made
    comparable between runs and files), the stage (validate or simulate)."""

    cls: str
    message: str
    stage: str = "validate"
    output: str = ""

    @property
    def signature(self) -> tuple:
        return (self.cls, self.message)

    @property
    def key(self) -> tuple:
        """What tells two findings apart: the message without its names and numbers."""
        text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", self.message)
        return (self.cls, re.sub(r"\d+", "N", text))


@dataclass
class Limits:
    timeout: float = 5.0
    memory_mb: int = 1024


def _limit_memory(memory_bytes: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    return apply


def child_env() -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
    env.update(PYTHONHASHSEED="0", PYTHONFAULTHANDLER="1", NO_COLOR="1", TERM="dumb",
               COLUMNS="120", PYTHONIOENCODING="utf-8:backslashreplace")
    return env


class Slot:
    """A folder where one case runs at a time: links to the shipped
    rulebooks, and the case written as `rulebooks[/variants]/case.rules`."""

    def __init__(self, root: Path):
        self.root = root
        self.rulebooks = link_rulebooks(root)
        self.proc: Optional[subprocess.Popen] = None

    def place(self, case: Case) -> str:
        for folder in (self.rulebooks, self.rulebooks / "variants"):
            (folder / CASE).unlink(missing_ok=True)
        path = self.root / case.folder / CASE
        path.write_bytes(case.data(self.rulebooks))
        return f"{case.folder}/{CASE}"

    def start(self, argv: list, limits: Limits) -> None:
        self.out = open(self.root / "stdout.txt", "wb")
        self.err = open(self.root / "stderr.txt", "wb")
        self.started = time.monotonic()
        self.deadline = self.started + limits.timeout
        self.proc = subprocess.Popen([sys.executable, "-m", "interpreter", *argv], cwd=self.root,
                                     stdin=subprocess.DEVNULL, stdout=self.out, stderr=self.err,
                                     env=child_env(), start_new_session=True,
                                     preexec_fn=_limit_memory(limits.memory_mb << 20))

    def poll(self) -> Optional[tuple]:
        """(return code, stdout, stderr, timed out) once the child has ended."""
        rc = self.proc.poll()
        timed_out = False
        if rc is None:
            if time.monotonic() < self.deadline:
                return None
            timed_out = True
            try:                      # faulthandler prints where it hangs, then it goes
                os.killpg(self.proc.pid, signal.SIGABRT)
                self.proc.wait(timeout=2)
            except (ProcessLookupError, subprocess.TimeoutExpired):
                pass
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            rc = self.proc.wait()
        else:
            try:                      # a grandchild left behind would hold the slot's files
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        self.out.close()
        self.err.close()
        self.proc = None
        read = lambda name: (self.root / name).read_bytes()[:200_000].decode("utf-8", "replace")
        return rc, read("stdout.txt"), read("stderr.txt"), timed_out

    def stop(self) -> None:
        if self.proc is not None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            self.proc.wait()
            self.out.close()
            self.err.close()
            self.proc = None


def classify(stage: str, rc: int, out: str, err: str, timed_out: bool, root: Path,
             limits: Limits) -> Result:
    text = out + "\n" + err

    def tidy(line: str) -> str:
        line = line.replace(str(root), "DIR")
        line = re.sub(r"(case\.rules):\d+:\d+", r"\1:L:C", line)
        line = re.sub(r"\s+", " ", line).strip()
        return f"{stage}: {line[:300]}"

    if timed_out:
        return Result("hang", f"{stage}: no end within {limits.timeout:g} s", stage, text)
    tb = err.rfind("Traceback (most recent call last)")
    last = ""
    if tb >= 0:
        tail = [line for line in err[tb:].splitlines() if line.strip() and not line.startswith(" ")]
        last = tail[-1] if tail else "Traceback"
    internal = INTERNAL.search(text)
    fatal = re.search(r"^Fatal Python error: (.*)$", err, re.M)
    if last.startswith("MemoryError"):
        return Result("memory", tidy(last), stage, text)
    if internal and internal.group(1).startswith("MemoryError"):
        return Result("memory", tidy(internal.group(0)), stage, text)
    if (fatal and "memory" in fatal.group(1).lower()) or "std::bad_alloc" in err:
        return Result("memory", tidy(fatal.group(0) if fatal else "std::bad_alloc"), stage, text)
    if rc == -signal.SIGKILL:
        return Result("memory", tidy("killed (SIGKILL: out of memory?)"), stage, text)
    if rc < 0:
        name = signal.Signals(-rc).name if -rc in signal.Signals._value2member_map_ else str(-rc)
        first = fatal.group(0) if fatal else f"killed by {name}"
        return Result("crash", tidy(first), stage, text)
    if tb >= 0:
        return Result("crash", tidy(last), stage, text)
    if internal:
        return Result("crash", tidy(internal.group(0)), stage, text)
    if rc == 0:
        return Result("valid", f"{stage}: ok", stage, text)
    for line in text.splitlines():
        if CODE.search(line):
            return Result("coded", tidy(line), stage, text)
    first = next((line for line in text.splitlines() if line.strip()), "")
    return Result("crash", tidy(f"exit {rc} without a project error: {first}"), stage, text)


class Runner:
    """Runs cases on `workers` slots at once, each stage a child process;
    results come back in the order the cases went in."""

    def __init__(self, work: Path, workers: int, limits: Limits, simulate: bool = True):
        self.slots = [Slot(work / f"slot-{k}") for k in range(workers)]
        self.limits = limits
        self.simulate = simulate

    def imap(self, cases: Iterable[Case], more: Callable[[], bool] = lambda: True) -> Iterator:
        """(case, result) in the order of `cases`; no new case starts once
        `more()` is false."""
        todo = iter(cases)
        busy: dict = {}                       # slot -> [order, case, target, stage]
        done: dict = {}
        order = taken = 0
        exhausted = False
        try:
            while True:
                for slot in self.slots:
                    if slot not in busy and not exhausted and more():
                        case = next(todo, None)
                        if case is None:
                            exhausted = True
                            break
                        target = slot.place(case)
                        slot.start([*case.flags, "validate", target], self.limits)
                        busy[slot] = [order, case, target, "validate"]
                        order += 1
                if not busy:
                    break
                time.sleep(0.01)
                for slot in list(busy):
                    ended = slot.poll()
                    if ended is None:
                        continue
                    k, case, target, stage = busy[slot]
                    result = classify(stage, *ended, slot.root, self.limits)
                    if result.cls == "valid" and stage == "validate" and self.simulate:
                        slot.start([*case.flags, "simulate", target, *case.simulate, "--quiet",
                                    "--json", "-"], self.limits)
                        busy[slot][3] = "simulate"
                        continue
                    del busy[slot]
                    done[k] = (case, result)
                while taken in done:
                    yield done.pop(taken)
                    taken += 1
        finally:
            for slot in self.slots:
                slot.stop()

    def run(self, cases: list) -> list:
        return [result for _, result in self.imap(cases)]


# -- shrinking --------------------------------------------------------------------------------

def shrink(case: Case, result: Result, runner: Runner, max_runs: int = 150,
           deadline: Optional[float] = None) -> tuple:
    """The case with as many lines deleted as still give the same class and
    the same first line of the message. First the comments and blank lines
    at once, then whole top-level declarations (a line at the left margin
    and the lines indented under it), then single lines, each by ddmin:
    halves, quarters, … of what is left, as many tried at once as there are
    workers, the first that holds kept. Returns (case, runs)."""
    budget = {"runs": 0}

    def variant(lines: list) -> Case:
        return Case(case.index, "\n".join(lines), case.folder, case.origin, case.steps,
                    case.simulate)

    def holds(candidates: list) -> Optional[int]:
        """The index of the first candidate (a list of lines) that still gives the finding."""
        results = runner.run([variant(lines) for lines in candidates])
        budget["runs"] += len(candidates)
        return next((k for k, r in enumerate(results) if r.signature == result.signature), None)

    def out_of_budget() -> bool:
        return budget["runs"] >= max_runs or (deadline is not None and time.monotonic() > deadline)

    lines = case.text.split("\n")
    bare = [line for line in lines if line.strip() and not line.lstrip().startswith("#")]
    if bare != lines and holds([bare]) == 0:
        lines = bare
    blocks = ddmin(top_level(lines), holds, len(runner.slots), out_of_budget)
    lines = [line for block in blocks for line in block]
    lines = [line for (line,) in ddmin([[line] for line in lines], holds, len(runner.slots),
                                         out_of_budget)]
    return variant(lines), budget["runs"]


def top_level(lines: list) -> list:
    """The lines in groups: each line at the left margin with the lines under it."""
    groups: list = []
    for line in lines:
        if groups and (not line.strip() or line[:1] in (" ", "\t")):
            groups[-1].append(line)
        else:
            groups.append([line])
    return groups


def ddmin(units: list, holds: Callable[[list], Optional[int]], width: int,
          out_of_budget: Callable[[], bool]) -> list:
    """`units` (groups of lines) with as many groups left out as `holds` allows."""
    chunk = max(1, len(units) // 2)
    while chunk >= 1 and not out_of_budget():
        start, reduced = 0, False
        while start < len(units) and not out_of_budget():
            tries = [(a, units[:a] + units[a + chunk:])
                     for a in range(start, min(len(units), start + width * chunk), chunk)]
            hit = holds([[line for unit in kept for line in unit] for _, kept in tries])
            if hit is None:
                start += chunk * len(tries)
            else:
                start, units = tries[hit]
                reduced = True
        if not reduced:
            chunk //= 2
    return units


# -- the run -----------------------------------------------------------------------------------

@dataclass
class Finding:
    case: Case
    result: Result
    count: int = 1
    shrunk: Optional[Case] = None
    folder: Optional[Path] = None
    flaky: bool = False       # a second run of the case ended otherwise
    trace: str = ""           # the shrunk case's output with --debug: the traceback
    where: str = ""           # the innermost frame of interpreter/ in it


@dataclass
class Report:
    counts: Counter
    codes: Counter
    findings: list
    cases: int
    seconds: float
    out: Path


def default_out() -> Path:
    return Path(tempfile.gettempdir()) / "fuzz-findings"


def claim(out: Path) -> Path:
    """`out`, made a folder of this tool's (marked so): a run empties its
    `work` and `findings` folders, so it must not be a folder of anything else."""
    mark = out / ".rulebook-fuzz"
    out.mkdir(parents=True, exist_ok=True)
    if not mark.exists() and any(out.iterdir()):
        raise ValueError(f"{out} holds other files: give an empty or new folder as --out")
    mark.touch()
    return out


def fuzz(seed: int = 0, minutes: Optional[float] = None, cases: Optional[int] = None,
         workers: int = 1, out: Optional[Path] = None, limits: Optional[Limits] = None,
         shrink_runs: int = 150, simulate: bool = True,
         log: Callable[[str], None] = lambda _: None) -> Report:
    """Runs cases 0, 1, … of `seed` until `minutes` have passed or `cases`
    have run, shrinks each distinct finding and writes it under `out`."""
    started = time.monotonic()
    deadline = started + minutes * 60 if minutes is not None else None
    out = claim(Path(out) if out is not None else default_out())
    limits = limits or Limits()
    work = out / "work"
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(out / "findings", ignore_errors=True)
    runner = Runner(work, workers, limits, simulate)
    sources = shipped()
    walker = GrammarWalker()
    counts: Counter = Counter()
    codes: Counter = Counter()
    findings: dict = {}
    # Time kept at the end to shrink what was found, about 45 s a finding,
    # never more than half the run.
    shrink_share = 45.0

    def more() -> bool:
        if deadline is None:
            return True
        reserve = min(shrink_share * len(findings), (deadline - started) / 2)
        return time.monotonic() + reserve < deadline

    def every_case() -> Iterator[Case]:
        index = 0
        while cases is None or index < cases:
            yield make_case(seed, index, sources, walker)
            index += 1

    ran = 0
    journal = open(out / "cases.jsonl", "w", encoding="utf-8")
    for case, result in runner.imap(every_case(), more):
        ran += 1
        journal.write(json.dumps({"case": case.index, "made": [case.origin, *case.steps],
                                  "class": result.cls, "message": result.message}) + "\n")
        counts[result.cls] += 1
        if result.cls == "coded":
            found = CODE.search(result.message)
            codes[found.group(1) if found else "?"] += 1
        if result.cls in FINDINGS:
            known = findings.get(result.key)
            if known is None:
                findings[result.key] = Finding(case, result)
                log(f"case {case.index}: {result.cls}: {result.message}")
            else:
                known.count += 1
        if ran % 50 == 0:
            log(f"{ran} cases: " + ", ".join(f"{c} {counts[c]}" for c in CLASSES))
    journal.close()
    for n, finding in enumerate(findings.values(), 1):
        if shrink_runs > 0:
            again = runner.run([finding.case])[0]
            finding.flaky = again.signature != finding.result.signature
        if shrink_runs > 0 and not finding.flaky:
            left = len(findings) - n + 1
            until = None if deadline is None else time.monotonic() + max(
                5.0, (deadline - time.monotonic()) / left)
            finding.shrunk, runs = shrink(finding.case, finding.result, runner, shrink_runs, until)
            before, after = finding.case.text.count("\n") + 1, finding.shrunk.text.count("\n") + 1
            log(f"shrunk finding {n} from {before} to {after} lines in {runs} runs")
            traced = Case(**{**finding.shrunk.__dict__, "flags": ["--debug"]})
            finding.trace = runner.run([traced])[0].output
            finding.where = innermost_frame(finding.trace)
        finding.folder = keep_finding(out, n, finding)
    shutil.rmtree(work, ignore_errors=True)
    report = Report(counts, codes, list(findings.values()), ran, time.monotonic() - started, out)
    write_summary(report, seed)
    return report


def innermost_frame(output: str) -> str:
    """`interpreter/…py:LINE in FUNCTION` of the deepest call of the package in
    a traceback (most recent last) or a faulthandler dump (most recent first)."""
    frames = re.findall(r'File "([^"]+)", line (\d+),? in (\S+)', output)
    if "most recent call first" in output:
        frames.reverse()
    ours = [f for f in frames if Path(f[0]).is_relative_to(ROOT / "interpreter")]
    if not ours:
        return ""
    path, line, function = ours[-1]
    return f"{Path(path).relative_to(ROOT)}:{line} in {function}"


def keep_finding(out: Path, n: int, finding: Finding) -> Path:
    folder = out / "findings" / f"{n:02d}-{finding.result.cls}"
    shutil.rmtree(folder, ignore_errors=True)
    rulebooks = link_rulebooks(folder)
    case = finding.shrunk or finding.case
    (folder / case.folder / CASE).write_bytes(case.data(rulebooks))
    (folder / case.folder / "original.rules").write_bytes(finding.case.data(rulebooks))
    target = f"{case.folder}/{CASE}"
    stage = finding.result.stage
    command = f"python -m interpreter validate {target}"
    if stage == "simulate":
        command += f" && python -m interpreter simulate {target} {' '.join(case.simulate)}"
    (folder / "finding.txt").write_text(
        f"class: {finding.result.cls}\nmessage: {finding.result.message}\n"
        f"seen: {finding.count} case(s), first case {finding.case.index}\n"
        f"made from: {finding.case.origin} {' '.join(finding.case.steps)}\n"
        f"where: {finding.where or '?'}\n"
        f"reproduce (in this folder): {command}\n\n{finding.result.output[-4000:]}\n"
        f"\nwith --debug:\n{finding.trace[-6000:]}\n",
        encoding="utf-8")
    return folder


def summary_lines(report: Report) -> list:
    lines = [f"{report.cases} cases in {report.seconds:.0f} s: " +
             ", ".join(f"{c} {report.counts[c]}" for c in CLASSES)]
    if report.codes:
        lines.append("coded errors by code: " + ", ".join(
            f"{code} {n}" for code, n in report.codes.most_common()))
    suspects = [c for c in SUSPECT_CODES if report.codes[c]]
    if suspects:
        lines.append("project codes that name an engine bug were seen: " + ", ".join(suspects))
    lines.append(f"{len(report.findings)} distinct finding(s):")
    for f in report.findings:
        where = f.folder / (f.shrunk or f.case).folder / CASE if f.folder else "-"
        flaky = " (did not come back on a second run)" if f.flaky else ""
        lines.append(f"  {f.result.cls:6} x{f.count:<3} {f.result.message}{flaky}  {where}")
        if f.where:
            lines.append(f"         at {f.where}")
    return lines


def write_summary(report: Report, seed: int) -> None:
    report.out.mkdir(parents=True, exist_ok=True)
    (report.out / "summary.txt").write_text("\n".join(summary_lines(report)) + "\n",
                                            encoding="utf-8")
    data = {"seed": seed, "cases": report.cases, "seconds": report.seconds,
            "counts": dict(report.counts), "codes": dict(report.codes),
            "findings": [{"class": f.result.cls, "message": f.result.message, "count": f.count,
                          "stage": f.result.stage, "case": f.case.index, "where": f.where,
                          "flaky": f.flaky,
                          "file": str(f.folder / (f.shrunk or f.case).folder / CASE)
                          if f.folder else None}
                         for f in report.findings]}
    (report.out / "findings.json").write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=None, help="how long to fuzz")
    parser.add_argument("--cases", type=int, default=None, help="at most this many cases")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", type=Path, default=None,
                        help=f"where findings go (default {default_out()})")
    parser.add_argument("--timeout", type=float, default=5.0, help="seconds per command")
    parser.add_argument("--memory", type=int, default=1024, help="MB of address space per command")
    parser.add_argument("--shrink-runs", type=int, default=150)
    parser.add_argument("--no-simulate", action="store_true", help="validate only")
    args = parser.parse_args(argv)
    if args.minutes is None and args.cases is None:
        parser.error("give --minutes or --cases")
    out = args.out.resolve() if args.out else default_out()
    if out == ROOT or ROOT in out.parents:
        parser.error("--out must be outside the repository")
    try:
        report = fuzz(args.seed, args.minutes, args.cases, max(1, args.workers), out,
                      Limits(args.timeout, args.memory), args.shrink_runs, not args.no_simulate,
                      log=lambda line: print(line, file=sys.stderr, flush=True))
    except ValueError as err:
        parser.error(str(err))
    print("\n".join(summary_lines(report)))
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
