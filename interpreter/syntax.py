"""Parse rulebook text into the AST: plain nodes with source spans.

The grammar lives in ``grammar/rulebook.lark`` and is the reference for the
syntax. Each AST node is a dict with a ``node`` kind (the grammar rule's
name) and an ``at`` span ``[line, column, end_line, end_column]``; the rest
of the pipeline (checks, IR, compiler) reads these nodes, and the IR is the
same shape with names resolved, so `rulebook show --ir` shows what the
author wrote. Lark's errors are turned into `SyntaxErrorInRulebook` with the
position and what was expected.
"""

from __future__ import annotations

import functools
from pathlib import Path

from lark import Lark, Token, Transformer, v_args
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF,
                             UnexpectedInput, UnexpectedToken)
from lark.indenter import DedentError, Indenter

from .errors import Span, SyntaxErrorInRulebook

GRAMMAR_DIR = Path(__file__).resolve().parent.parent / "grammar"


class _RulebookIndenter(Indenter):
    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR", "LSQB"]
    CLOSE_PAREN_types = ["RPAR", "RSQB"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8


@functools.lru_cache(maxsize=1)
def parser() -> Lark:
    text = (GRAMMAR_DIR / "rulebook.lark").read_text(encoding="utf-8")
    return Lark(text, parser="lalr", postlex=_RulebookIndenter(), strict=True,
                propagate_positions=True, maybe_placeholders=True)


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


def _name(tok):
    return str(tok) if tok is not None else None


_TERMINAL_WORDS = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "INT": "a number", "STRING": "a quoted string",
    "SIGNED_INT": "a number", "COMPARE": "a comparison", "VBAR": "'|'",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','",
    "COLON": "':'", "EQUAL": "'='", "DOT": "'.'", "$END": "end of file",
}


def _describe(term: str) -> str:
    if term in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[term]
    pattern = parser().get_terminal(term).pattern if term else None
    if pattern is not None and pattern.type == "str":
        return f"'{pattern.value}'"
    return term.lower()


@v_args(meta=True)
class _ToAst(Transformer):
    """Tree → AST nodes. One method per grammar rule, named like the rule."""

    # -- top level -----------------------------------------------------------
    def start(self, meta, items):
        return _node("rulebook", meta, items=items)

    def game_decl(self, meta, c):
        return _node("game", meta, title=c[0][1:-1])

    def players_decl(self, meta, c):
        low = int(c[0])
        high = int(c[1]) if c[1] is not None else low
        return _node("players", meta, min=low, max=high)

    def option_decl(self, meta, c):
        choices = c[2]["items"] if c[2] is not None else None
        return _node("option", meta, name=str(c[0]), default=c[1], choices=choices,
                     name_at=_tok_at(c[0]))

    def component_decl(self, meta, c):
        name, source, parts = c[0], c[1], c[2:]
        rows = [p for p in parts if p["node"] == "row"]
        has = [p for p in parts if p["node"] == "has"]
        return _node("component", meta, name=str(name), name_at=_tok_at(name),
                     source=source, rows=rows, has=has)

    def component_source(self, meta, c):
        return _node("source", meta, file=c[0][1:-1])

    def has_decl(self, meta, c):
        return _node("has", meta, name=str(c[0]), type=str(c[1]),
                     type_at=_tok_at(c[1]), default=c[2])

    def table_row(self, meta, cells):
        return _node("row", meta, cells=cells)

    def zone_decl(self, meta, c):
        name, index, kind, flags = c[0], c[1], c[2], c[3:]
        return _node("zone", meta, name=str(name), name_at=_tok_at(name),
                     index=index, of=str(kind), of_at=_tok_at(kind),
                     flags=[str(f) for f in flags],
                     flags_at=[_tok_at(f) for f in flags])

    def zone_index(self, meta, c):
        return str(c[0])

    def variable_decl(self, meta, c):
        name, index, type_, default = c
        return _node("variable", meta, name=str(name), name_at=_tok_at(name),
                     index=index, type=str(type_), type_at=_tok_at(type_),
                     default=default)

    def define_decl(self, meta, c):
        name, body = c[0], c[-1]
        params = [str(p) for p in c[1:-1] if p is not None]
        has_parens = len(c) > 2
        return _node("define", meta, name=str(name), name_at=_tok_at(name),
                     params=params if has_parens else None, body=body)

    def table_decl(self, meta, rows):
        return _node("table", meta, rows=rows)

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

    def param(self, meta, c):
        return _node("param", meta, name=str(c[0]), choice=c[1])

    def once_per(self, meta, c):
        return _node("once_per", meta, times=1, scope=str(c[0]), scope_at=_tok_at(c[0]))

    def times_per(self, meta, c):
        return _node("times_per", meta, times=int(c[0]), scope=str(c[1]),
                     scope_at=_tok_at(c[1]))

    def private(self, meta, c):
        return _node("private", meta)

    def choose_one(self, meta, c):
        return _node("choose_one", meta, source=c[0], where=c[1])

    def choose_many(self, meta, c):
        return _node("choose_many", meta, count=c[0], source=c[1])

    def choose_groups(self, meta, c):
        return _node("choose_groups", meta, groups=c[0], size=c[1], source=c[2])

    def scoring_decl(self, meta, parts):
        return _node("scoring", meta, parts=parts)

    def score_rule(self, meta, c):
        return _node("score", meta, expr=c[0])

    def tie_break_rule(self, meta, keys):
        return _node("tie_break", meta, keys=keys)

    def most(self, meta, c):
        return _node("most", meta, expr=c[0])

    def fewest(self, meta, c):
        return _node("fewest", meta, expr=c[0])

    def winners_rule(self, meta, c):
        return _node("winners", meta, expr=c[0])

    # -- statements ----------------------------------------------------------
    def block(self, meta, stmts):
        return _node("block", meta, stmts=stmts)

    def move_stmt(self, meta, c):
        return _node("move", meta, what=c[-2], to=c[-1])

    def deal_stmt(self, meta, c):
        return _node("deal", meta, count=c[0], source=c[1], to=c[2])

    def shuffle_stmt(self, meta, c):
        return _node("shuffle", meta, zone=c[0])

    def reveal_stmt(self, meta, c):
        return _node("reveal", meta, what=c[0])

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
        player, verb, names = c[0], c[1], [n for n in c[2:] if n is not None]
        return _node("take_action", meta, player=player, optional=str(verb) != "takes",
                     among=[str(n) for n in names] or None,
                     among_at=[_tok_at(n) for n in names])

    def choose_stmt(self, meta, c):
        return _node("choose", meta, player=c[0], var=str(c[1]), var_at=_tok_at(c[1]),
                     choice=c[2])

    def requires_stmt(self, meta, c):
        return _node("requires", meta, cond=c[0])

    def new_round_stmt(self, meta, c):
        return _node("new_round", meta)

    def end_game_stmt(self, meta, c):
        return _node("end_game", meta)

    def go_to_stmt(self, meta, c):
        return _node("go_to", meta, phase=str(c[0]), phase_at=_tok_at(c[0]))

    # -- expressions ---------------------------------------------------------
    def _binary(self, kind, meta, c):
        return _node(kind, meta, left=c[0], right=c[-1])

    def otherwise(self, meta, c):
        return self._binary("otherwise", meta, c)

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

    def number(self, meta, c):
        return _node("number", meta, value=int(c[0]))

    def string(self, meta, c):
        return _node("string", meta, value=str(c[0])[1:-1])

    def symbol(self, meta, c):
        return _node("symbol", meta, value=str(c[0]))

    def empty(self, meta, c):
        return _node("none", meta)

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
    """Parse rulebook text to its AST; raises SyntaxErrorInRulebook."""
    if not text.endswith("\n"):
        text += "\n"
    try:
        tree = parser().parse(text)
    except UnexpectedInput as e:
        raise _syntax_error(e, text, filename) from None
    except DedentError as e:
        line = _last_line(text)
        raise SyntaxErrorInRulebook(
            f"inconsistent indentation: {e}", Span(filename, line, 1),
            hint="indent each block by the same amount as its first line") from None
    return _ToAst().transform(tree)


def _last_line(text: str) -> int:
    return max(1, text.count("\n"))


def _syntax_error(e: UnexpectedInput, text: str, filename: str) -> SyntaxErrorInRulebook:
    line, column = getattr(e, "line", 0) or 0, getattr(e, "column", 0) or 0
    if isinstance(e, UnexpectedCharacters):
        char = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"
        return SyntaxErrorInRulebook(
            f"unexpected character {char!r}", Span(filename, line, column, line, column + 1),
            hint="names use letters, digits and '_'; strings use double quotes")
    expected = sorted({_describe(t) for t in getattr(e, "expected", ()) or ()
                       if not t.startswith("__")})
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        line = _last_line(text)
        return SyntaxErrorInRulebook("unexpected end of file", Span(filename, line, 1),
                                     hint=_expected_hint(expected))
    tok = e.token
    if tok.type == "_NL":
        shown = "end of line"
        line, column = tok.line, tok.column
    elif tok.type in ("_INDENT", "_DEDENT"):
        shown = "indentation"
        line, column = (tok.line or line), 1
    else:
        shown = repr(str(tok))
    width = len(str(tok)) if tok.type not in ("_NL", "_INDENT", "_DEDENT") else 1
    return SyntaxErrorInRulebook(
        f"unexpected {shown}", Span(filename, line or 1, column or 1, line or 1, (column or 1) + width),
        hint=_expected_hint(expected))


def _expected_hint(expected) -> str | None:
    if not expected:
        return None
    if len(expected) > 8:
        expected = expected[:8] + ["…"]
    return "expected " + ", ".join(expected)
