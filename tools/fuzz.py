"""Fuzzing the rulebook command: hostile rulebooks, data files, options and
typed lines that must never crash it, hang it, corrupt a game or reach the
terminal raw.

Usage: python tools/fuzz.py --minutes N [--workers K] [--seed S] [--out DIR]
       [--cases N] [--families A,B,...] [--timeout SECONDS] [--memory MB]
       [--shrink-runs N] [--fresh]

Every case is a rulebook file (with a data file beside it for some) and the
commands to run on it, made by one of these families:

- `mutant`: a shipped rulebook or variant with lines deleted, duplicated,
  swapped or re-indented, numbers made 0, -1 or huge, names exchanged,
  hostile strings inserted, the file truncated, a `from "…"` or
  `variant of "…"` path pointed at another file;
- `grammar`: a random rulebook walked from the grammar's rules
  (grammar/rulebook.lark, read with Lark);
- `template`: a small random game written from templates;
- `slots`: zones and variables of each player or piece read and written
  with an index out of range, negative, none or of the wrong kind
  (`hand(0 - 1)`, `set chips(2) = 77` at a table of two, `side(T)` of a
  piece of another type, `set c.gold = …` over a list of pieces of which
  only some have `gold`), in templates and in mutants of shipped rulebooks;
- `escape`: control characters (ESC, CSI, OSC 52, BEL, C1 controls, bidi
  overrides) and rich markup (`[bold]`, `[link=…]`) in the title, choice,
  part and tie-break labels, table cells, data-file strings, words,
  announcements, lines that have an error, option values and typed lines;
- `huge`: numbers grown by repeated squaring, products and sums in loops
  and defines, scored, counted and used as indices, and huge numbers in
  data files and options;
- `players`: `players 1 to 100` with pieces, zones, variables, grids and
  tables that grow with the number of players;
- `options`: `--option NAME=VALUE` with NaN, Infinity, 1e308, 1.5, JSON
  objects, null, lists, huge digits, control characters and unknown names,
  for options of every kind (number, yes/no, word, one of, a range, a pick
  of pieces), on the command lines of validate, simulate and play.

Each command runs as `python -m interpreter …` does, in a child process of
its own with a time and a memory limit (forked from a process that has
imported the package once, which saves the 0.6 s of CPU of every start;
`--fresh` starts each afresh): first `validate`, and while they come
out valid the case's other commands (`simulate --games 3` for most;
`validate --play`, `play` through the REPL with typed lines on its
standard input, `show`). A case ends as one of these classes:

- `valid`: every command succeeded; `coded`: a command printed
  `error[CODE]` with a project code and stopped cleanly;
- `crash`: a traceback, `error[internal]`, a signal, or an exit without a
  project error; `hang`: the time limit; `memory`: the memory limit
  (MemoryError or killed). A case of the `players` family must also
  validate within 1 s of CPU beyond a bare start of the command (measured
  once a run) and 512 MB of resident memory, else it is `hang` or `memory`;
- `corrupt`: a silent wrong state. A template marks each line that a
  correct engine must refuse with the comment `# fuzz:refused K/N`
  (`set chips(2) = 77` in setup, a product past any bound of numbers): when
  all N marks are still in the file and every command says ok, the engine
  let it through. A slots template scores only variables and zones that no
  rule writes (its score line ends `# fuzz:zero`): a score other than 0 in
  `simulate`'s report is a write that landed where it must not. A save the
  REPL wrote that its own `load` refuses (a lost game) is `corrupt` too;
- `miscoded`: refused, but not as the case requires: a value of the wrong
  kind for an option refused other than with an `option/…` code (a rule
  error blamed on the rulebook), or a marked case stopped by an error at a
  line that is neither marked nor marked `# fuzz:runs` (the statement that
  runs a marked `requires` or tie break, where the error is documented to
  be): a symptom of a wrong write elsewhere, or an error at the wrong line;
- `escape`: a raw control character in what a command printed (any but
  tab and the line break, `\r` only before `\n`), or rich markup of the
  case read as markup (its marker word printed without the tag before it).

Every distinct finding (crash, hang, memory, corrupt, miscoded, escape) is
shrunk, by deleting lines while the same class and the same first line of
the message come back, and kept in its own folder under the out directory
(default: `fuzz-findings` in the system temp folder) beside links to the
shipped rulebooks, so its relative and absolute paths still resolve, with
the commands that reproduce it.

A run is the same for the same seed (and families): case `i` is made from
its own generator seeded by ``(seed, i)``, and results are taken in the
order of the cases, whatever the number of workers. `--minutes` only says
how many cases there is time for. This is a developer tool: the package
never imports it, and it imports nothing of the package (it runs the
command in child processes).
"""

from __future__ import annotations

import argparse
import itertools
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
import threading
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable, Iterable, Iterator, Optional

ROOT = Path(__file__).resolve().parent.parent
RULEBOOKS = ROOT / "rulebooks"
GRAMMAR = ROOT / "grammar" / "rulebook.lark"
CASE = "case.rules"                    # every case has this name, in its slot's folder
DIR_MARK = "@@DIR@@"                   # stands for the absolute path of the case's rulebooks/
CLASSES = ("valid", "coded", "crash", "hang", "memory", "corrupt", "miscoded", "escape")
FINDINGS = ("crash", "hang", "memory", "corrupt", "miscoded", "escape")
# The families of cases and the share of a run each takes.
FAMILIES = {"mutant": 0.42, "grammar": 0.07, "template": 0.09, "slots": 0.10, "escape": 0.10,
            "huge": 0.08, "players": 0.06, "options": 0.08}
# A project code looks like `rulebook/syntax` or `rule/loop`; `internal` is not one.
CODE = re.compile(r"error\[([a-z][a-z0-9_-]*/[a-z0-9_/-]+)\]")
INTERNAL = re.compile(r"^(?:.*?: )?error\[internal\]: ?(.*)$", re.M)
# Codes that are project codes yet name a bug of the engine (docs/language.md §13).
SUSPECT_CODES = ("rulebook/schema",)
AT_CASE = re.compile(r"case\.rules:(\d+):\d+: error\[([a-z][a-z0-9_-]*/[a-z0-9_/-]+)\]")
# A line a correct engine refuses, `# fuzz:refused K/N`; a score that must stay 0.
REFUSED = re.compile(r"# fuzz:refused (\d+)/(\d+)")
RUNS = "# fuzz:runs"            # a line where such a refusal may be reported: the one that runs it
ZERO = "# fuzz:zero"
# What a terminal acts on: C0 controls but tab and line feed, DEL, the C1
# controls, the bidirectional marks, embeddings, overrides and isolates, and
# bytes that are no UTF-8 (read as surrogates) in the C1 range.
RAW_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e"
                         "\u2066-\u2069\udc80-\udc9f]")
CONTROL_NAMES = {"\x00": "NUL", "\x07": "BEL", "\x08": "BS", "\x0b": "VT", "\x0c": "FF",
                 "\r": "CR", "\x1b": "ESC", "\x7f": "DEL", "\x85": "NEL", "\x9b": "CSI",
                 "\x9c": "ST", "\x9d": "OSC"}
# Rich markup with a marker word: printed as it is written, the tag (or the
# emoji code) stands right before (after) the word; read as markup, it is gone.
MARKUP = (("[bold]", "QzBold", "[/bold]"), ("[link=https://example.invalid]", "QzLink", "[/link]"),
          ("[red on white]", "QzRed", ""), ("[reverse blink]", "QzRev", "[/]"),
          ("", "QzEmo", ":thumbs_up:"), ("[@click=app.quit]", "QzClick", "[/]"))
CONTROLS = ("\x1b[31mred\x1b[0m", "\x1b]52;c;aGVsbG8=\x07", "\x1b]8;;https://example.invalid\x1b\\"
            "link\x1b]8;;\x1b\\", "\x1b[2J\x1b[3J\x1b[H", "\x1b[?1049h", "\x07", "\x9b31m",
            "\x9d52;c;aGk=\x9c", "\x1bc", "\u202eevil\u202c", "\u2066x\u2069", "\u200f",
            "\x08\x08\x08", "\x7f", "\x0c", "\x0b", "x\ry", "\x85", "\x1b[6n", "\x1bP+q\x1b\\")

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

@dataclass(frozen=True)
class Stage:
    """One command run on a case: `python -m interpreter COMMAND FILE ARGS…`,
    with `stdin` as its typed lines. `cpu` (seconds beyond a bare start of
    the command) and `rss_mb` (peak resident memory) are limits of their
    own, over the time and memory limits of every command."""

    command: str
    args: tuple = ()
    stdin: str = ""
    cpu: Optional[float] = None
    rss_mb: Optional[int] = None

    def argv(self, target: str) -> list:
        return [self.command, target, *self.args]

    def shell(self, target: str) -> str:
        words = ["python", "-m", "interpreter", *self.argv(target)]
        text = " ".join(shell_word(w) for w in words)
        return text + (" < stdin.txt" if self.stdin else "")


def shell_word(word: str) -> str:
    if re.fullmatch(r"[\w@%+=:,./-]+", word):
        return word
    return "$'" + "".join(ch if ch.isprintable() and ch not in "'\\" else
                          f"\\x{ord(ch):02x}" if ord(ch) < 256 else f"\\u{ord(ch):04x}"
                          for ch in word) + "'"


@dataclass
class Case:
    """One rulebook to try: its text (with `DIR_MARK` for the absolute path
    of its rulebooks folder), the folder it sits in, the other files beside
    it (a data file), how it was made, the commands run on it after
    `validate`, and the code prefix its refusal must have (`expect`)."""

    index: int
    text: str
    folder: str = "rulebooks"
    origin: str = ""
    steps: list = field(default_factory=list)
    stages: Optional[list] = None                  # after validate (None: simulate --games 3)
    flags: list = field(default_factory=list)      # before the command: --debug
    family: str = "mutant"
    files: dict = field(default_factory=dict)      # name beside case.rules -> text
    validate: tuple = ()                           # the arguments of the first validate
    cpu: Optional[float] = None                    # and its limits (Stage)
    rss_mb: Optional[int] = None
    expect: str = ""                               # e.g. "option/": refused with such a code
    place: str = ""                                # escape: where the hostile text is
    topic: str = ""                                # what tells its findings apart (options: a kind)

    def data(self, rulebooks: Path, text: Optional[str] = None) -> bytes:
        text = (self.text if text is None else text).replace(DIR_MARK, str(rulebooks))
        return text.encode("utf-8", "surrogateescape")

    def all_stages(self) -> list:
        return [Stage("validate", tuple(self.validate), cpu=self.cpu, rss_mb=self.rss_mb),
                *(self.stages or ())]


def make_case(seed: int, index: int, sources: list, walker: "GrammarWalker",
              families: Optional[Iterable[str]] = None) -> Case:
    """Case `index` of the run seeded `seed`, the same on every machine;
    `families` keeps to some of them, in their shares."""
    rng = random.Random(f"{seed}/{index}")
    shares = {name: FAMILIES[name] for name in (families or FAMILIES)}
    roll, family = rng.random() * sum(shares.values()), ""
    for family, share in shares.items():
        roll -= share
        if roll < 0:
            break
    case = MAKERS[family](rng, index, sources, walker)
    case.family = family
    if case.stages is None:
        case.stages = [simulate_stage(case.text, rng)]
    return case


def mutant_case(rng, index, sources, walker) -> Case:
    variants = [s for s in sources if s.folder.endswith("variants")]
    bases = [s for s in sources if not s.folder.endswith("variants")]
    source = rng.choice(variants if rng.random() < 0.3 else bases)
    case = Case(index, source.text, source.folder, source.name)
    if rng.random() < 0.35:         # a rulebook that still loads, to play it
        mutate(case, rng, rng.choice((1, 1, 2)), GENTLE)
    else:
        mutate(case, rng, rng.choice((1, 1, 1, 2, 2, 3, 4)))
    return case


def grammar_case(rng, index, sources, walker) -> Case:
    return Case(index, walker.rulebook(rng), origin="grammar")


def template_case(rng, index, sources, walker) -> Case:
    case = Case(index, template_rulebook(rng), origin="template")
    if rng.random() < 0.5:
        mutate(case, rng, rng.randint(1, 2))
    return case


def player_range(text: str) -> tuple:
    """(low, high) of the `players` line, or (0, 0) when it has none that reads."""
    found = re.search(r"^players[ \t]+(\d{1,3})(?:[ \t]+to[ \t]+(\d{1,3}))?[ \t]*(?:#.*)?$",
                      text, re.M)
    if not found:
        return 0, 0
    low = int(found.group(1))
    return low, int(found.group(2) or low)


def simulate_args(text: str, rng: random.Random, games: int = 3) -> list:
    args = ["--games", str(games), "--workers", "1", "--seed", str(rng.randrange(1000)),
            "--max-decisions", "2000"]
    players = 0
    low, high = player_range(text)
    if 1 <= low <= high <= 12:
        players = rng.randint(low, min(high, low + 3))
        args += ["--players", str(players)]
    if players != 1 and rng.random() < 0.25:
        args += ["--ai", "1=greedy"]
        args[1] = "1"           # a greedy player looks at every option: a game takes it long
    return args


def simulate_stage(text: str, rng: random.Random, games: int = 3) -> Stage:
    """`simulate --games N` with its report as JSON on stdout."""
    return Stage("simulate", (*simulate_args(text, rng, games), "--quiet", "--json", "-"))


def play_stage(text: str, rng: random.Random, typed: Iterable[str] = (),
               options: Iterable[str] = (), players: Optional[int] = None) -> Stage:
    """`play` through the REPL: seat 0 typed for (or every seat an AI), a
    few moves and commands, a save loaded back, then `quit` without saving."""
    low, high = player_range(text)
    if players is None:
        players = rng.randint(low, min(high, low + 2)) if 1 <= low <= high else 2
    args = [*options, "--players", str(players), "--seed", str(rng.randrange(1000))]
    first = 0 if rng.random() < 0.25 else 1
    args += [w for seat in range(first, players) for w in ("--ai", f"{seat}={rng.choice(AIS)}")]
    zones = re.findall(r"^zone\s+(\w+)", text, re.M) or ["deck"]
    lines = [rng.choice(MOVES).replace("ZONE", rng.choice(zones))
             for _ in range(rng.randint(1, 5))]
    lines += list(typed)
    if rng.random() < 0.4:
        lines.insert(rng.randrange(len(lines) + 1), f"save {SAVE}\nload {SAVE}")
    rng.shuffle(lines)
    return Stage("play", tuple(args), "\n".join([*lines, "quit", "no", ""]))


AIS = ("random", "random", "greedy")
MOVES = ("1", "1", "2", "3", "board", "hand", "table", "table full", "log", "log all", "undo",
         "help", "show ZONE", "show ZONE", "rules", "new", "1", "2")
SAVE = "fuzz.save.json"
LOAD_REFUSED = re.compile(rf"error\[(save/[a-z0-9_-]+)\][^\n]*{re.escape(SAVE)}")


# -- mutations --------------------------------------------------------------------------

NAME = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
NUMBER = re.compile(r"(?<![\w.])-?\d+\b")
STRING = re.compile(r'"[^"\n]*"')
WORDS = re.compile(r'(?<!from )(?<!of )"[^"\n]*"')      # a string that is no path
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
    target = rng.choice((CASE, f"../variants/{CASE}", "./" + CASE, "hanamikoji-p0-starts.rules",
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


# -- slot indices: zones and variables of each player or piece, read and written out of range

SLOTS_HEAD = '''game "Slots {title}"
{players}
component coin
  | name | worth |
  | A    | 1     |
  | B    | 2     |
  has gold: number = 0
component token
  | name | kind  |
  | T    | plain |
  | U    | odd   |
zone guard_z0: coin, public
zone hand of each player: coin, owner
zone guard_z1: coin, public
zone side of each coin: coin, public
zone stash of each player and coin: coin, public
zone guard_z2: coin, public
zone deck: coin, hidden
zone pile: coin, public
variable guard_v0: number = 0
variable chips of each player: number = 0
variable guard_v1: number = 0
variable mark of each coin: number = 0
variable guard_v2: number = 0
variable leader: player = none
variable pick: coin = none
variable thing: any = none
variable flag: bool = no
variable guard_v3: number = 0
define gold_of(c) = c.gold
define seat_of(q) = q
'''
SLOTS_SCORE = ("  score = guard_v0 + guard_v1 + guard_v2 + guard_v3 + size(guard_z0)"
               " + size(guard_z1) + size(guard_z2)   " + ZERO)
# A seat that is no seat of the game, a value of another kind, or none.
BAD_SEATS = ("0 - 1", "-1", "player_count", "player_count + 1", "99", "-1000000000",
             "1000000000000", "none", "leader", "thing", "SEAT - player_count",
             "SEAT + player_count", "seat_of(player_count)", "seat_of(0 - 1)", "yes", '"P0"', "A",
             "T", "first(deck)", "players", "players + 1")
BAD_PIECES = ("T", "U", "pick", "thing", "SEAT", "5", "none", "first([T, A])", "seat_of(T)",
              "[A, B]")
BAD_ANY = ("5", "0 - 1", "T", "none", "player_count", "1000000000000")
# Statements and formulas with a slot index X (a seat) or Y (a piece).
SEAT_USES = ("set chips(X) = 77", "add 77 to chips(X)", "let v = chips(X)",
             "set guard_v3 = chips(X)", "deal 1 from deck to hand(X)", "move all hand(X) to pile",
             "move first(deck) to hand(X)", "let n = size(hand(X))", "shuffle hand(X)",
             "reveal hand(X)", "move all stash(X, A) to pile", "move first(deck) to stash(X, B)",
             "set chips(SEAT) = size(hand(X))", "set flag = is_empty(hand(X))")
PIECE_USES = ("move all side(Y) to pile", "move first(deck) to side(Y)", "set mark(Y) = 5",
              "add 1 to mark(Y)", "let m = mark(Y)", "set guard_v3 = mark(Y)",
              "move all stash(SEAT, Y) to pile", "let s = size(side(Y))")
MIXED_USES = (("for each c in [A, T]", "  set c.gold = 42"),
              ("for each c in [T, A, B]", "  add 1 to c.gold"),
              ("let g = sum(c.gold for c in [A, T])",), ("let g = first([T, A]).gold",),
              ("set thing = T", "set thing.gold = 42"), ("let g = gold_of(T)",),
              ("set pick.gold = 3",), ("let g = count(c in [A, U] where c.gold > 0)",),
              ("for each c in [A, T]", "  set mark(c) = 9"), ("set T.gold = 42",),
              ("let g = max(c.gold for c in [U, B])",))


def slots_case(rng, index, sources, walker) -> Case:
    if rng.random() < 0.3:
        case = slot_mutant(rng, index, sources)
    else:
        case = Case(index, slots_rulebook(rng), origin="slots template")
    case.validate = ("--play", "2", "--seed", str(rng.randrange(1000)), "--max-decisions", "300")
    case.stages = [simulate_stage(case.text, rng)]
    if rng.random() < 0.3:
        case.stages.append(play_stage(case.text, rng))
    return case


def slots_rulebook(rng: random.Random, bad: bool = True) -> str:
    """A game of a few coins whose setup, phase, action, scoring or a define
    indexes a slot wrongly (when `bad`), each such line marked; it scores
    guards that no rule writes."""
    two = rng.random() < 0.6
    head = SLOTS_HEAD.format(title=rng.randrange(10 ** 6),
                             players="players 2" if two else f"players 2 to {rng.randint(3, 4)}")
    places = {"setup": [], "phase": [], "action": [], "scoring": [], "define": []}
    thing = rng.choice(BAD_ANY)
    snippets = []
    for _ in range(1 if bad else 0):        # one at a time: a finding names what went through
        place = rng.choice(("setup", "setup", "phase", "action", "requires", "scoring", "define"))
        seat = {"action": "me", "requires": "me", "scoring": "p"}.get(place, "players[0]")
        k = rng.random()
        if place in ("requires", "scoring", "define") and k < 0.5:
            index = rng.choice(BAD_SEATS + (("2", "3") if two else ()))
            lines = [rng.choice(("chips(X)", "size(hand(X))", "size(stash(X, A))"))
                     .replace("X", index)]
        elif place in ("requires", "scoring", "define"):
            lines = [rng.choice(("mark(Y)", "size(side(Y))", "gold_of(Y)")).replace(
                "Y", rng.choice(BAD_PIECES + ("T", "U")))]
        elif k < 0.45:
            index = rng.choice(BAD_SEATS + (("2", "3") if two else ()))
            lines = [rng.choice(SEAT_USES).replace("X", index)]
        elif k < 0.7:
            lines = [rng.choice(PIECE_USES).replace("Y", rng.choice(BAD_PIECES))]
        else:
            lines = list(rng.choice(MIXED_USES))
        lines = [line.replace("SEAT", seat) for line in lines]
        snippets.append((place, lines))
    total = sum(len(lines) + (place == "define") for place, lines in snippets)
    marks = iter(range(1, total + 1))

    def marked(line: str) -> str:
        return f"{line}   # fuzz:refused {next(marks)}/{total}"

    for n, (place, lines) in enumerate(snippets):
        if place == "define":
            places["define"].append(marked(f"define bad_{n}(p) = {lines[0]}"))
            places["setup"].append(marked(f"let b{n} = bad_{n}(players[0])"))
        elif place == "requires":
            places["action"].insert(0, marked(f"requires {lines[0]} >= 0"))
        elif place == "scoring":
            places["scoring"].append(marked(f"tie break most {lines[0]}"))
        else:
            places[place] += [marked(line) for line in lines]
    lines = [head.rstrip("\n")]
    lines += places["define"]
    lines += ["setup", "  move all coin to deck", "  shuffle deck",
              "  set thing = " + thing, "  set leader = none"]
    lines += ["  " + line for line in places["setup"]]
    lines += ["phase main", "  repeat 2 times"]
    lines += ["    " + line for line in places["phase"]]
    # A refusal in `requires` is reported at the statement that lists the
    # actions, one in a tie break at the score's formula (docs/language.md §4.7).
    in_requires = bool(snippets) and snippets[0][0] == "requires"
    taking = "        q takes an action" + (f"   {RUNS}" if in_requires else "")
    lines += ["    for each q in players", "      turn q", taking]
    lines += ["action go"]
    body = places["action"]
    lines += ["  " + line for line in body if line.startswith("requires")]
    lines += ["  add 1 to chips(me)"]
    lines += ["  " + line for line in body if not line.startswith("requires")]
    lines += ["scoring", SLOTS_SCORE + (f" {RUNS}" if places["scoring"] else "")]
    lines += ["  " + line for line in places["scoring"]]
    return "\n".join(lines) + "\n"


def slot_mutant(rng: random.Random, index: int, sources: list) -> Case:
    """A shipped rulebook with the argument of a zone or variable of each
    player or piece changed to a seat out of range, none or another kind."""
    source = rng.choice([s for s in sources if not s.folder.endswith("variants")])
    case = Case(index, source.text, source.folder, source.name)
    for _ in range(rng.choice((1, 1, 2))):
        text = bad_slot(case.text, rng, case)
        if text is not None:
            case.text = text
            case.steps.append("bad_slot")
    return case


def bad_slot(text, rng, case):
    per_player = re.findall(r"^(?:zone|variable|permission)\s+(\w+)\s+of\s+each\s+player\b",
                            text, re.M)
    per_piece = re.findall(r"^(?:zone|variable)\s+(\w+)\s+of\s+each\s+(?!player\b)(\w+)",
                           text, re.M)
    names = sorted(set(per_player) | {name for name, _ in per_piece})
    if not names:
        return None
    calls = list(re.finditer(rf"\b({'|'.join(map(re.escape, names))})\(([^()]*)\)", text))
    if not calls:
        return None
    m = rng.choice(calls)
    if m.group(1) in per_player:
        arg = rng.choice(("0 - 1", "-1", "player_count", "player_count + 1", "99", "none", "2",
                          "3", "-1000000000", "players[0] - 1", f"{m.group(2).split(',')[0]} + 1"))
    else:
        types = re.findall(r"^component\s+(\w+)", text, re.M)
        arg = rng.choice(("none", "players[0]", "0", "-1",
                          f"first({rng.choice(types)})" if types else "none"))
    end = m.start(2) + len(m.group(2).split(",")[0])     # the first of two indices
    return text[:m.start(2)] + arg + text[end:]

# -- control characters and markup on their way to the terminal

ESCAPE_GAME = '''game "Glyphs {title}"
players 2
option mode = calm one of [calm, {option}]
{component}
zone deck: card, hidden, ordered
zone hand of each player: card, owner
zone pile: card, public
variable total of each player: number = 0
variable word: symbol = {word}
setup
  move all card to deck
  shuffle deck
  for each p in players
    deal 3 from deck to hand(p)
{setup}phase main
  repeat 1 times
    for each p in players
      turn p
        p takes an action
action play(c: one of hand(me))
  move c to pile
  add c.value to total(me)
  announce "{announce} {{c}}"
  if not is_empty(hand(opponent(me)))
    opponent(me) chooses back as "{label}": one of hand(opponent(me))
    move back to pile
scoring
  score = total(p)
  part "{part}" = total(p)
  tie break most size(hand(p)) as "{tie}"
'''
ESCAPE_TABLE = '''component card
  | label | value | copies |
  | {cell} | 1 | 2 |
  | plain | 2 | 2 |
  | other | 3 | 2 |'''
ESCAPE_PLACES = ("title", "option", "cell", "word", "announce", "label", "part", "tie-break",
                 "data", "data name", "data key", "error line", "error comment", "bare line",
                 "typed", "option value", "save name")
DATA_FILE = "case-data.yaml"


def hostile_text(rng: random.Random) -> str:
    """A control sequence, a piece of markup with its marker word, or both, in plain words."""
    parts = []
    if rng.random() < 0.75:
        parts.append(rng.choice(CONTROLS))
    if not parts or rng.random() < 0.4:
        before, word, after = rng.choice(MARKUP)
        parts.append(before + word + after)
    rng.shuffle(parts)
    return rng.choice(("", "a ", "x")) + " ".join(parts) + rng.choice(("", " b", "!"))


def escape_case(rng, index, sources, walker) -> Case:
    hostile = hostile_text(rng)
    if rng.random() < 0.3:
        source = rng.choice(sources)
        case = Case(index, source.text, source.folder, source.name, place="a string")
        text = _replace_match(case.text, rng, WORDS, lambda m: '"' + hostile + '"')
        if text is not None:
            case.text = text
            case.steps.append("hostile string")
        typed = [hostile] if rng.random() < 0.3 else []
    else:
        place = rng.choice(ESCAPE_PLACES)
        case = Case(index, "", origin="escape template", place=place)
        case.text, case.files, typed = escape_rulebook(rng, place, hostile)
    stages = [play_stage(case.text, rng, typed)]
    if case.place == "option value":
        stages = [play_stage(case.text, rng, typed, ("--option", f"mode={hostile}"))]
        case.validate = ("--option", f"mode={hostile}")
    if case.place == "save name":
        stages = [play_stage(case.text, rng, [f"save {hostile}.json", f"load {hostile}.json"])]
    extra = [Stage("simulate", tuple(simulate_args(case.text, rng, 2)) + ("--quiet",)),
             Stage("show", ())]
    case.stages = stages + rng.sample(extra, rng.choice((1, 1, 2)))
    rng.shuffle(case.stages)
    return case


def escape_rulebook(rng: random.Random, place: str, hostile: str) -> tuple:
    """(rulebook, data files, typed lines) of a small card game with `hostile` in `place`."""
    plain = dict(title=str(rng.randrange(10 ** 6)), option="wild", cell="shiny", word='"quiet"',
                 announce="played", label="a card back", part="points", tie="cards left",
                 setup="")
    spot = {"title": "title", "option": "option", "cell": "cell", "word": "word",
            "announce": "announce", "label": "label", "part": "part", "tie-break": "tie"}
    values = dict(plain)
    if place in spot:
        key = spot[place]
        values[key] = f'"{hostile}"' if key in ("option", "cell", "word") else hostile
    files, typed = {}, []
    if place.startswith("data"):
        records = [{"label": "shiny", "value": 1, "copies": 2}, {"label": "plain", "value": 2,
                                                                   "copies": 2},
                   {"label": "other", "value": 3, "copies": 2}]
        if place == "data":
            records[0]["label"] = hostile
        elif place == "data name":
            records[1]["name"] = hostile
        else:
            records[2][hostile] = 1
        files[DATA_FILE] = "components:\n" + "".join(
            "  - " + json.dumps(r) + "\n" for r in records)
        component = f'component card from "{DATA_FILE}"'
    else:
        component = ESCAPE_TABLE.format(cell=values["cell"])
    if place == "error line":
        values["setup"] = rng.choice((f'  move "{hostile}" to pile\n',
                                      f'  set word = "{hostile}" + 1\n',
                                      f'  announce "{hostile}" +\n',
                                      f'  deal "{hostile}" from deck to pile\n'))
    elif place == "error comment":
        values["setup"] = rng.choice(("  set total(nobody) = 1", "  move all deck to nowhere",
                                      "  add yes to total(players[0])")) + f"   # {hostile}\n"
    elif place == "bare line":
        values["setup"] = f"  {hostile}\n"
    elif place == "typed":
        typed = [rng.choice((hostile, f"play {hostile}", f"show {hostile}", f"log {hostile}",
                             f"{hostile} 1", f"back {hostile}"))]
    text = ESCAPE_GAME.format(component=component, **{k: v for k, v in values.items()
                                                       if k != "cell"})
    return text, files, typed


# -- huge numbers: grown in loops and defines, scored, counted and used as indices

HUGE_GAME = '''game "Huge {title}"
{players}
option big = {big}
{component}
zone deck: card, hidden, ordered
zone hand of each player: card, owner
variable x: number = {start}
variable total of each player: number = 0
{defines}setup
  move all card to deck
  shuffle deck
{growth}phase main
  repeat 2 times
    for each p in players
      turn p
        p takes an action
action go
  add x to total(me)
{use}scoring
  score = {score}
{tie}'''
BIG_DIGITS = (1, 9, 29, 30, 1, 9, 29, 30, 31, 40, 400, 5000)
HUGE_USES = ("deal x from deck to hand(me)", "repeat x times\n    add 1 to total(me)",
             "rotate hand by x", "let y = x // 7 + x % 7", "let z = abs(0 - x)",
             "let w = smaller(x, 3) + larger(x, 3)", "if x > 5\n    add 1 to total(me)",
             "let q = players[x % player_count]", "let r = random(1 to 3) * x",
             "let n = count(c in deck where c.value < x)", "let s = size(1 to 3) * x",
             "let t = hand(me)[x]", "add x * x to total(me)", "add 0 - x * x to total(me)",
             "let m = sum(c.value * x for c in deck)",
             "let u = max(c.value * x for c in deck) otherwise 0",
             "let l = [y in 1 to 3 where y < x]", "let cc = cell(x, x)", "let e = x == x + 1")
HUGE_SCORES = ("x", "total(p)", "x * 0 + 1", "0 - x", "x // (1 + abs(x))", "total(p) * total(p)",
               "x % 1000", "big", "big * big", "d_last")


def huge_case(rng, index, sources, walker) -> Case:
    case = Case(index, "", origin="huge template")
    case.text, case.files = huge_rulebook(rng)
    case.validate = ("--play", "2", "--seed", str(rng.randrange(1000)), "--max-decisions", "200")
    case.stages = [simulate_stage(case.text, rng, 2)]
    if rng.random() < 0.5:
        case.stages.append(play_stage(case.text, rng))
    return case


def huge_rulebook(rng: random.Random) -> tuple:
    """(rulebook, data files): a number grown past any bound (its lines
    marked to be refused when it certainly passes 10^1000), used, scored."""
    marks: list = []          # the lines to mark, by their text, in order

    def mark(line: str) -> str:
        marks.append(line)
        return line

    digits = rng.choice(BIG_DIGITS)
    big = "9" * digits
    option = f"{big}"
    if digits > 30:
        option = mark(option)
    start = rng.choice(("2", "10", "99", "1000000000", "big", "0 - 10"))
    size = {"2": 0.3, "10": 1, "99": 2, "1000000000": 9, "big": digits, "0 - 10": 1}[start]
    files, too_long = {}, digits > 30
    if rng.random() < 0.3:
        value = rng.choice(("9" * 29, "9" * 29, "-" + "9" * 29, "123456789", "9" * 31, "9" * 400,
                            "1e308", "-" + "9" * 40))
        files[DATA_FILE] = ("components:\n  - {value: %s, copies: 2}\n  - {value: 1, copies: 2}\n"
                            % value)
        component = f'component card from "{DATA_FILE}"'
        if len(value.strip("-")) > 30:
            component, too_long = mark(component), True
    else:
        component = "component card\n  | value | copies |\n  | 3 | 2 |\n  | 7 | 2 |"
    defines, growth = [], []
    kind = rng.randrange(6)
    if kind == 0:                       # squaring
        times = rng.choice((3, 6, 10, 14, 17, 20, 24))
        size *= 2 ** times
        growth = [f"  repeat {times} times", "    " + mark("set x = x * x")]
    elif kind == 1:                     # cubes
        times = rng.choice((3, 6, 9, 12, 15))
        size *= 3 ** times
        growth = [f"  repeat {times} times", "    " + mark("set x = x * x * x")]
    elif kind == 2:                     # doubling, as many statements as the bound allows
        times = rng.choice((100, 4000, 50000, 150000))
        size += times * 0.301
        growth = [f"  repeat {times} times", "    " + mark("add x to x")]
    elif kind == 3:                     # a chain of defines, worked out once at load
        links = rng.choice((4, 8, 12, 16))
        defines = ["define d_0 = 10"] + [mark(f"define d_{k} = d_{k - 1} * d_{k - 1}")
                                         for k in range(1, links + 1)]
        defines.append(f"define d_last = d_{links}")
        size = 2 ** links
        growth = ["  " + mark("set x = d_last")]
    elif kind == 4:                     # lets in a row
        lets = rng.choice((3, 6, 12, 16))
        growth = ["  let a0 = x"] + [f"  let a{k} = " + mark(f"a{k - 1} * a{k - 1}")
                                     for k in range(1, lets + 1)]
        growth.append(f"  set x = a{lets}")
        size *= 2 ** lets
    else:                               # products of the option
        times = rng.choice((2, 4, 40))
        growth = ["  " + mark("set x = " + " * ".join(["big"] * times))]
        size = digits * times
    if "d_last" not in "\n".join(defines):
        defines.append("define d_last = 1")
    if rng.random() < 0.3:
        growth.append("  " + rng.choice(("set x = 0 - x", "set x = x + x", "set x = x // 3")))
    use = rng.sample(HUGE_USES, rng.randint(0, 2))
    tie = rng.choice(("x", "total(p)", "x * x")) if rng.random() < 0.3 else ""
    tie = f"  tie break most {tie}\n" if tie else ""
    text = HUGE_GAME.format(
        title=rng.randrange(10 ** 6), players=rng.choice(("players 2", "players 1 to 3")),
        big=option, component=component, start=start,
        defines="".join(line + "\n" for line in defines),
        growth="".join(line + "\n" for line in growth),
        use="".join("  " + line + "\n" for line in use),
        score=rng.choice(HUGE_SCORES), tie=tie)
    if size > 1000 or too_long:
        return mark_lines(text, marks), files
    return text, files


def mark_lines(text: str, marks: list) -> str:
    """`text` with each line that holds one of `marks` marked to be refused."""
    lines = text.split("\n")
    chosen = [i for i, line in enumerate(lines) if any(m in line for m in marks)]
    for n, i in enumerate(chosen, 1):
        lines[i] += f"   # fuzz:refused {n}/{len(chosen)}"
    return "\n".join(lines)

# -- wide player ranges: what grows with the number of players

# The load of every player count together: within 1 s of CPU and 512 MB.
PLAYERS_CPU = 1.0
PLAYERS_RSS_MB = 512

def players_case(rng, index, sources, walker) -> Case:
    case = Case(index, players_rulebook(rng), origin="players template", stages=[],
                cpu=PLAYERS_CPU, rss_mb=PLAYERS_RSS_MB)
    if rng.random() < 0.3:
        low, high = player_range(case.text)
        players = rng.randint(max(1, low), max(1, min(high, 100)))
        case.stages = [Stage("simulate", ("--games", "1", "--workers", "1", "--players",
                                          str(players), "--max-decisions", "50", "--quiet"))]
    return case


def players_rulebook(rng: random.Random) -> str:
    """A game for up to 100 players (or more) whose pieces, zones, variables,
    grid and tables grow with them."""
    low = rng.choice((1, 1, 2))
    high = rng.choice((20, 50, 100, 100, 100, 101))
    copies = rng.choice((1, 10, 100, 500, 1000))
    lines = [f'game "Crowd {rng.randrange(10 ** 6)}"', f"players {low} to {high}"]
    if rng.random() < 0.4:
        counts = range(low, high + 1)
        lines += ["by players", "  | players | " + " | ".join(map(str, counts)) + " |",
                  "  | seats | " + " | ".join(str(n * rng.choice((1, 2))) for n in counts) + " |"]
    lines += ["component chip of each player", "  | value | copies |",
              f"  | 1 | {copies} |"]
    if rng.random() < 0.5:
        lines.append(f"  | 2 | {rng.choice((1, copies))} |")
    if rng.random() < 0.5:
        lines.append("  has marks: number = 0")
    lines += ["component tile", "  | value | copies |", f"  | 1 | {rng.choice((1, 100, 1000))} |"]
    lines += ["zone pool: chip, public", "zone stack of each player: chip, owner"]
    if rng.random() < 0.5:
        lines.append("zone pair of each player and player: chip, public")
    if rng.random() < 0.4:
        lines.append("zone spot of each chip: chip, public")
    if rng.random() < 0.4:
        lines.append("zone slot of each tile and player: chip, public")
    lines.append("variable owes of each player: number = 0")
    if rng.random() < 0.4:
        lines.append("variable hold of each chip: player = none")
    if rng.random() < 0.4:
        side = rng.choice((8, 100, 250, 256))
        lines += [f"grid board: {side} by {rng.choice((side, 8, 256))}",
                  "variable height of each board: number = 0"]
    lines += ["define total(p) = sum(c.value for c in chip where c.owner == p)",
              "define richest = best(q in players by total(q))"]
    if rng.random() < 0.4:
        lines.append("define crowd(p) = count(q in players where total(q) > total(p))")
    lines += ["setup", "  for each p in players",
              "    move all [c in chip where c.owner == p] to stack(p)",
              "phase main", "  repeat 1 times", "    for each p in players", "      turn p",
              "        p takes an action",
              "action go", "  add 1 to owes(me)",
              "scoring", "  score = owes(p) + size(stack(p))"]
    return "\n".join(lines) + "\n"

# -- option values of every kind, right and wrong, on the command line

OPTIONS_GAME = '''game "Knobs {title}"
players 2
option n = 3
option flag = no
option mode = fast
option speed = slow one of [slow, normal]
option target = 15 one of 10 to 20
option blowing: 2 of wind = [boreas, notus]
component wind
  | name   | force |
  | boreas | 1     |
  | notus  | 2     |
  | zephyr | 3     |
variable total of each player: number = 0
setup
  repeat n times
    add 1 to total(players[0])
  if flag
    add 1 to total(players[0])
  if mode == fast
    add 2 to total(players[1])
  if speed == slow
    add 1 to total(players[1])
  add target to total(players[1])
  for each w in blowing
    add w.force to total(players[1])
phase main
  repeat 1 times
    for each p in players
      turn p
        p takes an action
action go
scoring
  score = total(p)
'''
OPTION_DECL = re.compile(r"^option\s+(\w+)\s*(:\s*(\d+)\s+of\s+(\w+)\s*)?=\s*(.*?)\s*(?:#.*)?$",
                         re.M)
KINDS = ("number", "bool", "word", "one of", "pick")
# (value, the kinds of option it is wrong for)
WORDLESS = ("number", "bool", "one of", "pick")      # the kinds a plain word is wrong for
OPTION_VALUES = (("NaN", WORDLESS), ("Infinity", WORDLESS), ("-Infinity", KINDS), ("1e308", KINDS),
                 ("-1e308", KINDS), ("1.5", KINDS), ("10.0", KINDS), ('{"a":1}', KINDS),
                 ("null", KINDS), ("[]", KINDS), ("[1, 2]", KINDS), ('"\\u001b[31m"', KINDS),
                 ("9" * 40, ("bool", "word", "one of", "pick")),
                 ("9" * 5000, ("bool", "word", "one of", "pick")),
                 ("-" + "9" * 40, ("bool", "word", "one of", "pick")),
                 ("-1", ("bool", "word", "one of", "pick")), ("2", ("bool", "word", "pick")),
                 ("true", ("number", "one of", "pick")), ("maybe", WORDLESS),
                 ("0x10", ("number", "bool", "one of", "pick")),
                 ("1_000", ("number", "bool", "pick")),
                 (" 3", ()), ("3 ", ()), ("", ()), ("3=4", ("number", "bool", "pick")), ("yes", ()),
                 ("no", ()), ("0", ()), ("1", ()), ("15", ()), ("slow", ()), ("normal", ()),
                 ("boreas,zephyr", ()), ("boreas,boreas", ("pick",)), ("boreas", ("pick",)),
                 ('["notus", "zephyr"]', ()), ("boreas,notus,zephyr", ("pick",)),
                 ("[boreas, 1]", ("pick",)), ("fast", ()), ("slow one of", ()))


def options_case(rng, index, sources, walker) -> Case:
    with_options = [s for s in sources if OPTION_DECL.search(s.text)]
    if rng.random() < 0.4 and with_options:
        source = rng.choice(with_options)
        case = Case(index, source.text, source.folder, source.name)
    else:
        case = Case(index, OPTIONS_GAME.format(title=rng.randrange(10 ** 6)),
                    origin="options template")
    decls = {m.group(1): option_kind(m) for m in OPTION_DECL.finditer(case.text)}
    given, wrong = [], []
    # Each option once: a second `--option` of the same name would stand in for the first.
    known = rng.sample(sorted(decls), min(len(decls), 2))
    usage = False             # a name that is none, or an empty value: a usage error first
    for k in range(rng.choice((1, 1, 2))):
        roll = rng.random()
        if roll < 0.12 or k >= len(known):
            name = rng.choice(("nosuch", "N", "n\x1b[31m", "n.x"))
            value, bad = rng.choice(OPTION_VALUES)[0], True
            usage = usage or not name.isidentifier()
        else:
            name = known[k]
            if roll < 0.25:
                value = rng.choice(CONTROLS)
                bad = True
            else:
                value, kinds = rng.choice(OPTION_VALUES)
                bad = decls[name] in kinds
        usage = usage or value.strip() == ""
        given.append(f"{name}={value}")
        if bad:
            wrong.append((name, decls.get(name, "unknown name")))
    options = [w for item in given for w in ("--option", item)]
    if wrong and not usage:
        case.expect = "option/"
        case.place = f"--option {wrong[0][0]}"
        case.topic = wrong[0][1]
    command = rng.choice(("validate", "simulate", "play", "show")) if case.expect else "all"
    sim = simulate_stage(case.text, rng, 2)
    sim = replace(sim, args=(*options, *sim.args))
    play = play_stage(case.text, rng, options=options)
    show = Stage("show", tuple(options))
    if command == "validate" or command == "all":
        case.validate = tuple(options)
        case.stages = [sim, play] if command == "all" else []
    else:
        case.validate = ()
        case.stages = [{"simulate": sim, "play": play, "show": show}[command]]
    case.steps.append(" ".join(options))
    return case


def option_kind(m: re.Match) -> str:
    """The kind of an `option` line: a pick, one of listed values, a yes/no, a number or a word."""
    if m.group(2):
        return "pick"
    value = m.group(5)
    if " one of " in f" {value} ":
        return "one of"
    if value in ("yes", "no", "true", "false"):
        return "bool"
    if re.fullmatch(r"-?\d+", value):
        return "number"
    return "word"


MAKERS = {"mutant": mutant_case, "grammar": grammar_case, "template": template_case,
          "slots": slots_case, "escape": escape_case, "huge": huge_case, "players": players_case,
          "options": options_case}


# -- running a case ------------------------------------------------------------------------

@dataclass
class Result:
    """How a case ended: its class, the first line of what it printed (made
    comparable between runs and files), the stage (validate or simulate)."""

    cls: str
    message: str
    stage: str = "validate"
    output: str = ""
    group: str = ""           # what tells findings apart, when the message says more

    @property
    def signature(self) -> tuple:
        return (self.cls, self.message)

    @property
    def key(self) -> tuple:
        """What tells two findings apart: the message without its names and numbers."""
        if self.group:
            return (self.cls, self.group)
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
    rulebooks, and the case written as `rulebooks[/variants]/case.rules`
    with its other files beside it."""

    def __init__(self, root: Path, launcher: "Launcher"):
        self.root = root
        self.rulebooks = link_rulebooks(root)
        self.launcher = launcher
        self.handle: Optional[tuple] = None
        self.placed: list = []

    def place(self, case: Case) -> str:
        for path in self.placed:
            path.unlink(missing_ok=True)
        for path in self.root.iterdir():      # what a command left behind (a save)
            if path.is_file() and not path.is_symlink():
                path.unlink(missing_ok=True)
        folder = self.root / case.folder
        self.placed = [folder / CASE, *(folder / name for name in case.files)]
        (folder / CASE).write_bytes(case.data(self.rulebooks))
        for name, text in case.files.items():
            (folder / name).write_bytes(case.data(self.rulebooks, text))
        return f"{case.folder}/{CASE}"

    def start(self, argv: list, limits: Limits, stdin: str = "") -> None:
        (self.root / "stdin.txt").write_bytes(stdin.encode("utf-8", "surrogateescape"))
        files = tuple(self.root / name for name in ("stdin.txt", "stdout.txt", "stderr.txt"))
        self.started = time.monotonic()
        self.deadline = self.started + limits.timeout
        self.handle, self.pid = self.launcher.start(argv, self.root, files, limits.memory_mb << 20)

    def _kill(self, sig: int) -> None:
        try:
            os.killpg(self.pid, sig)
        except (ProcessLookupError, PermissionError):
            try:                        # not yet the leader of its own session
                os.kill(self.pid, sig)
            except ProcessLookupError:
                pass

    def _wait(self, seconds: Optional[float] = None) -> Optional[tuple]:
        until = None if seconds is None else time.monotonic() + seconds
        while (got := self.launcher.poll(self.handle)) is None:
            if until is not None and time.monotonic() > until:
                return None
            time.sleep(0.01)
        return got

    def poll(self) -> Optional["Ended"]:
        """How the child ended, once it has."""
        timed_out = False
        got = self.launcher.poll(self.handle)
        if got is None:
            if time.monotonic() < self.deadline:
                return None
            timed_out = True
            self._kill(signal.SIGABRT)  # faulthandler prints where it hangs, then it goes
            got = self._wait(2.0)
            if got is None:
                self._kill(signal.SIGKILL)
                got = self._wait()
        else:                           # a grandchild left behind would hold the slot's files
            self._kill(signal.SIGKILL)
        self.handle = None
        status, cpu, rss = got
        read = lambda name: (self.root / name).read_bytes()[:200_000]
        out, err = read("stdout.txt"), read("stderr.txt")
        return Ended(os.waitstatus_to_exitcode(status), out.decode("utf-8", "replace"),
                     err.decode("utf-8", "replace"), timed_out, out, err, cpu, rss)

    def stop(self) -> None:
        if self.handle is not None:
            self._kill(signal.SIGKILL)
            self._wait()
            self.handle = None


# A process that has imported the package once and forks a child for each
# command: the child runs `python -m interpreter ARGV…` as a fresh process
# would (its own session, folder, files for its standard streams, memory
# limit, argv), without the 0.6 s of CPU that importing costs. It reads one
# request a line (JSON) and answers `started ID PID`, then `ended ID STATUS
# CPU MAXRSS_KB` once the child is reaped.
FORK_SERVER = r'''
import atexit, io, json, os, resource, runpy, select, sys, traceback
try:
    import interpreter.terminal.cli
except BaseException as exc:
    os.write(1, ("failed %s: %s\n" % (type(exc).__name__, exc)).encode("utf-8", "replace"))
    raise SystemExit(1)
os.write(1, b"ready\n")

def stream(fd, mode, **kw):
    raw = io.FileIO(fd, mode, closefd=False)
    buffered = io.BufferedReader(raw) if mode == "r" else io.BufferedWriter(raw)
    return io.TextIOWrapper(buffered, encoding="utf-8", errors="backslashreplace", **kw)

def child(req):
    code = 1
    try:
        os.setsid()
        os.chdir(req["cwd"])
        for fd, path, flags in ((0, req["stdin"], os.O_RDONLY),
                                (1, req["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                (2, req["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
            opened = os.open(path, flags, 0o644)
            os.dup2(opened, fd)
            os.close(opened)
        resource.setrlimit(resource.RLIMIT_AS, (req["memory"], req["memory"]))
        resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
        sys.stdin = sys.__stdin__ = stream(0, "r")
        sys.stdout = sys.__stdout__ = stream(1, "w")
        sys.stderr = sys.__stderr__ = stream(2, "w", line_buffering=True)
        sys.argv = [req["main"], *req["argv"]]
        try:
            runpy.run_module("interpreter", run_name="__main__", alter_sys=True)
            code = 0
        except SystemExit as done:
            if done.code is None or isinstance(done.code, int):
                code = done.code or 0
            else:
                print(done.code, file=sys.stderr)
                code = 1
        except BaseException:
            traceback.print_exc()
            code = 1
        atexit._run_exitfuncs()
        sys.stdout.flush()
        sys.stderr.flush()
    finally:
        os._exit(code)

children, pending = {}, b""
while True:
    ready, _, _ = select.select([0], [], [], 0.005 if children else 0.5)
    if ready:
        chunk = os.read(0, 1 << 16)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            req = json.loads(line)
            pid = os.fork()
            if pid == 0:
                child(req)
            children[pid] = req["id"]
            os.write(1, ("started %d %d\n" % (req["id"], pid)).encode())
    while children:
        pid, status, usage = os.wait4(-1, os.WNOHANG)
        if pid == 0:
            break
        os.write(1, ("ended %d %d %r %d\n" % (children.pop(pid), status,
                                                usage.ru_utime + usage.ru_stime,
                                                usage.ru_maxrss)).encode())
'''


class Launcher:
    """Starts the commands of the cases, forked from a process that has
    imported the package (`FORK_SERVER`), or afresh (`python -m interpreter`)
    when `fresh` or when that process cannot start; `poll` tells how one ended."""

    def __init__(self, fresh: bool = False):
        self.server: Optional[subprocess.Popen] = None
        self.fresh = fresh
        self.ids = itertools.count(1)
        self.started: dict = {}
        self.ended: dict = {}
        self.lock = threading.Condition()

    def _serve(self) -> bool:
        if self.fresh:
            return False
        if self.server is None:
            self.server = subprocess.Popen([sys.executable, "-c", FORK_SERVER], cwd=ROOT,
                                           stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                           stderr=subprocess.DEVNULL, env=child_env())
            first = self.server.stdout.readline().decode("utf-8", "replace")
            if first != "ready\n":
                self.close()
                self.fresh = True
                return False
            threading.Thread(target=self._read, daemon=True).start()
        return True

    def _read(self) -> None:
        for line in self.server.stdout:
            word, ident, *rest = line.decode().split()
            with self.lock:
                if word == "started":
                    self.started[int(ident)] = int(rest[0])
                else:
                    self.ended[int(ident)] = (int(rest[0]), float(rest[1]), int(rest[2]) / 1024)
                self.lock.notify_all()

    def start(self, argv: list, cwd: Path, files: tuple, memory: int) -> tuple:
        """(how to poll it, its pid) of a new command; `files` are its stdin, stdout, stderr."""
        if not self._serve():
            streams = [open(files[0], "rb"), open(files[1], "wb"), open(files[2], "wb")]
            proc = subprocess.Popen([sys.executable, "-m", "interpreter", *argv], cwd=cwd,
                                    stdin=streams[0], stdout=streams[1], stderr=streams[2],
                                    env=child_env(), start_new_session=True,
                                    preexec_fn=_limit_memory(memory))
            for f in streams:
                f.close()
            return ("fresh", proc), proc.pid
        ident = next(self.ids)
        request = {"id": ident, "argv": argv, "cwd": str(cwd), "stdin": str(files[0]),
                   "stdout": str(files[1]), "stderr": str(files[2]), "memory": memory,
                   "main": str(ROOT / "interpreter" / "__main__.py")}
        self.server.stdin.write(json.dumps(request).encode() + b"\n")
        self.server.stdin.flush()
        with self.lock:
            while ident not in self.started:
                self.lock.wait()
            return ("forked", ident), self.started.pop(ident)

    def poll(self, handle: tuple) -> Optional[tuple]:
        """(wait status, CPU seconds, peak MB) once the command has ended."""
        kind, what = handle
        if kind == "fresh":
            pid, status, usage = os.wait4(what.pid, os.WNOHANG)
            if pid == 0:
                return None
            what.returncode = os.waitstatus_to_exitcode(status)   # reaped: Popen must not wait
            return status, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024
        with self.lock:
            return self.ended.pop(what, None)

    def close(self) -> None:
        if self.server is not None:
            self.server.stdin.close()
            self.server.wait()
            self.server = None


@dataclass
class Ended:
    """A child's end: its return code, its output (as text, and as bytes for
    the controls in it), whether the time ran out, its CPU seconds and its
    peak resident memory in MB."""

    rc: int
    out: str
    err: str
    timed_out: bool
    raw_out: bytes = b""
    raw_err: bytes = b""
    cpu: float = 0.0
    rss_mb: float = 0.0


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
    """Runs cases on `workers` slots at once, each command a child process;
    results come back in the order the cases went in."""

    def __init__(self, work: Path, workers: int, limits: Limits, simulate: bool = True,
                 fresh: bool = False):
        self.work = work
        self.launcher = Launcher(fresh)
        self.slots = [Slot(work / f"slot-{k}", self.launcher) for k in range(workers)]
        self.limits = limits
        self.simulate = simulate
        self._baseline: Optional[float] = None

    def close(self) -> None:
        self.launcher.close()

    def baseline(self) -> float:
        """The CPU seconds of a bare start: `validate` of a rulebook of six
        lines, the least of two runs."""
        if self._baseline is None:
            slot, times = Slot(self.work / "baseline", self.launcher), []
            target = slot.place(Case(-1, BARE))
            for _ in range(2):
                slot.start(["validate", target], self.limits)
                while (ended := slot.poll()) is None:
                    time.sleep(0.01)
                times.append(ended.cpu)
            self._baseline = min(times)
        return self._baseline

    def imap(self, cases: Iterable[Case], more: Callable[[], bool] = lambda: True) -> Iterator:
        """(case, result) in the order of `cases`; no new case starts once
        `more()` is false."""
        todo = iter(cases)
        busy: dict = {}                       # slot -> [order, case, target, stages, records]
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
                        stages = case.all_stages() if self.simulate else case.all_stages()[:1]
                        busy[slot] = [order, case, target, stages, []]
                        self._start(slot, case, target, stages[0])
                        order += 1
                if not busy:
                    break
                time.sleep(0.01)
                for slot in list(busy):
                    ended = slot.poll()
                    if ended is None:
                        continue
                    k, case, target, stages, records = busy[slot]
                    stage = stages[len(records)]
                    result = classify(stage.command, ended.rc, ended.out, ended.err,
                                      ended.timed_out, slot.root, self.limits)
                    result = self.over_limits(result, stage, ended)
                    records.append((stage, ended, result))
                    if result.cls == "valid" and len(records) < len(stages):
                        self._start(slot, case, target, stages[len(records)])
                        continue
                    del busy[slot]
                    done[k] = (case, conclude(case, records))
                while taken in done:
                    yield done.pop(taken)
                    taken += 1
        finally:
            for slot in self.slots:
                slot.stop()

    def _start(self, slot: Slot, case: Case, target: str, stage: Stage) -> None:
        slot.start([*case.flags, *stage.argv(target)], self.limits, stage.stdin)

    def over_limits(self, result: "Result", stage: Stage, ended: Ended) -> "Result":
        """A command that ended within the time and memory limits of every
        command, but past the limits of its own stage, is `hang` or `memory`."""
        if result.cls not in ("valid", "coded"):
            return result
        figures = f"\n[{ended.cpu:.2f} s of CPU, {ended.rss_mb:.0f} MB at most]"
        if stage.rss_mb is not None and ended.rss_mb > stage.rss_mb:
            return Result("memory", f"{stage.command}: over {stage.rss_mb} MB", stage.command,
                          result.output + figures)
        if stage.cpu is not None and ended.cpu > self.baseline() + stage.cpu:
            return Result("hang", f"{stage.command}: over {stage.cpu:g} s of CPU", stage.command,
                          result.output + figures + f" (a bare start: {self.baseline():.2f} s)")
        return result

    def run(self, cases: list) -> list:
        return [result for _, result in self.imap(cases)]


BARE = 'game "Bare"\nplayers 2\nphase main\n  end game\nscoring\n  score = 0\n'


# -- what a case's commands tell --------------------------------------------------------------

def conclude(case: Case, records: list) -> "Result":
    """The class of a case from its commands' ends: the first one that was
    not valid, else the last; then what the case itself calls for (its
    marks, its zero score, its expected code) and what was printed."""
    stage, ended, last = records[-1]
    if last.cls in ("crash", "hang", "memory"):
        return last
    for stage, ended, result in records:
        found = terminal_escape(stage, ended, case.place)
        if found is not None:
            return Result("escape", found[0], stage.command, result.output, group=found[1])
    marks = marked_lines(case.text)
    commands = "+".join(stage.command for stage, _, _ in records)
    if last.cls == "valid":
        if marks:
            lines = case.text.split("\n")
            shapes = list(dict.fromkeys(shape(lines[n - 1]) for n in marks))
            what = " / ".join(shapes[:2]) + (" / …" if len(shapes) > 2 else "")
            return Result("corrupt", f"{commands}: ok, but the lines marked to be refused ran: "
                          f"{what}", last.stage, last.output)
        if case.expect:
            return Result("corrupt", f"{commands}: ok, but {case.place or 'the case'} must be "
                          f"refused with error[{case.expect}…]", last.stage, last.output,
                          group=f"{commands} {case.topic}" if case.topic else "")
    lost = lost_save(records)
    if lost is not None:
        return lost
    if last.cls == "valid":
        score = nonzero_score(case.text, records)
        if score is not None:
            return Result("corrupt", f"simulate: a score that must stay 0 reads {score}",
                          "simulate", records[-1][2].output)
        return last
    errors = AT_CASE.findall(last.output)
    found = CODE.search(last.output)
    code = found.group(1) if found else "?"
    if case.expect and not code.startswith(case.expect):
        return Result("miscoded", f"{last.stage}: error[{code}] where {case.place or 'the case'} "
                      f"must be refused with error[{case.expect}…]", last.stage, last.output,
                      group=f"{last.stage} {code} {case.topic}" if case.topic else "")
    lines = case.text.split("\n")
    runs = {n for n, line in enumerate(lines, 1) if RUNS in line}
    if marks and errors and not any(int(line) in marks or int(line) in runs
                                    for line, _ in errors):
        line, code = errors[0]
        text = lines[int(line) - 1] if int(line) <= len(lines) else ""
        return Result("miscoded", f"{last.stage}: error[{code}] at a line not marked to be "
                      f"refused: {shape(text)}", last.stage, last.output)
    return last


def marked_lines(text: str) -> list:
    """The numbers of the lines marked `# fuzz:refused K/N`, when all N marks are there."""
    marks = {}
    for number, line in enumerate(text.split("\n"), 1):
        found = REFUSED.search(line)
        if found:
            marks[int(found.group(1))] = (number, int(found.group(2)))
    if not marks:
        return []
    total = next(iter(marks.values()))[1]
    if set(marks) != set(range(1, total + 1)):
        return []
    return sorted(number for number, _ in marks.values())


def shape(line: str) -> str:
    """A rulebook line as a finding names it: without its comment, strings,
    numbers and the arguments in parentheses, so that one kind of line is one finding."""
    line = line.split("#")[0].strip()
    line = re.sub(r'"[^"]*"', '"…"', line)
    while re.search(r"\([^()]*\)", line):
        line = re.sub(r"\(([^()]*)\)",
                      lambda m: "\u2329…\u232a" if m.group(1) else "\u2329\u232a", line)
    line = re.sub(r"\[[^\[\]]*\]", "[…]", line)
    line = line.replace("\u2329", "(").replace("\u232a", ")")
    return re.sub(r"(?<![\w.])-?\d+", "N", line)[:120]


def terminal_escape(stage: Stage, ended: Ended, place: str = "") -> Optional[tuple]:
    """(message, group) when the command printed a raw control character or
    read a case's markup as markup."""
    where = f" ({place})" if place else ""
    for stream, raw in (("stdout", ended.raw_out), ("stderr", ended.raw_err)):
        text = raw.decode("utf-8", "surrogateescape").replace("\r\n", "\n")
        found = RAW_CONTROL.search(text)
        if found:
            name = control_name(found.group(0))
            return (f"{stage.command}: raw {name} on {stream}{where}",
                    f"{stage.command} {stream} {place or name}")
        for before, word, after in MARKUP:
            for m in re.finditer(word, text):
                rest = text[m.end():]
                if text[m.start() - 1:m.start()] == "'" and rest[:1] == "'":
                    continue            # the word alone, quoted: a token an error names
                if not text[:m.start()].endswith(before) or not (
                        rest.startswith(after) or rest[:1] in ("", "\n", "…")):
                    return (f"{stage.command}: markup read as markup on {stream}{where}",
                            f"{stage.command} {stream} {place or 'markup'}")
    return None


def control_name(ch: str) -> str:
    if ch in CONTROL_NAMES:
        return CONTROL_NAMES[ch]
    code = ord(ch)
    if code < 0x20:
        return f"C0 {code:#04x}"
    if 0x80 <= code <= 0x9f:
        return f"C1 {code:#04x}"
    if 0xdc80 <= code <= 0xdc9f:
        return f"byte {code - 0xdc00:#04x}"
    return f"bidi U+{code:04X}"


def lost_save(records: list) -> Optional["Result"]:
    """`corrupt` when the REPL refused to load a save it had just written: the game is lost."""
    for stage, ended, result in records:
        if stage.command != "play" or f"load {SAVE}" not in stage.stdin:
            continue
        text = ended.out + ended.err
        saved = text.find(f"Saved to {SAVE}")
        refused = LOAD_REFUSED.search(text, saved) if saved >= 0 else None
        if refused:
            return Result("corrupt", f"play: the REPL refused its own save: "
                          f"error[{refused.group(1)}]", "play", result.output)
    return None


def nonzero_score(text: str, records: list) -> Optional[int]:
    """A score other than 0 in `simulate`'s JSON report, for a rulebook whose
    score line is marked `# fuzz:zero` (it scores what no rule may write)."""
    if not any(ZERO in line and line.strip().startswith("score") for line in text.split("\n")):
        return None
    for stage, ended, _ in records:
        if stage.command != "simulate" or "--json" not in stage.args:
            continue
        try:
            report = json.loads(ended.out)
        except ValueError:
            continue
        for seat in report.get("seats", []):
            score = seat.get("score") or {}
            for value in (score.get("min"), score.get("max")):
                if value:
                    return value
    return None


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
        return replace(case, text="\n".join(lines))

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
    families: Counter = field(default_factory=Counter)     # (family, class) -> cases


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
         log: Callable[[str], None] = lambda _: None,
         families: Optional[Iterable[str]] = None, fresh: bool = False) -> Report:
    """Runs cases 0, 1, … of `seed` (of `families`, else of all) until
    `minutes` have passed or `cases` have run, shrinks each distinct finding
    and writes it under `out`."""
    families = tuple(families) if families else None
    started = time.monotonic()
    deadline = started + minutes * 60 if minutes is not None else None
    out = claim(Path(out) if out is not None else default_out())
    limits = limits or Limits()
    work = out / "work"
    shutil.rmtree(work, ignore_errors=True)
    shutil.rmtree(out / "findings", ignore_errors=True)
    runner = Runner(work, workers, limits, simulate, fresh)
    try:
        return _fuzz(runner, seed, deadline, started, cases, out, shrink_runs, log, families)
    finally:
        runner.close()


def _fuzz(runner: "Runner", seed: int, deadline: Optional[float], started: float,
          cases: Optional[int], out: Path, shrink_runs: int, log: Callable[[str], None],
          families: Optional[tuple]) -> Report:
    work = runner.work
    sources = shipped()
    walker = GrammarWalker()
    counts: Counter = Counter()
    codes: Counter = Counter()
    by_family: Counter = Counter()
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
            yield make_case(seed, index, sources, walker, families)
            index += 1

    ran = 0
    journal = open(out / "cases.jsonl", "w", encoding="utf-8")
    for case, result in runner.imap(every_case(), more):
        ran += 1
        journal.write(json.dumps({"case": case.index, "family": case.family,
                                  "made": [case.origin, *case.steps], "class": result.cls,
                                  "message": result.message}) + "\n")
        counts[result.cls] += 1
        by_family[case.family, result.cls] += 1
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
            traced = replace(finding.shrunk, flags=["--debug"])
            finding.trace = runner.run([traced])[0].output
            finding.where = innermost_frame(finding.trace)
        finding.folder = keep_finding(out, n, finding)
    shutil.rmtree(work, ignore_errors=True)
    report = Report(counts, codes, list(findings.values()), ran, time.monotonic() - started, out,
                    by_family)
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
    for name, text in case.files.items():
        (folder / case.folder / name).write_bytes(case.data(rulebooks, text))
    target = f"{case.folder}/{CASE}"
    stages = case.all_stages()
    ran = [s.command for s in stages].index(finding.result.stage) + 1 \
        if finding.result.stage in [s.command for s in stages] else len(stages)
    stages = stages[:ran]
    typed = next((s.stdin for s in stages if s.stdin), "")
    if typed:
        (folder / "stdin.txt").write_bytes(typed.encode("utf-8", "surrogateescape"))
    command = " && ".join(stage.shell(target) for stage in stages)
    (folder / "finding.txt").write_text(
        f"class: {finding.result.cls}\nmessage: {finding.result.message}\n"
        f"seen: {finding.count} case(s), first case {finding.case.index}\n"
        f"made from: {finding.case.family}: {finding.case.origin} {' '.join(finding.case.steps)}\n"
        f"where: {finding.where or '?'}\n"
        f"reproduce (in this folder): {command}\n\n{finding.result.output[-4000:]}\n"
        f"\nwith --debug:\n{finding.trace[-6000:]}\n",
        encoding="utf-8", errors="backslashreplace")
    return folder


def summary_lines(report: Report) -> list:
    rate = report.cases / report.seconds * 60 if report.seconds else 0
    lines = [f"{report.cases} cases in {report.seconds:.0f} s ({rate:.0f} a minute): " +
             ", ".join(f"{c} {report.counts[c]}" for c in CLASSES)]
    for family in FAMILIES:
        seen = {c: report.families[family, c] for c in CLASSES if report.families[family, c]}
        if seen:
            lines.append(f"  {family:8} {sum(seen.values()):5}: " +
                         ", ".join(f"{c} {n}" for c, n in seen.items()))
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
        lines.append(f"  {f.result.cls:8} x{f.count:<3} [{f.case.family}] {f.result.message}{flaky}"
                     f"  {where}")
        if f.where:
            lines.append(f"         at {f.where}")
    return lines


def write_summary(report: Report, seed: int) -> None:
    report.out.mkdir(parents=True, exist_ok=True)
    (report.out / "summary.txt").write_text("\n".join(summary_lines(report)) + "\n",
                                            encoding="utf-8")
    data = {"seed": seed, "cases": report.cases, "seconds": report.seconds,
            "counts": dict(report.counts), "codes": dict(report.codes),
            "families": {family: {c: report.families[family, c] for c in CLASSES
                                  if report.families[family, c]} for family in FAMILIES},
            "findings": [{"class": f.result.cls, "family": f.case.family,
                          "message": f.result.message, "count": f.count,
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
    parser.add_argument("--no-simulate", action="store_true",
                        help="validate only (no other command of a case)")
    parser.add_argument("--fresh", action="store_true",
                        help="start every command afresh (python -m interpreter), not forked "
                             "from a process that has imported the package once")
    parser.add_argument("--families", default=None,
                        help="only these families of cases, by comma: " + ",".join(FAMILIES))
    args = parser.parse_args(argv)
    if args.minutes is None and args.cases is None:
        parser.error("give --minutes or --cases")
    families = [f for f in (args.families or "").split(",") if f]
    unknown = [f for f in families if f not in FAMILIES]
    if unknown:
        parser.error(f"unknown families {', '.join(unknown)} (known: {', '.join(FAMILIES)})")
    out = args.out.resolve() if args.out else default_out()
    if out == ROOT or ROOT in out.parents:
        parser.error("--out must be outside the repository")
    try:
        report = fuzz(args.seed, args.minutes, args.cases, max(1, args.workers), out,
                      Limits(args.timeout, args.memory), args.shrink_runs, not args.no_simulate,
                      log=lambda line: print(line, file=sys.stderr, flush=True),
                      families=families, fresh=args.fresh)
    except ValueError as err:
        parser.error(str(err))
    print("\n".join(summary_lines(report)))
    return 1 if report.findings else 0


if __name__ == "__main__":
    sys.exit(main())
