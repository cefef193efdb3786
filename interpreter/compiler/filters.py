"""Each condition of an action's parameters tested where its values are known.

An action ``advance(x: one of A, y: one of B where C(x) and D(x, y))`` lists
its options as nested loops, one per parameter. Tested as written, C(x) is
worked out for every pair (x, y), although it reads x alone; a designer
would have to move it to x by hand. `hoisted` does that move on the IR: the
`where` of each parameter is split into its conjuncts, and each conjunct
goes to the first parameter, from the one it reads last on, that can carry
a `where` (a ``one of``). The options are the same and come in the same
order (a pair is kept exactly when every conjunct holds); a value of x that
fails C(x) is simply never paired. A conjunct that draws from the generator
stays where it was written, so the draws of a game do not change.
"""

from __future__ import annotations

from ..language.optimise import draws, names_read


def conjuncts(e: dict) -> list:
    """The parts of a chain of ``and``, left to right."""
    if e.get("node") == "and":
        return conjuncts(e["left"]) + conjuncts(e["right"])
    return [e]


def joined(parts: list) -> dict:
    """``a and b and …`` of the parts, left-associated as the parser builds it."""
    out = parts[0]
    for part in parts[1:]:
        out = {"node": "and", "at": parts[0]["at"], "left": out, "right": part}
    return out


def hoisted(params: list) -> list:
    """The action's parameters (IR: {"name", "choice", …}) with each
    conjunct of their `where`s at the earliest parameter that knows what it
    reads; the IR given is left as it is."""
    names = [p["name"] for p in params]
    own = [conjuncts(p["choice"]["where"])
           if p["choice"]["node"] == "choose_one" and p["choice"].get("where") else []
           for p in params]
    moved: list = [[] for _ in params]     # per parameter: the conjuncts it gains
    kept: list = [[] for _ in params]      # per parameter: its own that stay
    for k, parts in enumerate(own):
        for c in parts:
            target = _earliest(c, k, params, names)
            (kept[k] if target == k else moved[target]).append(c)
    if not any(moved):
        return params
    out = []
    for k, p in enumerate(params):
        if not moved[k] and len(kept[k]) == len(own[k]):
            out.append(p)
            continue
        # its own conditions first: as written, they were tested before the others
        parts = kept[k] + moved[k]
        out.append({**p, "choice": {**p["choice"], "where": joined(parts) if parts else None}})
    return out


def _earliest(c: dict, k: int, params: list, names: list) -> int:
    """The parameter at which the conjunct `c` of parameter k's where can
    be tested: the first `one of` at or after the last parameter it reads
    (k itself when there is none before k)."""
    if draws(c):
        return k
    read = names_read(c, local_only=True)
    last = max((i for i, name in enumerate(names[:k + 1]) if name in read), default=0)
    for j in range(last, k):
        if params[j]["choice"]["node"] == "choose_one":
            return j
    return k
