"""Flow analysis for the checker: which phases play can reach, and which
defines are written in terms of themselves.

Pure functions over AST nodes; `checks` reports what they find. Play starts
after the setup, in the first phase unless the setup always jumps elsewhere;
a phase leads to every phase it may 'go to', and to the next phase unless it
always leaves by 'go to' or 'end game'.
"""

from __future__ import annotations


def jumps(node) -> list[str]:
    """The phases a node may 'go to', anywhere inside it."""
    out = []
    if isinstance(node, dict):
        if node.get("node") == "go_to":
            out.append(node["phase"])
        for v in node.values():
            out.extend(jumps(v))
    elif isinstance(node, list):
        for v in node:
            out.extend(jumps(v))
    return out


def always_leaves(block) -> bool:
    """Whether a block always ends with 'go to' or 'end game'."""
    for stmt in block["stmts"]:
        if stmt["node"] in ("go_to", "end_game"):
            return True
        if stmt["node"] == "if" and stmt["otherwise"] is not None \
                and always_leaves(stmt["then"]) and always_leaves(stmt["otherwise"]):
            return True
    return False


def unreachable_phases(phases: list, setup) -> list[int]:
    """Positions of the phases that play can never reach."""
    if not phases:
        return []
    order = [ph["name"] for ph in phases]
    leads = {ph["name"]: jumps(ph["body"]) for ph in phases}
    for i, ph in enumerate(phases[:-1]):
        if not always_leaves(ph["body"]):
            leads[ph["name"]].append(order[i + 1])
    work = []
    if setup is None or not always_leaves(setup):
        work.append(order[0])
    if setup is not None:
        work.extend(jumps(setup))
    reachable = set()
    while work:
        name = work.pop()
        if name in leads and name not in reachable:
            reachable.add(name)
            work.extend(leads[name])
    return [i for i, name in enumerate(order) if name not in reachable]


def define_cycles(uses: dict[str, set]) -> list[list[str]]:
    """Each circle of defines once, as a path from its first define in
    ``uses`` order back to it: ``uses`` maps a define to the defines it uses."""
    found, seen_circles = [], set()
    for start in uses:
        path, visited = [start], set()
        stack = [iter(sorted(uses[start]))]
        while stack:
            nxt = next(stack[-1], None)
            if nxt is None:
                stack.pop()
                path.pop()
            elif nxt == start:
                if frozenset(path) not in seen_circles:
                    seen_circles.add(frozenset(path))
                    found.append(path + [start])
            elif nxt not in visited and nxt in uses:
                visited.add(nxt)
                path.append(nxt)
                stack.append(iter(sorted(uses[nxt])))
    return found
