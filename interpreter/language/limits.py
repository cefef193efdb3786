"""The language's limits: how large a rulebook and the files it reads may be.

Generous bounds that no printed board game comes near (the shipped games
stay far below each of them), checked where the text is read, before
anything of that size is built: a hostile or mistaken rulebook then stops
at once with `rulebook/limit` at the offending text, instead of filling the
memory or running for minutes. Every one is listed in docs/language.md
§12.1, and tests/test_hostile_rulebooks.py holds that table to these numbers.
"""

from __future__ import annotations

# How deep the parse tree may nest (a formula's operators, lists, blocks,
# 'else if' chains): ten times the deepest shipped rulebook (a sum of about
# 190 terms), and shallow enough that every later stage, each of which walks
# the tree by recursion, stays well inside Python's stack (`rulebook/too-deep`).
MAX_NESTING = 200

MAX_PLAYERS = 100                 # the largest player count of `players N to M`
MAX_PIECES = 100_000              # pieces in all: every copy, a set of each player once per player
MAX_GRID_CELLS = 100_000          # cells of all the declared grids together
MAX_STATE_VALUES = 1_000_000      # values a state keeps: variables, zones and `has` values of each
MAX_COMPILED = 1_000_000          # entries compiling the checked player counts builds (player_counts.py)
MAX_DIGITS = 30                   # digits of a number written in a rulebook or a data file
# a number a formula makes (+, -, *, a sum, an 'add') lies strictly between
# -MAX_NUMBER and MAX_NUMBER: it has at most MAX_DIGITS digits, as one written
MAX_NUMBER = 10 ** MAX_DIGITS
MAX_STRING = 1_000                # characters between the quotes of a string
MAX_NAME = 100                    # characters of a name written in a rulebook
MAX_TITLE = 100                   # characters of the game's title (`game "…"`)
MAX_LIST_ITEMS = 1_000            # items of one list written in a rulebook ([…], a table's cell)
MAX_RANGE = 100_000               # numbers of one range 'A to B', worked out at load or in play
MAX_TABLE_ROWS = 10_000           # rows of the component tables, each row 'each' cells make counted
MAX_RULEBOOK_BYTES = 1 << 20      # a rulebook file, or a variant's base: 1 MiB
MAX_TOKENS = 20_000               # words, numbers and signs of a rulebook (the largest ships 3,818)
MAX_DATA_BYTES = 16 << 20         # a component data file: 16 MiB
MAX_DATA_VALUES = 100_000         # values of a data file (keys too), each use of an alias counted in full
MAX_DATA_DEPTH = 50               # how deep a data file's lists and mappings nest
MAX_FILE_NAME = 255               # characters of one part of a path (most file systems' own limit)


def count(n: int) -> str:
    """A limit as the messages and the documentation write it: 100,000, or 16 MiB."""
    if n >= 1 << 20 and n % (1 << 20) == 0:
        return f"{n >> 20} MiB"
    return f"{n:,}"
