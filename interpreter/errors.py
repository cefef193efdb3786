"""Every error a user can meet, with a stable code, a source span and a hint.

One root class, `RulebookError`, and one subclass per kind. The code (for
example ``rulebook/unknown-name``) is part of the public contract: tests and
tools match on codes and spans, never on wording. A rulebook's static errors
are collected into one `RulebookErrors` so that `rulebook validate` lists them
all at once, sorted by position.
"""

from __future__ import annotations

import re

import difflib
from dataclasses import dataclass
from typing import Iterable, Optional

from .printable import printable


@dataclass(frozen=True, order=True)
class Span:
    """A place in a source file: 1-based line and column, end exclusive."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}"

    def to_json(self) -> list:
        return [self.line, self.column, self.end_line, self.end_column]


def span_at(file: str, at) -> Span:
    """The Span of an AST/IR ``at`` list. A node that came from another file
    (a variant's base rulebook) carries that file as a fifth element."""
    if len(at) > 4:
        file = at[4]
    return Span(file, at[0], at[1], at[2], at[3])


class RulebookError(Exception):
    """Root of every error the project raises on purpose."""

    code = "rulebook/error"

    def __init__(self, message: str, span: Optional[Span] = None,
                 hint: Optional[str] = None, code: Optional[str] = None):
        super().__init__(message)
        self.message = message
        self.span = span
        self.hint = hint
        if code is not None:
            self.code = code

    def __str__(self) -> str:
        where = f"{self.span}: " if self.span else ""
        hint = f" (hint: {self.hint})" if self.hint else ""
        return f"{where}error[{self.code}]: {self.message}{hint}"

    def sort_key(self):
        s = self.span
        return (s.file, s.line, s.column) if s else ("", 0, 0)


# -- static errors in a rulebook or its data files ---------------------------

class SyntaxErrorInRulebook(RulebookError):
    code = "rulebook/syntax"


class UnknownName(RulebookError):
    code = "rulebook/unknown-name"


class DuplicateName(RulebookError):
    code = "rulebook/duplicate-name"


class WrongArity(RulebookError):
    code = "rulebook/arity"


class WrongType(RulebookError):
    code = "rulebook/type"


class PlayerCountNotCovered(RulebookError):
    code = "rulebook/player-count"


class UnreachablePhase(RulebookError):
    code = "rulebook/unreachable-phase"


class InvalidDeclaration(RulebookError):
    code = "rulebook/invalid"


class RecursiveDefinition(RulebookError):
    code = "rulebook/recursion"


class NestingTooDeep(RulebookError):
    """Formulas, lists or blocks nested deeper than the language allows: every
    stage walks the tree, so a bound here keeps them all within Python's stack."""
    code = "rulebook/too-deep"


class FormulaTooLarge(RulebookError):
    """A define that, with the defines it uses written out, evaluates more
    formula nodes than one step may: it would only ever stop with rule/loop."""
    code = "rulebook/too-large"


class SchemaViolation(RulebookError):
    code = "rulebook/schema"


class DataFileError(RulebookError):
    code = "data/invalid"


class FileNotReadable(RulebookError):
    """A rulebook, a variant's base or a data file that cannot be read, or
    that the language refuses to read: outside the rulebook's folder and the
    shipped library, or not a regular file (a FIFO, a device, a folder)."""
    code = "rulebook/file"


class LimitExceeded(RulebookError):
    """A rulebook or data file past one of the language's documented limits
    (players, pieces, grid cells, digits of a number, length of a string,
    items of a list, size of a file, values of a data file): refused at the
    offending text before anything of that size is built."""
    code = "rulebook/limit"


class RulebookErrors(RulebookError):
    """Several static errors, reported together, sorted by position."""

    code = "rulebook/errors"

    def __init__(self, errors: Iterable[RulebookError]):
        self.errors = sorted(errors, key=RulebookError.sort_key)
        first = self.errors[0] if self.errors else None
        super().__init__(
            f"{len(self.errors)} error(s) in rulebook",
            first.span if first else None)

    def __str__(self) -> str:
        return "\n".join(str(e) for e in self.errors)


# -- errors while a game runs ------------------------------------------------

class RuleError(RulebookError):
    """A rulebook did something impossible while running (a runtime error)."""

    code = "rule/runtime"


_KINDS = {"int": "a number", "NoneType": "none", "list": "a list", "tuple": "a list",
          "str": "a word", "bool": "yes/no", "dict": "a table", "float": "a number"}
_PYTHON_WORDS = [
    (re.compile(r"unsupported operand type\(s\) for (\S+): '(\w+)' and '(\w+)'"),
     lambda m: f"'{m[1]}' of {_KINDS.get(m[2], m[2])} and {_KINDS.get(m[3], m[3])}"),
    (re.compile(r"'(\S+)' not supported between instances of '(\w+)' and '(\w+)'"),
     lambda m: f"'{m[1]}' compares {_KINDS.get(m[2], m[2])} with {_KINDS.get(m[3], m[3])}"),
    (re.compile(r"bad operand type for unary (\S+): '(\w+)'"),
     lambda m: f"'{m[1]}' of {_KINDS.get(m[2], m[2])}"),
    (re.compile(r"'NoneType' object is not (subscriptable|iterable)"),
     lambda m: "an attribute or an item of none" if m[1] == "subscriptable" else "a loop over none"),
    (re.compile(r"object of type '(\w+)' has no len\(\)"),
     lambda m: f"the size of {_KINDS.get(m[1], m[1])}"),
    (re.compile(r"list indices must be integers or slices, not (\w+)"),
     lambda m: f"an item of a list at {_KINDS.get(m[1], m[1])}"),
    (re.compile(r"(list|tuple) index out of range"), lambda m: "an item past the end of a list"),
    (re.compile(r"unhashable type: '(\w+)'"),
     lambda m: f"{_KINDS.get(m[1], m[1])} where one value is needed (a player, a piece, a cell)"),
]


def in_rule_words(error: Exception) -> str:
    """A Python error raised by a formula, told in the rulebook's words
    (none, a number, a list) where it is a common one, else as Python says it."""
    text = str(error) if not isinstance(error, KeyError) else f"no entry {error}"
    for pattern, words in _PYTHON_WORDS:
        m = pattern.search(text)
        if m:
            return words(m)
    return text


NONE_HINT = ("a value is none where the rule needs one: an unset variable, or first(), "
             "majority() and the like of nothing")

# the Python errors a formula can raise when the rules go wrong
FORMULA_ERRORS = (TypeError, KeyError, IndexError, ValueError, AttributeError)


def as_rule_error(error: Exception, span, doing: str = "the rules failed while running",
                  hint: str | None = None) -> "RuleError":
    """The rule error to report for an exception raised by the rules at
    `span`: a rule error gets the span if it has none; a Python error of a
    formula becomes rule/runtime there, told in the rulebook's words."""
    if isinstance(error, RuleError):
        if error.span is None:
            error.span = span
        return error
    words = in_rule_words(error)
    return RuleError(f"{doing}: {words}", span,
                     hint=hint or (NONE_HINT if "none" in words else None))


class RuleLoop(RuleError):
    code = "rule/loop"


class RuleLimit(RuleError):
    """A number a formula makes past the language's bound (30 digits, as a
    written number may have): at the formula, before anything keeps it."""

    code = "rule/limit"


class RuleStuck(RuleError):
    """A player must decide but has no option. At `takes an action`,
    `reasons` says for each action of the step why it is refused now, as
    (action name, reason, span of the rule that refuses it); the message
    lists them too, one line each."""

    code = "rule/stuck"

    def __init__(self, message: str, span: Optional[Span] = None,
                 hint: Optional[str] = None, code: Optional[str] = None, reasons=()):
        super().__init__(message, span, hint, code)
        self.reasons = tuple(reasons)


class RuleEndless(RuleError):
    """A game still going after the decisions `rulebook validate --play`
    allows it: its end is never reached, or not by random play."""

    code = "rule/endless"


class RuleNeverLegal(RuleError):
    """An action that none of `rulebook validate --play`'s random games
    ever offered anybody: at its declaration, with why the last decision
    that considered it refused it."""

    code = "rule/never-legal"


class ActionError(RulebookError, ValueError):
    """A move was refused; the state is unchanged."""

    code = "action/illegal"


class IllegalAction(ActionError):
    code = "action/illegal"


class UnknownAction(ActionError):
    code = "action/unknown"


class NotYourTurn(ActionError):
    code = "action/not-your-turn"


class GameOver(ActionError):
    code = "action/game-over"


class OutsideSpace(ActionError):
    """An action, or an action id, that the fixed action space of a rulebook
    does not number (game/spaces.py): beyond a documented bound, or no id."""

    code = "action/outside-space"


class SpaceTooLarge(RulebookError):
    """A rulebook whose fixed action space would pass its limit (a choice of
    too many options to number, game/spaces.py)."""

    code = "space/too-large"


class SaveError(RulebookError, ValueError):
    """A saved game that cannot be loaded."""

    code = "save/corrupt"


class SaveMismatch(SaveError):
    code = "save/mismatch"


class OptionError(RulebookError, ValueError):
    code = "option/invalid"


class CommandError(RulebookError):
    code = "command/usage"


class WorkerFailed(RulebookError):
    """A simulation's worker process that failed outside the rules: one
    that died (killed, out of memory) more often than a chunk is played
    again. `partial` is what the games finished gave (the simulation's
    batch), for the command to report before the error."""

    code = "simulate/worker"

    def __init__(self, message: str, hint: Optional[str] = None, partial=None):
        super().__init__(message, hint=hint)
        self.partial = partial


class RayWorkerFailed(WorkerFailed):
    """A simulation's Ray worker that failed outside the rules: one that
    died more often than a chunk is played again, or an exception in it."""

    code = "simulate/ray-worker"


# -- helpers -------------------------------------------------------------------

def did_you_mean(name: str, candidates: Iterable[str]) -> Optional[str]:
    """A hint naming the closest known name, if one is close enough."""
    close = difflib.get_close_matches(name, sorted(set(candidates)), n=1, cutoff=0.6)
    return f"did you mean '{close[0]}'?" if close else None


def render(error: RulebookError, source: Optional[str] = None) -> str:
    """The error as `rulebook validate` prints it: location, code, the source
    line with a caret under the offending text, the message's further lines
    (a `rule/stuck`'s reasons), and the hint; fit for a terminal (`printable`:
    the line, the file's name, the message and the hint may quote anything),
    the caret under the text it points at however much the escapes before
    it widen the line."""
    first, _, more = error.message.partition("\n")
    lines = [str(error) if not error.hint and not more else
             (f"{error.span}: " if error.span else "") + f"error[{error.code}]: {first}"]
    span = error.span
    if span is not None and source is not None:
        # lines as the parser counts them: only a line feed ends one
        text_lines = source.removesuffix("\n").split("\n")
        if 1 <= span.line <= len(text_lines):
            text = text_lines[span.line - 1].removesuffix("\r").expandtabs(1)
            start = span.column - 1
            end = start + 1
            if span.end_line == span.line and span.end_column > span.column:
                end = span.end_column - 1
            gutter = f"{span.line:>4} | "
            lines.append(gutter + printable(text, lines=False))
            lines.append(" " * (len(gutter) + start + _widened(text[:start]))
                         + "^" * (end - start + _widened(text[start:end])))
    if more:
        lines.extend(f"     {line}" for line in more.split("\n"))
    if error.hint:
        lines.append(f"     = hint: {error.hint}")
    return printable("\n".join(lines))


def _widened(text: str) -> int:
    """How many more characters `text` takes once printable."""
    return len(printable(text, lines=False)) - len(text)
