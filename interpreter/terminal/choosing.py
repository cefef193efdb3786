"""Choosing one of many legal actions step by step, with no arithmetic.

A long list of legal actions is not printed whole: the screen names each
action with what its parameters may be, and the player narrows the list one
step at a time — an action's name, then a value for each parameter (a whole
value, or one word of it at a time when a value has many possible words) —
by typing a number from the short list on screen, a value, or the start of
an action's text. A parameter that is a set of pieces (`3 of hand(me)`) is
chosen a piece at a time in any order: each step offers every piece that
some action still possible holds besides the pieces picked so far, and the
action left is the one whose set is the picks. What is still possible is
plain text filtering over the legal actions' texts: nothing here reads the
rules beyond the action declarations' parameters (`parameters`: their
names, labels and which are sets), and the action finally chosen is parsed
by the engine (`game.parse_action`). A step that matches nothing is an
`UnknownAction` with a hint and changes nothing. `Choice` holds one step
and renders itself, its texts `printable` (the legal actions' texts hold
the rulebook's names); the last step, one action left, asks to confirm it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional, Sequence

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..errors import UnknownAction
from ..presentation.options import CELL, INTEGER, PARAMETERS, WORD, Parameter, split_action
from ..printable import printable
from ..runtime.saved import shown
from ..runtime.views import natural

SHORT = 12            # so many legal actions are always listed whole
LISTED = 20           # up to so many are listed whole when they fit ROWS rows
ROWS = 10
WHOLE = 12            # a parameter with at most so many values is chosen whole


def step_by_step(actions: Sequence[str], width: int) -> bool:
    """Whether the legal actions are too many to list on one screen: more
    than LISTED, or more than SHORT that would take more than ROWS rows in
    columns `width` wide."""
    if len(actions) <= SHORT:
        return False
    if len(actions) > LISTED:
        return True
    per_row = max(1, width // (max(len(a) for a in actions) + 8))
    return -(-len(actions) // per_row) > ROWS


def typed_words(text: str) -> list:
    """The words of typed text, as they are compared: lower case, a cell
    without spaces, commas and spacing ignored."""
    return [w.lower() for w in WORD.findall(CELL.sub(r"(\1,\2)", text))]


@dataclass(frozen=True)
class Entry:
    """One legal action's text cut into words, each with the number of its
    parameter (-1 for the action's name)."""

    text: str
    name: str
    args: tuple
    words: tuple      # ((parameter, word), …): a set's pieces in the order picked
    written: tuple    # the words' keys as `text` has them

    @classmethod
    def of(cls, text: str) -> "Entry":
        name, args = split_action(text)
        words = [(-1, name)] + [(i, w) for i, arg in enumerate(args) for w in WORD.findall(arg)]
        return cls(text, name, args, tuple(words), tuple(w.lower() for _, w in words))

    @property
    def keys(self) -> list:
        return [w.lower() for _, w in self.words]

    def picked(self, d: int, key: str) -> Optional["Entry"]:
        """This entry with the piece `key` of the set that word `d` is in
        brought to word `d`; None when the rest of the set lacks it."""
        if d >= len(self.words):
            return None
        i = self.words[d][0]
        for j in range(d, len(self.words)):
            if self.words[j][0] != i:
                break
            if self.words[j][1].lower() == key:
                words = self.words[:d] + (self.words[j],) + self.words[d:j] + self.words[j + 1:]
                return Entry(self.text, self.name, self.args, words, self.written)
        return None

    def starts_arg(self, d: int) -> bool:
        """Whether word `d` is the first of its parameter's value."""
        return d == 0 or self.words[d - 1][0] != self.words[d][0]

    def prefix(self, d: int) -> str:
        """The text of the first `d` words, as the action is written."""
        if d == 0:
            return ""
        args: dict = {}
        for i, w in self.words[1:d]:
            args.setdefault(i, []).append(w)
        return self.name + (" " + PARAMETERS.join(" ".join(ws) for ws in args.values())
                            if args else "")


@dataclass(frozen=True)
class Option:
    """One line of a step: what it says and the actions it leaves."""

    label: str
    left: tuple
    about: str = ""       # what the parameters of an action's name may be
    piece: str = ""       # the piece of a set this option picks (its key)


def _counted(values: list) -> str:
    what = "cells" if all(CELL.fullmatch(v) for v in values) else "values"
    return f"({len(values)} {what})"


@dataclass(frozen=True, eq=False)
class Choice:
    """The legal actions still possible after the steps chosen so far, and
    the options of the next step: every one of them starts with the same
    `depth` words, and the options are what may come next."""

    entries: tuple
    forms: dict                    # action name -> its parameters (`Parameter`s)
    left: tuple                    # the indices in `entries` still possible
    previous: Optional["Choice"] = None
    typed: bool = False            # the action left was typed whole, not chosen step by step

    @classmethod
    def start(cls, actions: Sequence[str], forms: Optional[dict] = None) -> "Choice":
        entries = tuple(Entry.of(t) for t in actions)
        return cls(entries, forms or {}, tuple(range(len(entries))))

    # -- what this step offers -------------------------------------------------
    @property
    def depth(self) -> int:
        rows = [self.entries[k].keys for k in self.left]
        if not rows:
            return 0
        first, d = rows[0], 0
        while d < len(first) and all(len(r) > d and r[d] == first[d] for r in rows):
            d += 1
        return d

    @property
    def done(self) -> Optional[str]:
        """The one action left, when only one is."""
        return self.entries[self.left[0]].text if len(self.left) == 1 else None

    @property
    def first(self) -> Entry:
        return self.entries[self.left[0]]

    def _parameter(self, i: int) -> Optional[Parameter]:
        params = self.forms.get(self.first.name) or ()
        return params[i] if 0 <= i < len(params) else None

    def parameter(self) -> str:
        """What the next step chooses: an action, a parameter's value (by
        its label or name), a piece of a set or the first or next word of
        a value."""
        d = self.depth
        if d == 0:
            return "an action"
        i = next((i for k in self.left for i, _ in self.entries[k].words[d:d + 1]), 0)
        param = self._parameter(i)
        name = param.title if param is not None else None
        rest = [self.entries[k] for k in self.left if len(self.entries[k].words) > d]
        first = all(e.starts_arg(d) for e in rest)
        if self._whole():
            return name or "a value"
        if self._set() is not None:
            return f"{name}, one at a time, in any order" if first else f"{name}: the next one"
        word = "the first word" if first else "the next word"
        return f"{word} of {name}" if name else word

    def _set(self) -> Optional[int]:
        """The parameter whose pieces the next step picks, in any order:
        a set, not offered whole, that every action still possible goes on
        with."""
        d = self.depth
        rest = [self.entries[k] for k in self.left if len(self.entries[k].words) > d]
        if not rest or d == 0:
            return None
        i = rest[0].words[d][0]
        param = self._parameter(i)
        if param is None or not param.many or any(e.words[d][0] != i for e in rest):
            return None
        return None if self._whole() else i

    def _whole(self) -> bool:
        """Whether the next step takes a parameter's whole value: few
        values, or values of one word each."""
        d = self.depth
        rest = [self.entries[k] for k in self.left if len(self.entries[k].words) > d]
        if d == 0 or not all(e.starts_arg(d) for e in rest):
            return d == 0
        values = {e.args[e.words[d][0]] for e in rest}
        return len(values) <= WHOLE or all(len(WORD.findall(v)) == 1 for v in values)

    def options(self) -> list:
        d = self.depth
        groups: dict = {}
        ends = []
        whole = self._whole()
        if self._set() is not None:
            return self._pieces()
        for k in self.left:
            e = self.entries[k]
            if len(e.words) <= d:
                ends.append(Option(e.text, (k,)))
                continue
            label = e.name if d == 0 else e.args[e.words[d][0]] if whole else e.words[d][1]
            groups.setdefault(label, []).append(k)
        out = [Option(label, tuple(ks), self._about(ks) if d == 0 else "")
               for label, ks in groups.items()]
        out = [Option(self.entries[o.left[0]].text, o.left) if d == 0 and len(o.left) == 1
               else o for o in out]
        return ends + out

    def _pieces(self) -> list:
        """The options of a set's next piece: every piece that the rest of
        some action's set still holds, in the order players read names."""
        d, i = self.depth, self._set()
        groups: dict = {}
        ends = [Option(self.entries[k].text, (k,)) for k in self.left
                if len(self.entries[k].words) <= d]
        for k in self.left:
            e = self.entries[k]
            for j in range(d, len(e.words)):
                if e.words[j][0] != i:
                    break
                word = e.words[j][1]
                ks = groups.setdefault(word.lower(), (word, []))[1]
                if not ks or ks[-1] != k:
                    ks.append(k)
        return ends + [Option(word, tuple(ks), piece=key)
                       for key, (word, ks) in sorted(groups.items(), key=lambda g: natural(g[1][0]))]

    def _about(self, left: list) -> str:
        """'b (5 values) · at (23 cells) · r: 0': what the parameters of
        the actions of one name may be."""
        entries = [self.entries[k] for k in left]
        params = self.forms.get(entries[0].name) or ()
        parts = []
        for i in range(max(len(e.args) for e in entries)):
            values = list(dict.fromkeys(e.args[i] for e in entries if len(e.args) > i))
            name = params[i].title if i < len(params) else f"#{i + 1}"
            parts.append(f"{name}: {values[0]}" if len(values) == 1
                         else f"{name} {_counted(values)}")
        return " · ".join(parts)

    def values(self) -> tuple:
        """The values the next step offers for one parameter, each whole
        (a cell, a hex's name, a number): () when the step chooses an
        action's name, a word of a value or a piece of a set. They come
        from the texts of the actions still possible, as the options do."""
        d = self.depth
        if d == 0 or self._set() is not None or not self._whole():
            return ()
        return tuple(o.label for o in self.options() if len(self.entries[o.left[0]].words) > d)

    def chosen(self) -> tuple:
        """The values of the parameters chosen so far, whole, in the order
        the action is written: ('19', '(0,1)') after 'place 19, (0,1)'."""
        d = self.depth
        if d == 0:
            return ()
        rest = [self.entries[k] for k in self.left if len(self.entries[k].words) > d]
        i = rest[0].words[d][0] if rest else len(self.first.args)
        return self.first.args[:i]

    def numbered(self) -> bool:
        """Whether the options are numbered: not when a value is itself a
        number, which is then typed as it is shown."""
        return not any(INTEGER.fullmatch(o.label) for o in self.options())

    # -- the next step -----------------------------------------------------------
    def pick(self, number: int) -> "Choice":
        options = self.options()
        if not 1 <= number <= len(options):
            raise UnknownAction(f"there is no choice number {number} here",
                                hint=f"choose 1 to {len(options)}, or 'back'")
        option = options[number - 1]
        if option.piece:
            return self._picked(option.piece)
        return Choice(self.entries, self.forms, option.left, self)

    def _picked(self, key: str) -> Optional["Choice"]:
        """The step after picking the piece `key` of a set: the actions whose
        set holds it besides the pieces picked before, the piece brought
        forward in each so the picks read in the order they were made."""
        d = self.depth
        entries, left = list(self.entries), []
        for k in self.left:
            moved = entries[k].picked(d, key)
            if moved is not None:
                entries[k] = moved
                left.append(k)
        return Choice(tuple(entries), self.forms, tuple(left), self) if left else None

    def _pick_all(self, words: list) -> Optional["Choice"]:
        """The step after typing pieces of a set, in any order (the last
        perhaps only begun, when one piece alone starts so); None when a
        word is none of the pieces still possible."""
        choice: Optional[Choice] = self
        for n, word in enumerate(words):
            if choice is None or choice._set() is None:
                return None
            keys = [o.piece for o in choice.options()]
            if word not in keys and n == len(words) - 1:
                begun = [key for key in keys if key.startswith(word)]
                word = begun[0] if len(begun) == 1 else word
            choice = choice._picked(word) if word in keys else None
        return choice

    def narrow(self, typed: str) -> Optional["Choice"]:
        """The step after `typed`: a number of the options on screen, the
        next value(s), or the start of an action's whole text (whole words
        first; else its last word may be the start of a word). None when no
        action still possible goes on so."""
        text = " ".join(typed.split())
        if text.isascii() and text.isdigit() and self.numbered():
            return self.pick(int(text) if len(text) <= 9 else 0)
        words = typed_words(text)
        if not words:
            return None
        if self._set() is not None:
            picked = self._pick_all(words)
            if picked is not None:
                return picked
        d = self.depth
        for partial in (False, True):
            for start in (d, 0):
                # from the start, the action as it is written (a set sorted)
                left = tuple(k for k in self.left
                             if _matches(self._keys(k, start), words, partial))
                # a whole action typed is that action, though longer ones begin alike
                whole = tuple(k for k in left
                              if not partial and len(self.entries[k].keys) == start + len(words))
                if len(whole) == 1:
                    return Choice(self.entries, self.forms, whole, self, typed=start == 0)
                if left:
                    return Choice(self.entries, self.forms, left, self)
        return None

    def _keys(self, k: int, start: int) -> list:
        entry = self.entries[k]
        return list(entry.written) if start == 0 else entry.keys[start:]

    def refusal(self, typed: str) -> UnknownAction:
        """The error for `typed`, which goes on no action still possible."""
        labels = [o.label for o in self.options()]
        listed = ", ".join(labels[:8]) + (", …" if len(labels) > 8 else "")
        where = f" after '{shown(self.first.prefix(self.depth), 80)}'" if self.depth else ""
        return UnknownAction(f"'{shown(typed, 80)}' is not among the choices{where}",
                             hint=f"type one of: {listed}"
                                  + (" (or its number)" if self.numbered() else "")
                                  + ("; 'back' goes back a step" if self.previous else ""))

    # -- on screen ---------------------------------------------------------------
    def prompt_text(self) -> str:
        """The chosen part of the action, as it is written, with what comes
        next: 'put A, …'; the action left, to be confirmed: 'play put A, (1,0), 2?'."""
        if self.done is not None and self.previous is not None:
            return f"play {self.done}?"
        d = self.depth
        if d == 0:
            return ""
        rest = [self.entries[k] for k in self.left if len(self.entries[k].words) > d]
        sep = PARAMETERS if rest and rest[0].starts_arg(d) and d > 1 else " "
        return self.first.prefix(d) + sep + "…"

    def joined(self, typed: str) -> str:
        """The part chosen so far with `typed` after it, as one action's text."""
        return self.prompt_text()[:-1] + " ".join(typed.split())

    def __rich__(self) -> RenderableType:
        if self.done is not None and self.previous is not None:
            return Group(_text(f"{self.done} — the action chosen."),
                         Text("Enter or 'yes' plays it; 'back' goes back a step.", style="dim"))
        options = self.options()
        numbered = self.numbered()
        how = "a number or a value" if numbered else "a value"
        if self.previous is None:
            example = min((self.entries[k].text for k in self.left), key=len)
            what = (f"{self.prompt_text()} — choose {self.parameter()} (type "
                    f"{'a number or a value' if numbered else 'one'}"
                    if self.depth else "type a number or a name (")
            title = _text(f"Legal actions ({len(self.left)}), step by step: {what}"
                          f"{', ' if self.depth else ''}or a whole action, e.g. {example}):")
            tail = None
        else:
            title = _text(f"{self.prompt_text()} — {len(self.left)} actions left, "
                          f"choose {self.parameter()}:")
            tail = Text(f"Type {how}; 'back' goes back a step, an empty line leaves the "
                        f"choice.", style="dim")
        width = len(str(len(options)))
        items = [_text(f"  {i:>{width}}. {o.label}" if numbered else f"  {o.label}")
                 for i, o in enumerate(options, 1)]
        if any(o.about for o in options):
            table = Table(box=None, show_header=False, pad_edge=False, padding=(0, 2))
            table.add_column(no_wrap=True)
            table.add_column(overflow="fold")
            for item, option in zip(items, options):
                table.add_row(item, _text(option.about))
            body: RenderableType = table
        else:
            body = Columns(items, column_first=True, padding=(0, 2))
        return Group(title, body, *(t for t in (tail,) if t is not None))


def _text(text: str) -> Text:
    return Text(printable(text, lines=False))


def _matches(keys: list, words: list, partial: bool) -> bool:
    """Whether `keys` start with `words`, the last of them perhaps only
    begun when `partial`."""
    if len(keys) < len(words):
        return False
    if keys[:len(words) - 1] != words[:-1]:
        return False
    last, typed = keys[len(words) - 1], words[-1]
    return last.startswith(typed) if partial else last == typed
