"""Syntax errors that say what went wrong and how the line is usually written.

Lark reports the parser state, the offending token and the terminals it
expected. `syntax_error` turns that into the language's own error: the
message names the offending input and what was expected, the span is where
to look, and the hint, when there is one, says how the line is usually
written. Hints come from example mistakes matched by parser state (in the
spirit of Lark's `match_examples`) and from a few hand-written checks for
common slips: a missing 'of' or ':', a ':' after a block's first line, '='
for '==', a bracket left open, tabs mixed with spaces.
"""

from __future__ import annotations

import functools
import re

from lark import Lark
from lark.exceptions import (UnexpectedCharacters, UnexpectedEOF,
                             UnexpectedInput, UnexpectedToken)

from ..errors import Span, SyntaxErrorInRulebook


class IndentationProblem(Exception):
    """Raised by the indenter, which knows where the offending line is."""

    def __init__(self, message, line, column, hint):
        super().__init__(message)
        self.message, self.line, self.column, self.hint = message, line, column, hint


_TERMINAL_WORDS = {
    "_NL": "end of line", "_INDENT": "an indented block", "_DEDENT": "end of block",
    "NAME": "a name", "INT": "a number", "STRING": "a quoted string",
    "SIGNED_INT": "a number", "COMPARE": "a comparison", "VBAR": "'|'",
    "LPAR": "'('", "RPAR": "')'", "LSQB": "'['", "RSQB": "']'", "COMMA": "','",
    "COLON": "':'", "EQUAL": "'='", "DOT": "'.'", "$END": "end of file",
    "TAKE_VERB": "'takes' or 'may take'", "SCORE_ORDER": "'lowest' or 'highest'",
    "ADD_OP": "'+' or '-'", "MUL_OP": "'*', '//' or '%'",
}


def _describe(term: str, parser: Lark) -> str:
    if term in _TERMINAL_WORDS:
        return _TERMINAL_WORDS[term]
    pattern = parser.get_terminal(term).pattern if term else None
    if pattern is not None and pattern.type == "str":
        return f"'{pattern.value}'"
    return term.lower()


_EXAMPLES = [
    ("a zone or variable kept per player is written 'NAME of each player: TYPE'",
     ["zone hand each player: card\n", "variable score each player: number\n"]),
    ("put ':' between the name and what it holds: 'zone deck: card, hidden'",
     ["zone deck card\n", "zone hand of each player card\n"]),
    ("a variable has a type: 'variable NAME: number = 0'",
     ["variable total = 0\n", "variable total\n"]),
    ("a component's value is written 'has NAME: TYPE = DEFAULT'",
     ["component c\n  has owner = none\n", "component c\n  has owner\n"]),
    ("write 'players N' or 'players N to M' with whole numbers",
     ["players two\n", "players 2 - 4\n", "players 2-4\n"]),
    ("the title is a quoted string: game \"My Game\"",
     ["game Nim\n"]),
    ("an option is written 'option NAME = DEFAULT' or 'option NAME = DEFAULT one of [A, B]'",
     ["option variant\n", "option variant one of [a, b]\n"]),
    ("a player-count table starts with 'by players' on its own line",
     ["by player\n", "by players:\n"]),
]

_BLOCK_OPENERS = ("setup", "phase", "action", "scoring", "if", "else", "for", "repeat",
                  "turn", "by", "component")


def syntax_error(e: UnexpectedInput, text: str, filename: str, parser: Lark) -> SyntaxErrorInRulebook:
    """The rulebook's syntax error for one of Lark's."""
    lines = text.split("\n")
    if isinstance(e, UnexpectedCharacters):
        line, column = e.line, e.column
        char = text[e.pos_in_stream] if e.pos_in_stream < len(text) else "?"
        span = Span(filename, line, column, line, column + 1)
        if char == '"':
            return SyntaxErrorInRulebook("unterminated string", span,
                                         hint="a string ends with '\"' on the same line")
        hint = _bracket_hint(text, e.pos_in_stream, line) or \
            "names use letters, digits and '_'; strings use double quotes"
        if char == "!":
            hint = "write 'not' to negate and '!=' for 'is not equal to'"
        elif char == "&":
            hint = "write 'and' and 'or'"
        return SyntaxErrorInRulebook(f"unexpected character {char!r}", span, hint=hint)

    expected = getattr(e, "accepts", None) or getattr(e, "expected", None) or ()
    expected = {t for t in expected if not t.startswith("__")}
    tok = getattr(e, "token", None)
    if isinstance(e, UnexpectedEOF) or tok is None or tok.type == "$END":
        line, column = _end_of_text(text)
        return SyntaxErrorInRulebook(
            "unexpected end of file" + _expected_text(expected, parser), Span(filename, line, column),
            hint=_bracket_hint(text, len(text), line + 1))
    if tok.type == "_NL":
        shown, line, column, width = "end of line", tok.line, tok.column, 1
    elif tok.type in ("_INDENT", "_DEDENT"):
        shown, line, column, width = "indentation", tok.end_line, tok.end_column, 1
        if not tok.end_line:      # a closing dedent at the end of the file
            line, column = _end_of_text(text)
    else:
        shown, line, column, width = repr(str(tok)), tok.line, tok.column, max(1, len(str(tok)))
    hint = (_hint_by_example(e, parser)
            or _hand_written_hint(tok, expected, lines, line)
            or _bracket_hint(text, tok.start_pos or 0, line))
    return SyntaxErrorInRulebook(
        f"unexpected {shown}" + _expected_text(expected, parser),
        Span(filename, line, column, line, column + width), hint=hint)


def _hint_by_example(e, parser: Lark) -> str | None:
    """The hint of the example mistake that fails in the same parser state,
    preferring one that fails on the same token. Like Lark's
    `match_examples`, but keyed by the LALR state alone: Lark also compares
    the depth of the parse stack, which changes with the number of
    declarations above the mistake, so its matches would depend on them."""
    state = getattr(getattr(e, "state", None), "position", None)
    if state is None:
        return None
    same_state = None
    for hint, position, token in _example_failures(parser):
        if position == state:
            if token == str(e.token):
                return hint
            same_state = same_state or hint
    return same_state


@functools.lru_cache(maxsize=2)
def _example_failures(parser: Lark) -> list:
    out = []
    for hint, examples in _EXAMPLES:
        for example in examples:
            try:
                parser.parse(example)
            except UnexpectedToken as e:
                out.append((hint, e.state.position, str(e.token)))
            except (UnexpectedInput, IndentationProblem):
                pass
    return out


def _hand_written_hint(tok, expected, lines, line) -> str | None:
    source_line = lines[line - 1] if 0 < line <= len(lines) else ""
    code = source_line.split("#", 1)[0]
    words = re.findall(r"[A-Za-z_][A-Za-z0-9_]*", code)
    first = words[0] if words else ""
    value = str(tok)
    if tok.type == "_INDENT":
        return "this line is indented more than the line before it, which does not open a block"
    if expected == {"_INDENT"}:
        opener = _previous_code_line(lines, line)
        return f"indent the lines under '{opener}' more than that line"
    if value == ":" and first in _BLOCK_OPENERS and code.rstrip().endswith(":"):
        return "no ':' at the end of a line that opens a block; its lines follow, indented"
    if value == "=" and code[max(0, tok.column - 2):tok.column - 1] == "=":
        return "give a value with a single '=' ('==' compares)"
    if value == "=" and ("COMPARE" in expected or first in ("if", "requires", "repeat", "else")):
        return "compare with '=='; a single '=' gives a value (set x = …)"
    if first == "set" and "==" in code and "EQUAL" in expected:
        return "give a value with a single '=' ('==' compares)"
    if value == "take" or (value == "may" and "TAKE_VERB" in expected):
        return "write 'P takes an action' or 'P may take an action'"
    if value in (")", "]") and code.count(value) > code.count("(" if value == ")" else "["):
        return f"this '{value}' closes nothing: there is one too many on this line"
    if first == "for" and "EACH" in expected:
        return "write 'for each NAME in COLLECTION'"
    if first == "for" and value == "where":
        loop = re.match(r"\s*for\s+each\s+(\w+)\s+in\s+(.*?)\s*$", code[:tok.column - 1])
        name, source = loop.groups() if loop else ("x", "COLLECTION")
        return (f"a 'for each' walks a whole collection; to walk only some of it, loop over a "
                f"filtered list: for each {name} in [{name} in {source} where …]")
    before = code[:tok.column - 1]
    if value == "then" or (first != "if" and re.search(r"[=(,\[]\s*if\s+$", before)):
        return ("a value that depends on a condition is written 'A if CONDITION else B': "
                "5 if value % 11 == 0 else 1")
    if first == "move" and value == "where":
        some = re.match(r"\s*move\s+(.*?)\s+of\s+(.*?)\s*$", code[:tok.column - 1])
        count, source = some.groups() if some else ("N", "ZONE")
        return (f"name the pieces a 'where' tests: move {count} of c in {source} where … "
                f"to …, where c is each piece")
    if value == "by":
        return _by_hint(code[:tok.column - 1])
    if tok.column == 1 and value in _STEP_WORDS:
        header = _section_of(lines, line)
        if header:
            return (f"a line at the margin starts a new section; if this is a step of "
                    f"'{header}' above, indent it under that line")
    if first in ("elif", "elseif"):
        return "write 'else if CONDITION'"
    if first in ("lowest", "highest", "fewest", "least", "most") and \
            words[1:2] in (["score"], ["scores"], ["points"]):
        return ("which score wins is a line of the 'scoring' section: "
                "'lowest score wins' or 'highest score wins'")
    if value == "to":
        return _range_hint(code[:tok.column - 1])
    if value == "|" and tok.column == 1:
        return ("a table's rows go under the declaration they belong to, indented like "
                "its header row: two spaces, then '|'")
    return None


# the first words of a step of the flow or of an action, never of a section
_STEP_WORDS = {"move", "deal", "set", "add", "subtract", "shuffle", "reveal", "announce",
               "let", "turn", "repeat", "end", "go", "grant", "spend", "new", "each"}


def _section_of(lines, line) -> str:
    """The section header a margin line stands under: the nearest code line
    before it at the margin."""
    for number in range(line - 1, 0, -1):
        text = lines[number - 1]
        code = text.split("#", 1)[0].rstrip()
        if code and not text[:1].isspace():
            return code
    return ""


def _by_hint(before: str) -> str | None:
    """A 'by' inside a call whose elements are not named: sorted(players by
    total) for sorted(q in players by total)."""
    i = _open_bracket(before)
    if i is None or before[i] != "(":
        return None
    fn = re.search(r"(\w+)\s*$", before[:i])
    inside = before[i + 1:].strip()
    if fn is None or re.search(r"\bin\b", inside):
        return None
    return f"name each element before 'by': {fn.group(1)}(x in {inside} by …), where 'by' reads x"


def _open_bracket(before: str) -> int | None:
    """Where the innermost bracket still open at the end of `before` is."""
    depth = 0
    for i in range(len(before) - 1, -1, -1):
        ch = before[i]
        if ch in ")]":
            depth += 1
        elif ch in "([" and depth:
            depth -= 1
        elif ch in "([":
            return i
    return None


def _range_hint(before: str) -> str:
    """Why a range 'A to B' cannot stand where this 'to' is: in a table
    cell, inside a list or an index, or inside another formula."""
    if before.lstrip().startswith("|"):
        return "a cell holds one value; 'each 2 to 10' makes a row for each number"
    i = _open_bracket(before)
    opener = None if i is None else (before[i], before[:i].rstrip()[-1:])
    if opener and opener[0] == "[" and (opener[1].isalnum() or opener[1] in "_)]"):
        return ("an index is one number, and a slice one range of places: xs[2], "
                "xs[0 to 2]; a formula inside either goes in parentheses")
    if opener and opener[0] == "[":
        return ("a range is a list already: write 0 to 6 without brackets; in a list, "
                "each range goes in parentheses, [(0 to 2), (5 to 7)]")
    return ("a range 'A to B' is a formula of its own: put it in parentheses inside "
            "another one, (1 to 3)")


def _previous_code_line(lines, line) -> str:
    for number in range(line - 1, 0, -1):
        code = lines[number - 1].split("#", 1)[0].strip()
        if code:
            return code
    return ""


def _bracket_hint(text: str, upto: int, error_line: int) -> str | None:
    """Name a bracket left open on an earlier line (newlines inside brackets
    are joined, so the error shows up far from the real mistake)."""
    stack = []
    line, column, i = 1, 1, 0
    while i < upto and i < len(text):
        ch = text[i]
        if ch == "#":
            while i < len(text) and text[i] != "\n":
                i += 1
            continue
        if ch == '"':
            end = text.find('"', i + 1)
            nl = text.find("\n", i + 1)
            if end != -1 and (nl == -1 or end < nl):
                column += end - i + 1
                i = end + 1
                continue
        if ch in "([":
            stack.append((ch, line, column))
        elif ch in ")]" and stack:
            stack.pop()
        if ch == "\n":
            line, column = line + 1, 1
        else:
            column += 1
        i += 1
    for ch, l, c in reversed(stack):
        if l < error_line:
            return f"the '{ch}' at line {l}, column {c} is never closed"
    return None


def _end_of_text(text: str) -> tuple[int, int]:
    """Line and column just after the last thing written in the file."""
    lines = text.split("\n")
    for number in range(len(lines), 0, -1):
        content = lines[number - 1].rstrip()
        if content and not content.lstrip().startswith("#"):
            return number, len(content) + 1
    return 1, 1


def _expected_text(expected, parser: Lark) -> str:
    words = sorted({_describe(t, parser) for t in expected})
    if not words:
        return ""
    if len(words) > 6:
        words = words[:6] + ["…"]
    if len(words) == 1:
        return f"; expected {words[0]}"
    return "; expected " + ", ".join(words[:-1]) + " or " + words[-1]
