"""The legal actions of the current decision as steps to point at.

An action's text is its name and its arguments, `place 25, (1,0), 3`
(`split_action`); each argument is one value (a piece, a cell, a number, a
word) or, for a parameter that is a set of pieces (`3 of hand(me)`, `2
groups of 2 from …`), its pieces. `pointing` turns each legal action into
the steps a player takes to choose it by pointing: one step per argument,
each a list of *tokens*, the texts a board draws its pieces, cells and hexes
by, or that a button shows; a set's tokens are taken in any order. Nothing
here reads the rules beyond the declarations' parameters (`parameters`):
what may be pointed at next is read from the legal actions' texts alone.

`previews` draws nothing but says how a piece that turns will lie: for an
action whose argument is a whole number of turns or an orientation, after
an argument naming a piece the viewer sees drawn as edges or as a shape,
the piece's sides turned (the rules' `turned`) or its cells in that
orientation (the rules' `footprint`). This module knows no game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional, Sequence

from ..language.checks import walk
from ..stdlib import grid, shapes

PARAMETERS = ", "     # what separates an action's parameters in its text
WORD = re.compile(r"\([^()]*\)|[^\s,()]+")      # a cell '(x,y)' is one word
CELL = re.compile(r"\(\s*(-?\d+)\s*,\s*(-?\d+)\s*\)")
INTEGER = re.compile(r"-?\d+")
SETS = ("choose_many", "choose_kinds")      # choices whose value is a set of pieces
GROUPS = "choose_groups"                    # a set of groups, written `A B | C D`
BAR = "|"


@dataclass(frozen=True)
class Parameter:
    """An action's parameter as a player is asked for it: its name, the
    rulebook's label for it (`as "LABEL"`), whether it is a set of pieces
    (`many`), whose text lists them sorted and which is chosen in any
    order, and whether it is a set of groups of pieces (`A B | C D`)."""

    name: str
    label: str = ""
    many: bool = False
    groups: bool = False
    # where its values are pointed at: the zones its pieces are chosen from
    # (`one of hand(me)`: ("hand",)), or `listed` for values written in the
    # rule (`one of [0, 1, 2, 3]`), which no board shows: they are buttons
    zones: tuple = field(default=(), compare=False)
    listed: bool = field(default=False, compare=False)

    @property
    def title(self) -> str:
        """What the player is asked for: the label, else the name made readable."""
        return self.label or self.name.replace("_", " ")


def _zones_of(source) -> tuple:
    """The zones a choice's source names: a zone (`hand(me)`, `offered`),
    or a list of values written out (`[0, 1, 2, 3]`, `listed`)."""
    if not isinstance(source, dict):
        return (), False
    if source.get("ref") == "zone":
        return (source.get("fn") or source.get("name"),), False
    if source.get("node") == "list" and all(isinstance(i, dict) and i.get("node") in
                                            ("number", "string", "word", "bool", "name")
                                            and i.get("ref") in (None, "word")
                                            for i in source.get("items") or ()):
        return (), True
    return (), False


def _parameter_of(name: str, label: str, choice: dict) -> Parameter:
    """The parameter a choice declares (`one of …`, `N of …`, …)."""
    zones, listed = _zones_of(choice.get("source"))
    kind = choice.get("node")
    return Parameter(name, label, kind in SETS, kind == GROUPS, zones, listed)


def parameters(ir: dict) -> dict:
    """Each action's parameters, by the action's name, from the IR."""
    return {a["name"]: tuple(_parameter_of(p["name"], p.get("label", ""), p["choice"])
                             for p in a.get("params") or ())
            for a in ir["actions"]}


def split_action(text: str) -> tuple:
    """An action's text as (name, arguments): 'put 6, (1,0), 2' →
    ('put', ('6', '(1,0)', '2')). A cell's own comma has no space after it."""
    name, _, rest = text.partition(" ")
    return name, tuple(rest.split(PARAMETERS)) if rest else ()


def legal_cells(actions: Sequence[str]) -> set:
    """The cells (x, y) named by the legal actions: where something may go."""
    return {(int(m.group(1)), int(m.group(2))) for t in actions for m in CELL.finditer(t)}


def legal_names(actions: Sequence[str]) -> set:
    """Every argument of the legal actions, as text: a hex so named is one a
    legal action names."""
    return {arg for t in actions for arg in split_action(t)[1]}


def choice_parameters(ir: dict) -> dict:
    """Each `chooses` of the flow as the parameter it asks for, by (its
    name, its question: `choose LABEL`, or `choose NAME` without a label),
    the way the pending decision asks it."""
    found: dict = {}
    for node in walk(ir):
        if node["node"] == "choose" and isinstance(node.get("choice"), dict):
            name, label = node.get("var", ""), node.get("label") or ""
            found.setdefault((name, f"choose {label or name}"),
                             _parameter_of(name, label, node["choice"]))
    return found


def _parameter(params: Sequence[Parameter], i: int, asked: str) -> Parameter:
    """The i-th declared parameter, else one named by the question `asked`
    (the first) or by its place (a value of several pieces is told by its
    spaces, in `pointing`)."""
    if i < len(params):
        return params[i]
    return Parameter(asked if asked and i == 0 else f"value {i + 1}")


def pointing(actions: Sequence[str], params: Optional[dict] = None, asked: str = "",
             choices: Optional[dict] = None) -> list:
    """Each legal action as the steps that choose it by pointing:
    `{"text", "name", "steps": [{"title", "many", "tokens", "zones",
    "buttons"}]}`, a step per argument in order; a set's step has its pieces
    as tokens (`many`, taken in any order), any other step the argument
    whole. `zones` names the zones its pieces lie in (only those are pointed
    at on the board; none: anything drawn with that token), `buttons` says
    that the values are pointed at as buttons alone (values written in the
    rule, such as a number of turns). An action without arguments has no
    steps: it is chosen by its name. `params` is `parameters(ir)`; a name
    that is no action's (a `chooses`) is the parameter `choices`
    (`choice_parameters(ir)`) has for it and the pending decision's
    question `asked`, else a step asked as `asked` says, without its
    "choose"; without `params` a step with spaces in its argument is a set."""
    params, choices = params or {}, choices or {}
    question = asked
    asked = asked[len("choose "):] if asked.startswith("choose ") else asked
    out = []
    for text in actions:
        name, args = split_action(text)
        declared = params.get(name) or \
            ((choices[(name, question)],) if (name, question) in choices else ())
        steps = []
        for i, arg in enumerate(args):
            p = _parameter(declared, i, asked)
            # a value of several pieces (a group chosen whole) is pointed at piece by piece
            many = p.many or p.groups or " " in arg
            tokens = [w for w in arg.split() if w != BAR] if many else [arg]
            steps.append({"title": p.title, "many": many, "tokens": tokens,
                          "zones": list(p.zones), "buttons": p.listed})
        out.append({"text": text, "name": name, "steps": steps})
    return out


def _turns(drawing: dict) -> bool:
    """Whether a drawing is of a piece that turns: a square's four sides
    (`drawn as edges`) or a shape's cells (`drawn as shape`)."""
    return len(drawing.get("edges") or ()) == 4 or drawing.get("shape") is not None


def _drawings(view: dict) -> dict:
    """Each piece the viewer sees drawn as one that turns → its drawing."""
    found: dict = {}
    for zone in view.get("zones") or ():
        for d in zone.get("drawings") or ():
            if _turns(d):
                found.setdefault(str(d.get("piece")), d)
    return found


def turnable_drawing(view: dict, piece: str) -> Optional[dict]:
    """The drawing of the piece named `piece` where the viewer sees it drawn
    as a piece that turns (edges or a shape), or None."""
    return _drawings(view).get(piece)


def turned_drawing(drawing: dict, turns: int) -> Optional[dict]:
    """`drawing` (a view's drawing of a piece, as edges or a shape) as the
    piece lies turned `turns` quarter turns clockwise (edges, as the rules'
    `turned` turns a list of sides) or in orientation `turns` (a shape, as
    the rules' `footprint` lays it at (0,0)); None for a number the shape
    has no orientation of."""
    if drawing.get("edges") is not None:
        return dict(drawing, edges=grid.turned(drawing["edges"], turns))
    shape = drawing.get("shape")
    if shape is None:
        return None
    cells = [tuple(c) for c in shape]
    if not 0 <= turns < len(shapes._shape_images(cells)[0]):
        return None
    placed = shapes.footprint(cells, turns, grid.cell(0, 0))
    return dict(drawing, shape=[[grid.x_of(c), grid.y_of(c)] for c in placed])


def previews(view: dict, actions: Sequence[str]) -> dict:
    """How a piece will lie, for each legal action that turns one: text →
    `{"piece", "turns", "step", "drawing"}`, `step` the argument that is the
    turns, `drawing` the turned drawing (`turned_drawing`). An action turns
    a piece when an argument is a whole number and an earlier argument names
    a piece the viewer sees drawn as edges or as a shape."""
    drawn = _drawings(view)
    out: dict = {}
    if not drawn:
        return out
    for text in actions:
        _, args = split_action(text)
        piece = None
        for i, arg in enumerate(args):
            if piece is None and arg in drawn:
                piece = arg
            elif piece is not None and INTEGER.fullmatch(arg):
                drawing = turned_drawing(drawn[piece], int(arg))
                if drawing is not None:
                    out[text] = {"piece": piece, "turns": int(arg), "step": i, "drawing": drawing}
                break
    return out
