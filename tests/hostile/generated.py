"""The hostile inputs that are made on the spot rather than kept as files:
the large ones (a "billion laughs", 100,000 pieces, a 1 MB list, a 4,301-digit
number, files past their size limits, left sparse) and those only the file
system can hold (a link to a device, a FIFO).

Each is a function of an empty folder that writes the case there and
returns the path of its rulebook; `CASES` lists them by name, with the CPU
seconds its load may take when it is not the second every other case has.
tests/test_hostile_rulebooks.py asserts the error each gives;
tools/hostile_limits.py measures each in a process of its own.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable

from interpreter.language import limits

TAIL = """
phase play
  end game

scoring
  score = 0
"""

CASES: dict[str, tuple[Callable[[Path], Path], float]] = {}


def case(fn=None, *, cpu: float = 1.0):
    """Register a case under its function's name, written with dashes."""
    def register(fn):
        CASES[fn.__name__.replace("_", "-")] = (fn, cpu)
        return fn
    return register(fn) if fn is not None else register


def write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return path


def rulebook(folder: Path, component: str = "", name: str = "t.rules", head: str = "") -> Path:
    """A rulebook for 2 players with `component` on its third line."""
    return write(folder, name, f'{head}game "Hostile"\nplayers 2\n{component}\n' + TAIL)


def reading(folder: Path, data: str) -> Path:
    """A rulebook whose component type reads `cards.yaml`, holding `data`."""
    write(folder, "cards.yaml", data)
    return rulebook(folder, 'component card from "cards.yaml"')


@case
def billion_laughs(folder: Path) -> Path:
    lines = ["l0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]"]
    lines += [f"l{k}: &l{k} [{', '.join([f'*l{k - 1}'] * 10)}]" for k in range(1, 10)]
    return reading(folder, "\n".join(lines) + "\ncomponents:\n  - {name: A, laughs: *l9}\n")


@case
def ten_thousand_expansions(folder: Path) -> Path:
    """10^4 uses of an alias of ten values (4.6 s to load, before they were
    measured each alias once): refused at the list of aliases, 3:20."""
    return reading(folder, "ten: &ten [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]\ncomponents:\n"
                           "  - {id: 1, cells: [" + ", ".join(["*ten"] * 10_000) + "]}\n")


@case
def aliases_within_the_limit(folder: Path) -> Path:
    return reading(folder, "one: &one [1, 2]\ncomponents:\n"
                   + "".join(f"  - {{id: {k}, cells: *one}}\n" for k in range(1_000)))


@case(cpu=3.0)
def thousands_of_broken_records(folder: Path) -> Path:
    """6,000 records, each reported once: found in a set, not by comparing
    each with all the others (3,000 took 2 s, 8,000 took 11 s). In linear
    time, about 0.8 s, each checked against the data schema: its bound is 3 s."""
    return reading(folder, "".join(f"- {{id: {k}, value: 1.5}}\n" for k in range(6_000)))


def _pieces(folder: Path, copies: int) -> Path:
    table = f"component card\n  | value | copies |\n  | 1 | {copies} |\n"
    return rulebook(folder, table + "zone deck: card, hidden\n")


@case
def pieces_at_the_limit(folder: Path) -> Path:
    return _pieces(folder, limits.MAX_PIECES)


@case
def pieces_past_the_limit(folder: Path) -> Path:
    return _pieces(folder, limits.MAX_PIECES + 1)


@case
def an_attribute_read_of_many_pieces(folder: Path) -> Path:
    """The compiler looked the attribute up in a fresh list for each piece."""
    table = "component card\n  | value | copies |\n  | - | 99999 |\n  | 1 | 1 |\n"
    return rulebook(folder, table + "zone deck: card, hidden\n"
                                    "define total = sum(c.value for c in deck)\n")


def values_of_each_piece(folder: Path, variables: int) -> Path:
    """100,000 pieces with `variables` variables of each: ten, with the
    deck, are 1,000,001 values, refused at the tenth (line 13)."""
    table = "component card\n  | value | copies |\n  | 1 | 100000 |\n"
    declared = "".join(f"variable v{k} of each card: number = 0\n" for k in range(variables))
    return rulebook(folder, table + "zone deck: card, hidden\n" + declared)


@case
def two_values_of_each_piece(folder: Path) -> Path:
    return values_of_each_piece(folder, 2)


@case
def ten_values_of_each_piece(folder: Path) -> Path:
    return values_of_each_piece(folder, 10)


@case
def many_small_lists(folder: Path) -> Path:
    """Each list within the limit of items; together past the tokens'."""
    return rulebook(folder, "".join(f"define d{k} = [{', '.join(['7'] * 900)}]\n"
                                    for k in range(40)))


@case
def a_1_mb_list(folder: Path) -> Path:
    return rulebook(folder, f"define many = [{', '.join('7' for _ in range(330_000))}]")


@case
def a_list_at_the_limit(folder: Path) -> Path:
    return rulebook(folder, f"define many = [{', '.join('7' for _ in range(limits.MAX_LIST_ITEMS))}]")


@case
def a_number_of_4301_digits(folder: Path) -> Path:
    return rulebook(folder, "define big = 1 + " + "9" * 4301)


@case
def a_long_string(folder: Path) -> Path:
    return rulebook(folder, f'define s = "{"x" * (limits.MAX_STRING + 1)}"')


@case
def a_long_name(folder: Path) -> Path:
    return rulebook(folder, f"define {'n' * (limits.MAX_NAME + 1)} = 1")


@case
def a_data_file_past_16_mib(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "cards.yaml", "wb") as file:     # sparse: nothing is written
        file.truncate(limits.MAX_DATA_BYTES + 1)
    return rulebook(folder, 'component card from "cards.yaml"')


@case
def a_rulebook_past_1_mib(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "t.rules"
    with open(path, "wb") as file:
        file.truncate(limits.MAX_RULEBOOK_BYTES + 1)
    return path


@case
def a_link_to_a_device(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "zero.yaml").symlink_to("/dev/zero")
    return rulebook(folder, 'component card from "zero.yaml"')


@case
def a_fifo(folder: Path) -> Path:
    """Refused unopened: opening it would wait for a writer."""
    folder.mkdir(parents=True, exist_ok=True)
    os.mkfifo(folder / "cards.yaml")
    return rulebook(folder, 'component card from "cards.yaml"')
