"""Parse rulebook text into the AST: plain nodes with source spans.

The grammar lives in ``grammar/rulebook.lark`` and is the reference for the
syntax. Each AST node is a dict with a ``node`` kind (the grammar rule's
name) and an ``at`` span ``[line, column, end_line, end_column]``; the rest
of the pipeline (checks, IR, compiler) reads these nodes, and the IR is the
same shape with names resolved, so `rulebook show --ir` shows what the
author wrote. Lark's errors become `SyntaxErrorInRulebook` (see
`syntax_errors`), with the position, what was expected and a hint.
"""

from __future__ import annotations

import contextlib
import functools
import sys
import threading
from pathlib import Path

from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedInput
from lark.indenter import Indenter

from ..errors import LimitExceeded, NestingTooDeep, Span, SyntaxErrorInRulebook
from .limits import (MAX_DIGITS, MAX_LIST_ITEMS, MAX_NAME, MAX_NESTING, MAX_RULEBOOK_BYTES,
                     MAX_STRING, MAX_TOKENS, count)
from .syntax_errors import IndentationProblem, syntax_error

GRAMMAR_DIR = Path(__file__).resolve().parents[2] / "grammar"
# Python frames the deepest stage (the IR's schema check) spends on one level
# of the tree, with room to spare; see `room_to_nest`.
FRAMES_A_LEVEL = 20


class _TooLarge(Exception):
    """Raised by the indenter at a token past one of the limits; `parse`
    makes it a LimitExceeded at the token."""

    def __init__(self, message: str, token: Token, hint: str):
        super().__init__(message)
        self.message, self.token, self.hint = message, token, hint


class _RulebookIndenter(Indenter):
    """Lark's indenter, made to report *where* indentation goes wrong.

    Besides the position of a dedent that matches no open block, it rejects
    indentation whose meaning depends on the width of a tab (Python's
    TabError rule: compare with tabs as 8 and as 1 column; the two must
    agree), and it leaves an unmatched ')' or ']' to the parser instead of
    failing an assertion. It also sees every token first, so it refuses a
    number of more than MAX_DIGITS digits (before `int` reads it), a string
    longer than MAX_STRING, a name longer than MAX_NAME and a list of more
    than MAX_LIST_ITEMS items (while the parser has read no more of it than
    that).
    """

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def process(self, stream):
        self.narrow_level = [0]
        return super().process(stream)

    def handle_NL(self, token: Token):
        if self.paren_level > 0:
            return
        indent_str = token.rsplit("\n", 1)[1]
        line, column = token.end_line, len(indent_str) + 1
        wide = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
        narrow = len(indent_str)
        if any(_sign(wide - w) != _sign(narrow - n)
               for w, n in zip(self.indent_level, self.narrow_level)):
            raise IndentationProblem(
                "indentation mixes tabs and spaces", line, 1,
                "indent with spaces only (or with tabs only)")
        if wide < self.indent_level[-1] and wide not in self.indent_level:
            raise IndentationProblem(
                "this line's indentation matches no enclosing block", line, column,
                "line it up with an enclosing block: indent by "
                + " or ".join(str(n) for n in self.indent_level if n < self.indent_level[-1])
                + " columns")
        yield token
        if wide > self.indent_level[-1]:
            self.indent_level.append(wide)
            self.narrow_level.append(narrow)
            yield Token.new_borrow_pos(self.INDENT_type, indent_str, token)
            return
        while wide < self.indent_level[-1]:
            self.indent_level.pop()
            self.narrow_level.pop()
            yield Token.new_borrow_pos(self.DEDENT_type, indent_str, token)

    def _process(self, stream):
        token = None
        brackets = []      # for each open '(' or '[': [its token, the commas in it so far]
        for seen, token in enumerate(stream):
            if seen == MAX_TOKENS:      # parsing costs about 12 µs a token: a second at most
                raise _TooLarge(f"a rulebook of more than {count(MAX_TOKENS)} words, numbers "
                                f"and signs", token,
                                f"a rulebook has at most {count(MAX_TOKENS)}; keep bulky data "
                                f"in a data file ('component NAME from \"FILE.yaml\"')")
            kind = token.type
            if kind == self.NL_type:
                yield from self.handle_NL(token)
                continue
            if kind in _CHECKED:
                _CHECKED[kind](token)
            elif kind == "COMMA" and brackets:
                brackets[-1][1] += 1
                opener, commas = brackets[-1]
                if opener.type == "LSQB" and commas >= MAX_LIST_ITEMS:
                    raise _TooLarge(f"a list of more than {count(MAX_LIST_ITEMS)} items", opener,
                                    f"a list written in a rulebook has at most "
                                    f"{count(MAX_LIST_ITEMS)} items: keep bulky data in a data "
                                    f"file ('component NAME from \"FILE.yaml\"')")
            yield token
            if kind in self.OPEN_PAREN_types:
                self.paren_level += 1
                brackets.append([token, 0])
            elif kind in self.CLOSE_PAREN_types and self.paren_level > 0:
                self.paren_level -= 1
                if brackets:
                    brackets.pop()
        while len(self.indent_level) > 1:
            self.indent_level.pop()
            yield (Token.new_borrow_pos(self.DEDENT_type, "", token) if token
                   else Token(self.DEDENT_type, "", 0, 0, 0, 0, 0, 0))


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _number(token: Token) -> None:
    """The checks of `_CHECKED`: each refuses a token past its limit."""
    digits = len(token) - token.startswith("-")
    if digits > MAX_DIGITS:
        raise _TooLarge(f"a number of {digits:,} digits: at most {MAX_DIGITS}", token,
                        f"a number has at most {MAX_DIGITS} digits")


def _string(token: Token) -> None:
    if len(token) - 2 > MAX_STRING:
        raise _TooLarge(f"a string of {len(token) - 2:,} characters: at most {count(MAX_STRING)}",
                        token, f"a string has at most {count(MAX_STRING)} characters")


def _long_name(token: Token) -> None:
    if len(token) > MAX_NAME:
        raise _TooLarge(f"a name of {len(token):,} characters: at most {MAX_NAME}", token,
                        f"a name has at most {MAX_NAME} characters")


_CHECKED = {"INT": _number, "SIGNED_INT": _number, "STRING": _string, "NAME": _long_name}


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR parser. ``strict`` makes Lark prove that no two terminals can
    collide, which takes most of a second; ``cache`` keeps the built tables
    in the temp folder (keyed by grammar and options), so only the first
    run after a grammar change pays for it."""
    text = (GRAMMAR_DIR / "rulebook.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", postlex=_RulebookIndenter(), strict=True,
                propagate_positions=_takes_room, maybe_placeholders=True, cache=True)


_LAYOUT_TOKENS = frozenset({"_NL", "_INDENT", "_DEDENT"})


class _TakesRoom:
    """Spans end at the last token of a node, not at the newline (and the
    comment and indentation) after it. A class with a fixed text, not a
    function: Lark keys its cache of the parser tables by the text of every
    option, and a function's text holds its address, new in every process."""

    def __call__(self, child) -> bool:
        return not (isinstance(child, Token) and child.type in _LAYOUT_TOKENS)

    def __repr__(self) -> str:
        return "spans without layout tokens"


_takes_room = _TakesRoom()


def _at(meta) -> list:
    if getattr(meta, "empty", True):
        return [0, 0, 0, 0]
    return [meta.line, meta.column, meta.end_line, meta.end_column]


def _tok_at(tok: Token) -> list:
    return [tok.line, tok.column, tok.end_line, tok.end_column]


def _node(kind, meta, **fields):
    fields["node"] = kind
    fields["at"] = _at(meta) if not isinstance(meta, list) else meta
    return fields


def _tie_key(kind, meta, c):
    """most/fewest FORMULA [as "LABEL"]: the label names the step at the end."""
    expr, label = c
    node = _node(kind, meta, expr=expr)
    if label is not None:
        node["label"], node["label_at"] = str(label)[1:-1], _tok_at(label)
    return node


def _label(tok) -> dict:
    """`chooses NAME as "LABEL"` (and a parameter's `NAME: CHOICE as
    "LABEL"`): the label, only where one is written (the
    IR of a rulebook without labels stays as it was)."""
    return {} if tok is None else {"label": str(tok)[1:-1], "label_at": _tok_at(tok)}


def _name(tok):
    return str(tok) if tok is not None else None


@v_args(meta=True)
class _ToAst(Transformer):
    """Tree → AST nodes. One method per grammar rule, named like the rule."""

    # -- top level -----------------------------------------------------------
    def start(self, meta, items):
        return _node("rulebook", meta, items=items)

    def variant_decl(self, meta, c):
        return _node("variant", meta, base=c[0][1:-1], base_at=_tok_at(c[0]))

    def game_decl(self, meta, c):
        return _node("game", meta, title=c[0][1:-1], title_at=_tok_at(c[0]))

    def player_rules_decl(self, meta, c):
        return _node("player_rules", meta, file=c[0][1:-1], file_at=_tok_at(c[0]))

    def called_decl(self, meta, c):
        return _node("called", meta, counter=str(c[0]), word=c[1][1:-1], word_at=_tok_at(c[1]))

    def players_decl(self, meta, c):
        low = int(c[0])
        high = int(c[1]) if c[1] is not None else low
        return _node("players", meta, min=low, max=high, min_at=_tok_at(c[0]),
                     max_at=_tok_at(c[1] if c[1] is not None else c[0]))

    def option_decl(self, meta, c):
        choices = c[2]["items"] if c[2] is not None else None
        return _node("option", meta, name=str(c[0]), default=c[1], choices=choices,
                     name_at=_tok_at(c[0]))

    def option_range(self, meta, c):
        # 'one of 1 to 6': the list of its numbers, each at the range; one of
        # more than a list may hold is one item the checks refuse
        low, high = int(c[0]), int(c[1])
        at = _at(meta)
        count = max(0, high - low + 1)
        if count > MAX_LIST_ITEMS:
            return {"node": "list", "at": at, "items": [{"node": "too_many", "count": count,
                                                         "at": at}]}
        return {"node": "list", "at": at,
                "items": [{"node": "number", "value": v, "at": at} for v in range(low, high + 1)]}

    def option_pick(self, meta, c):
        name, count, of, items = c[0], c[1], c[2], [x for x in c[3:] if x is not None]
        where = (_tok_at(items[0])[:2] + _tok_at(items[-1])[2:]) if items else _at(meta)
        default = {"node": "list", "at": where,
                   "items": [{"node": "symbol", "value": str(t), "at": _tok_at(t)} for t in items]}
        return _node("option", meta, name=str(name), default=default, choices=None,
                     name_at=_tok_at(name),
                     pick={"count": int(count), "of": str(of), "at": _tok_at(of)})

    def component_decl(self, meta, c):
        name, owner, source, parts = c[0], c[1], c[2], c[3:]
        rows = [p for p in parts if p["node"] == "row"]
        has = [p for p in parts if p["node"] == "has"]
        links = [p for p in parts if p["node"] == "links"]
        shapes = [p for p in parts if p["node"] == "shape"]
        drawn = [p for p in parts if p["node"] == "drawn"]
        # what players read on a piece: only a type that says so has it
        shown = {"shows": [p for p in parts if p["node"] == "shows"]} \
            if any(p["node"] == "shows" for p in parts) else {}
        # columns worked out from the others: made into cells by the checks
        # (language/cells.py), so only a table that has them says so
        computed = {"computed": [p for p in parts if p["node"] == "computed"]} \
            if any(p["node"] == "computed" for p in parts) else {}
        return _node("component", meta, name=str(name), name_at=_tok_at(name),
                     per_player=owner is not None, source=source, rows=rows, has=has, links=links,
                     shapes=shapes, drawn=drawn, **computed, **shown,
                     **({"of_each": str(owner), "of_each_at": _tok_at(owner)} if owner else {}))

    def component_owner(self, meta, c):
        return c[0]

    def component_source(self, meta, c):
        picked = c[-1] if c and isinstance(c[-1], list) else None
        if picked is not None or (c and c[-1] is None and len(c) > 2):
            c = c[:-1]
        extra = {"columns": picked} if picked else {}
        if c[1] is None:
            return _node("source", meta, file=c[0][1:-1], **extra)
        paths = c[1:]
        return _node("source", meta, file=c[0][1:-1], path=paths[0]["keys"],
                     path_at=paths[0]["at"], more_paths=[p["keys"] for p in paths[1:]],
                     more_paths_at=[p["at"] for p in paths[1:]], **extra)

    def data_columns(self, meta, c):
        # folded into its 'source' node: [{key, name, at}] in the order written
        return list(c)

    def data_column(self, meta, c):
        key, name = c
        return {"key": str(key), "name": str(name if name is not None else key),
                "at": _tok_at(key)}

    def data_path(self, meta, keys):
        # folded into its 'source' node: no node of its own in the IR
        return {"keys": [str(k) for k in keys], "at": _at(meta)}

    def computed_column(self, meta, c):
        return _node("computed", meta, name=str(c[0]), name_at=_tok_at(c[0]), formula=c[1])

    def has_decl(self, meta, c):
        kept = {"bookkeeping": True} if c[3] else {}     # (only where written)
        return _node("has", meta, name=str(c[0]), type=str(c[1]),
                     type_at=_tok_at(c[1]), default=c[2], **kept)

    def links_decl(self, meta, c):
        attr, by, both = c
        return _node("links", meta, attr=str(attr), attr_at=_tok_at(attr), by=str(by),
                     by_at=_tok_at(by), both_ways=both is not None)

    def shape_decl(self, meta, c):
        return _node("shape", meta, attr=str(c[0]), attr_at=_tok_at(c[0]))

    def drawn_decl(self, meta, c):
        look, rest = c[0], [x for x in c[1:] if x is not None]
        shade = rest.pop() if rest and isinstance(rest[-1], dict) else None
        return _node("drawn", meta, look=str(look), look_at=_tok_at(look),
                     names=[str(n) for n in rest], names_at=[_tok_at(n) for n in rest],
                     shade=shade["name"] if shade else None, shade_at=shade["at"] if shade else None)

    def shows_decl(self, meta, names):
        return _node("shows", meta, names=[str(n) for n in names],
                     names_at=[_tok_at(n) for n in names])

    def drawn_shade(self, meta, c):
        # folded into its 'drawn' node
        return {"name": str(c[0]), "at": _tok_at(c[0])}

    def both_ways(self, meta, c):
        return True

    def table_row(self, meta, cells):
        return _node("row", meta, cells=cells)

    def each_cell(self, meta, c):
        # one row for each of these values (see language/tables.py)
        return _node("each", meta, items=[x for x in c if x is not None])

    def each_word(self, meta, c):
        return _node("symbol", meta, value="each")

    def each_range_cell(self, meta, c):
        # one row for each number from low to high: kept as its ends, so a
        # range past the limits is refused before any row is made
        return _node("each", meta, low=int(c[0]), high=int(c[1]))

    def zone_decl(self, meta, c):
        name, index, kind, flags, by, layout = c[0], c[1], c[2], c[3:-2], c[-2], c[-1] or {}
        grid = {"grid": None, "grid_at": None, "sides": None, "sides_at": None}
        hexes = {"hex_x": None, "hex_x_at": None, "hex_y": None, "hex_y_at": None,
                 "shade": None, "shade_at": None}
        # a label only where one is written: the IR of every other zone stays as it was
        label = {k: layout.pop(k) for k in ("label", "label_at")} if "label" in layout else {}
        (grid if "grid" in layout else hexes).update(layout)
        index, second = index if isinstance(index, tuple) else (index, None)
        # a second index only where one is written: the IR (and so the
        # fingerprint of a save) of every other zone stays as it was
        pair = {"index2": _name(second), "index2_at": _tok_at(second)} if second else {}
        return _node("zone", meta, name=str(name), name_at=_tok_at(name),
                     index=_name(index), index_at=_tok_at(index) if index else None, **pair,
                     of=str(kind), of_at=_tok_at(kind),
                     flags=[str(f) for f in flags],
                     flags_at=[_tok_at(f) for f in flags],
                     by=_name(by), by_at=_tok_at(by) if by else None, **grid, **hexes, **label)

    def zone_index(self, meta, c):
        return c[0]

    def zone_pair(self, meta, c):
        # 'of each A and B': folded into its 'zone' node as index and index2
        return c[0], c[1]

    def zone_grid(self, meta, c):
        # folded into its 'zone' node: no node of its own in the IR
        cell, sides, label = c
        return {"grid": str(cell), "grid_at": _tok_at(cell),
                "sides": _name(sides), "sides_at": _tok_at(sides) if sides else None, **(label or {})}

    def zone_hexes(self, meta, c):
        # folded into its 'zone' node, like zone_grid
        x, y, shade, label = c
        return {"hex_x": str(x), "hex_x_at": _tok_at(x), "hex_y": str(y), "hex_y_at": _tok_at(y),
                "shade": _name(shade), "shade_at": _tok_at(shade) if shade else None, **(label or {})}

    def zone_label(self, meta, c):
        # folded into its 'zone' node, like zone_grid
        return {"label": str(c[0]), "label_at": _tok_at(c[0])}

    def grid_decl(self, meta, c):
        name, index, width, height, shade, mark = c
        node = _node("grid", meta, name=str(name), name_at=_tok_at(name),
                     width=int(width), height=int(height), size_at=_tok_at(width),
                     height_at=_tok_at(height),
                     shade=_name(shade), shade_at=_tok_at(shade) if shade else None,
                     mark=_name(mark), mark_at=_tok_at(mark) if mark else None)
        if index is not None:       # 'of each player' (only where written: other IRs stay)
            node.update(index=str(index), index_at=_tok_at(index))
        return node

    def grid_shade(self, meta, c):
        return c[0]

    grid_mark = grid_shade

    def variable_decl(self, meta, c):
        name, index, type_, default, kept = c
        index, second = index if isinstance(index, tuple) else (index, None)
        pair = {"index2": _name(second), "index2_at": _tok_at(second)} if second else {}
        if kept is not None:      # (only where written: every other IR stays as it was)
            pair["bookkeeping"] = True
        return _node("variable", meta, name=str(name), name_at=_tok_at(name),
                     index=_name(index), index_at=_tok_at(index) if index else None, **pair,
                     type=str(type_), type_at=_tok_at(type_),
                     default=default)

    def bookkeeping(self, meta, c):
        return True

    def permission_decl(self, meta, c):
        # a permission is a yes/no variable that only 'grant' and 'spend' change
        name, index = c
        return _node("variable", meta, name=str(name), name_at=_tok_at(name),
                     index=_name(index), index_at=_tok_at(index) if index else None,
                     type="bool", type_at=_tok_at(name),
                     default={"node": "bool", "value": False, "at": _tok_at(name)},
                     permission=True)

    def define_decl(self, meta, c):
        name, body = c[0], c[-1]
        params = [str(p) for p in c[1:-1] if p is not None]
        has_parens = len(c) > 2
        return _node("define", meta, name=str(name), name_at=_tok_at(name),
                     params=params if has_parens else None, body=body)

    def table_decl(self, meta, rows):
        return _node("table", meta, rows=rows)

    def layout_decl(self, meta, rows):
        return _node("layout", meta, rows=rows)

    def setup_decl(self, meta, c):
        return _node("setup", meta, body=c[0])

    def phase_decl(self, meta, c):
        return _node("phase", meta, name=str(c[0]), name_at=_tok_at(c[0]), body=c[1])

    def action_decl(self, meta, c):
        name = c[0]
        params = [x for x in c[1:] if isinstance(x, dict) and x["node"] == "param"]
        options = [x for x in c[1:] if isinstance(x, dict) and x["node"] in
                   ("once_per", "times_per", "private")]
        body = c[-1] if isinstance(c[-1], dict) and c[-1]["node"] == "block" else None
        return _node("action", meta, name=str(name), name_at=_tok_at(name),
                     params=params, options=options, body=body)

    def procedure_decl(self, meta, c):
        name, body = c[0], c[-1]
        params = [p for p in c[1:-1] if p is not None]
        return _node("procedure", meta, name=str(name), name_at=_tok_at(name),
                     params=params, body=body)

    def procedure_param(self, meta, c):
        name, listed, kind = c
        return {"name": str(name), "name_at": _tok_at(name), "type": str(kind),
                "type_at": _tok_at(kind), **({"list": True} if listed else {})}

    def param(self, meta, c):
        return _node("param", meta, name=str(c[0]), choice=c[1], **_label(c[2]))

    def once_per(self, meta, c):
        return _node("once_per", meta, times=1, scope=str(c[0]), scope_at=_tok_at(c[0]))

    def times_per(self, meta, c):
        return _node("times_per", meta, times=int(c[0]), scope=str(c[1]),
                     scope_at=_tok_at(c[1]))

    def private(self, meta, c):
        return _node("private", meta)

    def choose_one(self, meta, c):
        source, where = c
        # 'one of X [where C] or none': the formula's last 'or none' (which
        # as yes/no would mean nothing) makes the choice optional
        last = where if where is not None else source
        if last["node"] == "or" and last["right"]["node"] == "none":
            if where is not None:
                where = last["left"]
            else:
                source = last["left"]
            return _node("choose_one", meta, source=source, where=where, optional=True)
        return _node("choose_one", meta, source=source, where=where)

    def choose_many(self, meta, c):
        return _node("choose_many", meta, count=c[0], source=c[1])

    def choose_groups(self, meta, c):
        return _node("choose_groups", meta, groups=c[0], size=c[1], source=c[2])

    def choose_kinds(self, meta, c):
        return _node("choose_kinds", meta, kinds=c[0], size=c[1], source=c[2])

    def scoring_decl(self, meta, parts):
        return _node("scoring", meta, parts=parts)

    def score_rule(self, meta, c):
        flag = c[1] if len(c) > 1 else None
        return _node("score", meta, expr=c[0], flag=None if flag is None else str(flag),
                     flag_at=None if flag is None else _tok_at(flag))

    def part_rule(self, meta, c):
        return _node("part", meta, label=str(c[0])[1:-1], label_at=_tok_at(c[0]), expr=c[1])

    def tie_break_rule(self, meta, keys):
        return _node("tie_break", meta, keys=keys)

    def most(self, meta, c):
        return _tie_key("most", meta, c)

    def fewest(self, meta, c):
        return _tie_key("fewest", meta, c)

    def winners_rule(self, meta, c):
        return _node("winners", meta, expr=c[0])

    def estimate_rule(self, meta, c):
        return _node("estimate", meta, expr=c[0])

    def score_order_rule(self, meta, c):
        return _node("score_order", meta, lowest=str(c[0]) == "lowest")

    # -- statements ----------------------------------------------------------
    def block(self, meta, stmts):
        return _node("block", meta, stmts=stmts)

    def move_stmt(self, meta, c):
        return _node("move", meta, what=c[-2], to=c[-1])

    def move_some_stmt(self, meta, c):
        count, what, to = c
        return _node("move", meta, what=what, to=to, count=count)

    def pieces_where(self, meta, c):
        # 'c in ZONE where …' of a move: the pieces of the zone that pass, in its order
        return self.filter(meta, c)

    def deal_stmt(self, meta, c):
        return _node("deal", meta, count=c[0], source=c[1], to=c[2])

    def shuffle_stmt(self, meta, c):
        return _node("shuffle", meta, zone=c[0])

    def reveal_stmt(self, meta, c):
        return _node("reveal", meta, what=c[0], to=c[1])

    def set_stmt(self, meta, c):
        return _node("set", meta, target=c[0], value=c[1])

    def add_stmt(self, meta, c):
        return _node("add", meta, value=c[0], target=c[1])

    def let_stmt(self, meta, c):
        return _node("let", meta, name=str(c[0]), value=c[1])

    def if_stmt(self, meta, c):
        return _node("if", meta, cond=c[0], then=c[1], otherwise=c[2])

    def else_branch(self, meta, c):
        node = c[0]
        if node["node"] == "if":
            return _node("block", node["at"], stmts=[node])
        return node

    def for_each_stmt(self, meta, c):
        return _node("for_each", meta, var=str(c[0]), var_at=_tok_at(c[0]),
                     source=c[1], body=c[2])

    def repeat_times_stmt(self, meta, c):
        return _node("repeat_times", meta, count=c[0], body=c[1])

    def repeat_until_stmt(self, meta, c):
        return _node("repeat_until", meta, cond=c[0], body=c[1])

    def turn_stmt(self, meta, c):
        return _node("turn", meta, player=c[0], body=c[1])

    def take_action_stmt(self, meta, c):
        player, verb, if_able = c[0], c[1], c[2]
        names = [n for n in c[3:] if n is not None]
        return _node("take_action", meta, player=player, optional=str(verb) != "takes",
                     if_able=if_able is not None,
                     among=[str(n) for n in names] or None,
                     among_at=[_tok_at(n) for n in names])

    def if_able(self, meta, c):
        return True

    def choose_stmt(self, meta, c):
        player, var, label, choice = c
        return _node("choose", meta, player=player, var=str(var), var_at=_tok_at(var),
                     choice=choice, **_label(label))

    def each_chooses_stmt(self, meta, c):
        player_var, players, var, label, choice = c
        return _node("each_chooses", meta, player_var=str(player_var),
                     player_var_at=_tok_at(player_var), players=players, var=str(var),
                     var_at=_tok_at(var), choice=choice, **_label(label))

    def choice_label(self, meta, c):
        return c[0]

    def rotate_stmt(self, meta, c):
        return _node("rotate", meta, zone=str(c[0]), zone_at=_tok_at(c[0]), by=c[1])

    def announce_stmt(self, meta, c):
        text, to = c
        return _node("announce", meta, text=str(text)[1:-1], text_at=_tok_at(text), to=to)

    def grant_stmt(self, meta, c):
        return _node("grant", meta, name=str(c[0]), name_at=_tok_at(c[0]), player=c[1])

    def spend_stmt(self, meta, c):
        return _node("spend", meta, name=str(c[0]), name_at=_tok_at(c[0]), player=c[1])

    def requires_stmt(self, meta, c):
        return _node("requires", meta, cond=c[0])

    def new_round_stmt(self, meta, c):
        return _node("new_round", meta)

    def end_game_stmt(self, meta, c):
        return _node("end_game", meta)

    def do_stmt(self, meta, c):
        name, args = c[0], [a for a in c[1:] if a is not None]
        return _node("do", meta, name=str(name), name_at=_tok_at(name), args=args)

    def go_to_stmt(self, meta, c):
        return _node("go_to", meta, phase=str(c[0]), phase_at=_tok_at(c[0]))

    # -- expressions ---------------------------------------------------------
    def _binary(self, kind, meta, c):
        return _node(kind, meta, left=c[0], right=c[-1])

    def otherwise(self, meta, c):
        return self._binary("otherwise", meta, c)

    def conditional(self, meta, c):
        return _node("conditional", meta, then=c[0], cond=c[1], otherwise=c[2])

    def range(self, meta, c):
        # 'A to B': the whole numbers from A up to B, both included
        return _node("range", meta, low=c[0], high=c[1])

    def or_(self, meta, c):
        return self._binary("or", meta, c)

    def and_(self, meta, c):
        return self._binary("and", meta, c)

    def not_(self, meta, c):
        return _node("not", meta, operand=c[0])

    def compare(self, meta, c):
        return _node("compare", meta, op=str(c[1]), left=c[0], right=c[2])

    def arith(self, meta, c):
        return _node("arith", meta, op=str(c[1]), left=c[0], right=c[2])

    def negate(self, meta, c):
        return _node("negate", meta, operand=c[0])

    def attribute(self, meta, c):
        return _node("attribute", meta, target=c[0], attr=str(c[1]), attr_at=_tok_at(c[1]))

    def index(self, meta, c):
        return _node("index", meta, target=c[0], index=c[1])

    def slice(self, meta, c):
        return _node("slice", meta, target=c[0], low=c[1], high=c[2])

    def number(self, meta, c):
        return _node("number", meta, value=int(c[0]))

    def string(self, meta, c):
        return _node("string", meta, value=str(c[0])[1:-1])

    def symbol(self, meta, c):
        return _node("symbol", meta, value=str(c[0]))

    def empty(self, meta, c):
        return _node("none", meta)

    def cell_list(self, meta, c):
        return _node("list", meta, items=[x for x in c if x is not None])

    def none(self, meta, c):
        return _node("none", meta)

    def true(self, meta, c):
        return _node("bool", meta, value=True)

    def false(self, meta, c):
        return _node("bool", meta, value=False)

    def name(self, meta, c):
        return _node("name", meta, name=str(c[0]))

    def call(self, meta, c):
        args = [a for a in c[1:] if a is not None]
        return _node("call", meta, fn=str(c[0]), fn_at=_tok_at(c[0]), args=args)

    def aggregate_of(self, meta, c):
        fn, value, var, source, where = c
        return _node("aggregate", meta, fn=str(fn), fn_at=_tok_at(fn), var=str(var),
                     source=source, where=where, value=value, by=None)

    def aggregate(self, meta, c):
        fn, var, source, where, by = c
        return _node("aggregate", meta, fn=str(fn), fn_at=_tok_at(fn), var=str(var),
                     source=source, where=where, value=None, by=by)

    def filter(self, meta, c):
        var, source, where = c
        return _node("aggregate", meta, fn="filter", fn_at=_at(meta), var=str(var),
                     source=source, where=where, value=None, by=None)

    def list_literal(self, meta, c):
        return _node("list", meta, items=[x for x in c if x is not None])


def parse(text: str, filename: str = "<rulebook>") -> dict:
    """Parse rulebook text to its AST; raises SyntaxErrorInRulebook,
    NestingTooDeep, or LimitExceeded for a text past the limits."""
    if len(text) > MAX_RULEBOOK_BYTES:
        raise LimitExceeded(f"a rulebook of {len(text):,} characters: at most "
                            f"{MAX_RULEBOOK_BYTES:,}", Span(filename, 1, 1),
                            hint="keep bulky data in data files ('component NAME from \"FILE.yaml\"')")
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = parser().parse(text)
    except UnexpectedInput as e:
        raise syntax_error(e, text, filename, parser()) from None
    except IndentationProblem as e:
        raise SyntaxErrorInRulebook(e.message, Span(filename, e.line, e.column, e.line, e.column + 1),
                                    hint=e.hint) from None
    except _TooLarge as e:
        raise LimitExceeded(e.message, Span(filename, *_tok_at(e.token)), hint=e.hint) from None
    _check_nesting(tree, filename)
    with room_to_nest():
        return _ToAst().transform(tree)


_ROOM = threading.Lock()
_rooms = [0, 0]         # loads under way, the limit before the first of them


@contextlib.contextmanager
def room_to_nest():
    """Python's stack deep enough for the stages that walk a tree by
    recursion (the AST, checks, schema, compiler), on a tree of at most
    MAX_NESTING levels, wherever they are called from. The limit is raised
    while any load is under way, in any thread, and comes back after the
    last one."""
    with _ROOM:
        if _rooms[0] == 0:
            _rooms[1] = sys.getrecursionlimit()
            sys.setrecursionlimit(_rooms[1] + MAX_NESTING * FRAMES_A_LEVEL)
        _rooms[0] += 1
    try:
        yield
    finally:
        with _ROOM:
            _rooms[0] -= 1
            if _rooms[0] == 0:
                sys.setrecursionlimit(_rooms[1])


def _check_nesting(tree: Tree, filename: str) -> None:
    """Refuse a parse tree deeper than MAX_NESTING at the first node that
    goes past it; walked with a stack of its own, so any depth is measured."""
    stack = [(tree, 1)]
    while stack:
        node, depth = stack.pop()
        if depth > MAX_NESTING:
            meta = node.meta
            at = Span(filename, meta.line, meta.column, meta.end_line, meta.end_column) \
                if not getattr(meta, "empty", True) else None
            raise NestingTooDeep(
                f"this nests more than {MAX_NESTING} levels deep", at,
                hint="name a part with 'define', or split a long chain of 'else if' or of "
                     "'+' into steps")
        # children pushed last-first, so the first node found too deep is the
        # earliest in the text: where the reader sees the nesting start to pile up
        stack.extend((c, depth + 1) for c in reversed(node.children) if isinstance(c, Tree))
