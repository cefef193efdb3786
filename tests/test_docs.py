"""The examples of docs/language.md are checked against the language, so the
reference cannot drift from it.

A fenced block is checked according to its info string (the words after the
opening backticks; the first word is the language, the others are
attributes, none of which shows when the page is rendered):

=========================  ==================================================
``rules``                  a complete rulebook: it must load — parse, checks,
                           schema and the type checks of every player count,
                           as ``rulebook validate`` does
``rules host``             the complete rulebook the fragments are added to
                           (Pick Seven, §2.2); exactly one. It is also the
                           file ``pick-seven.rules``, the base a variant
                           example may name
``rules-fragment``         part of a rulebook: it is appended to the host and
                           the whole must load; a top-level ``setup`` or
                           ``scoring`` in the fragment replaces the host's
``rules part=NAME``        one part of a longer rulebook: the blocks with the
                           same NAME, joined in order, must load and finish
                           random games for every player count they support;
                           joined, they are also the file ``NAME.rules``
``yaml file=NAME``         a component data file, written next to the
                           examples before any of them is loaded
``rules-excerpt from=PATH``  lines quoted from a shipped rulebook (PATH from
                           the repository's root): they must be found in
                           that file, in order and one after another
``proposal``               syntax that does not exist yet: never checked
anything else              (``sh``, ``python``, ``text``, no language) shown
                           only
=========================  ==================================================

``play=N-M`` (or ``play=N``) on a ``rules`` block: random games with N to M
players must also finish.

Marks, as comments on a line of a checked block:

- ``# error[CODE]``: loading must fail with exactly the marked errors —
  the same codes on the same lines, no more, no fewer;
- ``# runtime[CODE]``: the block loads, and a random game stops with that
  runtime error at that line.

Loading compiles every define, used or not, so a wrong define in an
example fails like any other mistake.

The sketches of Lanterns and Samurai read data files made from
``../shared/data`` (the project's shared material, next to the repository);
where that folder is missing those two sketches are skipped.

The page's reference tables are held to the code as well: the builtin
functions, the aggregates, the keywords of the grammar and the error codes
are listed exactly, and every link inside the page leads to a heading.
"""

from __future__ import annotations

import json
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from interpreter.game.engine import Game
from interpreter.errors import RuleError, RulebookErrors
from interpreter.language.loader import compile_ir
from tests.spec_ids import SHARED

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "language.md"
SHARED_DATA = SHARED / "data"

SHOWN_ONLY = {"", "sh", "python", "text", "json"}
CHECKED = {"rules", "rules-fragment", "yaml", "rules-excerpt"}
REPLACEABLE = ("setup", "scoring")     # sections a fragment may bring instead of the host's
MARK = re.compile(r"#\s*(error|runtime)\[([a-z]+/[a-z-]+)\]")
MAX_DECISIONS = 3000
HOST_FILE = "pick-seven.rules"         # the host is also a file, so that variants can name it


@dataclass
class Block:
    lang: str
    attrs: dict
    body: str
    line: int              # the line of the opening fence in the page

    @property
    def id(self) -> str:
        return f"line{self.line}-{self.lang}"


def blocks(text: str) -> list[Block]:
    found, current = [], None
    for number, line in enumerate(text.splitlines(), 1):
        if current is None and line.startswith("```"):
            words = line[3:].split()
            lang = words[0] if words else ""
            attrs = dict(w.partition("=")[::2] for w in words[1:])
            current = Block(lang, attrs, "", number)
        elif current is not None and line == "```":
            found.append(current)
            current = None
        elif current is not None:
            current.body += line + "\n"
    assert current is None, f"docs/language.md:{current.line}: a code block is never closed"
    return found


BLOCKS = blocks(DOC.read_text(encoding="utf-8"))
HOST = [b for b in BLOCKS if b.lang == "rules" and "host" in b.attrs]
SINGLE = [b for b in BLOCKS if b.lang in ("rules", "rules-fragment") and "part" not in b.attrs]
PARTS: dict[str, list[Block]] = {}
for _b in BLOCKS:
    if _b.lang == "rules" and "part" in _b.attrs:
        PARTS.setdefault(_b.attrs["part"], []).append(_b)


# -- making the data files of the examples -------------------------------------------

def _dump(path: Path, header: str, records: list) -> None:
    # one record per line; JSON is YAML's flow style (and much faster to write)
    lines = [header, "components:"] + ["  - " + json.dumps(r) for r in records]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")


def shared_data_files(folder: Path) -> None:
    """The files the design sketches read, made from shared/data as §15 says."""
    samurai = yaml.safe_load((SHARED_DATA / "samurai.yaml").read_text(encoding="utf-8"))
    hexes = []
    for h in samurai["hexes"]:
        h = dict(h)
        h["label"] = h.pop("name")
        hexes.append(h)
    _dump(folder / "samurai-hexes.yaml", "# the hexes of samurai.yaml, 'name' renamed 'label'", hexes)
    _dump(folder / "samurai-tiles.yaml", "# the tiles of samurai.yaml, 4 copies each",
          [dict(t, copies=4) for t in samurai["tiles"]])
    lanterns = yaml.safe_load((SHARED_DATA / "lanterns.yaml").read_text(encoding="utf-8"))
    _dump(folder / "lanterns-tiles.yaml", "# the lake_tiles of lanterns.yaml", lanterns["lake_tiles"])
    tokens = [{"type": kind, "value": t["value"], "dots": t["dots"]}
              for kind, d in lanterns["dedications"].items() for t in d["tokens"]]
    _dump(folder / "lanterns-tokens.yaml", "# the dedication tokens of lanterns.yaml", tokens)


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """Where the examples are loaded from, with every data file they read."""
    out = tmp_path_factory.mktemp("docs")
    (out / HOST_FILE).write_text(HOST[0].body, encoding="utf-8")     # a variant's base
    for b in BLOCKS:
        if b.lang == "yaml" and "file" in b.attrs:
            (out / b.attrs["file"]).write_text(b.body, encoding="utf-8")
    for name, parts in PARTS.items():      # a sketch is the base of a variant example
        (out / f"{name}.rules").write_text("".join(b.body for b in parts), encoding="utf-8")
    if SHARED_DATA.is_dir():
        shared_data_files(out)
    return out


# -- loading and playing ---------------------------------------------------------------

def load(text: str, name: str, folder: Path) -> Game:
    """As `load_rulebook` does: the checked IR, compiled for every player count."""
    game = Game(compile_ir(text, name, folder), path=str(folder / name))
    game.compile_all()
    return game


def playout(game: Game, players: int, seed: int):
    """A random game to its end; the final state, or None when it was cut off."""
    state, rng = game.new_game(players, seed), random.Random(seed)
    for _ in range(MAX_DECISIONS):
        if game.outcome(state) is not None:
            return state
        player = game.to_move(state)[0]
        state = game.apply(state, rng.choice(game.legal_actions(state, player)))
    return None


def player_counts(game: Game, attr: str | None) -> range:
    if attr is None:
        return range(game.min_players, game.max_players + 1)
    low, _, high = attr.partition("-")
    return range(int(low), int(high or low) + 1)


def drop_section(text: str, header: str) -> str:
    """The rulebook without its top-level section `header` (up to the next
    line that starts at the left margin)."""
    out, skipping = [], False
    for line in text.splitlines(keepends=True):
        if line[:1].strip():
            skipping = re.match(rf"{header}\b", line) is not None
        if not skipping:
            out.append(line)
    return "".join(out)


@dataclass
class Example:
    text: str
    first_line: int                          # where the block starts in `text`
    marks: dict = field(default_factory=dict)   # kind -> {(code, line in text)}


def example(block: Block) -> Example:
    text = ""
    if block.lang == "rules-fragment":
        text = HOST[0].body
        for header in REPLACEABLE:
            if re.search(rf"^{header}\b", block.body, re.M):
                text = drop_section(text, header)
        text += "\n"
    ex = Example(text + block.body, text.count("\n") + 1)
    for k, line in enumerate(block.body.splitlines()):
        for kind, code in MARK.findall(line):
            ex.marks.setdefault(kind, set()).add((code, ex.first_line + k))
    return ex


# -- the tests -------------------------------------------------------------------------

def test_the_page_has_its_examples():
    assert len(HOST) == 1, "exactly one ```rules host block (the sample game of §2.2)"
    assert len(SINGLE) >= 40 and set(PARTS) >= {"samurai"}   # Lanterns, FL and Paris are rulebooks now


def test_every_code_block_says_what_it_is():
    """A misspelt language would silently leave an example unchecked."""
    for b in BLOCKS:
        assert b.lang in SHOWN_ONLY | CHECKED | {"proposal"}, \
            f"docs/language.md:{b.line}: unknown block language '{b.lang}'"
        allowed = {"rules": {"host", "play", "part"}, "yaml": {"file"},
                   "rules-excerpt": {"from"}}.get(b.lang, set())
        assert set(b.attrs) <= allowed, f"docs/language.md:{b.line}: unknown attribute in {b.attrs}"
        if b.lang in SHOWN_ONLY | {"proposal"}:
            assert not MARK.search(b.body), \
                f"docs/language.md:{b.line}: an error mark in a block that is not checked"


@pytest.mark.parametrize("block", SINGLE, ids=[b.id for b in SINGLE])
def test_example(block, folder):
    ex = example(block)
    name = f"example-{block.line}.rules"
    want = ex.marks.get("error", set())
    try:
        game = load(ex.text, name, folder)
    except RulebookErrors as e:
        got = {(err.code, err.span.line) for err in e.errors if err.span and err.span.file == name}
        assert got == want and len(got) == len(e.errors), (
            f"docs/language.md:{block.line}: expected {sorted(want) or 'no error'}\n{e}")
        return
    assert not want, f"docs/language.md:{block.line}: loads, but {sorted(want)} was expected"

    runtime = ex.marks.get("runtime", set())
    if runtime:
        seen = set()
        for players in player_counts(game, block.attrs.get("play")):
            with pytest.raises(RuleError) as info:
                playout(game, players, seed=1)
            seen.add((info.value.code, info.value.span.line))
        assert seen == runtime, f"docs/language.md:{block.line}: stopped with {seen}"
    elif "play" in block.attrs:
        for players in player_counts(game, block.attrs["play"]):
            for seed in range(2):
                assert playout(game, players, seed) is not None, \
                    f"docs/language.md:{block.line}: unfinished with {players} players"


EXCERPTS = [b for b in BLOCKS if b.lang == "rules-excerpt"]


@pytest.mark.parametrize("block", EXCERPTS, ids=[b.id for b in EXCERPTS])
def test_excerpt(block):
    """Lines quoted from a shipped rulebook are still its lines."""
    assert "from" in block.attrs, f"docs/language.md:{block.line}: an excerpt says from=PATH"
    lines = (ROOT / block.attrs["from"]).read_text(encoding="utf-8").splitlines()
    quoted = block.body.splitlines()
    found = any(lines[i:i + len(quoted)] == quoted for i in range(len(lines)))
    assert quoted and found, \
        f"docs/language.md:{block.line}: these lines are no longer in {block.attrs['from']}"


@pytest.mark.parametrize("name", sorted(PARTS))
def test_sketch(name, folder):
    """A design sketch of §15 loads and finishes random games for every player
    count it supports."""
    text = "".join(b.body for b in PARTS[name])
    for data in re.findall(r'from "([^"]+)"', text):
        if not (folder / data).exists():
            pytest.skip(f"{data} is made from {SHARED_DATA}, which is missing")
    game = load(text, f"{name}.rules", folder)
    for players in player_counts(game, None):
        assert playout(game, players, seed=1) is not None, f"{name}: unfinished with {players} players"


# -- the tables of the page against the code ----------------------------------------------

def _section(title: str) -> str:
    """The text of the subsection whose heading ends with `title`."""
    text = DOC.read_text(encoding="utf-8")
    start = re.search(rf"^### [0-9.]+ {re.escape(title)}$", text, re.M).end()
    end = re.compile(r"^##", re.M).search(text, start)
    return text[start:end.start() if end else len(text)]


def _first_cells(section: str) -> set:
    """The names called in the first column of a section's tables: `name(`."""
    return set(re.findall(r"^\| `([a-z_]+)\(", section, re.M))


def _same(listed: set, known: set, where: str) -> None:
    assert listed == known, (f"docs/language.md, {where}: not listed {sorted(known - listed)}, "
                             f"listed but unknown {sorted(listed - known)}")


def test_the_builtin_functions_table_lists_every_builtin():
    from interpreter.stdlib.builtins import FUNCTIONS
    _same(_first_cells(_section("Builtin functions")), set(FUNCTIONS), "§7 Builtin functions")


def test_the_aggregates_table_lists_every_aggregate():
    from interpreter.stdlib.builtins import AGGREGATES
    _same(_first_cells(_section("Aggregates")), set(AGGREGATES), "§7 Aggregates")


def test_the_keywords_are_the_words_of_the_grammar():
    grammar = (ROOT / "grammar" / "rulebook.lark").read_text(encoding="utf-8")
    words = set(re.findall(r'"([a-z_]+)"', grammar)) | {"may"}     # TAKE_VERB "may take"
    listed = re.search(r"\*\*Keywords\.\*\*.*?```text\n(.*?)```", DOC.read_text(encoding="utf-8"),
                       re.S)
    _same(set(listed.group(1).split()), words, "§3 Keywords")


def test_the_error_code_tables_list_every_code():
    source = "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "interpreter").rglob("*.py")))
    codes = set(re.findall(r'code\s*=\s*"([a-z]+/[a-z-]+)"', source)) - {"rulebook/error", "rulebook/errors"}
    section = DOC.read_text(encoding="utf-8").split("## 13. Error codes", 1)[1].split("\n## ", 1)[0]
    _same(set(re.findall(r"^\| `([a-z]+/[a-z-]+)`", section, re.M)), codes, "§13 Error codes")


def _slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def test_every_link_inside_the_page_leads_to_a_heading():
    text = DOC.read_text(encoding="utf-8")
    anchors = {_slug(h) for h in re.findall(r"^#+ (.*)$", text, re.M)}
    for target in re.findall(r"\]\(#([^)]+)\)", text):
        assert target in anchors, f"no heading for the link #{target}"
